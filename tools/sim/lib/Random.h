// Seeded random numbers with distributions written out here, so that a seed
// gives the same run with every standard library (std::*_distribution is
// implementation-defined).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace cilkpp::sim {

class Random {
public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  // Independent stream `index` derived from `seed` (splitmix64 mixing).
  static Random stream(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return Random(z ^ (z >> 31));
  }

  // Uniform in [0, 1).
  double unit() { return (engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  // Uniform integer in [0, n), n > 0; unbiased (Lemire's method).
  std::uint32_t below(std::uint32_t n) {
    std::uint64_t m = (engine_() >> 32) * n;
    if (static_cast<std::uint32_t>(m) < n) {
      std::uint32_t threshold = -n % n;
      while (static_cast<std::uint32_t>(m) < threshold)
        m = (engine_() >> 32) * n;
    }
    return static_cast<std::uint32_t>(m >> 32);
  }
  double exponential(double mean) { return -mean * std::log1p(-unit()); }
  // Trials up to and including the first success, success probability q.
  std::uint64_t geometric(double q) {
    if (q >= 1)
      return 1;
    double u = 1 - unit(); // (0, 1]
    return 1 + static_cast<std::uint64_t>(std::floor(std::log(u) / std::log1p(-q)));
  }

private:
  std::mt19937_64 engine_;
};

} // namespace cilkpp::sim
