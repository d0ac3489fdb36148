#include "Support/LoopIndexTypes.h"

#include "clang/AST/DeclCXX.h"

#include <optional>

using namespace clang;

namespace cilkpp {
namespace {

// Whether the class's Member tag is (derived from) the random-access one;
// nullopt when it has no such member, or one the translator cannot see.
std::optional<bool> randomAccessTag(ASTContext &Ctx, const CXXRecordDecl *Class, StringRef Member) {
  const auto Found = Class->lookup(&Ctx.Idents.get(Member));
  const auto *Alias = Found.empty() ? nullptr : dyn_cast<TypedefNameDecl>(Found.front());
  if (!Alias) return std::nullopt;
  const auto *Tag = Alias->getUnderlyingType()->getAsCXXRecordDecl();
  if (!Tag || !Tag->hasDefinition()) return std::nullopt;
  auto IsRandomAccess = [](const CXXRecordDecl *R) {
    return R->getName() == "random_access_iterator_tag" || R->getName() == "contiguous_iterator_tag";
  };
  if (IsRandomAccess(Tag)) return true;
  return !Tag->forallBases([&](const CXXRecordDecl *Base) { return !IsRandomAccess(Base); });
}

}  // namespace

bool isParallelLoopIndexType(ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType();
  if (T->isDependentType() || T->isIntegralOrUnscopedEnumerationType() || T->isObjectPointerType()) return true;
  const auto *Class = T->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition()) return false;
  // A C++20 iterator says what it models in iterator_concept (an iota
  // view's is random-access, its iterator_category only input).
  if (std::optional<bool> Concept = randomAccessTag(Ctx, Class, "iterator_concept"); Concept && *Concept) return true;
  return randomAccessTag(Ctx, Class, "iterator_category").value_or(true);
}

}  // namespace cilkpp
