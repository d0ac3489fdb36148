// simulate(), simulateStream() and the experiments: determinism, the sampled
// steal attempts against exact ones, and Jovanović's tables within
// tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "DagGenerators.h"
#include "Experiments.h"
#include "LowerBounds.h"
#include "Simulate.h"
#include "Stats.h"

using namespace cilkpp::sim;

namespace {

PolicySpec policySpec(Policy policy, bool exactAttempts = false) {
  PolicySpec spec;
  spec.policy = policy;
  spec.exactAttempts = exactAttempts;
  return spec;
}

void expectSameStats(const RunStats &a, const RunStats &b) {
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.steals, b.steals);
  EXPECT_EQ(a.muggings, b.muggings);
  EXPECT_EQ(a.swaps, b.swaps);
  EXPECT_EQ(a.migrations, b.migrations);
}

// The Avg column of the row for (policy, interval label).
double averageOf(const TextTable &table, const std::string &policy,
                 const std::string &label) {
  for (const auto &row : table.rows)
    if (row.at(0) == policy && row.at(1) == label)
      return std::stod(row.at(3));
  ADD_FAILURE() << "no row " << policy << " " << label << " in "
                << table.title;
  return NAN;
}

const std::vector<Policy> kAllPolicies{
    Policy::Cilk,           Policy::Ecs,     Policy::EcsSwap,
    Policy::CentralManager, Policy::MaxUtil, Policy::HighUtil};

} // namespace

TEST(SimSimulate, PolicyNamesRoundTrip) {
  for (Policy policy : kAllPolicies)
    EXPECT_EQ(parsePolicy(policyName(policy)), policy);
  EXPECT_FALSE(parsePolicy("fifo").has_value());
  EXPECT_EQ(policyNames(), "cilk, ecs, ecs-swap, cm, maxutil, highutil");
}

TEST(SimSimulate, OnlyWorkStealingPoliciesUseIntervals) {
  EXPECT_TRUE(usesIntervals(Policy::Cilk));
  EXPECT_TRUE(usesIntervals(Policy::Ecs));
  EXPECT_TRUE(usesIntervals(Policy::EcsSwap));
  EXPECT_FALSE(usesIntervals(Policy::CentralManager));
  EXPECT_FALSE(usesIntervals(Policy::MaxUtil));
  EXPECT_FALSE(usesIntervals(Policy::HighUtil));
}

TEST(SimSimulate, SameSeedGivesIdenticalRuns) {
  const Dag dag = fanOutFanIn();
  const MachineSpec spec = exp1Machine();
  for (Policy policy : kAllPolicies) {
    SCOPED_TRACE(policyName(policy));
    for (std::uint64_t seed : {1u, 99u})
      expectSameStats(simulate(dag, spec, policySpec(policy), seed, 3),
                      simulate(dag, spec, policySpec(policy), seed, 3));
  }
}

TEST(SimSimulate, DifferentSeedsGiveDifferentEcsRuns) {
  const Dag dag = fanOutFanIn();
  const MachineSpec spec = exp1Machine();
  std::map<double, int> makespans;
  for (std::uint64_t seed = 1; seed <= 10; ++seed)
    ++makespans[simulate(dag, spec, policySpec(Policy::Ecs), seed, 0).makespan];
  EXPECT_GE(makespans.size(), 5u);
}

// Segments of a run with fixed speeds carry out exactly the DAG's work, and
// no processor runs two of them at once.
TEST(SimSimulate, SegmentsAccountForAllWorkWithoutOverlap) {
  const Dag dag = graphicDag();
  const MachineSpec spec = exp2Machine();
  for (Policy policy : kAllPolicies) {
    SCOPED_TRACE(policyName(policy));
    std::vector<Segment> segments;
    RunStats stats = simulate(dag, spec, policySpec(policy), 5, 2, &segments);
    std::vector<double> done(dag.size(), 0);
    std::map<ProcId, std::vector<std::pair<double, double>>> byProc;
    for (const Segment &s : segments) {
      EXPECT_EQ(s.job, 0u);
      EXPECT_LT(s.start, s.end);
      EXPECT_LE(s.end, stats.makespan);
      done[s.node] += (s.end - s.start) * spec.speeds[s.proc];
      byProc[s.proc].emplace_back(s.start, s.end);
    }
    for (NodeId n = 0; n < dag.size(); ++n)
      EXPECT_NEAR(done[n], dag.work(n), 1e-6 * dag.work(n)) << "node " << n;
    for (auto &[proc, spans] : byProc) {
      std::sort(spans.begin(), spans.end());
      for (std::size_t i = 1; i < spans.size(); ++i)
        EXPECT_LE(spans[i - 1].second, spans[i].first) << "processor " << proc;
    }
  }
}

// Sampling the first successful attempt must give the same distribution of
// schedules as simulating every attempt (WorkStealing.h).
TEST(SimSimulate, SampledAttemptsAgreeWithExactAttempts) {
  const Dag dag = fanOutFanIn();
  MachineSpec spec = exp1Machine();
  for (double &interval : spec.intervals)
    interval *= 8;
  constexpr unsigned kRuns = 300;
  for (Policy policy : {Policy::Ecs, Policy::Cilk}) {
    SCOPED_TRACE(policyName(policy));
    std::vector<double> sampled, exact;
    for (unsigned r = 0; r < kRuns; ++r) {
      const ProcId initiator = r % 8;
      sampled.push_back(
          simulate(dag, spec, policySpec(policy), r, initiator).makespan);
      exact.push_back(
          simulate(dag, spec, policySpec(policy, true), r + kRuns, initiator)
              .makespan);
    }
    Summary a = summarize(sampled), b = summarize(exact);
    const double standardError =
        std::sqrt((a.stddev * a.stddev + b.stddev * b.stddev) / kRuns);
    EXPECT_LE(std::abs(a.mean - b.mean), 4 * standardError)
        << "sampled " << a.mean << ", exact " << b.mean;
  }
}

