#include "Sema/ParallelLoops.h"

#include "Sema/Jumps.h"
#include "Support/Diagnostics.h"
#include "Support/LoopIndexTypes.h"
#include "Support/SourceRanges.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// The ForStmt each cilk_for keyword expanded into.
class ForStmtFinder : public RecursiveASTVisitor<ForStmtFinder> {
 public:
  ForStmtFinder(const SourceManager &SM, llvm::DenseMap<SourceLocation, const ForStmt *> &Wanted)
      : SM(SM), Wanted(Wanted) {}
  bool VisitForStmt(ForStmt *F) {
    if (!F->getForLoc().isMacroID()) return true;
    auto It = Wanted.find(SM.getExpansionLoc(F->getForLoc()));
    if (It != Wanted.end()) It->second = F;
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *F) {
    if (F->getForLoc().isMacroID()) RangeBased[SM.getExpansionLoc(F->getForLoc())] = F;
    return true;
  }
  // cilk_for keywords that begin a range-based for loop (which
  // StatementLowering rewrites to loop over an iterator, unless it cannot).
  llvm::DenseMap<SourceLocation, const CXXForRangeStmt *> RangeBased;

 private:
  const SourceManager &SM;
  llvm::DenseMap<SourceLocation, const ForStmt *> &Wanted;
};

// E with implicit conversions, parentheses and copies of it stripped.
const Expr *stripped(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<ExprWithCleanups>(E)) E = C->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) E = B->getSubExpr();
    else if (const auto *K = dyn_cast<CXXConstructExpr>(E); K && K->getNumArgs() == 1) E = K->getArg(0);
    else return E;
  }
}

bool refersTo(const Expr *E, const VarDecl *V) {
  const auto *Ref = E ? dyn_cast<DeclRefExpr>(stripped(E)) : nullptr;
  return Ref && Ref->getDecl() == V;
}

// The first reference to V in E, sizeof and decltype operands included.
const DeclRefExpr *firstReference(const Expr *E, const VarDecl *V) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    const DeclRefExpr *Found = nullptr;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() == V) Found = Ref;
      return !Found;
    }
  } F;
  F.V = V;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

std::optional<LoopTest> testOf(BinaryOperatorKind Op) {
  switch (Op) {
    case BO_LT: return LoopTest::Less;
    case BO_LE: return LoopTest::LessEqual;
    case BO_GT: return LoopTest::Greater;
    case BO_GE: return LoopTest::GreaterEqual;
    case BO_NE: return LoopTest::NotEqual;
    default: return std::nullopt;
  }
}

std::optional<LoopTest> testOf(OverloadedOperatorKind Op) {
  switch (Op) {
    case OO_Less: return LoopTest::Less;
    case OO_LessEqual: return LoopTest::LessEqual;
    case OO_Greater: return LoopTest::Greater;
    case OO_GreaterEqual: return LoopTest::GreaterEqual;
    case OO_ExclaimEqual: return LoopTest::NotEqual;
    default: return std::nullopt;
  }
}

LoopTest mirrored(LoopTest T) {
  switch (T) {
    case LoopTest::Less: return LoopTest::Greater;
    case LoopTest::LessEqual: return LoopTest::GreaterEqual;
    case LoopTest::Greater: return LoopTest::Less;
    case LoopTest::GreaterEqual: return LoopTest::LessEqual;
    case LoopTest::NotEqual: return LoopTest::NotEqual;
  }
  return T;
}

// Assignments to the loop variable in a cilk_for body.
class LoopVariableWrites : public RecursiveASTVisitor<LoopVariableWrites> {
 public:
  LoopVariableWrites(ASTContext &Ctx, const VarDecl *Var) : Ctx(Ctx), Var(Var) {}

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp()) modifies(U->getSubExpr(), U->getBeginLoc());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp()) modifies(B->getLHS(), B->getBeginLoc());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->getNumArgs() > 0 && (C->isAssignmentOp() || C->getOperator() == OO_PlusPlus ||
                                C->getOperator() == OO_MinusMinus))
      modifies(C->getArg(0), C->getBeginLoc());
    return true;
  }

  bool Found = false;

 private:
  void modifies(const Expr *Target, SourceLocation Loc) {
    if (!refersTo(Target, Var)) return;
    Found = true;
    diag::report(Ctx.getDiagnostics(), Ctx.getSourceManager().getExpansionLoc(Loc), diag::LoopVariableModified)
        << Var->getName();
  }

  ASTContext &Ctx;
  const VarDecl *Var;
};

