#include "CommandLine.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "llvm/ADT/StringRef.h"

namespace cilkpp::sim {

void fail(const std::string &message) {
  std::cerr << "cilkpp-sim: error: " << message << '\n';
  std::exit(2);
}

Slowdown parseSlowdown(const std::string &range, double period) {
  if (range.empty())
    return {};
  auto [loText, hiText] = llvm::StringRef(range).split('-');
  double lo = 0, hi = 0;
  if (loText.trim().getAsDouble(lo) || hiText.trim().getAsDouble(hi) ||
      !(0 < lo && lo <= hi && hi <= 100))
    fail("--slowdown: expected LO-HI with 0 < LO <= HI <= 100");
  // A zero mean would change speed infinitely often at one instant.
  checkFinitePositive(period, "--period");
  return Slowdown{period, period, lo / 100, hi / 100};
}

void writeCsvFile(const TextTable &table, const std::string &path) {
  if (path.empty())
    return;
  std::ofstream out(path);
  table.writeCsv(out);
  if (!out)
    fail(fmt::format("cannot write '{}'", path));
}

void checkWritable(const std::string &path, const char *option) {
  if (path.empty())
    return;
  std::ofstream out(path, std::ios::app);
  if (!out)
    fail(fmt::format("{}: cannot write '{}'", option, path));
}

void checkFinitePositive(double value, const char *option) {
  if (!(value > 0) || !std::isfinite(value))
    fail(fmt::format("{}: must be a finite number greater than 0", option));
}

} // namespace cilkpp::sim
