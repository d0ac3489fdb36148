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
// variable, a return, an if or a switch) and the calls that move in front
// of it.
struct HoistedCalls {
  const Stmt *Statement;
  CallList Calls;
};

// The calls of an expression that may move in front of its statement.
// Clean: whether what stays, once the calls are locals, is inert (isInert:
// no side effects, no reads a call could change).
struct Movable {
  CallList Calls;
  bool Clean = true;
};

class Collector : public OwnCodeVisitor<Collector> {
 public:
  Collector(ASTContext &Ctx, const CilkProcedureSet &CilkFunctions, const CilkProcedure &Proc)
      : OwnCodeVisitor(Proc), Ctx(Ctx), CilkFunctions(CilkFunctions), NoTailCalls(makesNoTailCalls(Proc)),
        PM(Proc.Definition->getBody()) {
    for (const SpawnSite &S : Proc.Spawns) Spawned.insert(S.Call);
    findEscapedLocals(Proc.Definition->getBody());
  }
  bool TraverseCXXTryStmt(CXXTryStmt *) { return true; }
  bool VisitStmt(Stmt *S) {
    HasGoto |= isa<GotoStmt, IndirectGotoStmt>(S);
    if (const auto *E = dyn_cast<Expr>(S); E && isStatementPosition(PM, E)) visitExpressionStatement(E);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *Return) {
    // `return f(x);` stays for the tail call (CallPoints.h), except where
    // the procedure makes none: there it would be a nested root call.
    const Expr *Value = Return->getRetValue();
    if (Value && (!candidate(Value->IgnoreParenImpCasts()) || NoTailCalls)) add(Return, Value);
    return true;
  }
  // `if (f(x))` and `switch (f(x))` evaluate their condition first, so its
  // calls can go in front of them (not past an init-statement or into a
  // condition variable's declaration).
  bool VisitIfStmt(IfStmt *If) {
    if (If->getCond() && !If->getInit() && !If->getConditionVariable() && !If->isConstexpr() &&
        !holdsOuterCaseLabel(If))
      add(If, If->getCond());
    return true;
  }
  // A case label of a switch around S inside it (Duff's device): the switch
  // would jump past the local a moved call declares.
  static bool holdsOuterCaseLabel(const Stmt *S) {
    return llvm::any_of(S->children(), [](const Stmt *Child) {
      return Child && !isa<SwitchStmt>(Child) && (isa<SwitchCase>(Child) || holdsOuterCaseLabel(Child));
    });
  }
  bool VisitSwitchStmt(SwitchStmt *Switch) {
    if (Switch->getCond() && !Switch->getInit() && !Switch->getConditionVariable()) add(Switch, Switch->getCond());
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
    if (M.Calls.empty() || unsupportedEnclosingConstruct(PM, Statement) || !endsAtItsSemicolon(Ctx, Statement))
      return;
    // A call moves within the statement's first line, so that every line
    // (and __LINE__ in it) keeps its number and no directive inside the
    // statement comes between the call's old and new place.
    const unsigned Line = SM.getExpansionLineNumber(Statement->getBeginLoc());
    const auto Unmovable = [&](const CallExpr *Call) {
      // (`double d = f(sizeof(d));` names the d it declares.)
      return Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID() ||
             SM.getExpansionLineNumber(Call->getBeginLoc()) != Line ||
             SM.getExpansionLineNumber(Call->getEndLoc()) != Line || (Declared && namesVariable(Call, Declared));
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
  Movable fixed(const Expr *E) const { return {{}, isInert(E)}; }

  // Whether a call may run before E without anyone telling: E has no side
  // effects and reads nothing a call could write (only locals whose
  // address never escapes, and constants).
  bool isInert(const Expr *E) const {
    if (E->HasSideEffects(Ctx)) return false;
    E = E->IgnoreParens();
    if (isa<UnaryExprOrTypeTraitExpr>(E)) return true;  // sizeof, alignof: unevaluated
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var) return true;  // functions, enumerators
      if (Var->isUsableInConstantExpressions(Ctx)) return true;
      return Var->hasLocalStorage() && !Var->getType()->isReferenceType() &&
             !Var->getType().isVolatileQualified() && !Escaped.contains(Var);
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) return !Member->isArrow() && isInert(Member->getBase());
    if (isa<CXXThisExpr, ArraySubscriptExpr>(E)) return false;
    if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_Deref) return false;
    for (const Stmt *Child : E->children())
      if (const auto *Sub = dyn_cast_or_null<Expr>(Child); Sub && !isInert(Sub)) return false;
    return true;
  }

  // Operands evaluated in order (C++17): a later one's calls move only if
  // nothing before them could notice.
  Movable inOrder(llvm::ArrayRef<const Expr *> Operands) const {
    Movable Result;
    for (const Expr *Operand : Operands) {
      Movable M = Result.Clean ? movable(Operand) : fixed(Operand);
      Result.Calls.append(M.Calls);
      Result.Clean &= M.Clean;
    }
    return Result;
  }

  // Operands evaluated in an order the standard leaves open, which g++ and
  // clang++ pick differently: clang++ left to right, g++ a function's
  // arguments right to left and an operator's operands by their shape
  // (`-f(a) + f(b)` calls f(b) first). Calls move out of one operand only
  // if the others are inert; out of several only for a built-in operator
  // whose operands are the calls themselves (`f(a) + f(b)`), which both
  // compilers call left to right, as the moved calls run.
  Movable unordered(llvm::ArrayRef<const Expr *> Operands, bool Operator) const {
    llvm::SmallVector<Movable, 4> Parts;
    for (const Expr *Operand : Operands) Parts.push_back(movable(Operand));
    const auto Unclean = llvm::count_if(Parts, [](const Movable &M) { return !M.Clean; });
    const auto WithCalls = llvm::count_if(Parts, [](const Movable &M) { return !M.Calls.empty(); });
    const bool CleanHaveNoCalls = llvm::all_of(Parts, [](const Movable &M) { return !M.Clean || M.Calls.empty(); });
    const bool AllCalls = llvm::all_of(Operands, [&](const Expr *Operand) { return candidate(Operand->IgnoreParenImpCasts()); });
    const bool Move = (Unclean == 0 && (WithCalls <= 1 || (Operator && AllCalls))) || (Unclean == 1 && CleanHaveNoCalls);
    // (Calls that stay are side effects.)
    Movable Result;
    Result.Clean = Unclean == 0 && (Move || WithCalls == 0);
    if (Move)
      for (const Movable &M : Parts) Result.Calls.append(M.Calls);
    return Result;
  }

  // The operands C++17 evaluates left to right (also when overloaded).
  static bool evaluatesInOrder(BinaryOperatorKind Op) {
    return Op == BO_Shl || Op == BO_Shr || Op == BO_PtrMemD || Op == BO_PtrMemI;
  }

  Movable movable(const Expr *E) const {
    E = E->IgnoreParens();
    if (candidate(E)) return {{cast<CallExpr>(E)}, true};
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) return movable(Cleanups->getSubExpr());
    // (Not a result bound to a reference, `std::max(f(a), b)`: the local it
    // would move into has its address taken, which keeps later calls from
    // being call points.)
    if (isa<MaterializeTemporaryExpr>(E)) return fixed(E);
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (Cast->getCastKind() == CK_ConstructorConversion || Cast->getCastKind() == CK_UserDefinedConversion)
        return fixed(E);
      Movable M = movable(Cast->getSubExpr());
      // (A load reads memory: a global, or what a call returned a reference to.)
      if (Cast->getCastKind() == CK_LValueToRValue) M.Clean &= isInert(E);
      return M;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_Deref || Unary->getOpcode() == UO_AddrOf)
        return fixed(E);
      return movable(Unary->getSubExpr());
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      if (Binary->isAssignmentOp()) {
        // The right operand first; the store is a side effect.
        Movable M = movable(Binary->getRHS());
        M.Clean = false;
        return M;
      }
      // (Not out of the operands of &&, || and ',': the right one may not
      // run, or runs after; the left one's value would be a local nobody
      // reads, which compilers warn about.)
      if (Binary->isLogicalOp() || Binary->getOpcode() == BO_Comma) return fixed(E);
      if (evaluatesInOrder(Binary->getOpcode())) return inOrder({Binary->getLHS(), Binary->getRHS()});
      return unordered({Binary->getLHS(), Binary->getRHS()}, /*Operator=*/true);
    }
    if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(E)) {
      Movable M = movable(Conditional->getCond());
      M.Clean &= fixed(Conditional->getTrueExpr()).Clean && fixed(Conditional->getFalseExpr()).Clean;
      return M;
    }
    if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E)) {
      llvm::SmallVector<const Expr *, 2> Args(Operator->arguments());
      const OverloadedOperatorKind Op = Operator->getOperator();
      Movable M;
      if (Operator->isAssignmentOp()) {
        M = movable(Args.back());
      } else if (Op == OO_Call) {
        // The object first, then the arguments in any order.
        if (!isInert(Args.front())) return fixed(E);
        M = unordered(llvm::ArrayRef(Args).drop_front(), /*Operator=*/false);
      } else if (Op == OO_Subscript ||
                 (Operator->isInfixBinaryOp() && evaluatesInOrder(BinaryOperator::getOverloadedOpcode(Op)))) {
        M = inOrder(Args);
      } else if (Op == OO_AmpAmp || Op == OO_PipePipe || Op == OO_Comma) {
        return fixed(E);
      } else {
        M = unordered(Args, /*Operator=*/false);
      }
      M.Clean = false;
      return M;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // The callee (and the object of a member call) is evaluated first.
      const Expr *Callee = Call->getCallee();
      if (!Callee || !isInert(Callee)) return fixed(E);
      Movable M = unordered(llvm::SmallVector<const Expr *, 4>(Call->arguments()), /*Operator=*/false);
      M.Clean = false;
      return M;
    }
    return fixed(E);
  }

  // Locals used other than by reading or assigning their value (their
  // address taken, a reference bound, a member named, captured by a
  // lambda): a call could write them.
  void findEscapedLocals(const Stmt *Body) {
    struct Finder : RecursiveASTVisitor<Finder> {
      ParentMap &PM;
      llvm::DenseSet<const VarDecl *> &Escaped;
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        if (!Var || !Var->hasLocalStorage()) return true;
        const Stmt *Parent = PM.getParentIgnoreParens(Ref);
        const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
        const auto *Binary = dyn_cast_or_null<BinaryOperator>(Parent);
        const auto *Unary = dyn_cast_or_null<UnaryOperator>(Parent);
        const bool ValueUse = (Cast && Cast->getCastKind() == CK_LValueToRValue) ||
                              (Binary && Binary->isAssignmentOp() && Binary->getLHS()->IgnoreParens() == Ref) ||
                              (Unary && Unary->isIncrementDecrementOp());
        if (!ValueUse || Ref->refersToEnclosingVariableOrCapture()) Escaped.insert(Var);
        return true;
      }
    } F{{}, PM, Escaped};
    F.TraverseStmt(const_cast<Stmt *>(Body));
  }

  ASTContext &Ctx;
  const CilkProcedureSet &CilkFunctions;
  const bool NoTailCalls;
  ParentMap PM;
  llvm::DenseSet<const CallExpr *> Spawned;
  llvm::DenseSet<const VarDecl *> Escaped;
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
