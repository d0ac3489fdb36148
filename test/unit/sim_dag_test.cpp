// The simulator's DAGs: the generators' shapes, validation, and reading DAG
// files (text and JSON) with their error messages.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "DagFile.h"
#include "DagGenerators.h"

using namespace cilkpp::sim;

namespace {

std::size_t sinkCount(const Dag &dag) {
  std::size_t sinks = 0;
  for (NodeId n = 0; n < dag.size(); ++n)
    sinks += dag.successors(n).empty();
  return sinks;
}

// The message of a failed parse ("" if it parsed).
std::string errorOf(llvm::Expected<Dag> dag) {
  if (dag)
    return "";
  return llvm::toString(dag.takeError());
}

} // namespace

TEST(SimDag, ValidateRejectsEmptyCyclicAndWorklessGraphs) {
  Dag empty;
  EXPECT_EQ(empty.validate(), "the DAG has no nodes");

  Dag cycle;
  cycle.addNode(1);
  cycle.addNode(1);
  cycle.addEdge(0, 1);
  cycle.addEdge(1, 0);
  EXPECT_EQ(cycle.validate(), "the graph has a cycle");

  Dag workless;
  workless.addNode(1);
  workless.addNode(0);
  EXPECT_EQ(workless.validate(), "node 1 has work 0; work must be positive");
}

TEST(SimDagGenerators, LayeredDagJoinsEveryTaskToTheWholeNextPhase) {
  Dag dag = layeredDag({{2, 1}, {3, 5}, {1, 7}});
  EXPECT_EQ(dag.size(), 6u);
  EXPECT_EQ(dag.edgeCount(), 2u * 3 + 3 * 1);
  EXPECT_EQ(dag.sources(), (std::vector<NodeId>{0, 1}));
  EXPECT_EQ(dag.successors(0), (std::vector<NodeId>{2, 3, 4}));
  EXPECT_EQ(dag.predecessorCount(5), 3u);
  EXPECT_DOUBLE_EQ(dag.work(3), 5);
  EXPECT_DOUBLE_EQ(measure(dag).totalWork, 2 + 15 + 7);
}

TEST(SimDagGenerators, FanOutFanInIsOneThenWidthThenOneTask) {
  Dag dag = fanOutFanIn();
  EXPECT_EQ(dag.size(), 52u);
  EXPECT_EQ(dag.edgeCount(), 100u);
  EXPECT_EQ(dag.sources().size(), 1u);
  EXPECT_EQ(sinkCount(dag), 1u);
  EXPECT_EQ(dag.successors(0).size(), 50u);
  EXPECT_EQ(dag.predecessorCount(51), 50u);
  DagMeasures m = measure(dag);
  EXPECT_DOUBLE_EQ(m.totalWork, 52 * 50000.0);
  EXPECT_DOUBLE_EQ(m.criticalPath, 3 * 50000.0);
  EXPECT_EQ(m.depth, 3u);

  Dag small = fanOutFanIn(4, 2);
  EXPECT_EQ(small.size(), 6u);
  EXPECT_EQ(small.edgeCount(), 8u);
  EXPECT_DOUBLE_EQ(small.work(5), 2);
}

TEST(SimDagGenerators, GraphicDagIsJovanovicsFigure2) {
  Dag dag = graphicDag();
  EXPECT_EQ(dag.size(), 1u + 50 + 1 + 6 + 1);
  EXPECT_EQ(dag.edgeCount(), 50u + 50 + 6 + 6);
  EXPECT_EQ(dag.sources().size(), 1u);
  EXPECT_EQ(sinkCount(dag), 1u);
  DagMeasures m = measure(dag);
  EXPECT_DOUBLE_EQ(m.totalWork, 3 * 16000.0 + 50 * 50000.0 + 6 * 500000.0);
  EXPECT_DOUBLE_EQ(m.criticalPath, 3 * 16000.0 + 50000.0 + 500000.0);
  EXPECT_EQ(m.depth, 5u);
}

TEST(SimDagGenerators, FibDagPushesTheContinuationBeforeTheChild) {
  // fib(2): spawn1 (0) -> {spawn2 (1), fib(1) (3)}; spawn2 -> {sync (2),
  // fib(0) (4)}; both leaves -> sync.
  Dag dag = fibDag(2, 3);
  ASSERT_EQ(dag.size(), 5u);
  EXPECT_EQ(dag.successors(0), (std::vector<NodeId>{1, 3}));
  EXPECT_EQ(dag.successors(1), (std::vector<NodeId>{2, 4}));
  EXPECT_EQ(dag.successors(3), (std::vector<NodeId>{2}));
  EXPECT_EQ(dag.successors(4), (std::vector<NodeId>{2}));
  EXPECT_EQ(dag.predecessorCount(2), 3u);
  EXPECT_DOUBLE_EQ(measure(dag).totalWork, 15);
}

