// Procedures with C linkage, as a header shared with C code declares them.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
long c_fib(long n);
long c_sum(const long *values, long count);
#ifdef __cplusplus
}
#endif
