// A computation DAG: nodes are tasks with an amount of work, edges are
// precedence constraints (Bender–Rabin §1.5, Jovanović §2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cilkpp::sim {

using NodeId = std::uint32_t;

class Dag {
public:
  NodeId addNode(double work);
  void addEdge(NodeId from, NodeId to);

  std::size_t size() const { return work_.size(); }
  double work(NodeId n) const { return work_[n]; }
  const std::vector<NodeId> &successors(NodeId n) const { return succ_[n]; }
  unsigned predecessorCount(NodeId n) const { return npred_[n]; }
  std::vector<NodeId> sources() const;
  std::size_t edgeCount() const;

  // Empty if the DAG is well formed; else why not (a cycle, no nodes, a task
  // without positive work).
  std::string validate() const;

private:
  std::vector<double> work_;
  std::vector<std::vector<NodeId>> succ_;
  std::vector<unsigned> npred_;
};

// Quantities the papers' bounds are stated in.
struct DagMeasures {
  double totalWork = 0;    // W1: sum of all work
  double criticalPath = 0; // W_inf: heaviest path, in work
  unsigned depth = 0;      // nodes on the longest path (D for unit tasks)
  // S1 of Bender–Rabin, the number of threads: edges of the DAG once every
  // node with in- and out-degree 1 is contracted away, plus tasks with no
  // edge at all (each a thread of its own that G' has no edge for).
  std::size_t threads = 0;
};
DagMeasures measure(const Dag &dag);

// Level of every node: the number of edges on the longest path from a source
// (Bender–Phillips' "level"). Nodes come out in a topological order too.
std::vector<unsigned> levels(const Dag &dag);
std::vector<NodeId> topologicalOrder(const Dag &dag);

} // namespace cilkpp::sim
