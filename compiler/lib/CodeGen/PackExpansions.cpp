#include "CodeGen/PackExpansions.h"

#include "CodeGen/Naming.h"
#include "Support/Instantiations.h"
#include "Support/SourceRanges.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

#include <cctype>

using namespace clang;

namespace cilkpp {
namespace {

unsigned offsetAfter(const SourceManager &SM, const LangOptions &LO, SourceLocation TokenLoc) {
  return SM.getFileOffset(TokenLoc) + Lexer::MeasureTokenLength(TokenLoc, SM, LO);
}

}  // namespace

std::vector<PackExpansion> packExpansionsOf(const SourceManager &SM, const LangOptions &LO, const FunctionDecl *Instance) {
  std::vector<PackExpansion> Expansions;
  const FunctionDecl *Pattern =
      Instance->isTemplateInstantiation() ? Instance->getTemplateInstantiationPattern() : nullptr;
  if (!Pattern || !Pattern->getBody()) return Expansions;
  struct PatternVisitor : RecursiveASTVisitor<PatternVisitor> {
    const SourceManager &SM;
    const LangOptions &LO;
    std::vector<PackExpansion> &Found;
    PatternVisitor(const SourceManager &SM, const LangOptions &LO, std::vector<PackExpansion> &F)
        : SM(SM), LO(LO), Found(F) {}
    bool VisitPackExpansionExpr(PackExpansionExpr *E) {
      const CharSourceRange R = fileRange(SM, E->getPattern()->getSourceRange());
      Found.push_back({SM.getFileOffset(R.getBegin()), offsetAfter(SM, LO, R.getEnd()),
                       offsetAfter(SM, LO, SM.getExpansionLoc(E->getEllipsisLoc())), {}, {}});
      return true;
    }
  } PV(SM, LO, Expansions);
  PV.TraverseStmt(Pattern->getBody());
  llvm::sort(Expansions, [](const PackExpansion &A, const PackExpansion &B) { return A.Begin < B.Begin; });

  struct InstanceVisitor : RecursiveASTVisitor<InstanceVisitor> {
    const SourceManager &SM;
    std::vector<PackExpansion> &Found;
    InstanceVisitor(const SourceManager &SM, std::vector<PackExpansion> &F) : SM(SM), Found(F) {}
    void match(llvm::ArrayRef<const Expr *> Args) {
      for (const Expr *Arg : Args) {
        if (isa<CXXDefaultArgExpr>(Arg) || Arg->getBeginLoc().isInvalid()) continue;
        const unsigned At = SM.getFileOffset(SM.getExpansionLoc(Arg->getBeginLoc()));
        for (PackExpansion &E : Found)
          if (E.Begin == At) E.Elements.push_back(Arg);
      }
    }
    bool VisitCallExpr(CallExpr *E) { return match({E->getArgs(), E->getNumArgs()}), true; }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) { return match({E->getArgs(), E->getNumArgs()}), true; }
  } IV(SM, Expansions);
  IV.TraverseStmt(Instance->getBody());
  return Expansions;
}

std::string renderPackElement(ASTContext &Ctx, const PackExpansion &E, const Expr *Element,
                              const TextSubstitutions &Substitutions,
                              llvm::function_ref<std::string(const ParmVarDecl *)> ParameterText) {
  const SourceManager &SM = Ctx.getSourceManager();
  TextSubstitutions Local(Substitutions.lower_bound(E.Begin), Substitutions.lower_bound(E.PatternEnd));
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext &Ctx;
    const SourceManager &SM;
    TextSubstitutions &Local;
    llvm::function_ref<std::string(const ParmVarDecl *)> ParameterText;
    Visitor(ASTContext &Ctx, TextSubstitutions &L, llvm::function_ref<std::string(const ParmVarDecl *)> P)
        : Ctx(Ctx), SM(Ctx.getSourceManager()), Local(L), ParameterText(P) {}
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
      if (!P || !packElementIndex(P)) return true;
      const SourceLocation Loc = SM.getExpansionLoc(DR->getLocation());
      Local[SM.getFileOffset(Loc)] = {unsigned(P->getName().size()), ParameterText(P)};
      return true;
    }
    bool VisitSubstTemplateTypeParmTypeLoc(SubstTemplateTypeParmTypeLoc TL) {
      if (!TL.getTypePtr()->getReplacedParameter()->isParameterPack()) return true;
      const SourceLocation Loc = SM.getExpansionLoc(TL.getBeginLoc());
      Local[SM.getFileOffset(Loc)] = {Lexer::MeasureTokenLength(Loc, SM, Ctx.getLangOpts()),
                                      typeQualified(Ctx, TL.getType())};
      return true;
    }
  } V(Ctx, Local, ParameterText);
  V.TraverseStmt(const_cast<Expr *>(Element));
  const StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  std::string Out;
  unsigned Pos = E.Begin;
  for (auto It = Local.lower_bound(E.Begin); It != Local.end() && It->first < E.PatternEnd; ++It) {
    Out += Buffer.substr(Pos, It->first - Pos).str() + It->second.second;
    Pos = It->first + It->second.first;
  }
  return Out + Buffer.substr(Pos, E.PatternEnd - Pos).str();
}

std::pair<unsigned, unsigned> replacedRange(StringRef Buffer, const PackExpansion &E) {
  if (!E.Elements.empty()) return {E.Begin, E.End};
  unsigned Before = E.Begin, After = E.End;
  while (Before > 0 && isspace(static_cast<unsigned char>(Buffer[Before - 1]))) --Before;
  while (After < Buffer.size() && isspace(static_cast<unsigned char>(Buffer[After]))) ++After;
  if (Before > 0 && Buffer[Before - 1] == ',') return {Before - 1, E.End};
  if (After < Buffer.size() && Buffer[After] == ',') return {E.Begin, After + 1};
  return {E.Begin, E.End};
}

}  // namespace cilkpp
