#include "Support/SelfContainedMembers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cilkpp {

bool isSelfContainedMember(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || MD->isDependentContext() || MD->isTemplateInstantiation()) return false;
  const CXXRecordDecl *Class = MD->getParent();
  if (Class->isLambda() || Class->isLocalClass() || Class->getTemplateInstantiationPattern()) return false;
  for (const DeclContext *DC = Class; !DC->isFileContext(); DC = DC->getParent())
    if (isa<ClassTemplateSpecializationDecl>(DC)) return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  const SourceLocation End = Class->getBraceRange().getEnd();
  return End.isValid() && !SM.isWrittenInMainFile(SM.getExpansionLoc(End));
}

}  // namespace cilkpp
