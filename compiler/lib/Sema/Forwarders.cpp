#include "Sema/Forwarders.h"

#include "Sema/ProcedureChecks.h"
#include "Support/Instantiations.h"
#include "Support/Nameable.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace cilkpp {
namespace {

// The argument without implicit conversions and `static_cast<decltype(p)
// &&>(p)`.
const Expr *passed(const Expr *Arg) {
  Arg = Arg->IgnoreParenImpCasts();
  // A closure passed by value: its trivial copy or move.
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(Arg);
      Copy && Copy->getNumArgs() == 1 && Copy->getConstructor()->isCopyOrMoveConstructor() &&
      Copy->getConstructor()->isTrivial())
    Arg = Copy->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<CXXStaticCastExpr>(Arg); Cast && Cast->getTypeAsWritten()->isReferenceType())
    Arg = Cast->getSubExpr()->IgnoreParenImpCasts();
  return Arg;
}

// What a forwarder may pass on: its parameters (also as
// `static_cast<decltype(p) &&>(p)`), its object and the object's data
// members (a closure's captures), and literals. Nothing that makes a
// temporary or reads a default argument.
bool isPassedOn(const Expr *Arg, const FunctionDecl *FD) {
  Arg = passed(Arg);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg)) {
    const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl());
    return P && P->getDeclContext() == FD;
  }
  if (const auto *Deref = dyn_cast<UnaryOperator>(Arg); Deref && Deref->getOpcode() == UO_Deref)
    Arg = Deref->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Member = dyn_cast<MemberExpr>(Arg))
    return isa<FieldDecl>(Member->getMemberDecl()) && isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts());
  return isa<CXXThisExpr, IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CXXNullPtrLiteralExpr,
             CharacterLiteral>(Arg);
}

// The object of a member call, one the forwarder does not own: its own
// (`this->m()`, `m()`), one its object points to (`__cilkpp_this->m()`, a
// named closure's), or one a pointer or reference parameter leads to.
bool passesObjectOn(const CXXMemberCallExpr *Call, const FunctionDecl *FD) {
  const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens());
  if (!ME) return false;
  const Expr *Object = ME->getBase()->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(Object)) return true;
  if (const auto *Deref = dyn_cast<UnaryOperator>(Object); Deref && Deref->getOpcode() == UO_Deref && !ME->isArrow())
    return isa<CXXThisExpr>(Deref->getSubExpr()->IgnoreParenImpCasts());
  if (const auto *Field = dyn_cast<MemberExpr>(Object))
    return ME->isArrow() && isa<FieldDecl>(Field->getMemberDecl()) &&
           isa<CXXThisExpr>(Field->getBase()->IgnoreParenImpCasts());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Object)) {
    const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl());
    return P && P->getDeclContext() == FD && (ME->isArrow() ? P->getType()->isPointerType() : P->getType()->isReferenceType());
  }
  return false;
}

// The kinds of function that stay plain whatever their body.
bool mayForward(ASTContext &Ctx, const FunctionDecl *FD) {
  if (FD->isMain() || FD->isConstexpr() || FD->isVariadic() || FD->isDeleted() || FD->isDefaulted() ||
      FD->isExternC() || FD->getFriendObjectKind() != Decl::FOK_None ||
      isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(FD))
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD))
    if (Method->isVirtual() || Method->getParent()->isLambda() || Method->getParent()->isLocalClass()) return false;
  // Nothing of the forwarder's needs destroying, or a frame. A closure
  // passed on by value (`self` of a self-applied generic lambda) may be
  // copied once more than in the serial elision.
  return llvm::all_of(FD->parameters(), [&](const ParmVarDecl *P) {
    const QualType T = P->getType();
    return T->isScalarType() || T->isReferenceType() || isPlainClosure(Ctx, T);
  });
}

bool forwards(ASTContext &Ctx, const FunctionDecl *FD, const CilkProcedureSet &Procedures) {
  if (!mayForward(Ctx, FD)) return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body || Body->size() != 1) return false;
  const Expr *Passed = nullptr;
  if (const auto *Return = dyn_cast<ReturnStmt>(Body->body_front()))
    Passed = Return->getRetValue();
  else if (FD->getReturnType()->isVoidType())
    Passed = dyn_cast<Expr>(Body->body_front());
  const auto *Call = Passed ? dyn_cast<CallExpr>(Passed->IgnoreParenImpCasts()) : nullptr;
  // A call by name of a free function or static member, or of a member on
  // an object the forwarder is passed (what a tail call can be).
  if (!Call || isa<CXXOperatorCallExpr>(Call)) return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Procedures.contains(Callee)) return false;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (cast<CXXMethodDecl>(Callee)->isVirtual() || !passesObjectOn(Member, FD)) return false;
  } else if (!isa<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()) ||
             (isa<CXXMethodDecl>(Callee) && !cast<CXXMethodDecl>(Callee)->isStatic())) {
    return false;
  }
  const QualType Result = FD->getReturnType().getCanonicalType().getUnqualifiedType();
  if (!Result->isVoidType() &&
      (Result->isRecordType() || !Result.isTriviallyCopyableType(Ctx) ||
       !Ctx.hasSameType(Result, Callee->getReturnType().getCanonicalType().getUnqualifiedType())))
    return false;
  if (!llvm::all_of(Call->arguments(), [&](const Expr *Arg) { return isPassedOn(Arg, FD); })) return false;
  // A by-value parameter bound to the callee's reference parameter would
  // die with the forwarder's fast clone while the callee runs on.
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
    const auto *Ref = dyn_cast<DeclRefExpr>(passed(Call->getArg(I)));
    if (Callee->getParamDecl(I)->getType()->isReferenceType() && Ref && isa<ParmVarDecl>(Ref->getDecl()) &&
        !Ref->getDecl()->getType()->isReferenceType())
      return false;
  }
  return mayBeProcedure(Ctx, FD);
}

}  // namespace

std::vector<const FunctionDecl *> findForwarders(ASTContext &Ctx, ArrayRef<const FunctionDecl *> Definitions,
                                                 CilkProcedureSet Procedures) {
  std::vector<const FunctionDecl *> Found;
  std::vector<const FunctionDecl *> Left(Definitions.begin(), Definitions.end());
  for (bool Added = true; Added;) {
    Added = false;
    for (const FunctionDecl *&FD : Left) {
      if (!FD || Procedures.contains(FD)) continue;
      // A template is translated per instantiation: all or none.
      std::vector<const FunctionDecl *> Instances{FD};
      if (FD->isTemplated()) Instances = instantiationsOf(FD);
      if (Instances.empty() || !llvm::all_of(Instances, [&](const FunctionDecl *I) { return forwards(Ctx, I, Procedures); }))
        continue;
      for (const FunctionDecl *I : Instances) {
        Procedures.add(I);
        Found.push_back(I);
      }
      FD = nullptr;
      Added = true;
    }
  }
  return Found;
}

}  // namespace cilkpp
