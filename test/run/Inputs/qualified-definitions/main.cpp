#include <cstdio>

#include "lib.h"

extern "C" long c_tri(long n);

int main() {
  std::printf("%ld %ld %ld %ld %ld\n", lib::fib(20), lib::v2::tri(100), lib::detail::squares(10), c_fib(20),
              c_tri(100));
}
