#include "Support/Instantiations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <functional>

using namespace clang;

namespace cilkpp {

std::vector<const FunctionDecl *> instantiationsOf(const FunctionDecl *Pattern) {
  std::vector<const FunctionDecl *> Found;
  auto AddSpecializations = [&](const FunctionTemplateDecl *Template) {
    for (const FunctionDecl *F : Template->specializations())
      if (F->isTemplateInstantiation() && F->hasBody()) Found.push_back(F);
  };
  const FunctionTemplateDecl *Template = Pattern->getDescribedFunctionTemplate();
  // The outermost class template around Pattern.
  const ClassTemplateDecl *Class = nullptr;
  for (const DeclContext *DC = Pattern->getDeclContext(); isa<CXXRecordDecl>(DC); DC = DC->getParent())
    if (const ClassTemplateDecl *Described = cast<CXXRecordDecl>(DC)->getDescribedClassTemplate()) Class = Described;
  if (!Class) {
    if (Template) AddSpecializations(Template);
    return Found;
  }
  // A class template's member: its counterpart in each instantiated class,
  // or in the classes nested in it.
  std::function<void(const CXXRecordDecl *)> Visit = [&](const CXXRecordDecl *RD) {
    for (const Decl *D : RD->decls()) {
      if (const auto *Nested = dyn_cast<CXXRecordDecl>(D)) {
        if (!Nested->isInjectedClassName() && Nested->hasDefinition() && Nested == Nested->getDefinition()) Visit(Nested);
      } else if (const auto *NestedTemplate = dyn_cast<ClassTemplateDecl>(D)) {
        for (const ClassTemplateSpecializationDecl *Spec : NestedTemplate->specializations())
          if (Spec->hasDefinition() && Spec == Spec->getDefinition()) Visit(Spec);
      } else if (Template) {
        const auto *Member = dyn_cast<FunctionTemplateDecl>(D);
        const FunctionTemplateDecl *From = Member ? Member->getInstantiatedFromMemberTemplate() : nullptr;
        if (From && From->getCanonicalDecl() == Template->getCanonicalDecl()) AddSpecializations(Member);
      } else if (const auto *M = dyn_cast<CXXMethodDecl>(D)) {
        // (In a class template nested in a class template, through the
        // nested template's own partial instantiation.)
        const FunctionDecl *From = M->getTemplateInstantiationPattern();
        if (From && From->getCanonicalDecl() == Pattern->getCanonicalDecl() && M->hasBody()) Found.push_back(M);
      }
    }
  };
  for (const ClassTemplateSpecializationDecl *Spec : Class->specializations()) Visit(Spec);
  return Found;
}

std::vector<const ClassTemplateSpecializationDecl *> enclosingSpecializations(const FunctionDecl *FD) {
  std::vector<const ClassTemplateSpecializationDecl *> Specs;
  for (const DeclContext *DC = FD->getDeclContext(); isa<CXXRecordDecl>(DC); DC = DC->getParent())
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(DC)) Specs.insert(Specs.begin(), Spec);
  return Specs;
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

std::optional<unsigned> packElementIndex(const ParmVarDecl *P) {
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  const FunctionDecl *Pattern = FD && FD->isTemplateInstantiation() ? FD->getTemplateInstantiationPattern() : nullptr;
  if (!Pattern) return std::nullopt;
  unsigned Pack = 0;
  while (Pack < Pattern->getNumParams() && !Pattern->getParamDecl(Pack)->isParameterPack()) ++Pack;
  if (Pack == Pattern->getNumParams()) return std::nullopt;
  const unsigned Length = FD->getNumParams() + 1 - Pattern->getNumParams();
  const unsigned Index = P->getFunctionScopeIndex();
  if (Index < Pack || Index >= Pack + Length) return std::nullopt;
  return Index - Pack;
}

std::string declaredParameterName(const ParmVarDecl *P) {
  if (!P->getName().empty()) return P->getName().str();
  // Named after its place in the template as written, where every element
  // of an instantiation's pack has the pack's place.
  unsigned Index = P->getFunctionScopeIndex();
  if (std::optional<unsigned> K = packElementIndex(P)) Index -= *K;
  else if (const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext()); FD && FD->isTemplateInstantiation())
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
        Pattern && Index >= Pattern->getNumParams())
      Index -= FD->getNumParams() - Pattern->getNumParams();
  return "__cilkpp_param_" + std::to_string(Index);
}

std::string parameterName(const ParmVarDecl *P) {
  if (std::optional<unsigned> K = packElementIndex(P)) return declaredParameterName(P) + "__" + std::to_string(*K);
  return declaredParameterName(P);
}

std::vector<SourceRange> discardedBranches(const FunctionDecl *Instance) {
  std::vector<SourceRange> Discarded;
  const FunctionDecl *Pattern = Instance->isTemplateInstantiation() ? Instance->getTemplateInstantiationPattern() : nullptr;
  if (!Pattern || !Pattern->getBody() || !Instance->getBody()) return Discarded;
  struct Collector : RecursiveASTVisitor<Collector> {
    std::vector<const IfStmt *> Ifs;
    bool VisitIfStmt(IfStmt *S) {
      if (S->isConstexpr()) Ifs.push_back(S);
      return true;
    }
  } InPattern, InInstance;
  InPattern.TraverseStmt(Pattern->getBody());
  InInstance.TraverseStmt(Instance->getBody());
  // Clang keeps a discarded branch as an empty statement or block.
  auto IsEmpty = [](const Stmt *S) {
    const auto *Block = dyn_cast_or_null<CompoundStmt>(S);
    return !S || isa<NullStmt>(S) || (Block && Block->body_empty());
  };
  auto IsDiscarded = [&](const Stmt *Written, const Stmt *Kept) { return !IsEmpty(Written) && IsEmpty(Kept); };
  for (const IfStmt *Written : InPattern.Ifs)
    for (const IfStmt *Kept : InInstance.Ifs)
      if (Kept->getIfLoc() == Written->getIfLoc()) {
        if (IsDiscarded(Written->getThen(), Kept->getThen())) Discarded.push_back(Written->getThen()->getSourceRange());
        if (IsDiscarded(Written->getElse(), Kept->getElse())) Discarded.push_back(Written->getElse()->getSourceRange());
      }
  return Discarded;
}

}  // namespace cilkpp
