#include "Experiments.h"

#include <atomic>
#include <cmath>
#include <functional>
#include <thread>

#include <fmt/format.h>

#include "DagGenerators.h"
#include "LowerBounds.h"
#include "Stats.h"

namespace cilkpp::sim {

namespace {

const std::vector<Policy> kDefaultPolicies{Policy::Ecs, Policy::EcsSwap,
                                           Policy::CentralManager};

std::vector<Policy> policiesOf(const ExperimentOptions &o) {
  return o.policies.empty() ? kDefaultPolicies : o.policies;
}

PolicySpec specOf(const ExperimentOptions &o, Policy policy) {
  return PolicySpec{policy, o.beta, o.exactAttempts, o.swapFactor};
}

// Runs fn(0) ... fn(n-1) on worker threads; the calls are independent.
void parallelFor(std::size_t n, unsigned threads,
                 const std::function<void(std::size_t)> &fn) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < n;)
      fn(i);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (auto &t : pool)
    t.join();
}

// Run r of every row uses the same seed and initiating processor, so rows
// differ only by what they vary (common random numbers).
struct RunSetup {
  std::uint64_t seed;
  ProcId initiator;
};
RunSetup runSetup(std::uint64_t seed, unsigned run, unsigned processors) {
  Random rng = Random::stream(seed, run);
  std::uint64_t runSeed = (std::uint64_t(rng.below(1u << 31)) << 32) |
                          rng.below(~0u);
  return RunSetup{runSeed, rng.below(processors)};
}

std::string num(double v, int decimals = 2) {
  return fmt::format("{:.{}f}", v, decimals);
}

struct SweepPoint {
  std::string label;
  double scale;
};

std::string boundsNote(const Dag &dag, const std::vector<double> &speeds,
                       const char *paper) {
  LowerBounds lb = lowerBounds(dag, speeds);
  return fmt::format("lower bounds: W1/pi_tot = {:.2f}, W_inf/pi_max = {:.2f}, "
                     "phases = {:.2f} (paper: {})",
                     lb.work, lb.criticalPath, lb.phases.value_or(0), paper);
}

TextTable intervalSweep(std::string title, const Dag &dag,
                        const MachineSpec &base,
                        const std::vector<SweepPoint> &points,
                        const ExperimentOptions &options, unsigned paperRuns) {
  const unsigned runs = options.runs ? options.runs : paperRuns;
  struct Cell {
    Policy policy;
    std::string label;
    double scale;
  };
  std::vector<Cell> cells;
  for (Policy policy : policiesOf(options)) {
    if (usesIntervals(policy))
      for (const SweepPoint &p : points)
        cells.push_back({policy, p.label, p.scale});
    else
      cells.push_back({policy, "N/A", 1});
  }
  std::vector<RunStats> results(cells.size() * runs);
  parallelFor(results.size(), options.threads, [&](std::size_t i) {
    const Cell &cell = cells[i / runs];
    MachineSpec spec = base;
    for (double &interval : spec.intervals)
      interval *= cell.scale;
    RunSetup setup = runSetup(options.seed, unsigned(i % runs),
                              unsigned(spec.speeds.size()));
    results[i] = simulate(dag, spec, specOf(options, cell.policy), setup.seed,
                          setup.initiator);
  });

  TextTable table;
  table.title = std::move(title);
  table.header = {"Scheduler", "Steal/Mug", "Min", "Avg", "Max",
                  "σ",         "N_S",       "N_M", "N_X"};
  for (std::size_t c = 0; c < cells.size(); ++c) {
    std::vector<double> makespans;
    double steals = 0, muggings = 0, swaps = 0;
    for (unsigned r = 0; r < runs; ++r) {
      const RunStats &s = results[c * runs + r];
      makespans.push_back(s.makespan);
      steals += double(s.steals);
      muggings += double(s.muggings);
      swaps += double(s.swaps);
    }
    Summary m = summarize(makespans);
    table.rows.push_back({std::string(policyName(cells[c].policy)),
                          cells[c].label, num(m.min), num(m.mean), num(m.max),
                          num(m.stddev), num(steals / runs, 1),
                          num(muggings / runs, 1), num(swaps / runs, 1)});
  }
  table.notes.push_back(fmt::format("{} runs per row, seed {}", runs,
                                    options.seed));
  return table;
}

} // namespace

std::vector<double> intervalsForProduct(const std::vector<double> &speeds,
                                        double product) {
  std::vector<double> out;
  for (double s : speeds)
    out.push_back(product / s);
  return out;
}

MachineSpec exp1Machine() {
  MachineSpec spec;
  spec.speeds = {100, 200, 300, 400, 400, 800, 800, 1600};
  spec.intervals = {1, 0.7, 0.5, 0.3, 0.3, 0.1, 0.1, 0.05};
  return spec;
}

