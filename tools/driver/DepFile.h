// Make-style dependency files (-MD/-MMD -MF -MT -MP with -E or -c), so that
// build systems translate a .cilkpp file again when a header it includes
// changes.
#pragma once

#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"

namespace cilkpp::driver {

// `Target: Dep1 Dep2 ...`, one dependency per continued line, with the
// characters Make treats specially escaped (spaces, '#', '$'); with
// PhonyTargets (-MP), an empty rule for each dependency but the first.
std::string makeDepFile(llvm::StringRef Target, const std::vector<std::string> &Dependencies,
                        bool PhonyTargets);

}  // namespace cilkpp::driver
