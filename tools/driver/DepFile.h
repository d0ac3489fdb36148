// Make-style dependency files (-MD/-MMD -MF -MT -MP with -E or -c), so that
// build systems translate a .cilkpp file again when a header it includes
// changes.
#pragma once

#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"

namespace cilkpp::driver {

// Path with the characters Make treats specially escaped (spaces, '#', '$').
std::string quoteForMake(llvm::StringRef Path);

// `Target: Dep1 Dep2 ...` (Target as it is, quoteForMake'd if need be), one
// dependency per continued line, quoted; with PhonyTargets (-MP), an empty
// rule for each dependency but the first.
std::string makeDepFile(llvm::StringRef Target, const std::vector<std::string> &Dependencies,
                        bool PhonyTargets);

// The dependencies of the first rule of a Make-style dependency file as a
// compiler writes it (-MD): continued lines joined, escapes undone.
std::vector<std::string> readDepFileDependencies(llvm::StringRef Text);

}  // namespace cilkpp::driver
