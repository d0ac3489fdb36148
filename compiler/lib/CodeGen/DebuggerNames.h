// Frame fields under the user's names, for debuggers. A clone reads a
// variable that lives across a continuation point as `__frame->x`, so gdb's
// `print x` (and `info locals`, and breakpoint conditions) found no `x` in
// the resume clone, or worse, a global of that name. A clone that reads
// fields through the frame declares a reference named after each, right
// after it has the frame: `[[maybe_unused]] auto &x = __frame->x;`, which
// optimisation removes.
#pragma once

#include "Analysis/FrameDescription.h"

#include "clang/AST/ASTContext.h"

#include <string>

namespace cilkpp {

// The declarations for the fields a clone reads through its frame: every
// field in the resume clone, the resident ones (not parameters, which the
// fast clone has by name) in the fast clone. A field gets one only where
// its name means nothing else anywhere in the procedure (another variable,
// a type, a function, a member of a lambda's, a macro's expansion), so the
// reference hides nothing the generated code names; references, the
// translation's own variables (`__` names) and variables a lambda captures
// get none.
std::string debuggerNames(clang::ASTContext &Ctx, const FrameDescription &Frame, bool ResumeClone);

}  // namespace cilkpp
