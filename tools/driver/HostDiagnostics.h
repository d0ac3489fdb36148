// The host compiler's diagnostics on translated code, as the user would get
// them compiling the serial program. Each procedure's body is compiled
// twice, as its fast and its resume clone, so a warning on one of its lines
// comes twice (at two columns, since the resume clone reads its variables
// from the frame), and the functions the diagnostics are "in" are the
// clones, named `__cilkpp_f_fast(...)`.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace cilkpp::driver {

// Output with each diagnostic (and its notes and snippet) that repeats an
// earlier one on the same line with the same text left out, the functions
// named after the user's procedures, and clang's "N warnings generated."
// counting what is left. Terminal colours are kept.
std::string cleanHostDiagnostics(llvm::StringRef Output);

}  // namespace cilkpp::driver
