#include "Analysis/TemplateArguments.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cilkpp {
namespace {

class ArgumentCollector : public RecursiveASTVisitor<ArgumentCollector> {
 public:
  ArgumentCollector(const SourceManager &SM, ArrayRef<KeywordUse> Uses, UnnamedTemplateArguments &Found)
      : SM(SM), Uses(Uses), Found(Found) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    if (!Pattern || !Pattern->hasBody() || !holdsKeyword(Pattern->getBody()->getSourceRange())) return true;
    if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs()) collect(Args->asArray());
    for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(DC)) collect(Spec->getTemplateArgs().asArray());
    return true;
  }

 private:
  bool holdsKeyword(SourceRange R) const {
    const SourceLocation B = SM.getExpansionLoc(R.getBegin()), E = SM.getExpansionLoc(R.getEnd());
    if (!SM.isWrittenInMainFile(B) || !SM.isWrittenInMainFile(E)) return false;
    const unsigned Begin = SM.getFileOffset(B), End = SM.getFileOffset(E);
    return llvm::any_of(Uses, [&](const KeywordUse &U) {
      const unsigned At = SM.getFileOffset(U.Loc);
      return U.Kind != KeywordKind::Cilk && Begin < At && At < End;
    });
  }

  void collect(ArrayRef<TemplateArgument> Args) {
    for (const TemplateArgument &Arg : Args) {
      if (Arg.getKind() == TemplateArgument::Pack) collect(Arg.getPackAsArray());
      if (Arg.getKind() == TemplateArgument::Type) collect(Arg.getAsType());
    }
  }

  void collect(QualType T) {
    T = T.getCanonicalType();
    while (T->isPointerType() || T->isReferenceType() || T->isArrayType())
      T = T->isArrayType() ? QualType(T->getArrayElementTypeNoTypeQual(), 0) : T->getPointeeType();
    const TagDecl *TD = T->getAsTagDecl();
    if (!TD) return;
    if (const auto *RD = dyn_cast<CXXRecordDecl>(TD); RD && RD->isLambda())
      Found.Closures.insert(RD);
    else if (TD->getParentFunctionOrMethod())
      Found.LocalTypes.insert(TD);
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(TD)) collect(Spec->getTemplateArgs().asArray());
  }

  const SourceManager &SM;
  ArrayRef<KeywordUse> Uses;
  UnnamedTemplateArguments &Found;
};

}  // namespace

UnnamedTemplateArguments unnamedTemplateArguments(ASTContext &Ctx, ArrayRef<KeywordUse> Uses) {
  UnnamedTemplateArguments Found;
  ArgumentCollector(Ctx.getSourceManager(), Uses, Found).TraverseDecl(Ctx.getTranslationUnitDecl());
  return Found;
}

}  // namespace cilkpp
