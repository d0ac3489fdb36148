#include "CodeGen/DeducedResults.h"

#include "CodeGen/Naming.h"
#include "CodeGen/SourceText.h"
#include "Emit/SerialElision.h"
#include "Support/Instantiations.h"
#include "Support/SourceRanges.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// `__cilkpp_psum_serial`: named like the fast clone, so that copies of
// overloaded templates overload as they do.
std::string serialCopyName(const FunctionDecl *FD) {
  const std::string Fast = namesFor(FD, 0).Fast;
  return StringRef(Fast).drop_back(StringRef("_fast").size()).str() + "_serial";
}

// True when D declares Procedure (a function template's pattern, or a
// member of a class template): the copy's recursive calls call the copy.
bool declares(const NamedDecl *D, const FunctionDecl *Procedure) {
  D = D->getUnderlyingDecl();
  if (const FunctionTemplateDecl *Template = Procedure->getDescribedFunctionTemplate()) {
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D)) return T->getCanonicalDecl() == Template->getCanonicalDecl();
    if (const auto *F = dyn_cast<FunctionDecl>(D))
      return F->getPrimaryTemplate() && F->getPrimaryTemplate()->getCanonicalDecl() == Template->getCanonicalDecl();
    return false;
  }
  const auto *F = dyn_cast<FunctionDecl>(D);
  return F && F->getCanonicalDecl() == Procedure->getCanonicalDecl();
}

// The names in the body that call or name the procedure itself (`psum(...)`,
// `get(n - 1)`, `left->sum(f)`): the copy's recursive calls call the copy
// (a call of the procedure would need its result type, which is the copy's,
// while the copy's is being deduced). A name that overload resolution may
// still resolve to another function is left alone.
class SelfReferences : public RecursiveASTVisitor<SelfReferences> {
 public:
  explicit SelfReferences(const FunctionDecl *Procedure) : Procedure(Procedure) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (declares(E->getDecl(), Procedure)) Found.push_back(E->getLocation());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (declares(E->getMemberDecl(), Procedure)) Found.push_back(E->getMemberLoc());
    return true;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
    if (onlyDeclaresProcedure(E)) Found.push_back(E->getNameLoc());
    return true;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *E) {
    if (onlyDeclaresProcedure(E)) Found.push_back(E->getMemberLoc());
    return true;
  }
  std::vector<SourceLocation> Found;

 private:
  bool onlyDeclaresProcedure(const OverloadExpr *E) const {
    return E->getNumDecls() > 0 && llvm::all_of(E->decls(), [&](const NamedDecl *D) { return declares(D, Procedure); });
  }
  const FunctionDecl *Procedure;
};

// Where a declaration's copy starts: its outermost template head (`template
// <class T> template <class F> auto Box<T>::sum(...)`), or its first
// specifier.
SourceLocation copyBegin(const SourceManager &SM, const FunctionDecl *Declaration) {
  if (Declaration->getNumTemplateParameterLists() > 0)
    return SM.getExpansionLoc(Declaration->getTemplateParameterList(0)->getTemplateLoc());
  if (const FunctionTemplateDecl *Template = Declaration->getDescribedFunctionTemplate())
    return SM.getExpansionLoc(Template->getTemplateParameters()->getTemplateLoc());
  return SM.getExpansionLoc(Declaration->getOuterLocStart());
}

// The text from the declaration's template head to Last, with the
// keywords elided, the `#pragma cilk` lines removed, the declared name and
// the Renamed names replaced by the copy's.
std::string copiedText(ASTContext &Ctx, const FunctionDecl *Declaration, SourceLocation Last,
                       ArrayRef<SourceLocation> Renamed, ArrayRef<KeywordUse> Uses, ArrayRef<GrainPragma> Pragmas) {
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation First = copyBegin(SM, Declaration);
  Last = SM.getExpansionLoc(Last);
  const auto Inside = [&](SourceLocation Loc) {
    return !SM.isBeforeInTranslationUnit(Loc, First) && !SM.isBeforeInTranslationUnit(Last, Loc);
  };
  Rewriter Copy(Ctx.getSourceManager(), Ctx.getLangOpts());
  std::vector<KeywordUse> Inner;
  for (const KeywordUse &U : Uses)
    if (Inside(U.Loc)) Inner.push_back(U);
  std::vector<GrainPragma> InnerPragmas;
  for (const GrainPragma &P : Pragmas)
    if (Inside(P.Range.getBegin())) InnerPragmas.push_back(P);
  elideKeywords(Copy, Inner, InnerPragmas);
  // A statement, not a blank: `if (c) sync;` must not become an empty body
  // (-Wempty-body), and `cilk_sync`, which elideKeywords keeps for the
  // serial build's macro, has none here.
  for (const KeywordUse &U : Inner)
    if (U.Kind == KeywordKind::Sync)
      Copy.ReplaceText(CharSourceRange::getTokenRange(U.Loc, U.End), "static_cast<void>(0)");
  const std::string Name = serialCopyName(Declaration);
  Copy.ReplaceText(SM.getExpansionLoc(Declaration->getLocation()), Declaration->getName().size(), Name);
  for (SourceLocation Loc : Renamed) Copy.ReplaceText(Loc, Declaration->getName().size(), Name);
  return Copy.getRewrittenText(CharSourceRange::getTokenRange(First, Last));
}

// Text mapped to the declaration's lines; with Reposition, what follows
// gets its line and column back (the fast clone's template declaration,
// which follows the others, repositions itself).
std::string placed(ASTContext &Ctx, const FunctionDecl *Declaration, StringRef FileName, const std::string &Text,
                   bool Reposition) {
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation Begin = copyBegin(SM, Declaration);
  const std::string Here = lineDirective(SM.getPresumedLineNumber(Begin), FileName) +
                           std::string(SM.getSpellingColumnNumber(Begin) - 1, ' ');
  return "\n" + Here + Text + "\n" + (Reposition ? Here : "");
}

