#include <cstdio>

void report(const char *what, long value) { std::printf("%s = %ld\n", what, value); }
