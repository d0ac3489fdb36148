#include "CodeGen/RecursionInlining.h"

#include "Sema/CilkModel.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// A body's statements and expressions, and whether any of them must not be
// copied.
struct BodyShape : RecursiveASTVisitor<BodyShape> {
  unsigned Nodes = 0;
  bool Uncopyable = false;

  bool VisitStmt(Stmt *S) {
    ++Nodes;
    // (Each copy would have its own closure type, and its own statics in
    // the lambda's body.)
    if (isa<LambdaExpr, BlockExpr, AsmStmt, AddrLabelExpr, IndirectGotoStmt>(S)) Uncopyable = true;
    return !Uncopyable;
  }
  bool VisitTagDecl(TagDecl *) {
    Uncopyable = true;
    return false;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->isStaticLocal()) Uncopyable = true;
    return !Uncopyable;
  }
};

// The copies' statements in all, at most: fib's body (about 30) at three
// levels of two spawns each (14 copies) is well inside it, a body of a
// hundred statements with one spawn gets three levels, one of several
// hundred none.
constexpr unsigned CopiedNodesBudget = 600;
// Copies in all, and levels, at most: past three levels the call a level
// saves is small against the frame each level still sets up.
constexpr unsigned CopiesBudget = 14;
constexpr unsigned MaxLevels = 3;

}  // namespace

unsigned copyableBodySize(const FrameDescription &Frame) {
  const CilkProcedure &Proc = *Frame.Procedure;
  // (A cilk_for's lowering makes a lambda in each copy.)
  if (!Proc.Loops.empty() || Proc.Spawns.empty()) return 0;
  BodyShape Shape;
  Shape.TraverseStmt(Proc.Definition->getBody());
  return Shape.Uncopyable || Shape.Nodes > CopiedNodesBudget ? 0 : Shape.Nodes;
}

unsigned inlinedRecursionLevels(unsigned Nodes, unsigned SelfSpawns) {
  if (Nodes == 0 || SelfSpawns == 0) return 0;
  unsigned Levels = 0, Copies = 0, AtLevel = 1;
  while (Levels < MaxLevels) {
    AtLevel *= SelfSpawns;
    if (Copies + AtLevel > CopiesBudget || (Copies + AtLevel) * Nodes > CopiedNodesBudget) break;
    Copies += AtLevel;
    ++Levels;
  }
  return Levels;
}

std::string inlinedCopyName(const ProcedureNames &Names, unsigned Level) {
  return fmt::format("{}_inlined_{}", Names.Fast, Level);
}

}  // namespace cilkpp
