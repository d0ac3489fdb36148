#include "CodeGen/PredefinedNames.h"

#include "CodeGen/SourceText.h"

#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {

namespace {

// A predefined name reached through a macro's body, in FD's own code (a
// lambda's names its operator(), and the macros would rename those).
struct MacroBodyUse : RecursiveASTVisitor<MacroBodyUse> {
  explicit MacroBodyUse(const SourceManager &SM) : SM(SM) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitPredefinedExpr(PredefinedExpr *E) {
    const SourceLocation At = E->getLocation();
    Found |= At.isMacroID() && !SM.isMacroArgExpansion(At);
    return !Found;
  }
  const SourceManager &SM;
  bool Found = false;
};

}  // namespace

PredefinedNameMacros predefinedNameMacros(const Stmt *Body, const Decl *Named) {
  MacroBodyUse Use(Named->getASTContext().getSourceManager());
  Use.TraverseStmt(const_cast<Stmt *>(Body));
  if (!Use.Found) return {};
  const std::string Name = cStringLiteral(PredefinedExpr::ComputeName(PredefinedIdentKind::Func, Named));
  PredefinedNameMacros Macros{fmt::format("#define __func__ {0}\n#define __FUNCTION__ {0}\n", Name),
                              "#undef __func__\n#undef __FUNCTION__\n"};
  if (!Named->isTemplated()) {
    // (In Clang's spelling, which g++'s `long int f(long int)` may not match.)
    Macros.Define += fmt::format("#define __PRETTY_FUNCTION__ {}\n", cStringLiteral(PredefinedExpr::ComputeName(
                                                                         PredefinedIdentKind::PrettyFunction, Named)));
    Macros.Undefine += "#undef __PRETTY_FUNCTION__\n";
  }
  return Macros;
}

std::optional<std::string> predefinedNameLiteral(const SourceManager &SM, const PredefinedExpr *E, const Decl *Named,
                                                 bool InNestedLambda) {
  const SourceLocation At = E->getLocation();
  if (At.isInvalid() || (At.isMacroID() && !SM.isMacroArgExpansion(At))) return std::nullopt;
  if (const StringLiteral *Computed = E->getFunctionName()) return cStringLiteral(Computed->getString());
  if (InNestedLambda || E->getIdentKind() == PredefinedIdentKind::PrettyFunction) return std::nullopt;
  return cStringLiteral(PredefinedExpr::ComputeName(PredefinedIdentKind::Func, Named));
}

}  // namespace cilkpp
