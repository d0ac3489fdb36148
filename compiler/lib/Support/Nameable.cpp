#include "Support/Nameable.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace cilkpp {

bool isNameableOutsideFunction(QualType T) {
  while (true) {
    T = T.getCanonicalType();
    if (const auto *PT = T->getAs<PointerType>()) { T = PT->getPointeeType(); continue; }
    if (const auto *RT = T->getAs<ReferenceType>()) { T = RT->getPointeeType(); continue; }
    if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr())) { T = AT->getElementType(); continue; }
    break;
  }
  const TagDecl *TD = T->getAsTagDecl();
  if (!TD) return true;
  if (TD->getParentFunctionOrMethod()) return false;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(TD); RD && RD->isLambda()) return false;
  // std::vector<Local> is as local as Local.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(TD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type && !isNameableOutsideFunction(Arg.getAsType())) return false;
  return TD->getIdentifier() || TD->getTypedefNameForAnonDecl();
}

}  // namespace cilkpp
