#include <cstdio>
long outer(int n);
int main() { std::printf("%ld\n", outer(20)); }
