#include "CodeGen/VirtualSpawns.h"

#include "Analysis/ExceptionAnalysis.h"
#include "CodeGen/Naming.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// Every virtual member of the translation unit, template instantiations'
// included (they may override too), in declaration order.
class VirtualMembers : public RecursiveASTVisitor<VirtualMembers> {
 public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCXXMethodDecl(CXXMethodDecl *M) {
    if (M->isVirtual() && M->isCanonicalDecl()) Found.push_back(M);
    return true;
  }
  std::vector<const CXXMethodDecl *> Found;
};

void addOverriddenBy(const CXXMethodDecl *Overrider, const CXXMethodDecl *M,
                     llvm::DenseMap<const CXXMethodDecl *, std::vector<const CXXMethodDecl *>> &Overriders) {
  for (const CXXMethodDecl *Base : M->overridden_methods()) {
    Base = Base->getCanonicalDecl();
    Overriders[Base].push_back(Overrider);
    addOverriddenBy(Overrider, Base, Overriders);
  }
}

}  // namespace

// Whether the translator can give M's class a companion of M.
static bool mayHaveCompanion(const SourceManager &SM, const CXXMethodDecl *M) {
  if (!M->getIdentifier() || M->getRefQualifier() != RQ_None || M->isVariadic()) return false;
  for (const DeclContext *DC = M->getParent(); !DC->isFileContext(); DC = DC->getParent()) {
    const auto *RD = dyn_cast<CXXRecordDecl>(DC);
    if (!RD || RD->isDependentContext() || isa<ClassTemplateSpecializationDecl>(RD)) return false;
  }
  const SourceLocation End = M->getParent()->getBraceRange().getEnd();
  return End.isValid() && End.isFileID() && SM.isWrittenInMainFile(End);
}

VirtualSpawns::VirtualSpawns(ASTContext &Ctx, const CilkProcedureSet &Cilk) : Ctx(Ctx), Cilk(Cilk) {
  VirtualMembers Members;
  Members.TraverseDecl(Ctx.getTranslationUnitDecl());
  llvm::DenseMap<const CXXMethodDecl *, std::vector<const CXXMethodDecl *>> Overriders;
  for (const CXXMethodDecl *M : Members.Found) addOverriddenBy(M, M, Overriders);

  const SourceManager &SM = Ctx.getSourceManager();
  for (const CXXMethodDecl *M : Members.Found) {
    std::vector<const CXXMethodDecl *> Family = Overriders.lookup(M);
    Family.insert(Family.begin(), M);
    if (!llvm::all_of(Family, [&](const CXXMethodDecl *F) { return mayHaveCompanion(SM, F); }) ||
        llvm::none_of(Family, [&](const CXXMethodDecl *F) { return isCilkProcedure(F); }))
      continue;
    Dispatching.insert(M);
    WithCompanion.insert(Family.begin(), Family.end());
  }
}

bool VirtualSpawns::isCilkProcedure(const CXXMethodDecl *Method) const {
  // (A member declared `cilk` here and defined in another file has no fast
  // clone declared in its class.)
  return Cilk.contains(Method) && Method->isDefined();
}

bool VirtualSpawns::dispatchesThroughCompanion(const CXXMethodDecl *Method) const {
  return Dispatching.contains(Method->getCanonicalDecl());
}

std::string VirtualSpawns::companionName(const CXXMethodDecl *Method) {
  return "__cilkpp_spawn_" + identifierFor(Method);
}

std::string VirtualSpawns::companion(const CXXMethodDecl *M) const {
  std::string Params, Args;
  for (const ParmVarDecl *P : M->parameters()) {
    const std::string Name = P->getName().empty() ? fmt::format("__p{}", P->getFunctionScopeIndex()) : P->getName().str();
    Params += ", " + declareQualified(Ctx, P->getType(), Name);
    // A spawn leaves default arguments to the companion it calls, the
    // static callee's, as C++ takes them from the static callee.
    if (P->hasDefaultArg()) Params += " = " + defaultArgumentText(Ctx, P);
    if (!Args.empty()) Args += ", ";
    // By-value class objects and rvalue references move on, as in the
    // public entry.
    const QualType T = P->getType();
    Args += T->isRValueReferenceType() || (!T->isReferenceType() && !T.isTriviallyCopyableType(Ctx))
                ? fmt::format("static_cast<decltype({0}) &&>({0})", Name)
                : Name;
  }
  const bool Overrides = llvm::any_of(M->overridden_methods(), [&](const CXXMethodDecl *Base) {
    return WithCompanion.contains(Base->getCanonicalDecl());
  });
  const bool Cilk = isCilkProcedure(M);
  const ResultSpelling Result = resultSpelling(Ctx, M->getReturnType());
  std::string Out = fmt::format(" public: {}{} {}(::cilkpp::rt::Worker *__w, ::cilkpp::rt::Frame *__parent, void *{}, unsigned{}{})",
                                Overrides ? "" : "virtual ", Result.Before, companionName(M), Cilk ? "__slot" : "",
                                Cilk ? " __seq" : "", Params);
  if (M->isConst()) Out += " const";
  if (M->isVolatile()) Out += " volatile";
  if (declaredNothrow(M)) Out += " noexcept";
  Out += Result.After;
  if (Overrides) Out += " override";
  if (Cilk)
    return Out + fmt::format(" {{ return {}(__w, __parent, __slot, __seq, this{}{}); }} ", qualifiedFastName(M),
                             Args.empty() ? "" : ", ", Args);
  // A plain override answers no thief's request: they may take the
  // spawner's continuation while it runs.
  return Out + fmt::format(" {{ ::cilkpp::rt::expose_chain(__w, __parent); return {}({}); }} ", M->getNameAsString(), Args);
}

void VirtualSpawns::declareCompanions(Rewriter &Main) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CXXMethodDecl *M : WithCompanion)
    Main.InsertTextAfter(SM.getExpansionLoc(M->getParent()->getBraceRange().getEnd()), companion(M));
}

}  // namespace cilkpp
