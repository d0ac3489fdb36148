// Summary statistics of a sample (the columns of the papers' tables).
#pragma once

#include <vector>

namespace cilkpp::sim {

struct Summary {
  std::size_t count = 0;
  double min = 0, mean = 0, max = 0;
  double stddev = 0; // population standard deviation
  double median = 0, p95 = 0;
};

Summary summarize(std::vector<double> values);

} // namespace cilkpp::sim
