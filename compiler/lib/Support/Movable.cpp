#include "Support/Movable.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace cilkpp {

bool isMoveConstructible(QualType T) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isDependentContext()) return true;
  for (const CXXConstructorDecl *C : RD->ctors())
    if ((C->isMoveConstructor() || C->isCopyConstructor()) && !C->isDeleted() && C->getAccess() == AS_public)
      return true;
  // Implicit constructors are declared only once something uses them.
  return (RD->needsImplicitMoveConstructor() && !RD->defaultedMoveConstructorIsDeleted()) ||
         (RD->needsImplicitCopyConstructor() && !RD->defaultedCopyConstructorIsDeleted());
}

bool isMoveAssignable(QualType T) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isDependentContext()) return true;
  for (const CXXMethodDecl *M : RD->methods())
    if ((M->isMoveAssignmentOperator() || M->isCopyAssignmentOperator()) && !M->isDeleted() &&
        M->getAccess() == AS_public)
      return true;
  // Implicit operators are declared only once something uses them.
  return (RD->needsImplicitMoveAssignment() &&
          (RD->hasSimpleMoveAssignment() || RD->needsOverloadResolutionForMoveAssignment())) ||
         (RD->needsImplicitCopyAssignment() &&
          (RD->hasSimpleCopyAssignment() || RD->needsOverloadResolutionForCopyAssignment()));
}

}  // namespace cilkpp
