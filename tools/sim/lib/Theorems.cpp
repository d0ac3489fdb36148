#include "Theorems.h"

#include <algorithm>
#include <functional>
#include <numeric>

#include <fmt/format.h>

namespace cilkpp::sim {

double theorem2Bound(const DagMeasures &m, std::vector<double> speeds) {
  std::sort(speeds.begin(), speeds.end(), std::greater<>());
  double total = std::accumulate(speeds.begin(), speeds.end(), 0.0);
  double ratios = 0;
  for (std::size_t i = 1; i < speeds.size(); ++i)
    ratios += speeds[i] / speeds[i - 1];
  return m.totalWork / total + ratios * m.criticalPath / total;
}

double theorem4Bound(const DagMeasures &m, const std::vector<double> &speeds,
                     double beta) {
  double p = double(speeds.size());
  double total = std::accumulate(speeds.begin(), speeds.end(), 0.0);
  return m.totalWork / total + (p - 1) / p * beta * m.criticalPath / (total / p);
}

std::uint64_t theorem5Bound(const DagMeasures &m) { return 2 * m.threads; }

std::string checkTheorems(const DagMeasures &m,
                          const std::vector<double> &speeds,
                          const PolicySpec &policy, const RunStats &run) {
  const bool maxUtil = policy.policy == Policy::MaxUtil ||
                       policy.policy == Policy::CentralManager;
  const bool highUtil = policy.policy == Policy::HighUtil;
  if (!maxUtil && !highUtil)
    return {};
  // Event times are sums of floating-point quotients.
  const double slack = 1 + 1e-9;
  double bound = maxUtil ? theorem2Bound(m, speeds)
                         : theorem4Bound(m, speeds, policy.beta);
  if (run.makespan > bound * slack)
    return fmt::format("makespan {} exceeds Theorem {}'s bound {}",
                       run.makespan, maxUtil ? 2 : 4, bound);
  if (policy.policy != Policy::CentralManager &&
      run.migrations > theorem5Bound(m))
    return fmt::format("{} migrations exceed Theorem 5's bound 2 S1 = {}",
                       run.migrations, theorem5Bound(m));
  return {};
}

} // namespace cilkpp::sim
