#include <cstdio>
#include <vector>
long first_halves(const std::vector<long> &), second_halves(const std::vector<long> &);
long first_map(long), second_map(long);
long first_counted(), second_counted();
int main() {
  std::vector<long> v(10, 1);
  std::printf("%ld %ld %ld %ld %ld %ld\n", first_halves(v), second_halves(v), first_map(4), second_map(4),
              first_counted(), second_counted());
}
