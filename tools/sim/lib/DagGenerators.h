// The DAG families the papers simulate, plus Cilk-shaped ones.
#pragma once

#include <cstdint>
#include <vector>

#include "Dag.h"

namespace cilkpp::sim {

// One phase of a barrier DAG: `count` independent tasks of `work` each.
struct Phase {
  unsigned count;
  double work;
};

// Phases in series; every task of a phase precedes every task of the next.
Dag layeredDag(const std::vector<Phase> &phases);

// Jovanović's Exp 1 DAG: one task fans out to `width` tasks that fan in to
// one task; all of `work` units.
Dag fanOutFanIn(unsigned width = 50, double work = 50000);

// Jovanović's "graphic" DAG (Exp 2, Fig. 2): 16000 -> 50 x 50000 -> 16000 ->
// 6 x 500000 -> 16000.
Dag graphicDag();

// The fully strict DAG of a Cilk fib(n): each instance with n >= 2 is a
// thread of three nodes (spawn fib(n-1), spawn fib(n-2), sync) whose
// spawned children join at the sync. Every node has `nodeWork` work.
// Successor order is (continuation, child): a work-first scheduler runs the
// child and leaves the continuation to thieves.
Dag fibDag(unsigned n, double nodeWork = 1);

// A random fully strict DAG: a procedure is a thread that spawns up to
// `maxSpawns` children (each again such a procedure, to depth `maxDepth`),
// syncs, and returns; node work is uniform in [minWork, maxWork].
struct RandomCilkParams {
  unsigned maxDepth = 6;
  unsigned maxSpawns = 3;
  double minWork = 1;
  double maxWork = 100;
};
Dag randomCilkDag(std::uint64_t seed, const RandomCilkParams &params = {});

// Bender–Phillips' shark-tooth graph (§4, Fig. 1) of unit tasks: `jaws`
// jaws in series, each a node with `spindles` successors that all precede
// the next jaw's node; and out of each jaw's node, `spindles` paths of
// `toothLength` nodes (the teeth) that precede nothing. The teeth of the
// last jaws are dropped where they would lengthen the critical path.
Dag sharkToothDag(unsigned jaws, unsigned spindles, unsigned toothLength);

} // namespace cilkpp::sim
