#include "Sema/ProcedureFinder.h"

#include "Sema/Forwarders.h"
#include "Sema/Jumps.h"
#include "Sema/ParallelLoops.h"
#include "Sema/ProcedureChecks.h"
#include "Sema/StatementPosition.h"
#include "Support/Diagnostics.h"
#include "Support/Instantiations.h"
#include "Support/SourceRanges.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/IgnoreExpr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <map>

using namespace clang;

namespace cilkpp {
namespace {

constexpr llvm::StringLiteral CilkAnnotation = "cilkpp.procedure";

struct BodyRange {
  const FunctionDecl *Function;  // nullptr for a lambda body
  unsigned Begin, End;           // file offsets in the main file
};

// Collects function and lambda bodies written in the main file, and the
// declarations that carry the `cilk` specifier.
class DeclarationCollector : public RecursiveASTVisitor<DeclarationCollector> {
 public:
  explicit DeclarationCollector(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && inMainFile(FD->getBody()->getBeginLoc()))
      addBody(FD, FD->getBody()->getSourceRange());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (inMainFile(L->getBody()->getBeginLoc())) addBody(nullptr, L->getBody()->getSourceRange());
    return true;
  }
  bool VisitDecl(Decl *D) {
    for (const auto *A : D->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == CilkAnnotation) Annotated.push_back({D, SM.getExpansionLoc(A->getLocation())});
    return true;
  }

  std::vector<BodyRange> Bodies;
  std::vector<std::pair<const Decl *, SourceLocation>> Annotated;

 private:
  bool inMainFile(SourceLocation Loc) const { return SM.isWrittenInMainFile(SM.getExpansionLoc(Loc)); }
  void addBody(const FunctionDecl *FD, SourceRange R) {
    Bodies.push_back({FD, SM.getFileOffset(SM.getExpansionLoc(R.getBegin())),
                      SM.getFileOffset(SM.getExpansionLoc(R.getEnd()))});
  }
  const SourceManager &SM;
};

// The outermost expression that begins at each requested location.
class OutermostExprFinder : public RecursiveASTVisitor<OutermostExprFinder> {
 public:
  OutermostExprFinder(const SourceManager &SM, llvm::DenseMap<SourceLocation, const Expr *> &Wanted)
      : SM(SM), Wanted(Wanted) {}
  bool VisitExpr(Expr *E) {
    auto It = Wanted.find(SM.getExpansionLoc(E->getBeginLoc()));
    if (It != Wanted.end() && !It->second) It->second = E;
    return true;
  }

 private:
  const SourceManager &SM;
  llvm::DenseMap<SourceLocation, const Expr *> &Wanted;
};

// The block whose '{' is at a given location.
class BlockFinder : public RecursiveASTVisitor<BlockFinder> {
 public:
  explicit BlockFinder(SourceLocation LBrace) : LBrace(LBrace) {}
  bool VisitCompoundStmt(CompoundStmt *S) {
    if (S->getLBracLoc() == LBrace) Found = S;
    return !Found;
  }
  const CompoundStmt *Found = nullptr;

 private:
  SourceLocation LBrace;
};

// Return statements and try statements of one function, not of lambdas or
// local classes in it.
class ReturnCollector : public RecursiveASTVisitor<ReturnCollector> {
 public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool VisitReturnStmt(ReturnStmt *R) {
    Returns.push_back(R);
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *T) {
    Tries.push_back(T);
    return true;
  }
  std::vector<const ReturnStmt *> Returns;
  std::vector<const CXXTryStmt *> Tries;
};

class Binder {
 public:
  Binder(ASTContext &Ctx, SemaResult &Result, const UnmovedBodyReasons &Reasons)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()), Result(Result), Reasons(Reasons) {}

