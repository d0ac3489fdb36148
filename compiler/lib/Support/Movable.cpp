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

}  // namespace cilkpp
