#include "Dag.h"

#include <algorithm>

#include <fmt/format.h>

namespace cilkpp::sim {

NodeId Dag::addNode(double work) {
  work_.push_back(work);
  succ_.emplace_back();
  npred_.push_back(0);
  return static_cast<NodeId>(work_.size() - 1);
}

void Dag::addEdge(NodeId from, NodeId to) {
  succ_[from].push_back(to);
  ++npred_[to];
}

std::vector<NodeId> Dag::sources() const {
  std::vector<NodeId> out;
  for (NodeId n = 0; n < size(); ++n)
    if (npred_[n] == 0)
      out.push_back(n);
  return out;
}

std::size_t Dag::edgeCount() const {
  std::size_t e = 0;
  for (const auto &s : succ_)
    e += s.size();
  return e;
}

std::vector<NodeId> topologicalOrder(const Dag &dag) {
  std::vector<unsigned> pending(dag.size());
  std::vector<NodeId> order;
  order.reserve(dag.size());
  for (NodeId n = 0; n < dag.size(); ++n)
    if ((pending[n] = dag.predecessorCount(n)) == 0)
      order.push_back(n);
  for (std::size_t i = 0; i < order.size(); ++i)
    for (NodeId s : dag.successors(order[i]))
      if (--pending[s] == 0)
        order.push_back(s);
  return order; // shorter than size() iff there is a cycle
}

std::string Dag::validate() const {
  if (size() == 0)
    return "the DAG has no nodes";
  for (NodeId n = 0; n < size(); ++n)
    if (!(work_[n] > 0))
      return fmt::format("node {} has work {}; work must be positive", n,
                         work_[n]);
  if (topologicalOrder(*this).size() != size())
    return "the graph has a cycle";
  return {};
}

std::vector<unsigned> levels(const Dag &dag) {
  std::vector<unsigned> level(dag.size(), 0);
  for (NodeId n : topologicalOrder(dag))
    for (NodeId s : dag.successors(n))
      level[s] = std::max(level[s], level[n] + 1);
  return level;
}

DagMeasures measure(const Dag &dag) {
  DagMeasures m;
  std::vector<double> heaviest(dag.size(), 0);
  std::vector<unsigned> longest(dag.size(), 0);
  for (NodeId n : topologicalOrder(dag)) {
    m.totalWork += dag.work(n);
    heaviest[n] += dag.work(n);
    longest[n] += 1;
    m.criticalPath = std::max(m.criticalPath, heaviest[n]);
    m.depth = std::max(m.depth, longest[n]);
    for (NodeId s : dag.successors(n)) {
      heaviest[s] = std::max(heaviest[s], heaviest[n]);
      longest[s] = std::max(longest[s], longest[n]);
    }
  }
  // Contracting a chain node (in = out = 1) merges its two edges into one,
  // so each such node removes exactly one edge.
  std::size_t chainNodes = 0, isolated = 0;
  for (NodeId n = 0; n < dag.size(); ++n) {
    unsigned in = dag.predecessorCount(n);
    std::size_t out = dag.successors(n).size();
    chainNodes += in == 1 && out == 1;
    isolated += in == 0 && out == 0;
  }
  m.threads = dag.edgeCount() - chainNodes + isolated;
  return m;
}

} // namespace cilkpp::sim