MachineSpec exp2Machine() {
  MachineSpec spec;
  spec.speeds = repeatList({{100, 1}, {200, 1}, {300, 1}, {400, 3},
                            {800, 3}, {1600, 3}});
  spec.intervals = intervalsForProduct(spec.speeds, 80);
  return spec;
}

MachineSpec exp3Machine(double minFraction, double maxFraction) {
  MachineSpec spec;
  spec.speeds = repeatList({{100, 1}, {200, 1}, {300, 1}, {400, 2},
                            {800, 4}, {1600, 3}});
  spec.intervals = intervalsForProduct(spec.speeds, 80);
  spec.slowdown = Slowdown{50, 50, minFraction, maxFraction};
  return spec;
}

MachineSpec exp4Machine() {
  MachineSpec spec;
  spec.speeds = repeatList({{1600, 17}, {800, 29}, {400, 25}, {300, 12},
                            {200, 8}, {100, 9}});
  spec.intervals = intervalsForProduct(spec.speeds, 80);
  return spec;
}

TextTable experiment1(const ExperimentOptions &options) {
  std::vector<SweepPoint> points;
  for (int k = -6; k <= 9; ++k) {
    std::string label = k < 0   ? fmt::format("I0/{}", 1 << -k)
                        : k == 0 ? "I0"
                                 : fmt::format("{}I0", 1 << k);
    points.push_back({label, std::ldexp(1.0, k)});
  }
  static const Dag dag = fanOutFanIn();
  MachineSpec spec = exp1Machine();
  TextTable t = intervalSweep(
      "Experiment 1 (Tables 1-2): 1 -> 50 -> 1 tasks of 50000, 8 processors",
      dag, spec, points, options, 500);
  t.notes.push_back(boundsNote(dag, spec.speeds, "605.98"));
  t.notes.push_back("paper: ECS at I0/64 avg 621.4, at I0 626.7, at 512I0 "
                    "1707.1; CM 623.1");
  return t;
}

TextTable experiment2(const ExperimentOptions &options) {
  std::vector<SweepPoint> points;
  for (int k = 0; k < 10; ++k) {
    std::string label = k == 0   ? "I0"
                        : k == 1 ? "(1.2)I0"
                                 : fmt::format("(1.2)^{}I0", k);
    points.push_back({label, std::pow(1.2, k)});
  }
  static const Dag dag = graphicDag();
  MachineSpec spec = exp2Machine();
  TextTable t = intervalSweep(
      "Experiment 2 (Tables 3-4): graphic DAG, 12 processors, speed x "
      "interval = 80",
      dag, spec, points, options, 500);
  t.notes.push_back(boundsNote(dag, spec.speeds, "724.44"));
  t.notes.push_back("paper: ECS at I0 avg 796.38, at (1.2)^9I0 817.58; "
                    "CM 795.62");
  return t;
}

TextTable experiment3(const ExperimentOptions &options) {
  const unsigned runs = options.runs ? options.runs : 100;
  struct Range {
    const char *label;
    double lo, hi;
  };
  const std::vector<Range> ranges{{"100", 1, 1},       {"80-100", .8, 1},
                                  {"60-80", .6, .8},   {"50-70", .5, .7},
                                  {"40-60", .4, .6},   {"10-50", .1, .5}};
  static const Dag graphic = graphicDag(), fanOut = fanOutFanIn();
  struct Row {
    const char *name;
    const Dag *dag;
    Policy policy;
  };
  std::vector<Row> rows;
  for (auto [name, dag] : {std::pair{"Graphic", &graphic},
                           std::pair{"Fan-out", &fanOut}})
    for (Policy policy : policiesOf(options))
      rows.push_back({name, dag, policy});

  const std::size_t perRow = ranges.size() * runs;
  std::vector<double> makespans(rows.size() * perRow);
  parallelFor(makespans.size(), options.threads, [&](std::size_t i) {
    const Row &row = rows[i / perRow];
    const Range &range = ranges[(i % perRow) / runs];
    MachineSpec spec = exp3Machine(range.lo, range.hi);
    RunSetup setup = runSetup(options.seed, unsigned(i % runs),
                              unsigned(spec.speeds.size()));
    makespans[i] = simulate(*row.dag, spec, specOf(options, row.policy),
                            setup.seed, setup.initiator)
                       .makespan;
  });

  TextTable t;
  t.title = "Experiment 3 (Table 5): average makespan, 12 processors whose "
            "speed drops to a range (% of full speed), periods of mean 50";
  t.header = {"DAG", "Scheduler"};
  for (const Range &r : ranges)
    t.header.push_back(r.label);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::string> line{rows[r].name,
                                  std::string(policyName(rows[r].policy))};
    for (std::size_t k = 0; k < ranges.size(); ++k) {
      auto first = makespans.begin() + std::ptrdiff_t(r * perRow + k * runs);
      line.push_back(num(summarize({first, first + runs}).mean, 1));
    }
    t.rows.push_back(std::move(line));
  }
  MachineSpec full = exp3Machine(1, 1);
  t.notes.push_back(fmt::format("{} runs per cell, seed {}", runs, options.seed));
  t.notes.push_back("graphic " + boundsNote(graphic, full.speeds, "n/a"));
  t.notes.push_back("fan-out " + boundsNote(fanOut, full.speeds, "n/a"));
  t.notes.push_back("paper (ECS): Graphic 785 825 917 939 1018 1097; "
                    "Fan-out 346 361 397 407 441 493");
  return t;
}

