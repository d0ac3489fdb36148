// A third-party header that g++ and clang++ would warn about, were it not a
// system header (test/driver/system-include.test).
inline int noisy_answer() {
  int unused;
  return 42;
}
