// What the subcommands share: the error convention and the parsing and
// writing of options they have in common.
#pragma once

#include <string>

#include "Speed.h"
#include "TextTable.h"

namespace cilkpp::sim {

// Prints "cilkpp-sim: error: <message>" and exits with status 2.
[[noreturn]] void fail(const std::string &message);

// --slowdown LO-HI (percent of full speed) with --period MEAN; an empty
// `range` means fixed speeds.
Slowdown parseSlowdown(const std::string &range, double period);

// Writes `table` as CSV to `path` (nothing if `path` is empty).
void writeCsvFile(const TextTable &table, const std::string &path);

// Fails unless `path` (if not empty) can be opened for writing: checked
// before a simulation that may run for minutes, not after it.
void checkWritable(const std::string &path, const char *option);

// Fails unless `value` is a finite number greater than 0.
void checkFinitePositive(double value, const char *option);

} // namespace cilkpp::sim
