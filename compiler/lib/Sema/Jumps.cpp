#include "Sema/Jumps.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cilkpp {
namespace {

class JumpFinder : public RecursiveASTVisitor<JumpFinder> {
 public:
  JumpFinder(const SourceManager &SM, const Stmt *Region) : SM(SM), Region(Region) {}

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool TraverseForStmt(ForStmt *S) { return inLoop([&] { return RecursiveASTVisitor::TraverseForStmt(S); }); }
  bool TraverseWhileStmt(WhileStmt *S) { return inLoop([&] { return RecursiveASTVisitor::TraverseWhileStmt(S); }); }
  bool TraverseDoStmt(DoStmt *S) { return inLoop([&] { return RecursiveASTVisitor::TraverseDoStmt(S); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    return inLoop([&] { return RecursiveASTVisitor::TraverseCXXForRangeStmt(S); });
  }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    ++Switches;
    bool Result = RecursiveASTVisitor::TraverseSwitchStmt(S);
    --Switches;
    return Result;
  }

  bool VisitBreakStmt(BreakStmt *S) {
    if (Loops == 0 && Switches == 0) Jumps.push_back(S);
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *S) {
    if (Loops == 0) Jumps.push_back(S);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *S) {
    Jumps.push_back(S);
    return true;
  }
  bool VisitGotoStmt(GotoStmt *S) {
    const Stmt *Target = S->getLabel()->getStmt();
    if (!Target || !inRegion(Target->getBeginLoc())) Jumps.push_back(S);
    return true;
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) {
    Jumps.push_back(S);
    return true;
  }

  std::vector<const Stmt *> Jumps;

 private:
  template <class F>
  bool inLoop(F Traverse) {
    ++Loops;
    bool Result = Traverse();
    --Loops;
    return Result;
  }
  bool inRegion(SourceLocation Loc) const {
    return SM.isPointWithin(SM.getExpansionLoc(Loc), SM.getExpansionLoc(Region->getBeginLoc()),
                            SM.getExpansionLoc(Region->getEndLoc()));
  }

  const SourceManager &SM;
  const Stmt *Region;
  int Loops = 0, Switches = 0;
};

}  // namespace

std::vector<const Stmt *> jumpsOutOf(const SourceManager &SM, const Stmt *Region) {
  JumpFinder Finder(SM, Region);
  Finder.TraverseStmt(const_cast<Stmt *>(Region));
  return std::move(Finder.Jumps);
}

const char *jumpName(const Stmt *Jump) {
  if (isa<BreakStmt>(Jump)) return "'break'";
  if (isa<ContinueStmt>(Jump)) return "'continue'";
  if (isa<ReturnStmt>(Jump)) return "'return'";
  return "'goto'";
}

}  // namespace cilkpp
