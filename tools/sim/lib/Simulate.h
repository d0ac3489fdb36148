// One simulated execution: a machine, a scheduler chosen by name, a DAG (or
// a stream of DAG arrivals), and the counts the papers tabulate.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Machine.h"

namespace cilkpp::sim {

enum class Policy { Cilk, Ecs, EcsSwap, CentralManager, MaxUtil, HighUtil };

struct PolicySpec {
  Policy policy = Policy::Ecs;
  double beta = 1;
  bool exactAttempts = false;
  double swapFactor = 4;
};

std::optional<Policy> parsePolicy(std::string_view name);
std::string_view policyName(Policy policy);
// The names parsePolicy accepts, comma separated (for messages).
std::string policyNames();
// Whether the schedule depends on steal/mug intervals (decentralized).
bool usesIntervals(Policy policy);

struct RunStats {
  double makespan = 0;
  std::uint64_t steals = 0;   // migrations of ready tasks
  std::uint64_t muggings = 0; // migrations of running tasks
  std::uint64_t swaps = 0;    // exchanges of two running tasks (ECS+swap)
  std::uint64_t migrations = 0;
};

struct Arrival {
  const Dag *dag;
  double time;
  ProcId where;
};

struct StreamResult {
  RunStats stats;
  // Per finished job, in finishing order: its arrival index and its
  // response time (finish - arrival).
  std::vector<std::pair<std::size_t, double>> responses;
};

// One DAG started at time 0 on processor `initiator`.
RunStats simulate(const Dag &dag, const MachineSpec &spec,
                  const PolicySpec &policy, std::uint64_t seed,
                  ProcId initiator, std::vector<Segment> *segments = nullptr);

// A stream of DAG arrivals, run until `stopAfter` jobs have finished.
StreamResult simulateStream(const std::vector<Arrival> &arrivals,
                            const MachineSpec &spec, const PolicySpec &policy,
                            std::uint64_t seed, std::size_t stopAfter);

} // namespace cilkpp::sim
