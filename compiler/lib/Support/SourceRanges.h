// Source ranges as written in the file, with macro expansions resolved to
// where they were expanded. Shared by the semantic checks and codegen.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"

namespace cilkpp {

inline clang::CharSourceRange fileRange(const clang::SourceManager &SM, clang::SourceRange R) {
  return clang::CharSourceRange::getTokenRange(SM.getExpansionLoc(R.getBegin()),
                                               SM.getExpansionRange(R.getEnd()).getEnd());
}

}  // namespace cilkpp