TEST(SimDagGenerators, FibDagIsFullyStrictShaped) {
  for (unsigned n = 0; n <= 12; ++n) {
    SCOPED_TRACE(n);
    Dag dag = fibDag(n);
    EXPECT_EQ(dag.validate(), "");
    EXPECT_EQ(dag.sources().size(), 1u);
    EXPECT_EQ(sinkCount(dag), 1u);
    for (NodeId v = 0; v < dag.size(); ++v)
      EXPECT_LE(dag.successors(v).size(), 2u);
  }
}

// Fully strict (Bender–Rabin §1.5): one source, one sink, out-degree <= 2.
TEST(SimDagGenerators, RandomCilkDagIsFullyStrictWithWorkInRange) {
  RandomCilkParams params;
  params.maxDepth = 5;
  params.maxSpawns = 4;
  params.minWork = 3;
  params.maxWork = 7;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    SCOPED_TRACE(seed);
    Dag dag = randomCilkDag(seed, params);
    ASSERT_EQ(dag.validate(), "");
    EXPECT_EQ(dag.sources(), (std::vector<NodeId>{0}));
    EXPECT_EQ(sinkCount(dag), 1u);
    for (NodeId v = 0; v < dag.size(); ++v) {
      EXPECT_LE(dag.successors(v).size(), 2u);
      EXPECT_GE(dag.work(v), 3);
      EXPECT_LT(dag.work(v), 7);
    }
  }
}

TEST(SimDagGenerators, RandomCilkDagIsDeterministicInItsSeed) {
  Dag a = randomCilkDag(42), b = randomCilkDag(42);
  ASSERT_EQ(a.size(), b.size());
  for (NodeId v = 0; v < a.size(); ++v) {
    EXPECT_EQ(a.work(v), b.work(v));
    EXPECT_EQ(a.successors(v), b.successors(v));
  }
}

TEST(SimDagGenerators, RandomCilkDagOfDepthZeroIsOneTask) {
  RandomCilkParams params;
  params.maxDepth = 0;
  EXPECT_EQ(randomCilkDag(7, params).size(), 1u);
}

// A procedure's longest path runs through at most maxSpawns spawn nodes, a
// child and its sync: depth <= 1 + maxDepth (maxSpawns + 1).
TEST(SimDagGenerators, RandomCilkDagDepthIsBoundedByNesting) {
  for (unsigned maxSpawns : {1u, 3u}) {
    RandomCilkParams params;
    params.maxDepth = 3;
    params.maxSpawns = maxSpawns;
    for (std::uint64_t seed = 0; seed < 50; ++seed)
      EXPECT_LE(measure(randomCilkDag(seed, params)).depth,
                1 + params.maxDepth * (maxSpawns + 1));
  }
}

TEST(SimDagGenerators, SharkToothDagKeepsTeethWithinTheSpine) {
  struct Case {
    unsigned jaws, spindles, toothLength;
    std::size_t nodes;
  };
  // (jaws + 1) jaw nodes, jaws x spindles spindles, and spindles teeth of
  // toothLength nodes for each jaw j with 2j + 1 + toothLength <= 2 jaws + 1.
  for (Case c : {Case{3, 2, 1, 4 + 6 + 3 * 2 * 1},
                 Case{3, 2, 2, 4 + 6 + 3 * 2 * 2},
                 Case{3, 2, 4, 4 + 6 + 2 * 2 * 4},
                 Case{3, 2, 7, 4 + 6}, Case{1, 5, 1, 2 + 5 + 5},
                 Case{4, 3, 3, 5 + 12 + 3 * 3 * 3}}) {
    SCOPED_TRACE(::testing::Message() << c.jaws << " " << c.spindles << " "
                                      << c.toothLength);
    Dag dag = sharkToothDag(c.jaws, c.spindles, c.toothLength);
    EXPECT_EQ(dag.validate(), "");
    EXPECT_EQ(dag.size(), c.nodes);
    EXPECT_EQ(dag.sources().size(), 1u);
    DagMeasures m = measure(dag);
    EXPECT_EQ(m.depth, 2 * c.jaws + 1);
    EXPECT_DOUBLE_EQ(m.totalWork, double(c.nodes));
  }
}