// Jumps out of the body and writes to the loop variable are errors; the
// loop's own `continue`s are recorded for lowering.
bool checkLoopBody(ASTContext &Ctx, ParallelLoop &Loop) {
  const SourceManager &SM = Ctx.getSourceManager();
  bool Ok = true;
  for (const Stmt *Jump : jumpsOutOf(SM, Loop.Loop->getBody())) {
    if (const auto *C = dyn_cast<ContinueStmt>(Jump)) {
      Loop.Continues.push_back(C);
      continue;
    }
    diag::report(Ctx.getDiagnostics(), SM.getExpansionLoc(Jump->getBeginLoc()), diag::LoopBodyLeaves)
        << jumpName(Jump);
    Ok = false;
  }
  LoopVariableWrites Writes(Ctx, Loop.Var);
  Writes.TraverseStmt(const_cast<Stmt *>(Loop.Loop->getBody()));
  return Ok && !Writes.Found;
}

class LoopBinder {
 public:
  explicit LoopBinder(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  bool bind(const ForStmt *F, SourceLocation KeywordLoc, ParallelLoop &Loop) {
    Loop.KeywordLoc = KeywordLoc;
    Loop.Loop = F;
    const auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
    const auto *Var = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
    if (!Var || !Var->getInit() || Var->getType()->isReferenceType())
      return shape(F->getInit() ? F->getInit()->getBeginLoc() : KeywordLoc,
                   "the init statement must declare and initialise one loop variable");
    Loop.Init = Init;
    Loop.Var = Var;
    if (const auto *Builtin = Var->getType().getCanonicalType()->getAs<BuiltinType>();
        Builtin && (Builtin->getKind() == BuiltinType::Int128 || Builtin->getKind() == BuiltinType::UInt128))
      // (The runtime counts iterations and steps in 64 bits.)
      return shape(Var->getLocation(),
                   fmt::format("the loop variable '{}' of type '{}' is not supported yet: a cilk_for counts in 64 "
                               "bits (use a 64-bit loop variable and compute the 128-bit value from it)",
                               Var->getName().str(), Var->getType().getCanonicalType().getAsString(Ctx.getPrintingPolicy())));
    if (!isParallelLoopIndexType(Ctx, Var->getType())) {
      const std::string Type = Var->getType().getCanonicalType().getAsString(Ctx.getPrintingPolicy());
      return shape(Var->getLocation(),
                   fmt::format("the loop variable '{}' must be an integer or a random-access iterator, not '{}'",
                               Var->getName().str(), Type));
    }
    return bindTest(F, Loop) && bindStep(F, Loop);
  }

 private:
  bool bindTest(const ForStmt *F, ParallelLoop &Loop) {
    const Expr *Cond = F->getCond() ? stripped(F->getCond()) : nullptr;
    std::optional<LoopTest> Test;
    const Expr *L = nullptr, *R = nullptr;
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Cond)) {
      Test = testOf(B->getOpcode());
      L = B->getLHS(), R = B->getRHS();
    } else if (const auto *C = dyn_cast_or_null<CXXOperatorCallExpr>(Cond); C && C->getNumArgs() == 2) {
      Test = testOf(C->getOperator());
      L = C->getArg(0), R = C->getArg(1);
    } else if (const auto *Rewritten = dyn_cast_or_null<CXXRewrittenBinaryOperator>(Cond)) {
      // C++20 spells `it != end` as `!(it == end)` (or `a < b` through `<=>`):
      // the comparison as written.
      const CXXRewrittenBinaryOperator::DecomposedForm Written = Rewritten->getDecomposedForm();
      Test = testOf(Written.Opcode);
      L = Written.LHS, R = Written.RHS;
    }
    if (Test && refersTo(L, Loop.Var) && !refersTo(R, Loop.Var)) {
      Loop.Test = *Test;
      Loop.Bound = R;
      return invariant(Loop, Loop.Bound, "bound") && integral(Loop, Loop.Bound, "bound");
    }
    if (Test && refersTo(R, Loop.Var) && !refersTo(L, Loop.Var)) {
      Loop.Test = mirrored(*Test);
      Loop.Bound = L;
      return invariant(Loop, Loop.Bound, "bound") && integral(Loop, Loop.Bound, "bound");
    }
    return shape(F->getCond() ? F->getCond()->getBeginLoc() : F->getLParenLoc(),
                 fmt::format("the condition must compare the loop variable '{}' with a bound", Loop.Var->getName().str()));
  }

  bool bindStep(const ForStmt *F, ParallelLoop &Loop) {
    const Expr *Inc = F->getInc() ? stripped(F->getInc()) : nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && U->isIncrementDecrementOp() &&
                                                              refersTo(U->getSubExpr(), Loop.Var)) {
      Loop.StepNegated = U->isDecrementOp();
      return true;
    }
    if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc);
        B && (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign) && refersTo(B->getLHS(), Loop.Var)) {
      Loop.Step = B->getRHS();
      Loop.StepNegated = B->getOpcode() == BO_SubAssign;
      return invariant(Loop, Loop.Step, "increment") && integral(Loop, Loop.Step, "increment");
    }
    if (const auto *C = dyn_cast_or_null<CXXOperatorCallExpr>(Inc); C && C->getNumArgs() >= 1 &&
                                                                    refersTo(C->getArg(0), Loop.Var)) {
      const OverloadedOperatorKind Op = C->getOperator();
      if (Op == OO_PlusPlus || Op == OO_MinusMinus) {
        Loop.StepNegated = Op == OO_MinusMinus;
        return true;
      }
      if ((Op == OO_PlusEqual || Op == OO_MinusEqual) && C->getNumArgs() == 2) {
        Loop.Step = C->getArg(1);
        Loop.StepNegated = Op == OO_MinusEqual;
        return invariant(Loop, Loop.Step, "increment");
      }
    }
    return shape(F->getInc() ? F->getInc()->getBeginLoc() : F->getRParenLoc(),
                 fmt::format("the increment must step the loop variable '{}'", Loop.Var->getName().str()));
  }

  // The bound and the step are evaluated once, before the first iteration,
  // where the loop variable has no value of its own yet.
  bool invariant(const ParallelLoop &Loop, const Expr *E, const char *What) {
    const DeclRefExpr *Use = firstReference(E, Loop.Var);
    if (!Use) return true;
    return shape(Use->getLocation(),
                 fmt::format("the {} must not name the loop variable '{}' (a cilk_for evaluates it once, before the "
                             "first iteration)",
                             What, Loop.Var->getName().str()));
  }

  // An integer loop variable compared with, or stepped by, a floating-point
  // value: the trip count is computed on integers, which would round it.
  bool integral(const ParallelLoop &Loop, const Expr *E, const char *What) {
    const QualType T = E->IgnoreParenImpCasts()->getType();
    if (!Loop.Var->getType()->isIntegerType() || !T->isRealFloatingType()) return true;
    return shape(E->getBeginLoc(), fmt::format("the {} of the integer loop variable '{}' must be an integer, not '{}'",
                                               What, Loop.Var->getName().str(), T.getAsString()));
  }

  bool shape(SourceLocation Loc, const std::string &Why) {
    diag::report(Ctx.getDiagnostics(), SM.getExpansionLoc(Loc), diag::LoopShapeUnsupported) << Why;
    return false;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
};

