#include "CodeGen/ExpressionCalls.h"

#include "Analysis/CallPoints.h"
#include "Analysis/OwnCode.h"
#include "CodeGen/Naming.h"
#include "CodeGen/SourceText.h"
#include "Sema/ProcedureChecks.h"
#include "Sema/ProcedureFinder.h"
#include "Sema/StatementPosition.h"
#include "Support/References.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <map>

using namespace clang;

namespace cilkpp {
namespace {

using CallList = llvm::SmallVector<const CallExpr *, 2>;

// A statement to rewrite (an expression statement, a DeclStmt declaring one
// variable, or a return) and the calls that move in front of it.
struct HoistedCalls {
  const Stmt *Statement;
  CallList Calls;
};

// The calls of an expression that may move in front of its statement.
// Clean: whether what stays, once the calls are locals, has no side effects.
struct Movable {
  CallList Calls;
  bool Clean = true;
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
    if (const auto *E = dyn_cast<Expr>(S); E && isStatementPosition(PM, E)) visitExpressionStatement(E);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *Return) {
    // `return f(x);` is a tail call or stays as written (CallPoints.h).
    if (const Expr *Value = Return->getRetValue(); Value && !candidate(Value->IgnoreParenImpCasts()))
      add(Return, Value);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    const auto *Var = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || !Var->getInit() || Var->getType()->isReferenceType() ||
        !declaresIntoBlock(PM, DS))
      return true;
    // `long y = f(x);` is a call point already.
    if (const CallExpr *Call = candidate(Var->getInit()->IgnoreParenImpCasts()); Call && isLocalOfType(Var, Call))
      return true;
    add(DS, Var->getInit(), Var);
    return true;
  }

  std::vector<HoistedCalls> Found;
  bool HasGoto = false;

 private:
  void visitExpressionStatement(const Expr *E) {
    const Expr *Bare = E->IgnoreParenImpCasts();
    // `f(x);` and `y = f(x);` are call points already.
    if (candidate(Bare)) return;
    if (const auto *BO = dyn_cast<BinaryOperator>(Bare); BO && BO->getOpcode() == BO_Assign) {
      const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
      const CallExpr *Call = candidate(BO->getRHS()->IgnoreParenImpCasts());
      if (Ref && Call && isLocalOfType(Ref->getDecl(), Call)) return;
    }
    add(E, E);
  }

  void add(const Stmt *Statement, const Expr *Value, const VarDecl *Declared = nullptr) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (Statement->getBeginLoc().isMacroID() || Statement->getEndLoc().isMacroID() ||
        !SM.isWrittenInMainFile(Statement->getBeginLoc()))
      return;
    Movable M = movable(Value);
    if (M.Calls.empty() || unsupportedEnclosingConstruct(PM, Statement)) return;
    const auto Unmovable = [&](const CallExpr *Call) {
      // (`double d = f(sizeof(d));` names the d it declares.)
      return Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID() ||
             (Declared && namesVariable(Call, Declared));
    };
    if (llvm::any_of(M.Calls, Unmovable)) return;
    Found.push_back({Statement, std::move(M.Calls)});
  }

  // A plain call of a cilk procedure with a scalar result.
  const CallExpr *candidate(const Expr *E) const {
    const auto *Call = dyn_cast<CallExpr>(E);
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

  // What E evaluates as a whole, nothing moving out of it.
  Movable fixed(const Expr *E) const { return {{}, !E->HasSideEffects(Ctx)}; }

  // Operands evaluated in order: a later one's calls move only if nothing
  // before them has side effects.
  Movable inOrder(llvm::ArrayRef<const Expr *> Operands) const {
    Movable Result;
    for (const Expr *Operand : Operands) {
      Movable M = Result.Clean ? movable(Operand) : fixed(Operand);
      Result.Calls.append(M.Calls);
      Result.Clean &= M.Clean;
    }
    return Result;
  }

  // A function's arguments, evaluated in an order the standard leaves open
  // and g++ and clang++ pick differently (right to left and left to right):
  // calls move only out of the one argument with side effects, if only one
  // has any.
  Movable unordered(llvm::ArrayRef<const Expr *> Operands) const {
    llvm::SmallVector<Movable, 4> Parts;
    for (const Expr *Operand : Operands) Parts.push_back(movable(Operand));
    Movable Result;
    for (const Movable &M : Parts) Result.Clean &= M.Clean;
    const auto Acting = llvm::count_if(Parts, [](const Movable &M) { return !M.Clean || !M.Calls.empty(); });
    if (Acting <= 1)
      for (const Movable &M : Parts) Result.Calls.append(M.Calls);
    return Result;
  }

  // The operands C++17 evaluates left to right (also when overloaded).
  static bool evaluatesInOrder(BinaryOperatorKind Op) {
    return Op == BO_Shl || Op == BO_Shr || Op == BO_LAnd || Op == BO_LOr || Op == BO_Comma || Op == BO_PtrMemD ||
           Op == BO_PtrMemI;
  }

  Movable movable(const Expr *E) const {
    E = E->IgnoreParens();
    if (candidate(E)) return {{cast<CallExpr>(E)}, true};
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) return movable(Cleanups->getSubExpr());
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
      return Temporary->getType()->isScalarType() ? movable(Temporary->getSubExpr()) : fixed(E);
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (Cast->getCastKind() == CK_ConstructorConversion || Cast->getCastKind() == CK_UserDefinedConversion)
        return fixed(E);
      return movable(Cast->getSubExpr());
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      Movable M = movable(Unary->getSubExpr());
      M.Clean &= !Unary->isIncrementDecrementOp();
      return M;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      if (Binary->isAssignmentOp()) {
        // The right operand first; the store is a side effect.
        Movable M = movable(Binary->getRHS());
        M.Clean = false;
        return M;
      }
      // The right operands of &&, || and ',' may not run, or run after.
      if (Binary->isLogicalOp() || Binary->getOpcode() == BO_Comma) {
        Movable M = movable(Binary->getLHS());
        M.Clean &= fixed(Binary->getRHS()).Clean;
        return M;
      }
      // The other operators' operands are unsequenced, but g++ and clang++
      // both evaluate them left to right.
      return inOrder({Binary->getLHS(), Binary->getRHS()});
    }
    if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(E)) {
      Movable M = movable(Conditional->getCond());
      M.Clean &= fixed(Conditional->getTrueExpr()).Clean && fixed(Conditional->getFalseExpr()).Clean;
      return M;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      return inOrder({Subscript->getLHS(), Subscript->getRHS()});
    if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E)) {
      llvm::SmallVector<const Expr *, 2> Args(Operator->arguments());
      Movable M;
      if (Operator->isAssignmentOp()) {
        M = movable(Args.back());
      } else if (Operator->getOperator() == OO_Call || Operator->getOperator() == OO_Subscript ||
                 (Operator->isInfixBinaryOp() && evaluatesInOrder(BinaryOperator::getOverloadedOpcode(Operator->getOperator())))) {
        M = inOrder(Args);
      } else {
        M = unordered(Args);
      }
      M.Clean = false;
      return M;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // The callee (and the object of a member call) is evaluated first.
      const Expr *Callee = Call->getCallee();
      if (!Callee || Callee->HasSideEffects(Ctx)) return fixed(E);
      Movable M = unordered(llvm::SmallVector<const Expr *, 4>(Call->arguments()));
      M.Clean = false;
      return M;
    }
    return fixed(E);
  }

  ASTContext &Ctx;
  const CilkProcedureSet &CilkFunctions;
  ParentMap PM;
  llvm::DenseSet<const CallExpr *> Spawned;
};

}  // namespace

