// Declarations of procedures that lib.cilkpp defines with qualified names.
#pragma once

namespace lib {
long fib(long n);
inline namespace v2 {
long tri(long n);
}
namespace detail {
long squares(long n);
}
}  // namespace lib

extern "C" long c_fib(long n);
