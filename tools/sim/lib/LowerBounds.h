// Lower bounds on the makespan of a DAG on processors of fixed speeds, with
// preemption and free migration (the papers' setting).
#pragma once

#include <optional>
#include <vector>

#include "Dag.h"

namespace cilkpp::sim {

struct LowerBounds {
  double work;         // W1 / pi_tot
  double criticalPath; // W_inf / pi_max
  // Jovanović's phase bound, for DAGs that are phases in series (every task
  // of a phase precedes every task of the next): the sum over phases of the
  // optimal preemptive makespan of the phase's independent tasks.
  std::optional<double> phases;

  double best() const;
};

LowerBounds lowerBounds(const Dag &dag, std::vector<double> speeds);

// Optimal makespan of independent tasks on uniformly related processors with
// preemption (Horvath, Lam and Sethi 1977; Gonzalez and Sahni 1978): the
// largest ratio of the k largest tasks' work to the k fastest speeds, the
// last term taking all tasks over the min(n, m) fastest processors.
double preemptiveIndependentMakespan(std::vector<double> work,
                                     std::vector<double> speeds);

// The DAG's phases if it is phases in series (each a list of nodes), else
// nothing.
std::optional<std::vector<std::vector<NodeId>>> barrierPhases(const Dag &dag);

} // namespace cilkpp::sim
