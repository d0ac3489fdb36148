#include "Simulate.h"

#include <array>
#include <memory>

#include "CentralScheduler.h"
#include "WorkStealing.h"

namespace cilkpp::sim {

namespace {

struct PolicyInfo {
  Policy policy;
  std::string_view name;
};
constexpr std::array<PolicyInfo, 6> kPolicies{{
    {Policy::Cilk, "cilk"},
    {Policy::Ecs, "ecs"},
    {Policy::EcsSwap, "ecs-swap"},
    {Policy::CentralManager, "cm"},
    {Policy::MaxUtil, "maxutil"},
    {Policy::HighUtil, "highutil"},
}};

// Builds the scheduler, runs the machine, and reads the counts back.
RunStats runWith(Machine &m, const PolicySpec &spec, std::size_t stopAfter) {
  RunStats stats;
  switch (spec.policy) {
  case Policy::Cilk:
  case Policy::Ecs:
  case Policy::EcsSwap: {
    StealingOptions options;
    options.mugging = spec.policy != Policy::Cilk;
    options.beta = spec.beta;
    options.exactAttempts = spec.exactAttempts;
    options.swap = spec.policy == Policy::EcsSwap;
    options.swapFactor = spec.swapFactor;
    WorkStealing scheduler(m, options);
    m.run(scheduler, stopAfter);
    stats.steals = scheduler.counters().steals;
    stats.muggings = scheduler.counters().muggings;
    stats.swaps = scheduler.counters().swaps;
    break;
  }
  case Policy::CentralManager:
  case Policy::MaxUtil:
  case Policy::HighUtil: {
    CentralOptions options;
    options.beta = spec.policy == Policy::HighUtil ? spec.beta : 1.0;
    options.order = spec.policy == Policy::MaxUtil
                        ? CentralOptions::Order::Random
                        : CentralOptions::Order::Fifo;
    options.keepThread = spec.policy != Policy::CentralManager;
    CentralScheduler scheduler(options);
    m.run(scheduler, stopAfter);
    stats.muggings = scheduler.muggings();
    stats.steals = m.migrations() - stats.muggings;
    break;
  }
  }
  stats.makespan = m.makespan();
  stats.migrations = m.migrations();
  return stats;
}

} // namespace

std::optional<Policy> parsePolicy(std::string_view name) {
  for (const PolicyInfo &info : kPolicies)
    if (info.name == name)
      return info.policy;
  return std::nullopt;
}

std::string_view policyName(Policy policy) {
  for (const PolicyInfo &info : kPolicies)
    if (info.policy == policy)
      return info.name;
  return "?";
}

std::string policyNames() {
  std::string out;
  for (const PolicyInfo &info : kPolicies)
    out += (out.empty() ? "" : ", ") + std::string(info.name);
  return out;
}

bool usesIntervals(Policy policy) {
  return policy == Policy::Cilk || policy == Policy::Ecs ||
         policy == Policy::EcsSwap;
}

RunStats simulate(const Dag &dag, const MachineSpec &spec,
                  const PolicySpec &policy, std::uint64_t seed,
                  ProcId initiator, std::vector<Segment> *segments) {
  Machine m(spec, seed, segments != nullptr);
  m.addJob(dag, 0, initiator);
  RunStats stats = runWith(m, policy, ~std::size_t(0));
  if (segments)
    *segments = m.segments();
  return stats;
}

StreamResult simulateStream(const std::vector<Arrival> &arrivals,
                            const MachineSpec &spec, const PolicySpec &policy,
                            std::uint64_t seed, std::size_t stopAfter) {
  Machine m(spec, seed, false);
  for (const Arrival &a : arrivals)
    m.addJob(*a.dag, a.time, a.where);
  StreamResult result;
  result.stats = runWith(m, policy, stopAfter);
  for (JobId j : m.finishedJobs())
    result.responses.emplace_back(j, m.finishTime(j) - m.arrivalTime(j));
  return result;
}

} // namespace cilkpp::sim
