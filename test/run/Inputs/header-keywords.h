// OpenCilk code in a header that a .cilkpp file includes (test/run/header-keywords.test).
#pragma once
template <class T> T psum(const T *a, long n) {
  if (n < 4) { T s = 0; for (long i = 0; i < n; ++i) s += a[i]; return s; }
  T l = cilk_spawn psum(a, n / 2);
  T r = psum(a + n / 2, n - n / 2);
  cilk_sync;
  return l + r;
}
inline long pfor(long n) { long t = 0; cilk_for (long i = 0; i < n; ++i) t += 0; cilk_scope { t += n; } return t; }
// A keyword spelled through the header's own macro runs as its elision too.
#define PARALLEL_SPAWN cilk_spawn
inline long through_macro(long n) {
  long a = PARALLEL_SPAWN pfor(n);
  cilk_sync;
  return a;
}
