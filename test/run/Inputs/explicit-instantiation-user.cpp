// Plain C++ that calls the explicit instantiations of
// explicit-instantiation-library.cilkpp.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
template <class T> void psort(T *a, std::size_t n);
int main() {
  int a[10000]; double d[5000];
  for (int i = 0; i < 10000; ++i) a[i] = (i * 7919) % 10007;
  for (int i = 0; i < 5000; ++i) d[i] = (i * 31) % 977 / 3.0;
  psort(a, 10000); psort(d, 5000);
  for (int i = 1; i < 10000; ++i) if (a[i - 1] > a[i]) return 1;
  for (int i = 1; i < 5000; ++i) if (d[i - 1] > d[i]) return 2;
  std::puts("sorted");
}
