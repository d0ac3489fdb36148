// Bender–Phillips firing-squad scheduling (§1): whenever a processor is free
// it picks a task uniformly at random from the enabled tasks and runs it to
// completion, without preemption; several processors may run the same task,
// and finishing a task that is already done changes nothing. ALL enables
// every ready task; LEVEL only the ready tasks of the lowest level.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "Dag.h"
#include "Speed.h"

namespace cilkpp::sim {

enum class Enabling { All, Level };

struct FiringSquadResult {
  double makespan = 0;
  // Executions that finished by the makespan, including the redundant ones:
  // those of a task that an earlier (or simultaneous) execution had done.
  std::uint64_t executions = 0;
  std::uint64_t redundant = 0;
};

// A processor starting or finishing a task, for tests and traces. At one
// time, every finish is reported before any start.
struct FiringSquadEvent {
  enum Kind { Start, Finish } kind;
  std::uint32_t processor;
  NodeId task;
  double time;
};
using FiringSquadObserver = std::function<void(const FiringSquadEvent &)>;

// Runs `dag` on processors of full speeds `speeds` that slow down as
// `slowdown` says, each on its own seeded track (the oblivious adversary).
// Every node is one unit task, as in the paper: node work is ignored. A
// processor at speed s runs a task in time 1/s, integrated over its speed
// changes. Finishes at the same time take effect together, before the freed
// processors choose, so unit speeds give the paper's synchronous rounds.
// Speeds must be positive; with no tasks or no processors the result is zero.
FiringSquadResult runFiringSquad(const Dag &dag, Enabling enabling,
                                 const std::vector<double> &speeds,
                                 const Slowdown &slowdown, std::uint64_t seed,
                                 const FiringSquadObserver &observer = {});

} // namespace cilkpp::sim
