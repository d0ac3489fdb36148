#include "Stats.h"

#include <algorithm>
#include <cmath>

namespace cilkpp::sim {

namespace {
// Linear interpolation between closest ranks, on sorted values.
double quantile(const std::vector<double> &sorted, double q) {
  double pos = q * double(sorted.size() - 1);
  std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - double(lo)) * (sorted[hi] - sorted[lo]);
}
} // namespace

Summary summarize(std::vector<double> values) {
  Summary s;
  s.count = values.size();
  if (values.empty())
    return s;
  std::sort(values.begin(), values.end());
  s.min = values.front();
  s.max = values.back();
  double sum = 0;
  for (double v : values)
    sum += v;
  s.mean = sum / double(values.size());
  double squares = 0;
  for (double v : values)
    squares += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(squares / double(values.size()));
  s.median = quantile(values, 0.5);
  s.p95 = quantile(values, 0.95);
  return s;
}

} // namespace cilkpp::sim