namespace {

// Statements to rewrite by their offset in the file, with their calls'.
using Plan = std::map<unsigned, std::pair<HoistedCalls, std::vector<unsigned>>>;

std::optional<Plan> planFor(ASTContext &Ctx, const SemaResult &Sema, const CilkProcedure &Proc) {
  const SourceManager &SM = Ctx.getSourceManager();
  Collector Statements(Ctx, Sema.CilkFunctions, Proc);
  Statements.TraverseStmt(Proc.Definition->getBody());
  if (Statements.HasGoto) return std::nullopt;
  Plan P;
  for (HoistedCalls &H : Statements.Found) {
    std::vector<unsigned> Calls;
    for (const CallExpr *Call : H.Calls) Calls.push_back(SM.getFileOffset(SM.getExpansionLoc(Call->getBeginLoc())));
    const unsigned At = SM.getFileOffset(SM.getExpansionLoc(H.Statement->getBeginLoc()));
    P.emplace(At, std::make_pair(std::move(H), std::move(Calls)));
  }
  return P;
}

// A template's statements are written once for all its instantiations: one
// moves only if every instantiation in the file would move the same calls.
void intersect(Plan &Into, const Plan &Other) {
  for (auto It = Into.begin(); It != Into.end();) {
    auto Found = Other.find(It->first);
    It = Found != Other.end() && Found->second.second == It->second.second ? std::next(It) : Into.erase(It);
  }
}

}  // namespace

std::optional<std::string> hoistExpressionCalls(ASTContext &Ctx, const SemaResult &Sema) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Plan> Plans;
  std::map<const FunctionDecl *, std::optional<Plan>> Templates;
  for (const CilkProcedure &Proc : Sema.Procedures) {
    const FunctionDecl *FD = Proc.Definition;
    if (FD->getMemberSpecializationInfo() && !FD->isTemplateInstantiation()) continue;
    if (FD->isTemplateInstantiation()) {
      const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
      if (!Pattern) continue;
      std::optional<Plan> P = planFor(Ctx, Sema, Proc);
      auto [It, First] = Templates.try_emplace(Pattern, P);
      if (First) continue;
      if (!P || !It->second) It->second.reset();
      else intersect(*It->second, *P);
      continue;
    }
    if (FD->isTemplated()) continue;
    if (std::optional<Plan> P = planFor(Ctx, Sema, Proc)) Plans.push_back(std::move(*P));
  }
  for (auto &[Pattern, P] : Templates)
    if (P) Plans.push_back(std::move(*P));

  Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
  FreshNames Names(SM.getBufferData(SM.getMainFileID()));
  bool Changed = false;
  for (const Plan &P : Plans)
    for (const auto &[At, Entry] : P) {
      const HoistedCalls &H = Entry.first;
      const bool Declaration = isa<DeclStmt>(H.Statement);
      std::string Locals = Declaration ? "" : "{ ";
      for (const CallExpr *Call : H.Calls) {
        const std::string Name =
            Names.take(fmt::format("__cilkpp_call_{}", SM.getPresumedLineNumber(SM.getExpansionLoc(Call->getBeginLoc()))));
        const CharSourceRange CallRange = fileRange(SM, Call->getSourceRange());
        Locals += fmt::format("auto {} = {}; ", Name, Lexer::getSourceText(CallRange, SM, Ctx.getLangOpts()));
        Main.ReplaceText(CallRange, Name);
      }
      Main.InsertTextBefore(statementRange(Ctx, H.Statement).getBegin(), Locals);
      if (!Declaration) Main.InsertTextAfterToken(statementEnd(Ctx, H.Statement), " }");
      Changed = true;
    }
  if (!Changed) return std::nullopt;
  const RewriteBuffer *Edited = Main.getRewriteBufferFor(SM.getMainFileID());
  return std::string(Edited->begin(), Edited->end());
}

}  // namespace cilkpp
