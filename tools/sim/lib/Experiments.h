// Jovanović's four experiments (and the machines and DAGs they use), each
// producing its table in the paper's layout, one row per interval and
// scheduler.
#pragma once

#include <cstdint>
#include <vector>

#include "Dag.h"
#include "Simulate.h"
#include "Speed.h"
#include "TextTable.h"

namespace cilkpp::sim {

struct ExperimentOptions {
  unsigned runs = 0; // 0: the paper's count
  std::uint64_t seed = 1;
  std::vector<Policy> policies; // empty: ecs, ecs-swap, cm
  double beta = 1;              // the paper's ECS mugs any slower processor
  bool exactAttempts = false;
  double swapFactor = 4;
  unsigned threads = 0; // 0: one per hardware thread
  // Exp 4 only.
  unsigned batches = 10, batchSize = 1000;
};

// Exp 1: 1 -> 50 -> 1 tasks of 50000 on 8 processors, intervals I0/64 to
// 512 I0. Exp 2: the graphic DAG on 12 processors, speed x interval = 80,
// ten batches with the interval growing 20% each.
TextTable experiment1(const ExperimentOptions &options);
TextTable experiment2(const ExperimentOptions &options);
// Exp 3: both DAGs on 12 processors whose speeds drop to a random fraction
// for exponential periods; average makespan per slowdown range.
TextTable experiment3(const ExperimentOptions &options);
// Exp 4: 100 processors, Poisson arrivals of both DAGs (mean inter-arrival
// 300 and 100), per-processor ready and waiting queues. Returns the summary
// table; `batches` gets one row per 1000 completions (for Figs. 3-4).
TextTable experiment4(const ExperimentOptions &options, TextTable *batches);

// The machines of the experiments.
MachineSpec exp1Machine();
MachineSpec exp2Machine();
MachineSpec exp3Machine(double minFraction, double maxFraction);
MachineSpec exp4Machine();

// Steal/mug intervals with speed x interval = `product` (Exp 2-4).
std::vector<double> intervalsForProduct(const std::vector<double> &speeds,
                                        double product);

} // namespace cilkpp::sim
