// `#pragma cilk grainsize(N)`: the iterations a cilk_for runs serially per
// chunk. Recorded by a Clang PragmaHandler; Sema ties each pragma to the
// cilk_for that follows it.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"

#include <cstdint>
#include <vector>

namespace cilkpp {

struct GrainPragma {
  clang::CharSourceRange Range;  // from '#' to the end of the line, removed from the output
  std::uint64_t Grain = 0;
};

// Handles `#pragma cilk grainsize(N)`, `#pragma cilk grainsize N` and
// `#pragma cilk grainsize = N` in the main file; N a positive integer literal.
class GrainsizePragmaHandler : public clang::PragmaHandler {
 public:
  explicit GrainsizePragmaHandler(std::vector<GrainPragma> &Pragmas);
  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer, clang::Token &FirstToken) override;

 private:
  std::vector<GrainPragma> &Pragmas;
};

// Whether the pragma is the one for the cilk_for keyword at Keyword: only
// blanks and comments between them.
bool precedesLoop(const clang::ASTContext &Ctx, const GrainPragma &Pragma, clang::SourceLocation Keyword);

// Every other `#pragma cilk ...` in the main file is an error rather than a
// pragma the host compiler would silently ignore.
class UnknownCilkPragmaHandler : public clang::PragmaHandler {
 public:
  UnknownCilkPragmaHandler() : PragmaHandler("") {}
  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer, clang::Token &FirstToken) override;
};

}  // namespace cilkpp
