#include "CodeGen/PackExpansions.h"

#include "CodeGen/Naming.h"
#include "Support/Instantiations.h"
#include "Support/SourceRanges.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

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
                       offsetAfter(SM, LO, SM.getExpansionLoc(E->getEllipsisLoc())), {}, {}, {}});
      return true;
    }
    bool VisitPackExpansionTypeLoc(PackExpansionTypeLoc TL) {
      const CharSourceRange R = fileRange(SM, TL.getPatternLoc().getSourceRange());
      Found.push_back({SM.getFileOffset(R.getBegin()), offsetAfter(SM, LO, R.getEnd()),
                       offsetAfter(SM, LO, SM.getExpansionLoc(TL.getEllipsisLoc())), {}, {}, {}});
      return true;
    }
  } PV(SM, LO, Expansions);
  PV.TraverseStmt(Pattern->getBody());
  llvm::sort(Expansions, [](const PackExpansion &A, const PackExpansion &B) { return A.Begin < B.Begin; });

  // (A type written once may be traversed more than once: `T a, b;`.)
  struct InstanceVisitor : RecursiveASTVisitor<InstanceVisitor> {
    const SourceManager &SM;
    std::vector<PackExpansion> &Found;
    llvm::DenseSet<const void *> Seen;
    InstanceVisitor(const SourceManager &SM, std::vector<PackExpansion> &F) : SM(SM), Found(F) {}
    PackExpansion *at(SourceLocation Loc) {
      if (Loc.isInvalid()) return nullptr;
      const unsigned Offset = SM.getFileOffset(SM.getExpansionLoc(Loc));
      for (PackExpansion &E : Found)
        if (E.Begin == Offset) return &E;
      return nullptr;
    }
    void match(llvm::ArrayRef<const Expr *> Args) {
      for (const Expr *Arg : Args)
        if (PackExpansion *E = isa<CXXDefaultArgExpr>(Arg) ? nullptr : at(Arg->getBeginLoc()); E && Seen.insert(Arg).second)
          E->Elements.push_back(Arg);
    }
    void match(const void *Key, llvm::ArrayRef<TemplateArgumentLoc> Args) {
      if (!Seen.insert(Key).second) return;
      for (const TemplateArgumentLoc &Arg : Args)
        if (const TypeSourceInfo *TSI = Arg.getArgument().getKind() == TemplateArgument::Type ? Arg.getTypeSourceInfo() : nullptr)
          if (PackExpansion *E = at(TSI->getTypeLoc().getBeginLoc())) E->Types.push_back(Arg.getArgument().getAsType());
    }
    bool VisitCallExpr(CallExpr *E) { return match({E->getArgs(), E->getNumArgs()}), true; }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) { return match({E->getArgs(), E->getNumArgs()}), true; }
    bool VisitInitListExpr(InitListExpr *E) { return match({E->getInits(), E->getNumInits()}), true; }
    // `T x(xs...)` of one scalar element initialises x with the element.
    bool VisitVarDecl(VarDecl *V) {
      const Expr *Init = V->getInit();
      if (!Init || V->getInitStyle() != VarDecl::CallInit) return true;
      match({&Init, 1});
      const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
      if (!isa<ImplicitValueInitExpr>(Init) && !(Construct && Construct->getNumArgs() == 0)) return true;
      // The expansion right after `name(`.
      const SourceLocation Name = SM.getExpansionLoc(V->getLocation());
      const unsigned NameEnd = SM.getFileOffset(Name) + V->getName().size();
      const StringRef Buffer = SM.getBufferData(SM.getFileID(Name));
      for (PackExpansion &E : Found)
        if (E.Begin > NameEnd && Buffer.slice(NameEnd, E.Begin).trim() == "(") E.EmptyDirectInit = true;
      return true;
    }
    bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
      std::vector<TemplateArgumentLoc> Args;
      for (unsigned I = 0; I < TL.getNumArgs(); ++I) Args.push_back(TL.getArgLoc(I));
      return match(TL.getOpaqueData(), Args), true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) { return match(E, E->template_arguments()), true; }
    bool VisitMemberExpr(MemberExpr *E) { return match(E, E->template_arguments()), true; }
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
  if (!E.Elements.empty() || !E.Types.empty()) return {E.Begin, E.End};
  unsigned Before = E.Begin, After = E.End;
  while (Before > 0 && isspace(static_cast<unsigned char>(Buffer[Before - 1]))) --Before;
  while (After < Buffer.size() && isspace(static_cast<unsigned char>(Buffer[After]))) ++After;
  if (Before > 0 && Buffer[Before - 1] == ',') return {Before - 1, E.End};
  if (After < Buffer.size() && Buffer[After] == ',') return {E.Begin, After + 1};
  if (E.EmptyDirectInit && Before > 0 && Buffer[Before - 1] == '(' && After < Buffer.size() && Buffer[After] == ')')
    return {Before - 1, After + 1};
  return {E.Begin, E.End};
}

std::string replacementText(const PackExpansion &E) {
  if (E.EmptyDirectInit && E.Texts.empty()) return "{}";
  return fmt::format("{}", fmt::join(E.Texts, ", "));
}

}  // namespace cilkpp
