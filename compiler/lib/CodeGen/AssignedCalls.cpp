#include "CodeGen/AssignedCalls.h"

#include "Analysis/CallPoints.h"
#include "Analysis/OwnCode.h"
#include "CodeGen/Naming.h"
#include "CodeGen/SourceText.h"
#include "Sema/ProcedureChecks.h"
#include "Sema/ProcedureFinder.h"
#include "Sema/StatementPosition.h"
#include "Support/References.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/DenseSet.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// A statement to rewrite: the call, and the statement that assigns its
// result (a BinaryOperator, or a DeclStmt declaring a variable).
struct AssignedCall {
  const CallExpr *Call;
  const Stmt *Statement;
};

class Collector : public OwnCodeVisitor<Collector> {
 public:
  Collector(ASTContext &Ctx, const CilkProcedureSet &CilkFunctions, const CilkProcedure &Proc)
      : OwnCodeVisitor(Proc), Ctx(Ctx), CilkFunctions(CilkFunctions), PM(Proc.Definition->getBody()) {
    for (const SpawnSite &S : Proc.Spawns) Spawned.insert(S.Call);
  }
  bool TraverseCXXTryStmt(CXXTryStmt *) { return true; }
  bool VisitStmt(Stmt *S) {
    HasGoto |= isa<GotoStmt, IndirectGotoStmt>(S);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp() || !isStatementPosition(PM, BO)) return true;
    const CallExpr *Call = candidate(BO->getRHS());
    if (!Call) return true;
    // `y = f(x)` with y a local of the result's type is a call point already.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
        BO->getOpcode() == BO_Assign && Ref && isLocalOfType(Ref->getDecl(), Call))
      return true;
    add(Call, BO);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    const auto *Var = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || !Var->getInit() || Var->getType()->isReferenceType() ||
        !Var->getType()->isScalarType() || !isa_and_nonnull<CompoundStmt>(PM.getParent(DS)))
      return true;
    const CallExpr *Call = candidate(Var->getInit());
    // (`double d = f(sizeof(d));` names the d it declares.)
    if (Call && !isLocalOfType(Var, Call) && !namesVariable(Call, Var)) add(Call, DS);
    return true;
  }

  std::vector<AssignedCall> Found;
  bool HasGoto = false;

 private:
  // A plain call of a cilk procedure with a scalar result, as a whole value.
  const CallExpr *candidate(const Expr *E) const {
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
    if (!Call || Spawned.contains(Call) || !isCallPointCallee(CilkFunctions, Call)) return nullptr;
    const QualType R = Call->getCallReturnType(Ctx);
    return !R->isReferenceType() && R->isScalarType() ? Call : nullptr;
  }
  bool isLocalOfType(const ValueDecl *D, const CallExpr *Call) const {
    const auto *Var = dyn_cast<VarDecl>(D);
    return Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType() &&
           Ctx.hasSameType(Var->getType().getCanonicalType().getUnqualifiedType(),
                           Call->getCallReturnType(Ctx).getCanonicalType().getUnqualifiedType());
  }
  void add(const CallExpr *Call, const Stmt *Statement) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (Statement->getBeginLoc().isMacroID() || Statement->getEndLoc().isMacroID() ||
        !SM.isWrittenInMainFile(Statement->getBeginLoc()) || unsupportedEnclosingConstruct(PM, Statement))
      return;
    Found.push_back({Call, Statement});
  }

  ASTContext &Ctx;
  const CilkProcedureSet &CilkFunctions;
  ParentMap PM;
  llvm::DenseSet<const CallExpr *> Spawned;
};

}  // namespace

std::optional<std::string> lowerAssignedCalls(ASTContext &Ctx, const SemaResult &Sema) {
  const SourceManager &SM = Ctx.getSourceManager();
  Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
  FreshNames Names(SM.getBufferData(SM.getMainFileID()));
  bool Changed = false;
  for (const CilkProcedure &Proc : Sema.Procedures) {
    const FunctionDecl *FD = Proc.Definition;
    if (FD->isTemplated() || FD->isTemplateInstantiation() || FD->getMemberSpecializationInfo()) continue;
    Collector Calls(Ctx, Sema.CilkFunctions, Proc);
    Calls.TraverseStmt(FD->getBody());
    if (Calls.HasGoto) continue;
    for (const AssignedCall &A : Calls.Found) {
      const std::string Name =
          Names.take(fmt::format("__cilkpp_call_{}", SM.getPresumedLineNumber(SM.getExpansionLoc(A.Call->getBeginLoc()))));
      const CharSourceRange CallRange = fileRange(SM, A.Call->getSourceRange());
      const std::string CallText = Lexer::getSourceText(CallRange, SM, Ctx.getLangOpts()).str();
      const CharSourceRange Whole = statementRange(Ctx, A.Statement);
      const bool Declaration = isa<DeclStmt>(A.Statement);
      Main.InsertTextBefore(Whole.getBegin(), fmt::format("{}auto {} = {}; ", Declaration ? "" : "{ ", Name, CallText));
      Main.ReplaceText(CallRange, Name);
      if (!Declaration) Main.InsertTextAfterToken(Whole.getEnd(), " }");
      Changed = true;
    }
  }
  if (!Changed) return std::nullopt;
  const RewriteBuffer *Edited = Main.getRewriteBufferFor(SM.getMainFileID());
  return std::string(Edited->begin(), Edited->end());
}

}  // namespace cilkpp
