#include "Support/Instantiations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace cilkpp {

std::vector<const FunctionDecl *> instantiationsOf(const FunctionDecl *Pattern) {
  std::vector<const FunctionDecl *> Found;
  auto AddSpecializations = [&](const FunctionTemplateDecl *Template) {
    for (const FunctionDecl *F : Template->specializations())
      if (F->isTemplateInstantiation() && F->hasBody()) Found.push_back(F);
  };
  const FunctionTemplateDecl *Template = Pattern->getDescribedFunctionTemplate();
  const auto *Method = dyn_cast<CXXMethodDecl>(Pattern);
  const ClassTemplateDecl *Class = Method ? Method->getParent()->getDescribedClassTemplate() : nullptr;
  if (!Class) {
    if (Template) AddSpecializations(Template);
    return Found;
  }
  // A class template's member: its counterpart in each instantiated class.
  for (const ClassTemplateSpecializationDecl *Spec : Class->specializations())
    for (const Decl *D : Spec->decls()) {
      if (Template) {
        const auto *Member = dyn_cast<FunctionTemplateDecl>(D);
        const FunctionTemplateDecl *From = Member ? Member->getInstantiatedFromMemberTemplate() : nullptr;
        if (From && From->getCanonicalDecl() == Template->getCanonicalDecl()) AddSpecializations(Member);
      } else if (const auto *M = dyn_cast<CXXMethodDecl>(D)) {
        const FunctionDecl *From = M->getInstantiatedFromMemberFunction();
        if (From && From->getCanonicalDecl() == Pattern->getCanonicalDecl() && M->hasBody()) Found.push_back(M);
      }
    }
  return Found;
}

const FunctionTemplateDecl *firstDeclarationInMainFile(const SourceManager &SM, const FunctionTemplateDecl *Template) {
  const FunctionTemplateDecl *First = nullptr;
  for (const RedeclarableTemplateDecl *Redecl : Template->redecls()) {
    const auto *R = cast<FunctionTemplateDecl>(Redecl);
    const SourceLocation Loc = SM.getExpansionLoc(R->getBeginLoc());
    if (SM.isWrittenInMainFile(Loc) &&
        (!First || SM.isBeforeInTranslationUnit(Loc, SM.getExpansionLoc(First->getBeginLoc()))))
      First = R;
  }
  return First;
}

}  // namespace cilkpp
