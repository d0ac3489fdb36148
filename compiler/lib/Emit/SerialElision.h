// The serial elision: the program with every cilkpp keyword removed, which
// is the C++ program whose behaviour the parallel translation must match.
#pragma once

#include "Dialect/Keywords.h"
#include "Dialect/Pragmas.h"

#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace cilkpp {

// The keyword spelled Spelled, blanked: spaces, with its line breaks (a
// keyword split by backslash-newline) kept so that the lines after it stay
// where they were; `cilk_for` keeps `for` in front.
std::string blankedKeyword(llvm::StringRef Spelled, bool KeepFor = false);

// Also removes `#pragma cilk grainsize` lines, which the host compiler does
// not know.
void elideKeywords(clang::Rewriter &Main, llvm::ArrayRef<KeywordUse> Uses, llvm::ArrayRef<GrainPragma> Pragmas);

}  // namespace cilkpp
