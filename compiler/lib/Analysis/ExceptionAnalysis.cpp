#include "Analysis/ExceptionAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace cilkpp {
namespace {

// Plain functions whose bodies are in this file: whether each can throw.
// A function still being analysed (recursion) counts as throwing.
using BodyVerdicts = llvm::DenseMap<const FunctionDecl *, bool>;

bool bodyMayThrow(const FunctionDecl *F, const CilkProcedureSet &CilkFunctions, BodyVerdicts &Verdicts);

bool nothrowCallee(const CallExpr *Call, const CilkProcedureSet &CilkFunctions, BodyVerdicts &Verdicts) {
  if (const FunctionDecl *F = Call->getDirectCallee()) {
    if (declaredNothrow(F)) return true;
    // A virtual call may reach any overrider, whatever this body does.
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isVirtual()) return false;
    const FunctionDecl *Definition = F->getDefinition();
    return Definition && Definition->hasBody() && !bodyMayThrow(Definition, CilkFunctions, Verdicts);
  }
  QualType T = Call->getCallee()->getType();
  if (const auto *Ptr = T->getAs<PointerType>()) T = Ptr->getPointeeType();
  if (const auto *Member = T->getAs<MemberPointerType>()) T = Member->getPointeeType();
  const auto *Proto = T.getNonReferenceType()->getAs<FunctionProtoType>();
  return Proto && Proto->isNothrow();
}

// What one procedure body can throw by itself, and which cilk procedures of
// this file it calls (their bodies decide for those calls).
class ThrowFinder : public RecursiveASTVisitor<ThrowFinder> {
 public:
  ThrowFinder(const CilkProcedureSet &CilkFunctions, BodyVerdicts &Verdicts)
      : CilkFunctions(CilkFunctions), Verdicts(Verdicts) {}

  bool Throws = false;
  std::vector<const FunctionDecl *> CilkCallees;

  // A lambda's body runs when the lambda is called (a call seen here); its
  // captures are initialised here.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    for (Expr *Init : L->capture_inits())
      if (Init) TraverseStmt(Init);
    return true;
  }
  // Unevaluated operands.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *F = Call->getDirectCallee(); F && CilkFunctions.contains(F))
      CilkCallees.push_back(F->getCanonicalDecl());
    else
      Throws |= !nothrowCallee(Call, CilkFunctions, Verdicts);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    const CXXConstructorDecl *Ctor = E->getConstructor();
    if (declaredNothrow(Ctor)) return true;
    const FunctionDecl *Definition = Ctor->getDefinition();
    Throws |= !Definition || !Definition->hasBody() || bodyMayThrow(Definition, CilkFunctions, Verdicts);
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) {
    Throws |= !E->getOperatorNew() || !declaredNothrow(E->getOperatorNew());
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *) { return Throws = true; }
  bool VisitCXXDynamicCastExpr(CXXDynamicCastExpr *E) {
    // (An expression's type is never a reference: the cast's written one.)
    Throws |= E->getTypeAsWritten()->isReferenceType();
    return true;
  }
  bool VisitCXXTypeidExpr(CXXTypeidExpr *E) {
    Throws |= E->isPotentiallyEvaluated();
    return true;
  }

 private:
  const CilkProcedureSet &CilkFunctions;
  BodyVerdicts &Verdicts;
};

bool bodyMayThrow(const FunctionDecl *F, const CilkProcedureSet &CilkFunctions, BodyVerdicts &Verdicts) {
  auto [It, Inserted] = Verdicts.try_emplace(F->getCanonicalDecl(), true);
  if (!Inserted) return It->second;
  ThrowFinder Finder(CilkFunctions, Verdicts);
  Finder.TraverseStmt(F->getBody());
  // A constructor's member initialisers are not part of its body.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() || Init->getInit()) Finder.TraverseStmt(Init->getInit());
  const bool Throws = Finder.Throws || !Finder.CilkCallees.empty();
  Verdicts[F->getCanonicalDecl()] = Throws;
  return Throws;
}

}  // namespace

bool declaredNothrow(const FunctionDecl *FD) {
  if (FD->hasAttr<NoThrowAttr>()) return true;
  const auto *Proto = FD->getType()->getAs<FunctionProtoType>();
  return Proto && Proto->isNothrow();
}

void analyseExceptions(const CilkProcedureSet &CilkFunctions, std::vector<FrameDescription> &Frames) {
  llvm::DenseMap<const FunctionDecl *, FrameDescription *> Defined;
  for (FrameDescription &Frame : Frames) Defined[Frame.Procedure->Definition->getCanonicalDecl()] = &Frame;

  BodyVerdicts Verdicts;
  std::vector<std::vector<const FunctionDecl *>> Callees(Frames.size());
  for (unsigned I = 0; I < Frames.size(); ++I) {
    FrameDescription &Frame = Frames[I];
    const FunctionDecl *FD = Frame.Procedure->Definition;
    if (declaredNothrow(FD)) continue;
    ThrowFinder Finder(CilkFunctions, Verdicts);
    Finder.TraverseStmt(FD->getBody());
    Frame.MayThrow = Finder.Throws;
    Callees[I] = std::move(Finder.CilkCallees);
  }
  auto CalleeMayThrow = [&](const FunctionDecl *Callee) {
    if (FrameDescription *F = Defined.lookup(Callee->getCanonicalDecl())) return F->MayThrow;
    return !declaredNothrow(Callee);
  };
  // May-throw only grows, so this reaches the least fixed point.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I = 0; I < Frames.size(); ++I) {
      if (Frames[I].MayThrow) continue;
      for (const FunctionDecl *Callee : Callees[I])
        if (CalleeMayThrow(Callee)) {
          Frames[I].MayThrow = Changed = true;
          break;
        }
    }
  }

  for (FrameDescription &Frame : Frames) {
    Frame.SpawnMayThrow.clear();
    for (const SpawnSite &Site : Frame.Procedure->Spawns) {
      bool Throws;
      if (Site.Callee && CilkFunctions.contains(Site.Callee)) {
        Throws = CalleeMayThrow(Site.Callee);
      } else {
        ThrowFinder Finder(CilkFunctions, Verdicts);
        Finder.VisitCallExpr(const_cast<CallExpr *>(Site.Call));
        Throws = Finder.Throws;
      }
      // A procedure declared noexcept lets std::terminate handle it, as C++ does.
      Frame.SpawnMayThrow.push_back(Throws && Frame.MayThrow);
    }
  }
}

}  // namespace cilkpp
