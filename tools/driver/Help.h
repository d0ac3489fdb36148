// The text of `cilkpp --help`.
#pragma once

#include <string>
#include <vector>

#include "llvm/Support/raw_ostream.h"

namespace cilkpp::driver {

// One option as the user writes it ("-I <dir>", "-std=<standard>") and what
// it does.
struct HelpEntry {
  std::string Spelling;
  std::string Description;
};

// Prints the usage, the entries in the order given, the arguments-file forms
// and what happens to every other option.
void printHelp(llvm::raw_ostream &OS, const std::vector<HelpEntry> &Entries);

}  // namespace cilkpp::driver