// Why a range-based cilk_for was left as written (StatementLowering
// rewrites the others into loops over an iterator).
std::string unloweredRangeFor(ASTContext &Ctx, const CXXForRangeStmt *F) {
  const auto *Begin = F->getBeginStmt() ? dyn_cast<VarDecl>(F->getBeginStmt()->getSingleDecl()) : nullptr;
  if (Begin && Begin->getInit() && !isParallelLoopIndexType(Ctx, Begin->getType()))
    return fmt::format("needs a random-access range, whose halves it can run in parallel; the iterators of '{}' "
                       "are of type '{}'",
                       F->getRangeInit()->getType().getAsString(Ctx.getPrintingPolicy()),
                       Begin->getType().getCanonicalType().getAsString(Ctx.getPrintingPolicy()));
  return "whose range or body a macro writes is not supported yet: loop over an index or an iterator";
}

// A loop pragma on the lines right before a cilk_for (blank and `//`
// comment lines between), which the lowered cilk_for would leave before a
// block: `GCC unroll 4`, `GCC ivdep`, `clang loop ...`, `unroll`, `omp simd`
// (also those clang does not know, which leave no trace in the AST). Other
// pragmas there (`GCC diagnostic push`) apply to no statement and stay.
bool loopPragmaBefore(const SourceManager &SM, SourceLocation Keyword) {
  const auto [File, Offset] = SM.getDecomposedExpansionLoc(Keyword);
  StringRef Before = SM.getBufferData(File).take_front(Offset);
  size_t LineStart = Before.rfind('\n') + 1;
  if (!Before.drop_front(LineStart).trim().empty()) return false;
  while (LineStart > 0) {
    Before = Before.take_front(LineStart - 1);
    LineStart = Before.rfind('\n') + 1;
    StringRef Line = Before.drop_front(LineStart).trim();
    if (Line.empty() || Line.starts_with("//")) continue;
    if (!Line.consume_front("#")) return false;
    Line = Line.ltrim();
    if (!Line.consume_front("pragma")) return false;
    llvm::SmallVector<StringRef, 4> Words;
    llvm::SplitString(Line, Words);
    const StringRef First = Words.empty() ? "" : Words[0], Second = Words.size() > 1 ? Words[1] : "";
    return (First == "GCC" && llvm::is_contained({"unroll", "ivdep", "novector"}, Second)) ||
           (First == "clang" && Second == "loop") || First == "omp" ||
           llvm::is_contained({"unroll", "nounroll", "unroll_and_jam", "nounroll_and_jam"}, First);
  }
  return false;
}

}  // namespace

