#include <cstdio>
int first();
int second();
int main() { std::printf("first %d second %d\n", first(), second()); }
