// `cilkpp-sim firing-squad`: ALL against LEVEL on Bender–Phillips' maximal
// shark-tooth DAGs (§4, Lemma 19, Theorem 21), where ALL needs
// Omega(D sqrt(log p)) time while LEVEL stays within O(W/p + D log* p): the
// ratio of their makespans grows with p, if slowly.
#include "Commands.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include "CommandLine.h"
#include "DagGenerators.h"
#include "FiringSquad.h"
#include "Random.h"
#include "TextTable.h"

namespace cl = llvm::cl;

namespace cilkpp::sim {
namespace {

cl::SubCommand
    FiringSquadCmd("firing-squad",
                   "Bender-Phillips ALL vs LEVEL on shark-tooth graphs");
cl::OptionCategory Category("cilkpp-sim firing-squad options");

cl::opt<std::string> ProcessorsOpt(
    "processors",
    cl::desc("Processor counts, one row each (default 16,64,256,1024,4096)"),
    cl::value_desc("list"), cl::init("16,64,256,1024,4096"),
    cl::sub(FiringSquadCmd), cl::cat(Category));
cl::opt<unsigned> JawsOpt("jaws",
                          cl::desc("Jaws of each shark-tooth DAG (default 20)"),
                          cl::init(20), cl::sub(FiringSquadCmd),
                          cl::cat(Category));
cl::opt<unsigned> RunsOpt("runs",
                          cl::desc("Runs per scheduler and row (default 20)"),
                          cl::init(20), cl::sub(FiringSquadCmd),
                          cl::cat(Category));
cl::opt<std::uint64_t> SeedOpt("seed", cl::desc("Random seed (default 1)"),
                               cl::init(1), cl::sub(FiringSquadCmd),
                               cl::cat(Category));
cl::opt<std::string> CsvOpt("csv", cl::desc("Also write the table as CSV"),
                            cl::value_desc("file"), cl::sub(FiringSquadCmd),
                            cl::cat(Category));
cl::opt<std::string> SlowdownOpt(
    "slowdown",
    cl::desc("Speeds drop to LO-HI percent of 1 for exponential periods "
             "(default: all processors at speed 1)"),
    cl::value_desc("LO-HI"), cl::sub(FiringSquadCmd), cl::cat(Category));
cl::opt<double> PeriodOpt("period",
                          cl::desc("Mean length of full and slow periods "
                                   "(default 50)"),
                          cl::init(50), cl::sub(FiringSquadCmd),
                          cl::cat(Category));

std::vector<unsigned> parseProcessorCounts(llvm::StringRef text) {
  std::vector<unsigned> counts;
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  for (llvm::StringRef item : items) {
    unsigned p = 0;
    // log2 p must be positive for Lemma 19's shape.
    if (item.trim().getAsInteger(10, p) || p < 2)
      fail(fmt::format("--processors: '{}' is not a processor count of at "
                       "least 2",
                       item.str()));
    counts.push_back(p);
  }
  return counts;
}

// Lemma 19: with x y = Theta(p), the jaw time s = x is largest at
// x = Theta(sqrt(log p)) teeth per path and y = Theta(p / sqrt(log p))
// spindles (and tooth paths) per jaw.
struct SharkShape {
  unsigned toothLength; // x
  unsigned spindles;    // y
};
SharkShape lemma19Shape(unsigned processors) {
  const double root = std::sqrt(std::log2(double(processors)));
  return {unsigned(std::max(1L, std::lround(root))),
          unsigned(std::max(1L, std::lround(processors / root)))};
}

// Both schedulers get the same seed in a run, hence the same speed tracks:
// one oblivious adversary for both.
std::uint64_t runSeed(std::uint64_t seed, unsigned run) {
  Random rng = Random::stream(seed, run);
  return std::uint64_t(rng.below(~0u)) << 32 | rng.below(~0u);
}

double averageMakespan(const Dag &dag, Enabling enabling,
                       const std::vector<double> &speeds,
                       const Slowdown &slowdown) {
  double total = 0;
  for (unsigned run = 0; run < RunsOpt; ++run)
    total +=
        runFiringSquad(dag, enabling, speeds, slowdown, runSeed(SeedOpt, run))
            .makespan;
  return total / RunsOpt;
}

} // namespace

bool firingSquadSelected() { return bool(FiringSquadCmd); }

int runFiringSquadCommand() {
  const std::vector<unsigned> processorCounts =
      parseProcessorCounts(ProcessorsOpt);
  if (JawsOpt == 0)
    fail("--jaws: must be at least 1");
  if (RunsOpt == 0)
    fail("--runs: must be at least 1");
  const Slowdown slowdown = parseSlowdown(SlowdownOpt, PeriodOpt);
  checkWritable(CsvOpt, "--csv");

  TextTable table;
  table.title = "Firing squad: ALL vs LEVEL on maximal shark-tooth DAGs "
                "(Bender-Phillips Lemma 19, Theorem 21)";
  table.header = {"p",   "x",     "y",         "W",         "D",
                  "ALL", "LEVEL", "ALL/LEVEL", "max(W/p,D)"};
  for (unsigned p : processorCounts) {
    const SharkShape shape = lemma19Shape(p);
    const Dag dag = sharkToothDag(JawsOpt, shape.spindles, shape.toothLength);
    const DagMeasures measures = measure(dag);
    const std::vector<double> speeds(p, 1.0);
    const double all = averageMakespan(dag, Enabling::All, speeds, slowdown);
    const double level =
        averageMakespan(dag, Enabling::Level, speeds, slowdown);
    const double work = double(dag.size());
    table.rows.push_back(
        {std::to_string(p), std::to_string(shape.toothLength),
         std::to_string(shape.spindles), std::to_string(dag.size()),
         std::to_string(measures.depth), fmt::format("{:.2f}", all),
         fmt::format("{:.2f}", level), fmt::format("{:.3f}", all / level),
         fmt::format("{:.2f}", std::max(work / p, double(measures.depth)))});
  }
  table.notes.push_back(fmt::format(
      "{} runs per row, seed {}; {} jaws; x = round(sqrt(log2 p)) tasks per "
      "tooth path, y = round(p / sqrt(log2 p)) spindles per jaw",
      RunsOpt.getValue(), SeedOpt.getValue(), JawsOpt.getValue()));
  table.notes.push_back(
      slowdown.active()
          ? fmt::format("speeds drop to {:g}-{:g}% of 1 for periods of mean "
                        "{:g}; max(W/p,D) is the bound at speed 1",
                        slowdown.minFraction * 100, slowdown.maxFraction * 100,
                        PeriodOpt.getValue())
          : std::string("all processors at speed 1; max(W/p,D) is Graham's "
                        "lower bound"));
  table.notes.push_back(
      "ALL and LEVEL: average makespans. On these DAGs the paper proves ALL = "
      "Omega(D sqrt(log p)) and LEVEL = O(W/p + D log* p), so ALL/LEVEL grows "
      "without bound, but slowly: it passes 1 at about p = 2^20 "
      "(docs/simulation.md)");
  table.print(std::cout);
  writeCsvFile(table, CsvOpt);
  return 0;
}

} // namespace cilkpp::sim
