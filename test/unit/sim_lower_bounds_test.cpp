// Lower bounds and DAG measures of the simulator (tools/sim/lib), against
// values computed by hand and the ones Jovanović's paper prints.
#include <gtest/gtest.h>

#include "DagGenerators.h"
#include "Experiments.h"
#include "LowerBounds.h"

using namespace cilkpp::sim;

namespace {

Dag chain(unsigned length, double work = 1) {
  Dag dag;
  NodeId previous = dag.addNode(work);
  for (unsigned i = 1; i < length; ++i) {
    NodeId next = dag.addNode(work);
    dag.addEdge(previous, next);
    previous = next;
  }
  return dag;
}

} // namespace

// Exp 1: 50000/1600 + 50 * 50000/4600 + 50000/1600 = 605.978.
TEST(SimLowerBounds, Experiment1PhaseBoundIsPapers605_98) {
  LowerBounds lb = lowerBounds(fanOutFanIn(), exp1Machine().speeds);
  ASSERT_TRUE(lb.phases.has_value());
  EXPECT_NEAR(*lb.phases, 605.98, 0.005);
  EXPECT_DOUBLE_EQ(*lb.phases, 31.25 + 2500000.0 / 4600 + 31.25);
  EXPECT_DOUBLE_EQ(lb.work, 52 * 50000.0 / 4600);
  EXPECT_DOUBLE_EQ(lb.criticalPath, 150000.0 / 1600);
  EXPECT_DOUBLE_EQ(lb.best(), *lb.phases);
}

// Exp 2: three 16000 tasks at 1600, 50 x 50000 over all of pi_tot = 9000,
// 6 x 500000 over the six fastest (4800 + 2400).
TEST(SimLowerBounds, Experiment2GraphicPhaseBoundIsPapers724_44) {
  LowerBounds lb = lowerBounds(graphicDag(), exp2Machine().speeds);
  ASSERT_TRUE(lb.phases.has_value());
  EXPECT_NEAR(*lb.phases, 724.44, 0.005);
  EXPECT_DOUBLE_EQ(*lb.phases, 30 + 2500000.0 / 9000 + 3000000.0 / 7200);
  EXPECT_DOUBLE_EQ(lb.work, 5548000.0 / 9000);
  EXPECT_DOUBLE_EQ(lb.criticalPath, 598000.0 / 1600);
  EXPECT_DOUBLE_EQ(lb.best(), *lb.phases);
}

// Exp 4: 50 x 50000 over the 50 fastest (17 x 1600, 29 x 800, 4 x 400),
// 6 x 500000 over six processors of 1600.
TEST(SimLowerBounds, Experiment4GraphicPhaseBoundIsPapers390_58) {
  LowerBounds lb = lowerBounds(graphicDag(), exp4Machine().speeds);
  ASSERT_TRUE(lb.phases.has_value());
  EXPECT_NEAR(*lb.phases, 390.58, 0.005);
  EXPECT_DOUBLE_EQ(*lb.phases, 30 + 2500000.0 / 52000 + 3000000.0 / 9600);
  EXPECT_DOUBLE_EQ(lb.work, 5548000.0 / 66500);
}

TEST(SimLowerBounds, PreemptiveMakespanOfTwoEqualTasksOnSpeedsTwoAndOne) {
  // Both processors busy throughout: 2 x 3 work at speed 3.
  EXPECT_DOUBLE_EQ(preemptiveIndependentMakespan({3, 3}, {2, 1}), 2);
}

TEST(SimLowerBounds, PreemptiveMakespanIsBoundByTheLargestTaskOnTheFastest) {
  EXPECT_DOUBLE_EQ(preemptiveIndependentMakespan({4, 1}, {2, 1}), 2);
  // Extra processors beyond the task count do not help.
  EXPECT_DOUBLE_EQ(preemptiveIndependentMakespan({6}, {1, 3, 2}), 2);
}

TEST(SimLowerBounds, PreemptiveMakespanTakesTheWorstPrefixRatio) {
  // Prefixes: 3/2, 6/3, all 9/4.
  EXPECT_DOUBLE_EQ(preemptiveIndependentMakespan({3, 3, 3}, {2, 1, 1}), 2.25);
  // Prefix 9/4 beats all 11/5.
  EXPECT_DOUBLE_EQ(preemptiveIndependentMakespan({1, 9, 1}, {4, 1}), 2.25);
}

TEST(SimLowerBounds, PreemptiveMakespanOnOneProcessorIsTotalWorkOverSpeed) {
  EXPECT_DOUBLE_EQ(preemptiveIndependentMakespan({1, 2, 3}, {2}), 3);
}

TEST(SimLowerBounds, BarrierPhasesOfFanOutFanInAreItsThreeLayers) {
  auto phases = barrierPhases(fanOutFanIn(5));
  ASSERT_TRUE(phases.has_value());
  ASSERT_EQ(phases->size(), 3u);
  EXPECT_EQ((*phases)[0].size(), 1u);
  EXPECT_EQ((*phases)[1].size(), 5u);
  EXPECT_EQ((*phases)[2].size(), 1u);
}

