#include <cstdio>
long a_entry(long);
long b_entry(long);
int main() { std::printf("%ld %ld\n", a_entry(10), b_entry(11)); }
