// cilkpp-sim: simulates schedulers on DAGs and heterogeneous processors and
// reproduces the experiments of the papers (docs/simulation.md).
//
//   cilkpp-sim exp1 [--runs N] [--seed S] [--scheduler ecs,cm] [--csv F]
//   cilkpp-sim run --generate graphic --speeds 1600x2,800,100 --gantt g.csv

#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"

#include "CommandLine.h"
#include "Commands.h"
#include "DagFile.h"
#include "DagGenerators.h"
#include "Experiments.h"
#include "LowerBounds.h"
#include "Simulate.h"
#include "Stats.h"
#include "Theorems.h"

namespace cl = llvm::cl;
using namespace cilkpp::sim;

namespace {

cl::SubCommand Exp1Cmd("exp1", "Experiment 1 (Tables 1-2): fan-out/fan-in "
                               "on 8 processors, intervals I0/64 .. 512I0");
cl::SubCommand Exp2Cmd("exp2", "Experiment 2 (Tables 3-4): graphic DAG on "
                               "12 processors");
cl::SubCommand Exp3Cmd("exp3", "Experiment 3 (Table 5): changing speeds");
cl::SubCommand Exp4Cmd("exp4", "Experiment 4: 100 processors, Poisson "
                               "arrivals of DAGs");
cl::SubCommand RunCmd("run", "Simulate a DAG (from a file or a generator) "
                             "on given processors");

cl::OptionCategory Category("cilkpp-sim options");


cl::opt<unsigned> RunsOpt("runs", cl::desc("Runs per row (default: the paper's)"),
                          cl::init(0), cl::sub(Exp1Cmd), cl::sub(Exp2Cmd),
                          cl::sub(Exp3Cmd), cl::sub(RunCmd), cl::cat(Category));
cl::opt<std::uint64_t> SeedOpt("seed", cl::desc("Random seed (default 1)"),
                               cl::init(1), cl::sub(Exp1Cmd), cl::sub(Exp2Cmd),
                               cl::sub(Exp3Cmd), cl::sub(Exp4Cmd),
                               cl::sub(RunCmd), cl::cat(Category));
cl::opt<std::string> CsvOpt("csv", cl::desc("Also write the table as CSV"),
                            cl::value_desc("file"), cl::sub(Exp1Cmd),
                            cl::sub(Exp2Cmd), cl::sub(Exp3Cmd),
                            cl::sub(Exp4Cmd), cl::sub(RunCmd),
                            cl::cat(Category));
cl::opt<std::string> SchedulerOpt(
    "scheduler",
    cl::desc("Schedulers, comma separated: cilk, ecs, ecs-swap, cm, maxutil, "
             "highutil (default ecs,ecs-swap,cm; run: ecs)"),
    cl::value_desc("names"), cl::sub(Exp1Cmd), cl::sub(Exp2Cmd),
    cl::sub(Exp3Cmd), cl::sub(Exp4Cmd), cl::sub(RunCmd), cl::cat(Category));
cl::opt<double> BetaOpt(
    "beta",
    cl::desc("Mug (ecs) or reassign (highutil) only when more than beta "
             "times faster (default 1: any faster processor)"),
    cl::init(1), cl::sub(Exp1Cmd), cl::sub(Exp2Cmd), cl::sub(Exp3Cmd),
    cl::sub(Exp4Cmd), cl::sub(RunCmd), cl::cat(Category));
cl::opt<bool> ExactOpt(
    "exact-attempts",
    cl::desc("Simulate every failed steal attempt (slow; same distribution)"),
    cl::sub(Exp1Cmd), cl::sub(Exp2Cmd), cl::sub(Exp3Cmd), cl::sub(Exp4Cmd),
    cl::sub(RunCmd), cl::cat(Category));
cl::opt<double> SwapFactorOpt(
    "swap-factor",
    cl::desc("ecs-swap probes every this many steal intervals (default 4)"),
    cl::init(4), cl::sub(Exp1Cmd), cl::sub(Exp2Cmd), cl::sub(Exp3Cmd),
    cl::sub(Exp4Cmd), cl::sub(RunCmd), cl::cat(Category));
cl::opt<unsigned> ThreadsOpt("threads",
                             cl::desc("Simulation threads (default: all cores)"),
                             cl::init(0), cl::sub(Exp1Cmd), cl::sub(Exp2Cmd),
                             cl::sub(Exp3Cmd), cl::sub(Exp4Cmd),
                             cl::cat(Category));
cl::opt<unsigned> BatchesOpt("batches",
                             cl::desc("Batches of completions (default 10)"),
                             cl::init(10), cl::sub(Exp4Cmd), cl::cat(Category));
cl::opt<unsigned> BatchSizeOpt("batch-size",
                               cl::desc("Completions per batch (default 1000)"),
                               cl::init(1000), cl::sub(Exp4Cmd),
                               cl::cat(Category));
cl::opt<std::string> BatchCsvOpt("batches-csv",
                                 cl::desc("Write the per-batch table as CSV"),
                                 cl::value_desc("file"), cl::sub(Exp4Cmd),
                                 cl::cat(Category));

// `run` only.
cl::opt<std::string> DagOpt("dag", cl::desc("Read the DAG from a file (text "
                                            "or .json; docs/simulation.md)"),
                            cl::value_desc("file"), cl::sub(RunCmd),
                            cl::cat(Category));
cl::opt<std::string> GenerateOpt(
    "generate",
    cl::desc("Generate the DAG: fanout[:W], graphic, fib:N, random:SEED, "
             "shark:JAWS,SPINDLES,TEETH"),
    cl::value_desc("spec"), cl::sub(RunCmd), cl::cat(Category));
cl::opt<std::string> SpeedsOpt(
    "speeds", cl::desc("Processor speeds, e.g. 1600x3,800,100 (required)"),
    cl::value_desc("list"), cl::sub(RunCmd), cl::cat(Category));
cl::opt<std::string> IntervalsOpt(
    "intervals", cl::desc("Steal/mug interval of each processor"),
    cl::value_desc("list"), cl::sub(RunCmd), cl::cat(Category));
cl::opt<double> ProductOpt(
    "interval-product",
    cl::desc("Intervals with speed x interval = this (default 80)"),
    cl::init(80), cl::sub(RunCmd), cl::cat(Category));
cl::opt<std::string> SlowdownOpt(
    "slowdown",
    cl::desc("Speeds drop to LO-HI percent of full speed for exponential "
             "periods (Exp 3)"),
    cl::value_desc("LO-HI"), cl::sub(RunCmd), cl::cat(Category));
cl::opt<double> PeriodOpt("period",
                          cl::desc("Mean length of full and slow periods "
                                   "(default 50)"),
                          cl::init(50), cl::sub(RunCmd), cl::cat(Category));
cl::opt<int> InitiatorOpt("initiator",
                          cl::desc("Processor that starts the DAG (default: "
                                   "random per run)"),
                          cl::init(-1), cl::sub(RunCmd), cl::cat(Category));
cl::opt<std::string> GanttOpt("gantt",
                              cl::desc("Write the first run's schedule (one "
                                       "row per task segment) as CSV"),
                              cl::value_desc("file"), cl::sub(RunCmd),
                              cl::cat(Category));

constexpr unsigned MaxRuns = 10'000'000;

double parseNumber(llvm::StringRef text, const char *option) {
  double value;
  if (text.trim().getAsDouble(value) || !(value > 0) || !std::isfinite(value))
    fail(fmt::format("{}: '{}' is not a finite positive number", option, text.str()));
  return value;
}

// "1600x3,800,100" -> 1600 1600 1600 800 100
std::vector<double> parseList(llvm::StringRef text, const char *option) {
  std::vector<double> out;
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  for (llvm::StringRef item : items) {
    auto [value, count] = item.split('x');
    unsigned repeat = 1;
    if (!count.empty() && (count.trim().getAsInteger(10, repeat) || repeat == 0))
      fail(fmt::format("{}: '{}' is not a repeat count", option, count.str()));
    out.insert(out.end(), repeat, parseNumber(value, option));
  }
  return out;
}

std::vector<Policy> parsePolicies(const std::string &text) {
  std::vector<Policy> out;
  if (text.empty())
    return out;
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(text).split(names, ',');
  for (llvm::StringRef name : names) {
    auto policy = parsePolicy(name.trim());
    if (!policy)
      fail(fmt::format("--scheduler: unknown scheduler '{}' (known: {})",
                       name.str(), policyNames()));
    out.push_back(*policy);
  }
  return out;
}

ExperimentOptions experimentOptions() {
  if (!(BetaOpt >= 1) || !std::isfinite(BetaOpt))
    fail(fmt::format("--beta: {} is not a finite number of at least 1", BetaOpt.getValue()));
  checkFinitePositive(SwapFactorOpt, "--swap-factor");
  // Every run's result is kept for the table's statistics.
  if (RunsOpt > MaxRuns)
    fail(fmt::format("--runs: at most {}", MaxRuns));
  ExperimentOptions o;
  o.runs = RunsOpt;
  o.seed = SeedOpt;
  o.policies = parsePolicies(SchedulerOpt);
  o.beta = BetaOpt;
  o.exactAttempts = ExactOpt;
  o.swapFactor = SwapFactorOpt;
  o.threads = ThreadsOpt;
  o.batches = BatchesOpt;
  o.batchSize = BatchSizeOpt;
  if (o.batches == 0 || o.batchSize == 0)
    fail("--batches and --batch-size must be positive");
  return o;
}

Dag generate(llvm::StringRef spec) {
  auto [kind, args] = spec.split(':');
  llvm::SmallVector<llvm::StringRef> parts;
  args.split(parts, ',', -1, false);
  // Sizes are capped so that a typo cannot ask for more memory than the
  // machine has (fib:N has about 3 fib(N) nodes).
  auto integer = [&](std::size_t i, unsigned lo, unsigned hi) {
    unsigned v = 0;
    if (i >= parts.size() || parts[i].getAsInteger(10, v) || v < lo || v > hi)
      fail(fmt::format("--generate: '{}': argument {} must be an integer in "
                       "[{}, {}]",
                       spec.str(), i + 1, lo, hi));
    return v;
  };
  if (kind == "fanout")
    return parts.empty() ? fanOutFanIn() : fanOutFanIn(integer(0, 1, 1000000));
  if (kind == "graphic")
    return graphicDag();
  if (kind == "fib")
    return fibDag(integer(0, 0, 27));
  if (kind == "random")
    return randomCilkDag(integer(0, 0, ~0u));
  if (kind == "shark")
    return sharkToothDag(integer(0, 1, 1000), integer(1, 1, 100000),
                         integer(2, 1, 1000));
  fail(fmt::format("--generate: unknown generator '{}' (known: fanout, "
                   "graphic, fib, random, shark)",
                   kind.str()));
}

int runCommand() {
  if (DagOpt.empty() == GenerateOpt.empty())
    fail("run: give exactly one of --dag FILE and --generate SPEC");
  Dag dag;
  if (!DagOpt.empty()) {
    auto read = readDagFile(DagOpt);
    if (!read) {
      std::cerr << llvm::toString(read.takeError()) << '\n';
      return 2;
    }
    dag = std::move(*read);
  } else {
    dag = generate(GenerateOpt);
  }
  if (SpeedsOpt.empty())
    fail("run: --speeds is required (e.g. --speeds 1600x2,800,100)");
  MachineSpec spec;
  spec.speeds = parseList(SpeedsOpt, "--speeds");
  if (spec.speeds.size() < 2)
    fail("--speeds: need at least two processors");
  if (!IntervalsOpt.empty()) {
    spec.intervals = parseList(IntervalsOpt, "--intervals");
    if (spec.intervals.size() != spec.speeds.size())
      fail(fmt::format("--intervals: {} intervals for {} processors",
                       spec.intervals.size(), spec.speeds.size()));
  } else {
    checkFinitePositive(ProductOpt, "--interval-product");
    spec.intervals = intervalsForProduct(spec.speeds, ProductOpt);
  }
  spec.slowdown = parseSlowdown(SlowdownOpt, PeriodOpt);
  // (-1, the default, means a random processor per run.)
  if ((InitiatorOpt.getNumOccurrences() && InitiatorOpt < 0) ||
      InitiatorOpt >= int(spec.speeds.size()))
    fail(fmt::format("--initiator: no processor {} (there are {})",
                     InitiatorOpt.getValue(), spec.speeds.size()));

  ExperimentOptions o = experimentOptions();
  checkWritable(GanttOpt, "--gantt");
  checkWritable(CsvOpt, "--csv");
  const DagMeasures measures = measure(dag);
  std::size_t violations = 0;
  std::vector<Policy> policies =
      o.policies.empty() ? std::vector<Policy>{Policy::Ecs} : o.policies;
  const unsigned runs = o.runs ? o.runs : 1;
  TextTable table;
  table.header = {"Scheduler", "Runs", "Min", "Avg", "Max",
                  "σ",         "N_S",  "N_M", "N_X"};
  for (Policy policy : policies) {
    std::vector<double> makespans;
    double steals = 0, muggings = 0, swaps = 0;
    for (unsigned r = 0; r < runs; ++r) {
      Random rng = Random::stream(o.seed, r);
      std::uint64_t seed = rng.below(~0u);
      ProcId initiator = InitiatorOpt >= 0
                             ? ProcId(InitiatorOpt)
                             : rng.below(unsigned(spec.speeds.size()));
      std::vector<Segment> segments;
      bool gantt = r == 0 && !GanttOpt.empty() && policy == policies.front();
      const PolicySpec policySpec{policy, o.beta, o.exactAttempts,
                                  o.swapFactor};
      RunStats s = simulate(dag, spec, policySpec, seed, initiator,
                            gantt ? &segments : nullptr);
      if (!spec.slowdown.active())
        if (std::string why = checkTheorems(measures, spec.speeds, policySpec, s);
            !why.empty()) {
          std::cerr << fmt::format("cilkpp-sim: {} run {}: {}\n",
                                   policyName(policy), r, why);
          ++violations;
        }
      makespans.push_back(s.makespan);
      steals += double(s.steals);
      muggings += double(s.muggings);
      swaps += double(s.swaps);
      if (gantt) {
        std::ofstream out(GanttOpt);
        out << "processor,speed,start,end,node\n";
        for (const Segment &g : segments)
          out << fmt::format("{},{},{},{},{}\n", g.proc, spec.speeds[g.proc],
                             g.start, g.end, g.node);
        if (!out)
          fail(fmt::format("cannot write '{}'", GanttOpt.getValue()));
      }
    }
    Summary m = summarize(makespans);
    auto f = [](double v, int d = 2) { return fmt::format("{:.{}f}", v, d); };
    table.rows.push_back({std::string(policyName(policy)),
                          std::to_string(runs), f(m.min), f(m.mean), f(m.max),
                          f(m.stddev), f(steals / runs, 1),
                          f(muggings / runs, 1), f(swaps / runs, 1)});
  }
  LowerBounds lb = lowerBounds(dag, spec.speeds);
  table.notes.push_back(fmt::format(
      "DAG: {} nodes, work {}, critical path {}, threads (S1) {}", dag.size(),
      measures.totalWork, measures.criticalPath, measures.threads));
  table.notes.push_back(
      fmt::format("lower bounds: W1/pi_tot = {:.2f}, W_inf/pi_max = {:.2f}{}",
                  lb.work, lb.criticalPath,
                  lb.phases ? fmt::format(", phases = {:.2f}", *lb.phases)
                            : std::string()));
  table.notes.push_back(fmt::format(
      "Bender-Rabin: maximum utilization <= {:.2f} (Theorem 2), high "
      "utilization (beta {}) <= {:.2f} (Theorem 4), migrations <= {} "
      "(Theorem 5){}",
      theorem2Bound(measures, spec.speeds), o.beta,
      theorem4Bound(measures, spec.speeds, o.beta), theorem5Bound(measures),
      spec.slowdown.active() ? "; not checked: speeds change" : ""));
  table.print(std::cout);
  writeCsvFile(table, CsvOpt);
  // A run that breaks a theorem is a simulator bug.
  return violations ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(Category);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "cilkpp-sim: scheduling simulator for "
                                   "heterogeneous processors\n",
                                   &errorStream)) {
    // One line, as the other errors: llvm::cl's first, without its prefix
    // (a bad option value it has printed itself, as one line).
    llvm::StringRef first = llvm::StringRef(errors).split('\n').first.trim();
    if (first.empty())
      std::exit(2);
    first.consume_front(llvm::StringRef(argv[0]).str() + ": ");
    first.consume_front("cilkpp-sim: ");
    first.consume_front("for the ");
    fail(first.str());
  }
  if (RunsOpt.getNumOccurrences() && RunsOpt == 0)
    fail("--runs: must be at least 1");
  if (RunCmd)
    return runCommand();
  if (firingSquadSelected())
    return runFiringSquadCommand();
  bool exp1 = bool(Exp1Cmd), exp2 = bool(Exp2Cmd), exp3 = bool(Exp3Cmd),
       exp4 = bool(Exp4Cmd);
  if (!(exp1 || exp2 || exp3 || exp4))
    fail("no command given (exp1, exp2, exp3, exp4, run, firing-squad; see "
         "--help)");
  ExperimentOptions options = experimentOptions();
  checkWritable(CsvOpt, "--csv");
  checkWritable(BatchCsvOpt, "--batches-csv");
  TextTable table, batches;
  if (exp1)
    table = experiment1(options);
  else if (exp2)
    table = experiment2(options);
  else if (exp3)
    table = experiment3(options);
  else
    table = experiment4(options, &batches);
  table.print(std::cout);
  writeCsvFile(table, CsvOpt);
  if (exp4)
    writeCsvFile(batches, BatchCsvOpt);
  return 0;
}
