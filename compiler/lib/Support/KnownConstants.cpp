#include "Support/KnownConstants.h"

#include "clang/AST/Expr.h"

using namespace clang;

namespace cilkpp {

const APValue *knownScalarValue(ASTContext &Ctx, const VarDecl &V) {
  const QualType T = V.getType().getNonReferenceType();
  if (T->isDependentType() || !V.getInit() || V.getInit()->isValueDependent() || !V.isUsableInConstantExpressions(Ctx))
    return nullptr;
  const APValue *Value = V.evaluateValue();
  if (!Value) return nullptr;
  if (Value->isInt() && T->isIntegralOrEnumerationType()) return Value;
  if (Value->isFloat() && T->isRealFloatingType() && Value->getFloat().isFinite()) return Value;
  return nullptr;
}

}  // namespace cilkpp