TEST(SimDagFile, ParsesTextWithCommentsAndBlankLines) {
  auto dag = parseDagText("# a diamond\n"
                          "node a 1\n"
                          "node b 2.5  # heavy\n"
                          "\n"
                          "node c 1\n"
                          "node d 4\n"
                          "edge a b\n"
                          "edge a c\n"
                          "edge b d\n"
                          "edge c d\n",
                          "diamond.dag");
  ASSERT_TRUE(bool(dag)) << llvm::toString(dag.takeError());
  EXPECT_EQ(dag->size(), 4u);
  EXPECT_EQ(dag->edgeCount(), 4u);
  EXPECT_DOUBLE_EQ(dag->work(1), 2.5);
  EXPECT_EQ(dag->successors(0), (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(dag->predecessorCount(3), 2u);
}

TEST(SimDagFile, TextErrorsNameFileAndLine) {
  EXPECT_EQ(errorOf(parseDagText("node a 1\nnode a 2\n", "x")),
            "x:2: error: node 'a' is declared twice");
  EXPECT_EQ(errorOf(parseDagText("node a 1\nnode b 1\nedge a c\n", "x")),
            "x:3: error: edge names undeclared node 'c'");
  EXPECT_EQ(errorOf(parseDagText("node a 0\n", "x")),
            "x:1: error: node 'a' has work 0; work must be positive and at most 1e+15");
  EXPECT_EQ(errorOf(parseDagText("node a -2\n", "x")),
            "x:1: error: node 'a' has work -2; work must be positive and at most 1e+15");
  EXPECT_EQ(errorOf(parseDagText("node a 1e308\n", "x")),
            "x:1: error: node 'a' has work 1e+308; work must be positive and at most 1e+15");
  EXPECT_EQ(errorOf(parseDagText("node a 1\nnode b 1\nedge a b\nedge a b\n", "x")),
            "x:4: error: edge 'a' -> 'b' is declared twice");
}

TEST(SimDagFile, JsonRejectsInfiniteWorkAndDeepNesting) {
  EXPECT_EQ(errorOf(parseDagJson(R"({"nodes": [{"id": "a", "work": 1e999}]})", "x.json")),
            "x.json: error: nodes[0]: node 'a' has work inf; work must be positive and at most 1e+15");
  // Deep enough to overflow the parser's stack if it recursed that far.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(errorOf(parseDagJson(deep, "x.json")), "x.json: error: arrays and objects nest deeper than 64 levels");
  // Brackets inside strings do not count.
  EXPECT_EQ(errorOf(parseDagJson(R"({"nodes": [{"id": ")" + std::string(100, '[') + R"(", "work": 1}]})", "x.json")),
            "");
}

TEST(SimDagFile, TextMalformedLinesNameTheirLine) {
  EXPECT_EQ(errorOf(parseDagText("node a 1\n\nnode b\n", "name")),
            "name:3: error: expected 'node <name> <work>'");
  EXPECT_EQ(errorOf(parseDagText("node a 1\nnode b 1\nnode c many\n", "name")),
            "name:3: error: expected 'node <name> <work>'");
  EXPECT_EQ(errorOf(parseDagText("node a 1 2\n", "name")),
            "name:1: error: expected 'node <name> <work>'");
  EXPECT_EQ(errorOf(parseDagText("node a 1\nedge a\n", "name")),
            "name:2: error: expected 'edge <from> <to>'");
  EXPECT_EQ(errorOf(parseDagText("task a 1\n", "name")),
            "name:1: error: unknown declaration 'task' (expected 'node' or "
            "'edge')");
}

TEST(SimDagFile, TextWholeGraphErrorsNameTheFile) {
  EXPECT_EQ(errorOf(parseDagText("node a 1\nnode b 1\nedge a b\nedge b a\n",
                                 "x")),
            "x: error: the graph has a cycle");
  EXPECT_EQ(errorOf(parseDagText("# nothing\n", "x")),
            "x: error: the DAG has no nodes");
}

TEST(SimDagFile, ParsesJsonWithStringAndIntegerIds) {
  auto dag = parseDagJson(R"({"nodes": [{"id": "a", "work": 5},
                                        {"id": 7, "work": 1.5}],
                              "edges": [["a", 7]]})",
                          "g.json");
  ASSERT_TRUE(bool(dag)) << llvm::toString(dag.takeError());
  EXPECT_EQ(dag->size(), 2u);
  EXPECT_DOUBLE_EQ(dag->work(0), 5);
  EXPECT_DOUBLE_EQ(dag->work(1), 1.5);
  EXPECT_EQ(dag->successors(0), (std::vector<NodeId>{1}));
}