TEST(SimLowerBounds, BarrierPhasesIsEmptyForAFibDag) {
  EXPECT_FALSE(barrierPhases(fibDag(4)).has_value());
  EXPECT_FALSE(lowerBounds(fibDag(4), {1, 1}).phases.has_value());
}

TEST(SimLowerBounds, BarrierPhasesIsEmptyWhenAnEdgeSkipsALayer) {
  Dag dag = layeredDag({{1, 1}, {2, 1}, {1, 1}});
  dag.addEdge(0, 3);
  EXPECT_FALSE(barrierPhases(dag).has_value());
}

TEST(SimLowerBounds, ChainHasOnePhasePerNode) {
  auto phases = barrierPhases(chain(4));
  ASSERT_TRUE(phases.has_value());
  EXPECT_EQ(phases->size(), 4u);
}

TEST(SimLowerBounds, WorkAndCriticalPathBoundsOfAFibDag) {
  // fib(4): 17 nodes of work 2, 8 on the longest path.
  LowerBounds lb = lowerBounds(fibDag(4, 2), {3, 1});
  EXPECT_DOUBLE_EQ(lb.work, 34.0 / 4);
  EXPECT_DOUBLE_EQ(lb.criticalPath, 16.0 / 3);
  EXPECT_DOUBLE_EQ(lb.best(), 34.0 / 4);
}

// fib(n) has N(n) = 3 + N(n-1) + N(n-2) nodes (N(0) = N(1) = 1), a critical
// path of 2n nodes for n >= 2, and E(n) = 6 + E(n-1) + E(n-2) edges.
TEST(SimMeasure, FibDagNodeCountsAndCriticalPaths) {
  struct Expected {
    unsigned n;
    double nodes;
    unsigned depth;
  };
  for (Expected e : {Expected{0, 1, 1}, Expected{1, 1, 1}, Expected{2, 5, 4},
                     Expected{3, 9, 6}, Expected{4, 17, 8},
                     Expected{5, 29, 10}}) {
    SCOPED_TRACE(e.n);
    DagMeasures m = measure(fibDag(e.n));
    EXPECT_EQ(fibDag(e.n).size(), std::size_t(e.nodes));
    EXPECT_DOUBLE_EQ(m.totalWork, e.nodes);
    EXPECT_EQ(m.depth, e.depth);
    EXPECT_DOUBLE_EQ(m.criticalPath, e.depth);
  }
}

TEST(SimMeasure, CriticalPathIsWeightedByWork) {
  Dag dag; // a -> {b (10), c (1)} -> d
  NodeId a = dag.addNode(1), b = dag.addNode(10), c = dag.addNode(1),
         d = dag.addNode(1);
  dag.addEdge(a, b);
  dag.addEdge(a, c);
  dag.addEdge(b, d);
  dag.addEdge(c, d);
  dag.addEdge(a, d);
  DagMeasures m = measure(dag);
  EXPECT_DOUBLE_EQ(m.totalWork, 13);
  EXPECT_DOUBLE_EQ(m.criticalPath, 12);
  EXPECT_EQ(m.depth, 3u);
}

// S1 (Bender–Rabin §1.5): the edges left once every node of in- and
// out-degree 1 is contracted away.
TEST(SimMeasure, ThreadsOfAChainIsOneEdge) {
  EXPECT_EQ(measure(chain(5)).threads, 1u);
  EXPECT_EQ(measure(chain(2)).threads, 1u);
}

TEST(SimMeasure, ThreadsOfASingleNodeIsOne) {
  // G' has no edge, but the task is a thread of its own.
  EXPECT_EQ(measure(chain(1)).threads, 1u);
}

TEST(SimMeasure, ThreadsOfFanOutFanInIsOnePerMiddleTask) {
  // Each middle task becomes one edge from the first task to the last.
  EXPECT_EQ(measure(fanOutFanIn(50)).threads, 50u);
  // width 1 is a chain of three.
  EXPECT_EQ(measure(fanOutFanIn(1)).threads, 1u);
}

TEST(SimMeasure, ThreadsOfFibDagContractsTheLeaves) {
  // E(n) - leaves(n): fib(2) 6 - 2, fib(3) 12 - 3, fib(4) 24 - 5.
  EXPECT_EQ(measure(fibDag(2)).threads, 4u);
  EXPECT_EQ(measure(fibDag(3)).threads, 9u);
  EXPECT_EQ(measure(fibDag(4)).threads, 19u);
}

TEST(SimMeasure, LevelsCountEdgesOnTheLongestPathFromASource) {
  Dag dag = layeredDag({{1, 1}, {2, 1}, {1, 1}});
  EXPECT_EQ(levels(dag), (std::vector<unsigned>{0, 1, 1, 2}));
  std::vector<NodeId> order = topologicalOrder(dag);
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order.front(), 0u);
  EXPECT_EQ(order.back(), 3u);
}