TextTable experiment4(const ExperimentOptions &options, TextTable *batchTable) {
  static const Dag graphic = graphicDag(), fanOut = fanOutFanIn();
  const MachineSpec spec = exp4Machine();
  const std::size_t completions =
      std::size_t(options.batches) * options.batchSize;
  const std::vector<double> means{300, 100};
  const std::vector<Policy> policies = policiesOf(options);

  // Both schedulers see the same arrival timeline for a given load.
  std::vector<std::vector<Arrival>> timelines;
  for (std::size_t l = 0; l < means.size(); ++l) {
    Random rng = Random::stream(options.seed, 4000 + l);
    std::vector<Arrival> arrivals;
    double t = 0;
    for (std::size_t i = 0; i < completions + completions / 10 + 200; ++i) {
      t += rng.exponential(means[l]);
      const Dag *dag = rng.below(2) ? &graphic : &fanOut;
      arrivals.push_back({dag, t, rng.below(unsigned(spec.speeds.size()))});
    }
    timelines.push_back(std::move(arrivals));
  }
  std::vector<StreamResult> results(means.size() * policies.size());
  parallelFor(results.size(), options.threads, [&](std::size_t i) {
    std::size_t l = i / policies.size();
    results[i] = simulateStream(timelines[l], spec,
                                specOf(options, policies[i % policies.size()]),
                                options.seed, completions);
  });

  TextTable t;
  t.title = "Experiment 4: 100 processors, Poisson arrivals of graphic and "
            "fan-out DAGs; response time (finish - arrival)";
  t.header = {"Arrivals", "Scheduler", "DAG",    "Jobs", "Min", "Avg",
              "Median",   "P95",       "Max",    "N_S/job", "N_M/job"};
  if (batchTable) {
    batchTable->title = "Experiment 4, per batch of completions (Figs. 3-4)";
    batchTable->header = {"Arrivals", "Scheduler", "DAG", "Batch",
                          "Min",      "Avg",       "Max"};
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    const StreamResult &r = results[i];
    const std::string load = fmt::format("mean {}", means[i / policies.size()]);
    const std::string policy(policyName(policies[i % policies.size()]));
    const auto &arrivals = timelines[i / policies.size()];
    for (auto [name, dag] : {std::pair{"Graphic", &graphic},
                             std::pair{"Fan-out", &fanOut}}) {
      std::vector<double> all;
      std::vector<std::vector<double>> batches(options.batches);
      for (std::size_t k = 0; k < r.responses.size(); ++k)
        if (arrivals[r.responses[k].first].dag == dag) {
          all.push_back(r.responses[k].second);
          batches[k / options.batchSize].push_back(r.responses[k].second);
        }
      Summary s = summarize(all);
      double jobs = double(r.responses.size());
      t.rows.push_back({load, policy, name, std::to_string(s.count),
                        num(s.min), num(s.mean), num(s.median), num(s.p95),
                        num(s.max), num(double(r.stats.steals) / jobs, 1),
                        num(double(r.stats.muggings) / jobs, 1)});
      if (batchTable)
        for (std::size_t b = 0; b < batches.size(); ++b) {
          Summary bs = summarize(batches[b]);
          batchTable->rows.push_back({load, policy, name, std::to_string(b + 1),
                                      num(bs.min), num(bs.mean), num(bs.max)});
        }
    }
  }
  double work = (measure(graphic).totalWork + measure(fanOut).totalWork) / 2;
  double capacity = 0;
  for (double s : spec.speeds)
    capacity += s;
  t.notes.push_back(fmt::format(
      "{} completions per run, seed {}; offered load {:.4f} (mean 300) and "
      "{:.4f} (mean 100)",
      completions, options.seed, work / 300 / capacity,
      work / 100 / capacity));
  t.notes.push_back("graphic " + boundsNote(graphic, spec.speeds, "390.58"));
  t.notes.push_back("paper (ECS, mean 300, graphic): median 421.85, 95th "
                    "percentile 534.03");
  return t;
}

} // namespace cilkpp::sim
