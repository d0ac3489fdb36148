#include "Analysis/NestedRootCalls.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

using namespace clang;

namespace cilkpp {
namespace {

// The functions each function body calls by name (constructors included);
// a lambda's body belongs to its call operator, not to the function that
// writes it.
class CallGraph : public RecursiveASTVisitor<CallGraph> {
 public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody()) addBody(FD, FD->getBody());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    const CXXMethodDecl *Op = L->getCallOperator();
    addBody(Op, L->getBody());
    // A generic lambda's instantiations have bodies of their own.
    if (const FunctionTemplateDecl *Template = Op->getDescribedFunctionTemplate())
      for (const FunctionDecl *Instance : Template->specializations())
        if (Instance->getBody()) addBody(Instance, Instance->getBody());
    return true;
  }

  // Callee -> the functions whose bodies call it.
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> Callers;

 private:
  void addBody(const FunctionDecl *Caller, Stmt *Body) {
    struct Calls : RecursiveASTVisitor<Calls> {
      std::vector<const FunctionDecl *> Found;
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
      bool VisitCallExpr(CallExpr *C) {
        if (const FunctionDecl *Callee = C->getDirectCallee()) Found.push_back(Callee->getCanonicalDecl());
        return true;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr *C) {
        Found.push_back(C->getConstructor()->getCanonicalDecl());
        return true;
      }
    } Visitor;
    Visitor.TraverseStmt(Body);
    for (const FunctionDecl *Callee : Visitor.Found) Callers[Callee].push_back(Caller->getCanonicalDecl());
  }
};

}  // namespace

NestedRootCallees::NestedRootCallees(ASTContext &Ctx, const CilkProcedureSet &Procedures) {
  CallGraph Graph;
  Graph.TraverseDecl(Ctx.getTranslationUnitDecl());
  // Backwards from the procedures: whoever calls one reaches one.
  std::vector<const FunctionDecl *> Work(Procedures.all().begin(), Procedures.all().end());
  for (const FunctionDecl *P : Work) Reaching.insert(P);
  while (!Work.empty()) {
    const FunctionDecl *Callee = Work.back();
    Work.pop_back();
    auto It = Graph.Callers.find(Callee);
    if (It == Graph.Callers.end()) continue;
    for (const FunctionDecl *Caller : It->second)
      if (Reaching.insert(Caller).second) Work.push_back(Caller);
  }
}

}  // namespace cilkpp
