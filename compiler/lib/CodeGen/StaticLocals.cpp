#include "CodeGen/StaticLocals.h"

#include "CodeGen/Naming.h"
#include "CodeGen/SourceText.h"
#include "Sema/ProcedureFinder.h"
#include "Support/Diagnostics.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// Copies of a constant are indistinguishable: such statics may stay.
bool mayStayCopied(ASTContext &Ctx, const VarDecl *V) {
  return V->isConstexpr() || (V->getType().isConstQualified() && V->hasConstantInitialization() &&
                              V->getType().isTriviallyCopyableType(Ctx));
}

struct StaticLocal {
  const VarDecl *Var;
  const DeclStmt *Declaration;
  bool InGenericLambda;  // one per instantiation of the lambda's operator()
};

// Also in lambdas and cilk_for bodies: each clone has their text too. (A
// local class is one class, which its procedure's clones share.)
class Statics : public RecursiveASTVisitor<Statics> {
 public:
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    Generic += L->isGenericLambda();
    const bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Generic -= L->isGenericLambda();
    return Result;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    for (Decl *D : DS->decls())
      if (auto *V = dyn_cast<VarDecl>(D); V && V->isStaticLocal()) Found.push_back({V, DS, Generic > 0});
    return true;
  }
  std::vector<StaticLocal> Found;

 private:
  unsigned Generic = 0;
};

// A declaration that names a parameter, a local (a static one too), `this`
// or a type declared in a function, other than those it declares itself (a
// lambda's parameters and closure type), or the procedure FD, which is
// declared after the function it moves into; or that declares a static of
// its own (in a lambda), whose move would overlap it.
bool namesLocals(const DeclStmt *DS, const FunctionDecl *FD, const SourceManager &SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    Finder(const DeclStmt *DS, const FunctionDecl *FD, const SourceManager &SM) : DS(DS), FD(FD), SM(SM) {}
    bool outside(const Decl *D) const {
      return !SM.isPointWithin(SM.getExpansionLoc(D->getLocation()), SM.getExpansionLoc(DS->getBeginLoc()),
                               SM.getExpansionLoc(DS->getEndLoc()));
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      // (Another static of the function moves too, out of sight of this one.)
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
        Found |= (V->hasLocalStorage() || V->isStaticLocal()) && outside(V);
      Found |= isa<BindingDecl>(E->getDecl()) && outside(E->getDecl());
      if (const auto *F = dyn_cast<FunctionDecl>(E->getDecl()))
        Found |= F->getCanonicalDecl() == FD->getCanonicalDecl() &&
                 !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(F->getFirstDecl()->getLocation()),
                                               SM.getExpansionLoc(FD->getSourceRange().getBegin()));
      return !Found;
    }
    bool VisitVarDecl(VarDecl *V) {
      Found |= V->isStaticLocal() && !llvm::is_contained(DS->decls(), V);
      return !Found;
    }
    bool VisitCXXThisExpr(CXXThisExpr *) { return !(Found = true); }
    bool VisitTagType(TagType *T) {
      Found |= T->getDecl()->getParentFunctionOrMethod() != nullptr && outside(T->getDecl());
      return !Found;
    }
    bool VisitTypedefType(TypedefType *T) {
      Found |= T->getDecl()->getParentFunctionOrMethod() != nullptr && outside(T->getDecl());
      return !Found;
    }
    // (A local class moved out of the function is named through a
    // using-declaration in it.)
    bool VisitUsingType(UsingType *T) {
      Found |= T->getFoundDecl()->getDeclContext()->isFunctionOrMethod();
      return !Found;
    }
    const DeclStmt *DS;
    const FunctionDecl *FD;
    const SourceManager &SM;
    bool Found = false;
  } F(DS, FD, SM);
  F.TraverseStmt(const_cast<DeclStmt *>(DS));
  return F.Found;
}

bool movable(const FunctionDecl *FD, const StaticLocal &S, const SourceManager &SM) {
  const VarDecl *V = S.Var;
  const DeclStmt *DS = S.Declaration;
  return !S.InGenericLambda && !FD->isTemplated() && !FD->isTemplateInstantiation() && !isa<CXXMethodDecl>(FD) &&
         FD->getLexicalDeclContext() == FD->getDeclContext() && DS->isSingleDecl() && !DS->getBeginLoc().isMacroID() &&
         !DS->getEndLoc().isMacroID() && SM.isWrittenInMainFile(DS->getBeginLoc()) && !namesLocals(DS, FD, SM) &&
         !V->getType()->getContainedDeducedType();
}

}  // namespace

std::optional<std::string> hoistStaticLocals(ASTContext &Ctx, const SemaResult &Sema) {
  const SourceManager &SM = Ctx.getSourceManager();
  Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
  FreshNames Names(SM.getBufferData(SM.getMainFileID()));
  bool Changed = false;
  for (const CilkProcedure &Proc : Sema.Procedures) {
    const FunctionDecl *FD = Proc.Definition;
    Statics Found;
    Found.TraverseStmt(FD->getBody());
    for (const StaticLocal &S : Found.Found) {
      const VarDecl *V = S.Var;
      const DeclStmt *DS = S.Declaration;
      if (mayStayCopied(Ctx, V) || !movable(FD, S, SM)) continue;
      // (A static one gets the file's hash too, for a unity build that joins
      // files.)
      const std::string Base = fmt::format("__cilkpp_static_{}_{}", V->getName(),
                                           SM.getPresumedLineNumber(SM.getExpansionLoc(V->getLocation())));
      const std::string Name = FD->isInlined() ? Names.take(Base) : Names.takeForThisFile(Base);
      const CharSourceRange Range = statementRange(Ctx, DS);
      const std::string Declaration = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
      // An inline procedure is one in every file that defines it, and so
      // must its statics be.
      Main.InsertTextBefore(SM.getExpansionLoc(FD->getOuterLocStart()),
                            fmt::format("[[maybe_unused]] {} auto &{}() {{ {} return {}; }} ",
                                        FD->isInlined() ? "inline" : "static", Name, Declaration, V->getName()));
      Main.ReplaceText(Range, fmt::format("auto &{} = {}();", V->getName(), Name));
      Changed = true;
    }
  }
  if (!Changed) return std::nullopt;
  const RewriteBuffer *Edited = Main.getRewriteBufferFor(SM.getMainFileID());
  return std::string(Edited->begin(), Edited->end());
}

void reportSplitStatics(ASTContext &Ctx, const CilkProcedure &Proc) {
  Statics Found;
  Found.TraverseStmt(Proc.Definition->getBody());
  for (const StaticLocal &S : Found.Found)
    if (!mayStayCopied(Ctx, S.Var))
      diag::report(Ctx.getDiagnostics(), Ctx.getSourceManager().getExpansionLoc(S.Var->getLocation()),
                   diag::ConstructUnsupported)
          << "a static local variable that cannot move out of the procedure (in a template, a member or a "
             "generic lambda, declared by a macro, naming a local or the procedure, or holding a static)";
}

}  // namespace cilkpp
