// Entry point of the cilkpp translator: one .cilkpp file in, C++ out.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cilkpp {

struct TranslateOptions {
  // The .cilkpp file to translate.
  std::string InputPath;
  // Flags that shape parsing: -I, -isystem, -D, -U, -include, -std=.
  std::vector<std::string> ParseArgs;
  // Emit the serial elision (keywords removed) instead of the parallel code.
  bool Serial = false;
  // Count every spawn for the runtime's statistics (abi.h, count_spawn).
  bool CountSpawns = false;
  // Poll at each procedure's entry and loop back-edges, where a faster
  // worker may take the running frame over (poll.h).
  bool PollPoints = true;
  // Spawns of a procedure by itself call copies of its fast clone that the
  // host compiler inlines (docs/translation.md, "Inlined recursion").
  bool InlinedRecursion = true;
  // Instead of C++, return the signature tables of the file's frames and the
  // function-table entries of its procedures, readable (docs/signatures.md).
  bool DumpSignatures = false;
  // When set, receives every file the translation read: the input first, then
  // the headers it included, sorted (for a depfile: cilkpp -E -MD).
  std::vector<std::string> *Dependencies = nullptr;
};

// Translates one file. Diagnostics are printed to stderr in clang's format
// (file:line:col: error: ...). Returns the translated C++, or std::nullopt
// when there were errors.
std::optional<std::string> translate(const TranslateOptions &Options);

}  // namespace cilkpp