  void run(ArrayRef<KeywordUse> Uses, ArrayRef<GrainPragma> Pragmas) {
    bindParallelLoops(Ctx, Uses, Pragmas, Result.Loops);
    DeclarationCollector Collector(Ctx);
    Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
    bindRemovedKeywords(Uses, Collector.Annotated);
    std::map<const FunctionDecl *, std::vector<KeywordUse>> ByFunction;
    for (const KeywordUse &U : Uses) {
      if (U.Kind == KeywordKind::Cilk || U.Kind == KeywordKind::CilkFor) continue;
      const BodyRange *Body = innermostBody(Collector.Bodies, SM.getFileOffset(U.Loc));
      if (const ParallelLoop *Loop = enclosingLoop(SM, Result.Loops, U.Loc)) {
        const unsigned LoopBody = SM.getFileOffset(fileRange(SM, Loop->Loop->getBody()->getSourceRange()).getBegin());
        // (The keyword's own body may be a lambda inside the loop's.)
        diag::report(Diags, U.Loc, diag::KeywordInLoopBody)
            << U.Spelling << reasonFor(Body && Body->Begin > LoopBody ? Body->Begin : LoopBody);
        Result.RemovedKeywords.push_back(U.Loc);
        continue;
      }
      if (!Body) {
        diag::report(Diags, U.Loc, diag::KeywordOutsideFunction) << U.Spelling;
        continue;
      }
      if (!Body->Function) {
        diag::report(Diags, U.Loc, diag::KeywordInLambda) << U.Spelling << reasonFor(Body->Begin);
        Result.RemovedKeywords.push_back(U.Loc);
        continue;
      }
      ByFunction[Body->Function].push_back(U);
    }
    // Every definition of a function declared `cilk` is a procedure, even
    // one without spawns.
    for (const BodyRange &B : Collector.Bodies)
      if (B.Function && Result.CilkFunctions.contains(B.Function)) ByFunction[B.Function];
    // In source order, so diagnostics come out in the order of the file.
    std::vector<std::pair<const FunctionDecl *, std::vector<KeywordUse>>> Ordered(ByFunction.begin(),
                                                                                  ByFunction.end());
    llvm::sort(Ordered, [&](const auto &A, const auto &B) {
      return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.first->getBeginLoc()),
                                          SM.getExpansionLoc(B.first->getBeginLoc()));
    });
    // A function template is translated once per instantiation in the file,
    // each with its concrete types; its uninstantiated body stays serial.
    std::vector<std::pair<const FunctionDecl *, const std::vector<KeywordUse> *>> Bound;
    for (auto &[FD, FunctionUses] : Ordered) {
      // Other templated functions (friends defined in class templates, ...)
      // are bound as written, and rejected.
      const auto *Method = dyn_cast<CXXMethodDecl>(FD);
      const bool InClassTemplate = Method && Method->getParent()->isDependentContext();
      if (!InClassTemplate && !FD->getDescribedFunctionTemplate()) {
        Bound.push_back({FD, &FunctionUses});
        continue;
      }
      for (const FunctionDecl *Instance : instantiationsOf(FD)) Bound.push_back({Instance, &FunctionUses});
    }
    // A template nothing instantiates keeps its text, as the serial elision.
    for (auto &[FD, FunctionUses] : Ordered)
      if (FD->isTemplated() && llvm::none_of(Bound, [&](const auto &B) { return B.second == &FunctionUses; }))
        for (const KeywordUse &U : FunctionUses) Result.RemovedKeywords.push_back(U.Loc);
    for (auto &[FD, FunctionUses] : Bound) Result.CilkFunctions.add(FD);
    std::vector<const FunctionDecl *> Definitions;
    for (const BodyRange &B : Collector.Bodies)
      if (B.Function) Definitions.push_back(B.Function);
    static const std::vector<KeywordUse> Forwarding;
    for (const FunctionDecl *FD : findForwarders(Ctx, Definitions, Result.CilkFunctions)) {
      Result.CilkFunctions.add(FD);
      Bound.push_back({FD, &Forwarding});
    }
    for (auto &[FD, FunctionUses] : Bound) bindProcedure(FD, *FunctionUses, FunctionUses == &Forwarding);
  }

 private:
  void bindRemovedKeywords(ArrayRef<KeywordUse> Uses,
                          ArrayRef<std::pair<const Decl *, SourceLocation>> Annotated) {
    for (const KeywordUse &U : Uses) {
      if (U.Kind != KeywordKind::Cilk) continue;
      Result.RemovedKeywords.push_back(U.Loc);
      const Decl *Target = nullptr;
      for (const auto &[D, Loc] : Annotated)
        if (Loc == U.Loc) Target = D;
      const auto *FD = dyn_cast_or_null<FunctionDecl>(Target);
      if (!FD || (isa<CXXMethodDecl>(FD) && cast<CXXMethodDecl>(FD)->getParent()->isLambda())) {
        diag::report(Diags, U.Loc, diag::CilkNotOnFunction);
        continue;
      }
      Result.CilkFunctions.add(FD);
    }
  }

  static const BodyRange *innermostBody(const std::vector<BodyRange> &Bodies, unsigned Offset) {
    const BodyRange *Best = nullptr;
    for (const BodyRange &B : Bodies)
      if (B.Begin <= Offset && Offset <= B.End && (!Best || B.End - B.Begin < Best->End - Best->Begin))
        Best = &B;
    return Best;
  }

  void bindProcedure(const FunctionDecl *FD, const std::vector<KeywordUse> &Uses, bool Forwards) {
    CilkProcedure Proc;
    Proc.Definition = FD;
    Proc.Forwards = Forwards;
    Stmt *Body = FD->getBody();
    for (const ParallelLoop &L : Result.Loops)
      if (SM.isPointWithin(L.KeywordLoc, SM.getExpansionLoc(Body->getBeginLoc()), SM.getExpansionLoc(Body->getEndLoc())))
        Proc.Loops.push_back(&L);
    // A function of these kinds whose body holds a keyword here is one whose
    // body could not move into a member function (BodyOutlining.h).
    if (const char *Kind = isa<CXXConstructorDecl>(FD)  ? "constructor"
                           : isa<CXXDestructorDecl>(FD) ? "destructor"
                           : isa<CXXConversionDecl>(FD) ? "conversion function"
                           : FD->getFriendObjectKind() != Decl::FOK_None && FD->getLexicalDeclContext()->isRecord()
                               ? "friend function defined in its class"
                               : nullptr) {
      diag::report(Diags, FD->getLocation(), diag::ProcedureKindUnsupported)
          << fmt::format("a {} whose body cannot move into a member function ({})", Kind,
                         reasonFor(SM.getFileOffset(SM.getExpansionLoc(Body->getBeginLoc()))));
      return;
    }
    if (!checkProcedureSignature(Ctx, FD)) return;

    llvm::DenseMap<SourceLocation, const Expr *> Wanted;
    std::vector<std::pair<KeywordUse, SourceLocation>> Targets;
    bool Ok = true;
    // This instantiation has no statements where its template's `if
    // constexpr` branches are discarded.
    const std::vector<SourceRange> Discarded = discardedBranches(FD);
    auto InDiscarded = [&](SourceLocation Loc) {
      return llvm::any_of(Discarded, [&](SourceRange R) {
        return SM.isPointWithin(Loc, SM.getExpansionLoc(R.getBegin()), SM.getExpansionLoc(R.getEnd()));
      });
    };
    llvm::erase_if(Proc.Loops, [&](const ParallelLoop *L) { return InDiscarded(L->KeywordLoc); });
    for (const KeywordUse &U : Uses) {
      if (InDiscarded(U.Loc)) continue;
      if (U.Kind == KeywordKind::CilkScope) {
        Ok &= bindScope(U, Body, Proc);
        continue;
      }
      SourceLocation At = U.Loc;
      if (U.Kind == KeywordKind::Spawn) {
        std::optional<Token> Next = Lexer::findNextToken(U.Loc, SM, Ctx.getLangOpts());
        At = Next ? Next->getLocation() : SourceLocation();
      }
      Targets.push_back({U, At});
      if (At.isValid()) Wanted[At] = nullptr;
    }
    OutermostExprFinder Finder(SM, Wanted);
    Finder.TraverseStmt(Body);

    ParentMap PM(Body);
    for (const auto &[U, At] : Targets) {
      const Expr *E = At.isValid() ? Wanted.lookup(At) : nullptr;
      if (U.Kind == KeywordKind::Sync)
        Ok &= bindSync(PM, U, E, Proc);
      else
        Ok &= bindSpawn(PM, U, E, Proc);
    }
    // The spawn's text and the loop's lowering would both rewrite the loop.
    for (const SpawnSite &S : Proc.Spawns) {
      const auto *Op = dyn_cast<CXXOperatorCallExpr>(S.Call);
      const auto *Lambda = Op ? dyn_cast<LambdaExpr>(Op->getArg(0)->IgnoreImplicit()) : nullptr;
      if (Lambda && llvm::any_of(Proc.Loops, [&](const ParallelLoop *L) {
            return SM.isPointWithin(L->KeywordLoc, SM.getExpansionLoc(Lambda->getBeginLoc()),
                                    SM.getExpansionLoc(Lambda->getEndLoc()));
          })) {
        diag::report(Diags, S.KeywordLoc, diag::SpawnCalleeUnsupported)
            << "a lambda that holds a cilk_for where it is written (store the lambda in a variable and spawn the "
               "variable)";
        Ok = false;
      }
    }
    ReturnCollector Returns;
    Returns.TraverseStmt(Body);
    Proc.Returns = std::move(Returns.Returns);
    Ok &= addTryBlockSyncs(Returns.Tries, Proc);
    // Report the body's problems even when a keyword could not be bound.
    Ok &= checkProcedureBody(Ctx, Proc);
    if (!Ok) return;
    Result.Procedures.push_back(std::move(Proc));
  }

  // A try block that spawns ends with an implicit sync (ScopeSite), which a
  // jump out of it other than a return (which syncs) would skip.
  bool addTryBlockSyncs(const std::vector<const CXXTryStmt *> &Tries, CilkProcedure &Proc) {
    bool Ok = true;
    for (const CXXTryStmt *Try : Tries) {
      const CompoundStmt *Block = Try->getTryBlock();
      if (llvm::none_of(Proc.Spawns, [&](const SpawnSite &S) {
            return SM.isPointWithin(S.KeywordLoc, SM.getExpansionLoc(Block->getLBracLoc()),
                                    SM.getExpansionLoc(Block->getRBracLoc()));
          }))
        continue;
      for (const Stmt *Jump : jumpsOutOf(SM, Block))
        if (!isa<ReturnStmt>(Jump)) {
          diag::report(Diags, SM.getExpansionLoc(Jump->getBeginLoc()), diag::ScopeLeft) << jumpName(Jump) << "try";
          Ok = false;
        }
      Proc.Scopes.push_back({SM.getExpansionLoc(Try->getTryLoc()), Block, /*IsTryBlock=*/true});
    }
    return Ok;
  }

  bool bindScope(const KeywordUse &U, Stmt *Body, CilkProcedure &Proc) {
    std::optional<Token> Next = Lexer::findNextToken(U.Loc, SM, Ctx.getLangOpts());
    const CompoundStmt *Block = nullptr;
    if (Next && Next->is(tok::l_brace)) {
      BlockFinder Finder(Next->getLocation());
      Finder.TraverseStmt(Body);
      Block = Finder.Found;
    }
    if (!Block) {
      diag::report(Diags, U.Loc, diag::ScopeNotBlock) << U.Spelling;
      return false;
    }
    // A return syncs anyway; other jumps would skip the scope's sync.
    bool Ok = true;
    for (const Stmt *Jump : jumpsOutOf(SM, Block))
      if (!isa<ReturnStmt>(Jump)) {
        diag::report(Diags, SM.getExpansionLoc(Jump->getBeginLoc()), diag::ScopeLeft) << jumpName(Jump) << U.Spelling;
        Ok = false;
      }
    Proc.Scopes.push_back({U.Loc, Block});
    return Ok;
  }

  bool bindSync(ParentMap &PM, const KeywordUse &U, const Expr *E, CilkProcedure &Proc) {
    if (!E || !isStatementPosition(PM, E)) {
      diag::report(Diags, U.Loc, diag::SyncNotStatement) << U.Spelling;
      return false;
    }
    Proc.Syncs.push_back({U.Loc, E});
    return true;
  }

  bool bindSpawn(ParentMap &PM, const KeywordUse &U, const Expr *E, CilkProcedure &Proc) {
    const auto *Call = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
    // A class object copied from what a call returns a reference to.
    if (const auto *Copy = E ? dyn_cast<CXXConstructExpr>(E->IgnoreImplicit()) : nullptr;
        !Call && Copy && Copy->getNumArgs() == 1 && Copy->getConstructor()->isCopyOrMoveConstructor())
      if (const auto *Referring = dyn_cast<CallExpr>(Copy->getArg(0)->IgnoreImplicit());
          Referring && Referring->getCallReturnType(Ctx)->isReferenceType())
        Call = Referring;
    if (!Call) {
      // A call whose result converts to a class type (`w = spawn f()` with
      // `Wrap(int)`): a call, but the conversion is not supported.
      const auto *Construct = E ? dyn_cast<CXXConstructExpr>(E->IgnoreImplicit()) : nullptr;
      if (const auto *Converted = Construct && Construct->getNumArgs() > 0
                                      ? dyn_cast<CallExpr>(Construct->getArg(0)->IgnoreImplicit())
                                      : nullptr) {
        diag::report(Diags, U.Loc, diag::SpawnTargetTypeMismatch)
            << Converted->getCallReturnType(Ctx) << "an object" << Construct->getType();
        return false;
      }
      diag::report(Diags, U.Loc, diag::SpawnNotCall) << U.Spelling;
      return false;
    }
    if (const char *Why = unsupportedCalleeKind(Ctx, Call)) {
      diag::report(Diags, U.Loc, diag::SpawnCalleeUnsupported) << Why;
      return false;
    }
    SpawnSite Site;
    Site.KeywordLoc = U.Loc;
    Site.Call = Call;
    Site.Callee = Call->getDirectCallee();

    const Stmt *Parent = PM.getParentIgnoreParenImpCasts(const_cast<Expr *>(E));
    // `long c{spawn f()};`, `std::string s{spawn g()};`: braces around the
    // initializer of a scalar, or of an object the call itself initializes.
    const Expr *Initializer = E;
    if (const auto *Braces = dyn_cast_or_null<InitListExpr>(Parent);
        Braces && Braces->getNumInits() == 1 && (Braces->isTransparent() || Braces->getType()->isScalarType())) {
      Initializer = Braces;
      Parent = PM.getParentIgnoreParenImpCasts(const_cast<InitListExpr *>(Braces));
    }
    const Expr *AssignLHS = nullptr;  // `x` of `x = spawn f()`, for scalars and classes alike
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent);
        BO && BO->getOpcode() == BO_Assign && BO->getRHS()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts())
      AssignLHS = BO->getLHS();
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        Op->getArg(1)->IgnoreImplicit() == E->IgnoreImplicit())
      AssignLHS = Op->getArg(0);
    // Class-type assignments come wrapped in the full-expression's cleanups.
    const Stmt *AssignStatement = Parent;
    if (const Stmt *Up = Parent ? PM.getParent(const_cast<Stmt *>(Parent)) : nullptr; isa_and_nonnull<ExprWithCleanups>(Up))
      AssignStatement = Up;
    const auto *Decl = dyn_cast_or_null<DeclStmt>(Parent);
    if (isStatementPosition(PM, E)) {
      Site.Form = SpawnForm::Discard;
      Site.Statement = E;
    } else if (AssignLHS && isStatementPosition(PM, AssignStatement)) {
      const auto *Ref = dyn_cast<DeclRefExpr>(AssignLHS->IgnoreParenImpCasts());
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      Site.Form = SpawnForm::Assign;
      Site.Statement = AssignStatement;
      if (Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType()) {
        Site.Target = Var;
      } else if (AssignLHS->refersToBitField()) {
        diag::report(Diags, AssignLHS->getBeginLoc(), diag::SpawnTargetUnsupported)
            << "a bit-field has no address to receive the result";
        return false;
      } else {
        Site.TargetLValue = AssignLHS;
      }
    } else if (Decl && Decl->isSingleDecl() && isStatementPosition(PM, Decl)) {
      const auto *Var = dyn_cast<VarDecl>(Decl->getSingleDecl());
      // (`long c = (spawn f());` too.)
      const auto Bare = [](const Expr *X) { return IgnoreExprNodes(X, IgnoreImplicitSingleStep, IgnoreParensSingleStep); };
      if (!Var || !Var->getInit() || Bare(Var->getInit()) != Bare(Initializer)) {
        diag::report(Diags, U.Loc, diag::SpawnTargetUnsupported) << "the spawned call must be the whole initializer";
        return false;
      }
      if (Var->getType()->isReferenceType()) {
        diag::report(Diags, U.Loc, diag::SpawnTargetUnsupported) << "the declared variable must not be a reference";
        return false;
      }
      Site.Form = SpawnForm::Declare;
      Site.Target = Var;
      Site.Statement = Decl;
    } else {
      diag::report(Diags, U.Loc, diag::SpawnPositionUnsupported)
          << U.Spelling << describePosition(PM, E);
      return false;
    }
    if ((Site.Target || Site.TargetLValue) && !checkSpawnTarget(Ctx, Site)) return false;
    Site.InCompound = declaresIntoBlock(PM, Site.Statement);
    Proc.Spawns.push_back(Site);
    return true;
  }

  // Why the body beginning at Offset stays serial.
  std::string reasonFor(unsigned Offset) const {
    auto It = Reasons.find(Offset);
    return It != Reasons.end() ? It->second : "it cannot move out of its function";
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  DiagnosticsEngine &Diags;
  SemaResult &Result;
  const UnmovedBodyReasons &Reasons;
};

}  // namespace

void findCilkProcedures(ASTContext &Ctx, ArrayRef<KeywordUse> Uses, ArrayRef<GrainPragma> Pragmas,
                        SemaResult &Result, const UnmovedBodyReasons &Reasons) {
  Binder(Ctx, Result, Reasons).run(Uses, Pragmas);
}

}  // namespace cilkpp
