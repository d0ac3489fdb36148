#include "CodeGen/ConstantValues.h"

#include "CodeGen/Naming.h"
#include "Support/KnownConstants.h"
#include "Support/Nameable.h"

#include "clang/AST/APValue.h"
#include "llvm/ADT/SmallString.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// The literal suffix that gives a decimal literal exactly type T, if any.
std::optional<const char *> literalSuffix(QualType T) {
  const auto *B = T->getAs<BuiltinType>();
  if (!B) return std::nullopt;
  switch (B->getKind()) {
    case BuiltinType::Int: return "";
    case BuiltinType::Long: return "l";
    case BuiltinType::LongLong: return "ll";
    case BuiltinType::UInt: return "u";
    case BuiltinType::ULong: return "ul";
    case BuiltinType::ULongLong: return "ull";
    default: return std::nullopt;
  }
}

// A literal of the integer's value, of its type where a suffix says it.
std::string integerLiteral(const llvm::APSInt &Value, const char *Suffix) {
  // (The most negative value has no literal: its magnitude does not fit.)
  if (Value.isSigned() && Value.isMinSignedValue()) {
    llvm::SmallString<24> Max;
    llvm::APSInt(llvm::APInt::getSignedMaxValue(Value.getBitWidth()), /*isUnsigned=*/false).toString(Max);
    return fmt::format("(-{}{} - 1)", Max.str(), Suffix);
  }
  llvm::SmallString<24> Digits;
  Value.toString(Digits);
  return fmt::format("{}{}", Digits.str(), Suffix);
}

}  // namespace

std::optional<std::string> constantValue(ASTContext &Ctx, const VarDecl &V) {
  const APValue *Value = knownScalarValue(Ctx, V);
  if (!Value) return std::nullopt;
  const QualType T = V.getType().getNonReferenceType().getUnqualifiedType();
  if (Value->isInt()) {
    const llvm::APSInt &Int = Value->getInt();
    if (T->isBooleanType()) return std::string(Int.getBoolValue() ? "true" : "false");
    if (std::optional<const char *> Suffix = literalSuffix(T)) return integerLiteral(Int, *Suffix);
    // char, short, an enumeration: a cast from a literal wide enough.
    const char *Wide = Int.isSigned() ? "ll" : "ull";
    return fmt::format("static_cast<{}>({})", typeQualified(Ctx, T), integerLiteral(Int.extOrTrunc(64), Wide));
  }
  const auto *B = T->getAs<BuiltinType>();
  const char *Suffix = !B                                        ? nullptr
                       : B->getKind() == BuiltinType::Float      ? "f"
                       : B->getKind() == BuiltinType::Double     ? ""
                       : B->getKind() == BuiltinType::LongDouble ? "l"
                                                                 : nullptr;
  if (!Suffix) return std::nullopt;
  // Hexadecimal: exactly the value, with no rounding in either direction.
  char Hex[64];
  Value->getFloat().convertToHexString(Hex, 0, /*UpperCase=*/false, llvm::RoundingMode::NearestTiesToEven);
  return fmt::format("{}{}", Hex, Suffix);
}

std::optional<std::string> constantRedeclaration(ASTContext &Ctx, const VarDecl &V) {
  const QualType T = V.getType().getNonReferenceType().getUnqualifiedType();
  if (!isNameableOutsideFunction(T)) return std::nullopt;
  std::optional<std::string> Value = constantValue(Ctx, V);
  if (!Value) return std::nullopt;
  return fmt::format("constexpr {} = {};", declareQualified(Ctx, T, V.getName()), *Value);
}

}  // namespace cilkpp