std::string copiedDefinition(ASTContext &Ctx, const FunctionDecl *Pattern, ArrayRef<KeywordUse> Uses,
                             ArrayRef<GrainPragma> Pragmas, StringRef FileName, bool Reposition) {
  const SourceManager &SM = Ctx.getSourceManager();
  SelfReferences Self(Pattern);
  Self.TraverseStmt(Pattern->getBody());
  std::vector<SourceLocation> Renamed;
  for (SourceLocation Loc : Self.Found)
    if (Loc.isFileID() && SM.isWrittenInMainFile(Loc)) Renamed.push_back(Loc);
  return placed(Ctx, Pattern, FileName, copiedText(Ctx, Pattern, Pattern->getBody()->getEndLoc(), Renamed, Uses, Pragmas),
                Reposition);
}

const FunctionDecl *firstDeclaration(const SourceManager &SM, const FunctionDecl *Pattern) {
  if (const FunctionTemplateDecl *Template = Pattern->getDescribedFunctionTemplate())
    return firstDeclarationInMainFile(SM, Template)->getTemplatedDecl();
  const FunctionDecl *First = Pattern;
  for (const FunctionDecl *D : Pattern->redecls())
    if (SM.isBeforeInTranslationUnit(copyBegin(SM, D), copyBegin(SM, First))) First = D;
  return First;
}

}  // namespace

bool namesDeducedResultTemplate(const Stmt *S, const FunctionDecl *Host) {
  if (!resultDeducedPerInstantiation(Host)) return false;
  SelfReferences Self(Host);
  Self.TraverseStmt(const_cast<Stmt *>(S));
  return !Self.Found.empty();
}

bool resultDeducedPerInstantiation(const FunctionDecl *FD) {
  return FD->isDependentContext() && FD->getReturnType()->getContainedDeducedType();
}

bool clonesDeferDeduction(const FunctionDecl *Pattern) {
  return isa<CXXMethodDecl>(Pattern) && !Pattern->getDescribedFunctionTemplate() &&
         resultDeducedPerInstantiation(Pattern);
}

std::string deducedResultType(const FunctionDecl *Pattern, bool InCloneDeclaration) {
  std::vector<std::string> Args;
  for (const ParmVarDecl *P : Pattern->parameters())
    Args.push_back(fmt::format("static_cast<decltype({0}) &&>({0}){1}", declaredParameterName(P),
                               P->isParameterPack() ? "..." : ""));
  const std::string Copy = serialCopyName(Pattern) + templateArguments(Pattern);
  // A member's copy is a member: named from the class's scope, where the
  // clones are declared and the entry is defined.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Pattern)) {
    if (InCloneDeclaration && clonesDeferDeduction(Pattern)) {
      const std::string Object = Method->isStatic() ? fmt::format("static_cast<{} *>(nullptr)", Method->getParent()->getName())
                                                    : std::string("__this");
      return fmt::format("decltype(::cilkpp::rt::deferred<{}>({})->{}({}))", DeferredTag, Object, Copy,
                         fmt::join(Args, ", "));
    }
    if (Method->isStatic()) return fmt::format("decltype({}({}))", Copy, fmt::join(Args, ", "));
    return fmt::format("decltype(this->{}{}({}))", Pattern->getDescribedFunctionTemplate() ? "template " : "", Copy,
                       fmt::join(Args, ", "));
  }
  std::string Scope;
  for (const DeclContext *DC = Pattern->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      Scope = NS->getName().str() + "::" + Scope;
  return fmt::format("decltype(::{}{}({}))", Scope, Copy, fmt::join(Args, ", "));
}

std::string serialCopyDeclaration(ASTContext &Ctx, const FunctionDecl *Pattern, ArrayRef<KeywordUse> Uses,
                                  ArrayRef<GrainPragma> Pragmas, StringRef FileName, bool Reposition) {
  const FunctionDecl *First = firstDeclaration(Ctx.getSourceManager(), Pattern);
  if (First == Pattern) return copiedDefinition(Ctx, Pattern, Uses, Pragmas, FileName, Reposition);
  return placed(Ctx, First, FileName, copiedText(Ctx, First, First->getEndLoc(), {}, Uses, Pragmas) + ";", Reposition);
}

std::string serialCopyDefinitionAfterDeclaration(ASTContext &Ctx, const FunctionDecl *Pattern, ArrayRef<KeywordUse> Uses,
                                                 ArrayRef<GrainPragma> Pragmas, StringRef FileName) {
  if (firstDeclaration(Ctx.getSourceManager(), Pattern) == Pattern) return "";
  return copiedDefinition(Ctx, Pattern, Uses, Pragmas, FileName, /*Reposition=*/true);
}

void insertMemberSerialCopy(Rewriter &Main, const FunctionDecl *Pattern, ArrayRef<KeywordUse> Uses,
                            ArrayRef<GrainPragma> Pragmas, StringRef FileName) {
  ASTContext &Ctx = Pattern->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  Main.InsertTextBefore(copyBegin(SM, firstDeclaration(SM, Pattern)),
                        serialCopyDeclaration(Ctx, Pattern, Uses, Pragmas, FileName, /*Reposition=*/true));
  Main.InsertTextBefore(copyBegin(SM, Pattern), serialCopyDefinitionAfterDeclaration(Ctx, Pattern, Uses, Pragmas, FileName));
}

}  // namespace cilkpp