void bindParallelLoops(ASTContext &Ctx, ArrayRef<KeywordUse> Uses, ArrayRef<GrainPragma> Pragmas,
                       std::vector<ParallelLoop> &Loops) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseMap<SourceLocation, const ForStmt *> Wanted;
  for (const KeywordUse &U : Uses)
    if (U.Kind == KeywordKind::CilkFor) Wanted[U.Loc] = nullptr;
  if (Wanted.empty() && Pragmas.empty()) return;
  ForStmtFinder Finder(SM, Wanted);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());

  std::vector<bool> PragmaUsed(Pragmas.size(), false);
  LoopBinder Binder(Ctx);
  for (const KeywordUse &U : Uses) {
    if (U.Kind != KeywordKind::CilkFor) continue;
    const ForStmt *F = Wanted.lookup(U.Loc);
    if (!F) {
      if (const CXXForRangeStmt *RangeFor = Finder.RangeBased.lookup(U.Loc))
        diag::report(Ctx.getDiagnostics(), U.Loc, diag::RangeLoopUnsupported)
            << U.Spelling << unloweredRangeFor(Ctx, RangeFor);
      else
        diag::report(Ctx.getDiagnostics(), U.Loc, diag::LoopShapeUnsupported)
            << fmt::format("'{}' must begin a for loop", U.Spelling.str());
      continue;
    }
    if (loopPragmaBefore(SM, U.Loc)) {
      diag::report(Ctx.getDiagnostics(), U.Loc, diag::LoopPragmaOnCilkFor);
      continue;
    }
    ParallelLoop Loop;
    if (!Binder.bind(F, U.Loc, Loop)) continue;
    if (!checkLoopBody(Ctx, Loop)) continue;
    for (unsigned I = 0; I < Pragmas.size(); ++I)
      if (precedesLoop(Ctx, Pragmas[I], U.Loc)) {
        Loop.Grain = Pragmas[I].Grain;
        Loop.GrainPragma = Pragmas[I].Range;
        PragmaUsed[I] = true;
      }
    Loops.push_back(std::move(Loop));
  }
  for (unsigned I = 0; I < Pragmas.size(); ++I) {
    if (PragmaUsed[I]) continue;
    // A pragma before a loop that failed its checks has been reported with it.
    bool BeforeAnyLoop = false;
    for (const KeywordUse &U : Uses)
      BeforeAnyLoop |= U.Kind == KeywordKind::CilkFor && precedesLoop(Ctx, Pragmas[I], U.Loc);
    if (!BeforeAnyLoop) diag::report(Ctx.getDiagnostics(), Pragmas[I].Range.getBegin(), diag::GrainsizeNotBeforeLoop);
  }
}

const ParallelLoop *enclosingLoop(const SourceManager &SM, ArrayRef<ParallelLoop> Loops, SourceLocation Loc) {
  const ParallelLoop *Best = nullptr;
  unsigned BestSize = 0;
  for (const ParallelLoop &L : Loops) {
    CharSourceRange Body = fileRange(SM, L.Loop->getBody()->getSourceRange());
    if (!SM.isPointWithin(Loc, Body.getBegin(), Body.getEnd())) continue;
    unsigned Size = SM.getFileOffset(Body.getEnd()) - SM.getFileOffset(Body.getBegin());
    if (!Best || Size < BestSize) Best = &L, BestSize = Size;
  }
  return Best;
}

}  // namespace cilkpp
