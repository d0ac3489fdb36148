// Property tests: Bender–Rabin's guarantees (Theorems 2, 4 and 5) and the
// lower bounds hold on every simulated run of many random instances: random
// fully strict, layered and fib DAGs on 2 to 12 processors of random fixed
// speeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "DagGenerators.h"
#include "Experiments.h"
#include "LowerBounds.h"
#include "Simulate.h"

using namespace cilkpp::sim;

namespace {

constexpr std::uint64_t kInstances = 200;
constexpr double kTolerance = 1e-9; // relative: event times are sums of quotients

struct Instance {
  Dag dag;
  MachineSpec spec;
  std::uint64_t seed;
  ProcId initiator;
};

Dag randomDag(Random &rng) {
  switch (rng.below(3)) {
  case 0: {
    RandomCilkParams params;
    params.maxDepth = 1 + rng.below(6);
    params.maxSpawns = 1 + rng.below(4);
    params.minWork = rng.uniform(1, 10);
    params.maxWork = params.minWork + rng.uniform(0, 200);
    return randomCilkDag(rng.below(~0u), params);
  }
  case 1: {
    std::vector<Phase> phases(1 + rng.below(5));
    for (Phase &phase : phases)
      phase = Phase{1 + rng.below(15), rng.uniform(1, 100)};
    return layeredDag(phases);
  }
  default:
    return fibDag(2 + rng.below(9), rng.uniform(1, 10));
  }
}

// Speeds uniform in [minSpeed, maxSpeed] on 2 to 12 processors.
Instance randomInstance(std::uint64_t index, double minSpeed, double maxSpeed) {
  Random rng = Random::stream(20240601, index);
  Instance in{randomDag(rng), {}, rng.below(~0u), 0};
  const unsigned p = 2 + rng.below(11);
  for (unsigned i = 0; i < p; ++i)
    in.spec.speeds.push_back(rng.uniform(minSpeed, maxSpeed));
  in.spec.intervals = intervalsForProduct(in.spec.speeds, rng.uniform(0.5, 50));
  in.initiator = rng.below(p);
  return in;
}

RunStats run(const Instance &in, Policy policy, double beta = 1) {
  PolicySpec spec;
  spec.policy = policy;
  spec.beta = beta;
  return simulate(in.dag, in.spec, spec, in.seed, in.initiator);
}

double total(const std::vector<double> &speeds) {
  return std::accumulate(speeds.begin(), speeds.end(), 0.0);
}

// Theorem 2: W1/pi_tot + (pi_2/pi_1 + ... + pi_p/pi_{p-1}) W_inf/pi_tot,
// speeds in descending order.
double theorem2Bound(const Dag &dag, std::vector<double> speeds) {
  DagMeasures m = measure(dag);
  std::sort(speeds.begin(), speeds.end(), std::greater<>());
  double ratios = 0;
  for (std::size_t i = 1; i < speeds.size(); ++i)
    ratios += speeds[i] / speeds[i - 1];
  return (m.totalWork + ratios * m.criticalPath) / total(speeds);
}

// Theorem 4: W1/pi_tot + ((p-1)/p) beta W_inf/pi_ave.
double theorem4Bound(const Dag &dag, const std::vector<double> &speeds,
                     double beta) {
  DagMeasures m = measure(dag);
  const double p = double(speeds.size()), piTot = total(speeds);
  return m.totalWork / piTot + (p - 1) / p * beta * m.criticalPath / (piTot / p);
}

// A source, `count` chains of `length` unit tasks, a sink.
Dag parallelChains(unsigned count, unsigned length) {
  Dag dag;
  NodeId source = dag.addNode(1), sink = dag.addNode(1);
  for (unsigned c = 0; c < count; ++c) {
    NodeId previous = source;
    for (unsigned i = 0; i < length; ++i) {
      NodeId next = dag.addNode(1);
      dag.addEdge(previous, next);
      previous = next;
    }
    dag.addEdge(previous, sink);
  }
  return dag;
}

std::string describe(std::uint64_t index, const Instance &in) {
  return "instance " + std::to_string(index) + ": " +
         std::to_string(in.dag.size()) + " nodes, " +
         std::to_string(in.spec.speeds.size()) + " processors";
}

} // namespace

