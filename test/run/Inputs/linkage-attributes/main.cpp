#include <cstdio>
long run(long);
int main() { std::printf("%ld\n", run(5)); }
