#include "DagGenerators.h"

#include "Random.h"

namespace cilkpp::sim {

Dag layeredDag(const std::vector<Phase> &phases) {
  Dag dag;
  std::vector<NodeId> previous;
  for (const Phase &phase : phases) {
    std::vector<NodeId> current;
    for (unsigned i = 0; i < phase.count; ++i) {
      NodeId n = dag.addNode(phase.work);
      for (NodeId p : previous)
        dag.addEdge(p, n);
      current.push_back(n);
    }
    previous = std::move(current);
  }
  return dag;
}

Dag fanOutFanIn(unsigned width, double work) {
  return layeredDag({{1, work}, {width, work}, {1, work}});
}

Dag graphicDag() {
  return layeredDag(
      {{1, 16000}, {50, 50000}, {1, 16000}, {6, 500000}, {1, 16000}});
}

namespace {

// Builds one procedure instance; returns its (first, last) node.
struct CilkBuilder {
  Dag dag;

  std::pair<NodeId, NodeId> fib(unsigned n, double w) {
    if (n < 2) {
      NodeId leaf = dag.addNode(w);
      return {leaf, leaf};
    }
    NodeId spawn1 = dag.addNode(w), spawn2 = dag.addNode(w),
           sync = dag.addNode(w);
    dag.addEdge(spawn1, spawn2); // continuation first...
    auto [c1, e1] = fib(n - 1, w);
    dag.addEdge(spawn1, c1); // ...then the spawned child
    dag.addEdge(spawn2, sync);
    auto [c2, e2] = fib(n - 2, w);
    dag.addEdge(spawn2, c2);
    dag.addEdge(e1, sync);
    dag.addEdge(e2, sync);
    return {spawn1, sync};
  }

  std::pair<NodeId, NodeId> random(Random &rng, const RandomCilkParams &p,
                                   unsigned depth) {
    auto work = [&] { return rng.uniform(p.minWork, p.maxWork); };
    unsigned spawns = depth >= p.maxDepth ? 0 : rng.below(p.maxSpawns + 1);
    NodeId first = dag.addNode(work()), current = first;
    std::vector<NodeId> childEnds;
    for (unsigned i = 0; i < spawns; ++i) {
      NodeId continuation = dag.addNode(work());
      dag.addEdge(current, continuation);
      auto [c, e] = random(rng, p, depth + 1);
      dag.addEdge(current, c);
      childEnds.push_back(e);
      current = continuation;
    }
    if (childEnds.empty())
      return {first, first};
    NodeId sync = dag.addNode(work());
    dag.addEdge(current, sync);
    for (NodeId e : childEnds)
      dag.addEdge(e, sync);
    return {first, sync};
  }
};

} // namespace

Dag fibDag(unsigned n, double nodeWork) {
  CilkBuilder b;
  b.fib(n, nodeWork);
  return std::move(b.dag);
}

Dag randomCilkDag(std::uint64_t seed, const RandomCilkParams &params) {
  CilkBuilder b;
  Random rng(seed);
  b.random(rng, params, 0);
  return std::move(b.dag);
}

Dag sharkToothDag(unsigned jaws, unsigned spindles, unsigned toothLength) {
  Dag dag;
  // Critical path: jaw node, spindle, jaw node, ..., final node.
  const unsigned depth = 2 * jaws + 1;
  NodeId jawNode = dag.addNode(1);
  for (unsigned j = 0; j < jaws; ++j) {
    NodeId next = dag.addNode(1);
    for (unsigned s = 0; s < spindles; ++s) {
      NodeId spindle = dag.addNode(1);
      dag.addEdge(jawNode, spindle);
      dag.addEdge(spindle, next);
    }
    // A tooth hanging off jaw node 2j (depth 2j+1 from the root, counting
    // nodes) reaches depth 2j+1+toothLength; keep it within the spine.
    if (2 * j + 1 + toothLength <= depth)
      for (unsigned s = 0; s < spindles; ++s) {
        NodeId prev = jawNode;
        for (unsigned k = 0; k < toothLength; ++k) {
          NodeId tooth = dag.addNode(1);
          dag.addEdge(prev, tooth);
          prev = tooth;
        }
      }
    jawNode = next;
  }
  return dag;
}

} // namespace cilkpp::sim