TEST(SimTheorems, MaxUtilAndCentralManagerMeetTheorem2) {
  for (std::uint64_t i = 0; i < kInstances; ++i) {
    Instance in = randomInstance(i, 1, 10);
    SCOPED_TRACE(describe(i, in));
    const double bound = theorem2Bound(in.dag, in.spec.speeds);
    for (Policy policy : {Policy::MaxUtil, Policy::CentralManager})
      ASSERT_LE(run(in, policy).makespan, bound * (1 + kTolerance))
          << policyName(policy);
  }
}

TEST(SimTheorems, HighUtilMeetsTheorem4) {
  for (std::uint64_t i = 0; i < kInstances; ++i) {
    Instance in = randomInstance(i, 1, 10);
    SCOPED_TRACE(describe(i, in));
    for (double beta : {1.5, 2.0, 4.0})
      ASSERT_LE(run(in, Policy::HighUtil, beta).makespan,
                theorem4Bound(in.dag, in.spec.speeds, beta) * (1 + kTolerance))
          << "beta " << beta;
  }
}

// Theorem 5 bounds the migrations of thread schedules (maxutil,
// highutil). The Central Manager is left out: it schedules tasks, and a
// processor that finishes a task takes the oldest queued one, often another
// thread's (three chains on two processors migrate at every step).
TEST(SimTheorems, ThreadSchedulesMigrateAtMostTwiceS1Times) {
  for (std::uint64_t i = 0; i < kInstances; ++i) {
    Instance in = randomInstance(i, 1, 10);
    SCOPED_TRACE(describe(i, in));
    const std::uint64_t bound = 2 * measure(in.dag).threads;
    ASSERT_LE(run(in, Policy::MaxUtil).migrations, bound) << "maxutil";
    for (double beta : {1.5, 2.0, 4.0})
      ASSERT_LE(run(in, Policy::HighUtil, beta).migrations, bound)
          << "highutil, beta " << beta;
  }
}

// A task with no edges is a thread too: moving it from the initiating
// processor to the fastest is within 2 S1 = 2.
TEST(SimTheorems, Theorem5CountsATaskWithoutEdgesAsAThread) {
  Instance in{layeredDag({{1, 1}}), {{1, 2}, {1, 1}, {}}, 1, 0};
  ASSERT_EQ(measure(in.dag).threads, 1u);
  EXPECT_LE(run(in, Policy::MaxUtil).migrations, 2u);
}

// More threads than processors: each processor stays on its thread.
TEST(SimTheorems, Theorem5HoldsWhenThreadsOutnumberProcessors) {
  Instance in{parallelChains(3, 10), {{2, 1}, {1, 1}, {}}, 1, 0};
  ASSERT_EQ(measure(in.dag).threads, 3u);
  EXPECT_LE(run(in, Policy::MaxUtil).migrations, 6u);
  EXPECT_LE(run(in, Policy::HighUtil, 1.5).migrations, 6u);
}

// With no two speeds more than beta apart there is never a processor to mug,
// so ECS makes exactly Cilk's random choices.
TEST(SimTheorems, EcsWithSpeedsWithinBetaIsCilkRunForRun) {
  for (std::uint64_t i = 0; i < kInstances; ++i) {
    Instance in = randomInstance(i, 1, 1.9);
    SCOPED_TRACE(describe(i, in));
    RunStats ecs = run(in, Policy::Ecs, 2), cilk = run(in, Policy::Cilk);
    ASSERT_EQ(ecs.muggings, 0u);
    ASSERT_EQ(ecs.makespan, cilk.makespan);
    ASSERT_EQ(ecs.steals, cilk.steals);
    ASSERT_EQ(ecs.migrations, cilk.migrations);
  }
}

TEST(SimTheorems, EveryRunTakesAtLeastTheLowerBound) {
  for (std::uint64_t i = 0; i < kInstances; ++i) {
    Instance in = randomInstance(i, 1, 10);
    SCOPED_TRACE(describe(i, in));
    const double bound = lowerBounds(in.dag, in.spec.speeds).best();
    for (Policy policy : {Policy::Cilk, Policy::Ecs, Policy::EcsSwap,
                          Policy::CentralManager, Policy::MaxUtil,
                          Policy::HighUtil})
      ASSERT_GE(run(in, policy, policy == Policy::HighUtil ? 2 : 1).makespan,
                bound * (1 - kTolerance))
          << policyName(policy);
  }
}