TEST(SimDagFile, JsonWithoutEdgesIsIndependentTasks) {
  auto dag = parseDagJson(R"({"nodes": [{"id": "a", "work": 1},
                                        {"id": "b", "work": 1}]})",
                          "g.json");
  ASSERT_TRUE(bool(dag)) << llvm::toString(dag.takeError());
  EXPECT_EQ(dag->sources().size(), 2u);
}

TEST(SimDagFile, JsonErrorsNameTheFileAndTheEntry) {
  EXPECT_EQ(errorOf(parseDagJson(R"({"edges": []})", "g.json")),
            "g.json: error: expected an object with a \"nodes\" array");
  EXPECT_EQ(errorOf(parseDagJson(R"([1, 2])", "g.json")),
            "g.json: error: expected an object with a \"nodes\" array");
  EXPECT_EQ(
      errorOf(parseDagJson(R"({"nodes": [{"id": "a", "work": 1}, {"id": "b"}]})",
                           "g.json")),
      "g.json: error: nodes[1]: expected {\"id\": ..., \"work\": <number>}");
  EXPECT_EQ(errorOf(parseDagJson(
                R"({"nodes": [{"id": "a", "work": 1}, {"id": "a", "work": 2}]})",
                "g.json")),
            "g.json: error: nodes[1]: node 'a' is declared twice");
  EXPECT_EQ(errorOf(parseDagJson(R"({"nodes": [{"id": "a", "work": -1}]})",
                                 "g.json")),
            "g.json: error: nodes[0]: node 'a' has work -1; work must be "
            "positive and at most 1e+15");
  EXPECT_EQ(errorOf(parseDagJson(
                R"({"nodes": [{"id": "a", "work": 1}], "edges": [["a"]]})",
                "g.json")),
            "g.json: error: edges[0]: expected [from, to]");
  EXPECT_EQ(errorOf(parseDagJson(
                R"({"nodes": [{"id": "a", "work": 1}], "edges": [["a", "z"]]})",
                "g.json")),
            "g.json: error: edges[0]: edge names undeclared node 'z'");
  EXPECT_EQ(errorOf(parseDagJson(R"({"nodes": [{"id": "a", "work": 1},
                                               {"id": "b", "work": 1}],
                                     "edges": [["a", "b"], ["b", "a"]]})",
                                 "g.json")),
            "g.json: error: the graph has a cycle");
}

TEST(SimDagFile, MalformedJsonIsAnErrorNamingTheFile) {
  std::string message = errorOf(parseDagJson(R"({"nodes": [)", "bad.json"));
  EXPECT_EQ(message.rfind("bad.json: error: ", 0), 0u) << message;
  EXPECT_GT(message.size(), std::string("bad.json: error: ").size());
}

TEST(SimDagFile, ReadDagFileChoosesTheFormatByExtension) {
  const std::string dir = ::testing::TempDir();
  const std::string text = dir + "/sim_dag_test.dag",
                    json = dir + "/sim_dag_test.json";
  std::ofstream(text) << "node a 1\nnode b 2\nedge a b\n";
  std::ofstream(json)
      << R"({"nodes": [{"id": "a", "work": 1}, {"id": "b", "work": 2}], )"
      << R"("edges": [["a", "b"]]})";
  for (const std::string &path : {text, json}) {
    SCOPED_TRACE(path);
    auto dag = readDagFile(path);
    ASSERT_TRUE(bool(dag)) << llvm::toString(dag.takeError());
    EXPECT_EQ(dag->size(), 2u);
    EXPECT_EQ(dag->edgeCount(), 1u);
  }
  std::remove(text.c_str());
  std::remove(json.c_str());
}

TEST(SimDagFile, ReadDagFileReportsAMissingFile) {
  const std::string path = ::testing::TempDir() + "/sim_dag_test_missing.dag";
  std::string message = errorOf(readDagFile(path));
  EXPECT_EQ(message.rfind(path + ": error: cannot read: ", 0), 0u) << message;
}