TEST(SimExperiments, ParallelRunsDoNotChangeTheTable) {
  ExperimentOptions options;
  options.runs = 4;
  options.threads = 1;
  TextTable serial = experiment1(options);
  options.threads = 3;
  EXPECT_EQ(experiment1(options).rows, serial.rows);
}

// Jovanović Tables 3-4: CM is deterministic (795.62 in every run), ECS at
// I0 averages 796.38.
TEST(SimExperiments, Experiment2MatchesThePapersTables) {
  ExperimentOptions options;
  options.runs = 100;
  options.policies = {Policy::Ecs, Policy::CentralManager};
  TextTable table = experiment2(options);
  EXPECT_NEAR(averageOf(table, "cm", "N/A"), 795.62, 0.01);
  EXPECT_NEAR(averageOf(table, "ecs", "I0"), 796.38, 0.015 * 796.38);
}

// Jovanović Tables 1-2: ECS at I0/64 averages 621.4; CM takes 623.1 in
// every run (printed to one decimal; the simulator's CM takes 623.047).
TEST(SimExperiments, Experiment1MatchesThePapersTables) {
  ExperimentOptions options;
  options.runs = 100;
  options.policies = {Policy::Ecs, Policy::CentralManager};
  TextTable table = experiment1(options);
  EXPECT_NEAR(averageOf(table, "ecs", "I0/64"), 621.4, 0.015 * 621.4);
  EXPECT_NEAR(averageOf(table, "cm", "N/A"), 623.1, 0.1);
}

// The variant's goal: Exp 2 within 3% of the lower bound 724.44, where ECS
// is 10% above it because fast processors keep their tasks.
TEST(SimExperiments, EcsSwapBringsExperiment2WithinThreePercentOfTheBound) {
  ExperimentOptions options;
  options.runs = 50;
  options.policies = {Policy::EcsSwap};
  TextTable table = experiment2(options);
  EXPECT_LE(averageOf(table, "ecs-swap", "I0"), 1.03 * 724.44);
  EXPECT_GT(averageOf(table, "ecs-swap", "I0"), 724.44);
}

namespace {

struct Stream {
  Dag fanOut = fanOutFanIn(6, 400), fib = fibDag(6, 30), graphic = graphicDag();
  std::vector<Arrival> arrivals;

  explicit Stream(unsigned processors) {
    Random rng(3);
    double t = 0;
    for (unsigned i = 0; i < 40; ++i) {
      const Dag *dag = i % 3 == 0 ? &fanOut : i % 3 == 1 ? &fib : &graphic;
      arrivals.push_back({dag, t, rng.below(processors)});
      t += rng.exponential(300);
    }
  }
};

} // namespace

TEST(SimSimulateStream, EveryJobFinishesAndTakesAtLeastItsLowerBound) {
  const MachineSpec spec = exp2Machine();
  const Stream stream(unsigned(spec.speeds.size()));
  for (Policy policy : kAllPolicies) {
    SCOPED_TRACE(policyName(policy));
    StreamResult result = simulateStream(stream.arrivals, spec,
                                         policySpec(policy), 11, ~std::size_t(0));
    ASSERT_EQ(result.responses.size(), stream.arrivals.size());
    std::vector<bool> seen(stream.arrivals.size(), false);
    double previousFinish = 0;
    for (auto [index, response] : result.responses) {
      ASSERT_LT(index, seen.size());
      EXPECT_FALSE(seen[index]) << "job " << index << " finished twice";
      seen[index] = true;
      const Arrival &a = stream.arrivals[index];
      EXPECT_GE(response, lowerBounds(*a.dag, spec.speeds).best() *
                              (1 - 1e-9))
          << "job " << index;
      // Responses come in finishing order.
      EXPECT_GE(a.time + response, previousFinish * (1 - 1e-12));
      previousFinish = a.time + response;
    }
    EXPECT_DOUBLE_EQ(result.stats.makespan, previousFinish);
  }
}

TEST(SimSimulateStream, StopsAfterTheGivenNumberOfJobs) {
  const MachineSpec spec = exp2Machine();
  const Stream stream(unsigned(spec.speeds.size()));
  for (Policy policy : {Policy::Ecs, Policy::CentralManager}) {
    SCOPED_TRACE(policyName(policy));
    StreamResult result =
        simulateStream(stream.arrivals, spec, policySpec(policy), 11, 10);
    EXPECT_EQ(result.responses.size(), 10u);
  }
}

TEST(SimSimulateStream, OneArrivalIsOneSimulation) {
  const Dag dag = fanOutFanIn();
  const MachineSpec spec = exp1Machine();
  for (Policy policy : kAllPolicies) {
    SCOPED_TRACE(policyName(policy));
    StreamResult stream =
        simulateStream({{&dag, 0, 4}}, spec, policySpec(policy), 8, 1);
    RunStats single = simulate(dag, spec, policySpec(policy), 8, 4);
    expectSameStats(stream.stats, single);
    ASSERT_EQ(stream.responses.size(), 1u);
    EXPECT_EQ(stream.responses[0].second, single.makespan);
  }
}
