// Jumps that leave a region of a function body: `break` and `continue` not
// caught by a loop or switch inside the region, `return`, and `goto` to a
// label outside it. Lambdas and local classes inside the region are their
// own functions and are skipped.
#pragma once

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

namespace cilkpp {

std::vector<const clang::Stmt *> jumpsOutOf(const clang::SourceManager &SM, const clang::Stmt *Region);

// "'break'", "'continue'", "'return'" or "'goto'".
const char *jumpName(const clang::Stmt *Jump);

}  // namespace cilkpp
