#include "LowerBounds.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace cilkpp::sim {

double LowerBounds::best() const {
  return std::max({work, criticalPath, phases.value_or(0.0)});
}

double preemptiveIndependentMakespan(std::vector<double> work,
                                     std::vector<double> speeds) {
  std::sort(work.begin(), work.end(), std::greater<>());
  std::sort(speeds.begin(), speeds.end(), std::greater<>());
  const std::size_t k = std::min(work.size(), speeds.size());
  double best = 0, sumWork = 0, sumSpeed = 0;
  for (std::size_t i = 0; i + 1 < k; ++i) {
    sumWork += work[i];
    sumSpeed += speeds[i];
    best = std::max(best, sumWork / sumSpeed);
  }
  if (k > 0) {
    double allWork = std::accumulate(work.begin(), work.end(), 0.0);
    double kSpeed = std::accumulate(speeds.begin(), speeds.begin() + k, 0.0);
    best = std::max(best, allWork / kSpeed);
  }
  return best;
}

std::optional<std::vector<std::vector<NodeId>>> barrierPhases(const Dag &dag) {
  std::vector<unsigned> level = levels(dag);
  unsigned top = *std::max_element(level.begin(), level.end());
  std::vector<std::vector<NodeId>> phases(top + 1);
  for (NodeId n = 0; n < dag.size(); ++n)
    phases[level[n]].push_back(n);
  // Phases in series: each node's successors are exactly the next phase,
  // and each node of a later phase has the whole previous phase as parents.
  for (unsigned l = 0; l < top; ++l)
    for (NodeId n : phases[l]) {
      if (dag.successors(n).size() != phases[l + 1].size())
        return std::nullopt;
      for (NodeId s : dag.successors(n))
        if (level[s] != l + 1)
          return std::nullopt;
    }
  for (NodeId n : phases[top])
    if (!dag.successors(n).empty())
      return std::nullopt;
  for (unsigned l = 1; l <= top; ++l)
    for (NodeId n : phases[l])
      if (dag.predecessorCount(n) != phases[l - 1].size())
        return std::nullopt;
  return phases;
}

LowerBounds lowerBounds(const Dag &dag, std::vector<double> speeds) {
  DagMeasures m = measure(dag);
  double total = std::accumulate(speeds.begin(), speeds.end(), 0.0);
  double fastest = *std::max_element(speeds.begin(), speeds.end());
  LowerBounds lb{m.totalWork / total, m.criticalPath / fastest, std::nullopt};
  if (auto phases = barrierPhases(dag)) {
    double sum = 0;
    for (const auto &phase : *phases) {
      std::vector<double> work;
      for (NodeId n : phase)
        work.push_back(dag.work(n));
      sum += preemptiveIndependentMakespan(std::move(work), speeds);
    }
    lb.phases = sum;
  }
  return lb;
}

} // namespace cilkpp::sim
