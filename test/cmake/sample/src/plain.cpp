#include <cstdio>

long fib(int n);

int main() {
  std::printf("fib(25) = %ld\n", fib(25));
  return fib(25) == 75025 ? 0 : 1;
}
