#include "Analysis/CanonicalTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {

const char *canonicalKindName(CanonicalKind Kind) {
  switch (Kind) {
    case CanonicalKind::Boolean: return "boolean";
    case CanonicalKind::Int8: return "int8";
    case CanonicalKind::UInt8: return "uint8";
    case CanonicalKind::Int16: return "int16";
    case CanonicalKind::UInt16: return "uint16";
    case CanonicalKind::Int32: return "int32";
    case CanonicalKind::UInt32: return "uint32";
    case CanonicalKind::Int64: return "int64";
    case CanonicalKind::UInt64: return "uint64";
    case CanonicalKind::Float32: return "float32";
    case CanonicalKind::Float64: return "float64";
    case CanonicalKind::Enumeration: return "enumeration";
    case CanonicalKind::Record: return "record";
    case CanonicalKind::String: return "string";
    case CanonicalKind::Vector: return "vector";
    case CanonicalKind::NotPortable: return "not_portable";
  }
  return "not_portable";
}

namespace {

using Visiting = llvm::SmallPtrSet<const RecordDecl *, 8>;

CanonicalType classify(ASTContext &Ctx, QualType T, Visiting &Open);
std::string recordNotPortableIn(ASTContext &Ctx, const RecordDecl *R, Visiting &Open);

CanonicalType notPortable(QualType T, std::string Why) {
  CanonicalType C;
  C.Native = T;
  C.NotPortable = std::move(Why);
  return C;
}

// Integers by their C++ type, not their size here: `long` is int64 in the
// canonical format whether it has 4 or 8 bytes on this machine, so that
// builds for either agree on the tables. Plain char is int8 everywhere (its
// signedness varies by target; one byte travels as its bit pattern).
std::optional<CanonicalKind> builtinKind(const BuiltinType *B) {
  switch (B->getKind()) {
    case BuiltinType::Bool: return CanonicalKind::Boolean;
    case BuiltinType::Char_S:
    case BuiltinType::Char_U:
    case BuiltinType::SChar: return CanonicalKind::Int8;
    case BuiltinType::UChar:
    case BuiltinType::Char8: return CanonicalKind::UInt8;
    case BuiltinType::Short: return CanonicalKind::Int16;
    case BuiltinType::UShort:
    case BuiltinType::Char16: return CanonicalKind::UInt16;
    case BuiltinType::Int: return CanonicalKind::Int32;
    case BuiltinType::UInt:
    case BuiltinType::Char32: return CanonicalKind::UInt32;
    case BuiltinType::Long:
    case BuiltinType::LongLong: return CanonicalKind::Int64;
    case BuiltinType::ULong:
    case BuiltinType::ULongLong: return CanonicalKind::UInt64;
    case BuiltinType::Float: return CanonicalKind::Float32;
    case BuiltinType::Double: return CanonicalKind::Float64;
    default: return std::nullopt;
  }
}

// A specialization of std::<Name> (in any inline namespace of std).
const ClassTemplateSpecializationDecl *stdSpecialization(const RecordDecl *R, StringRef Name) {
  const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(R);
  if (!S || S->getName() != Name) return nullptr;
  return S->getDeclContext()->getRedeclContext()->isStdNamespace() ? S : nullptr;
}

bool isStdAllocatorOf(QualType Alloc, QualType Element) {
  const auto *R = Alloc->getAsRecordDecl();
  const auto *S = R ? stdSpecialization(R, "allocator") : nullptr;
  return S && S->getTemplateArgs().size() >= 1 &&
         S->getTemplateArgs()[0].getAsType().getCanonicalType() == Element.getCanonicalType();
}

CanonicalType classifyRecord(ASTContext &Ctx, QualType T, const RecordDecl *R, Visiting &Open) {
  if (const auto *S = stdSpecialization(R, "basic_string")) {
    const TemplateArgumentList &Args = S->getTemplateArgs();
    const bool OfChar = Args.size() == 3 && (Args[0].getAsType()->isSpecificBuiltinType(BuiltinType::Char_S) ||
                                             Args[0].getAsType()->isSpecificBuiltinType(BuiltinType::Char_U));
    if (OfChar && isStdAllocatorOf(Args[2].getAsType(), Args[0].getAsType())) {
      CanonicalType C;
      C.Kind = CanonicalKind::String;
      C.Native = T;
      return C;
    }
    return notPortable(T, "a string of other characters than char");
  }
  if (const auto *S = stdSpecialization(R, "vector")) {
    const TemplateArgumentList &Args = S->getTemplateArgs();
    QualType Element = Args[0].getAsType();
    if (Args.size() != 2 || !isStdAllocatorOf(Args[1].getAsType(), Element))
      return notPortable(T, "a vector with a custom allocator");
    if (Element->isBooleanType()) return notPortable(T, "std::vector<bool> stores packed bits");
    CanonicalType E = classify(Ctx, Element, Open);
    if (E.Kind == CanonicalKind::NotPortable)
      return notPortable(T, fmt::format("its elements: {}", E.NotPortable));
    if (E.Count != 1) return notPortable(T, "a vector of arrays");
    CanonicalType C;
    C.Kind = CanonicalKind::Vector;
    C.Native = T;
    C.Element = std::make_shared<CanonicalType>(std::move(E));
    return C;
  }
  if (std::string Why = recordNotPortableIn(Ctx, R, Open); !Why.empty()) return notPortable(T, Why);
  CanonicalType C;
  C.Kind = CanonicalKind::Record;
  C.Native = T;
  C.Record = R->getDefinition();
  return C;
}

CanonicalType classify(ASTContext &Ctx, QualType T, Visiting &Open) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *A = Ctx.getAsConstantArrayType(T)) {
    CanonicalType E = classify(Ctx, A->getElementType(), Open);
    E.Count *= A->getSize().getZExtValue();
    return E;
  }
  if (T->isArrayType()) return notPortable(T, "an array of unknown or variable size");
  if (T->isReferenceType()) return notPortable(T, "a reference");
  if (T->isFunctionPointerType() || T->isMemberFunctionPointerType())
    return notPortable(T, "a function pointer (only cilk procedures have function-table indices)");
  if (T->isAnyPointerType() || T->isMemberPointerType() || T->isNullPtrType())
    return notPortable(T, "a raw pointer into this process's memory");
  if (const auto *B = T->getAs<BuiltinType>()) {
    if (std::optional<CanonicalKind> K = builtinKind(B)) {
      CanonicalType C;
      C.Kind = *K;
      C.Native = T;
      return C;
    }
    return notPortable(T, fmt::format("'{}' has no canonical width", T.getAsString(Ctx.getPrintingPolicy())));
  }
  if (const auto *E = T->getAs<EnumType>()) {
    const EnumDecl *D = E->getDecl();
    if (!D->isComplete()) return notPortable(T, "an incomplete enumeration");
    CanonicalType Underlying = classify(Ctx, D->getIntegerType(), Open);
    CanonicalType C;
    C.Kind = CanonicalKind::Enumeration;
    C.Native = T;
    C.Element = std::make_shared<CanonicalType>(std::move(Underlying));
    return C;
  }
  if (const RecordDecl *R = T->getAsRecordDecl()) {
    if (!R->getDefinition()) return notPortable(T, "an incomplete type");
    if (!Open.insert(R->getDefinition()).second) return notPortable(T, "a recursive type");
    CanonicalType C = classifyRecord(Ctx, T, R->getDefinition(), Open);
    Open.erase(R->getDefinition());
    return C;
  }
  return notPortable(T, fmt::format("'{}' has no canonical form", T.getAsString(Ctx.getPrintingPolicy())));
}

// The member function cilkpp_fields(...) declares (fields.h), in the class or,
// for a class template's specialization, in the template it came from (whose
// body is the only one that exists: nothing calls the function).
const CXXMethodDecl *fieldListMethod(const CXXRecordDecl *Class) {
  for (const CXXMethodDecl *M : Class->methods())
    if (M->getIdentifier() && M->getName() == "cilkpp_field_list_") return M;
  return nullptr;
}

// The specialization's field that Listed (a field of the template) became.
const FieldDecl *instantiatedField(const CXXRecordDecl *Class, const CXXRecordDecl *Pattern, const FieldDecl *Listed) {
  if (Listed->getParent() != Pattern) return Listed;  // a member of a base that is not a template
  for (const FieldDecl *F : Class->fields())
    if (F->getName() == Listed->getName()) return F;
  return nullptr;
}

RecordFields declaredFields(const CXXRecordDecl *Class, const CXXMethodDecl *Method) {
  RecordFields Result;
  Result.Declared = true;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Method->getBody());
  const auto *Call = Body && Body->size() == 1 ? dyn_cast<CallExpr>(Body->body_front()) : nullptr;
  if (!Call) {
    Result.NotPortable = "its cilkpp_field_list_ is not the one cilkpp_fields(...) declares";
    return Result;
  }
  const CXXRecordDecl *Pattern = cast<CXXRecordDecl>(Method->getParent());
  llvm::SmallPtrSet<const FieldDecl *, 8> Seen;
  for (const Expr *Arg : Call->arguments()) {
    const Expr *Named = Arg->IgnoreImplicit()->IgnoreParens();
    const auto *Member = dyn_cast<MemberExpr>(Named);
    const auto *Listed = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
    if (!Listed || !isa<CXXThisExpr>(Member->getBase()->IgnoreImplicit())) {
      const auto *Ref = dyn_cast<DeclRefExpr>(Named);
      const auto *Static = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      Result.NotPortable = Static && Static->isStaticDataMember()
                               ? fmt::format("cilkpp_fields lists static member '{}', which no object holds",
                                             Static->getName())
                               : "cilkpp_fields lists something that is not a data member of the class";
      return Result;
    }
    const FieldDecl *F = instantiatedField(Class, Pattern, Listed);
    if (!F) {
      Result.NotPortable = fmt::format("cilkpp_fields lists '{}', which its specialization lacks", Listed->getName());
      return Result;
    }
    if (F->isBitField()) {
      Result.NotPortable = fmt::format("cilkpp_fields lists bit-field '{}'", F->getName());
      return Result;
    }
    if (!Seen.insert(F).second) {
      Result.NotPortable = fmt::format("cilkpp_fields lists '{}' twice", F->getName());
      return Result;
    }
    const auto *Owner = cast<CXXRecordDecl>(F->getParent());
    if (Owner != Class && Class->isVirtuallyDerivedFrom(Owner)) {
      Result.NotPortable = fmt::format("cilkpp_fields lists '{}' of a virtual base, which has no fixed offset",
                                       F->getName());
      return Result;
    }
    Result.Fields.push_back(F);
  }
  return Result;
}

// An aggregate's bases are aggregates or empty (C++17 allows any public
// base); their fields come first, as in the object.
std::string collectAggregateFields(const CXXRecordDecl *Class, std::vector<const FieldDecl *> &Fields) {
  for (const CXXBaseSpecifier &Base : Class->bases()) {
    const CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl();
    if (!B->isAggregate() && !B->isEmpty())
      return fmt::format("base '{}' is not an aggregate, and only cilkpp_fields(...) could describe it",
                         B->getName());
    if (std::string Why = collectAggregateFields(B, Fields); !Why.empty()) return Why;
  }
  for (const FieldDecl *F : Class->fields()) Fields.push_back(F);
  return {};
}

std::string recordNotPortableIn(ASTContext &Ctx, const RecordDecl *R, Visiting &Open) {
  if (R->isUnion()) return "a union";
  if (R->isLambda()) return "a lambda's closure type";
  if (!R->getIdentifier() && !R->getTypedefNameForAnonDecl()) return "an unnamed type";
  if (R->getParentFunctionOrMethod()) return "a class local to a function";
  // The tables are emitted at namespace scope, where they could not name it.
  if (R->getAccess() == AS_private || R->getAccess() == AS_protected) return "a type private to its class";
  const RecordFields Members = recordFields(R);
  if (!Members.NotPortable.empty()) return Members.NotPortable;
  for (const FieldDecl *F : Members.Fields) {
    if (F->isBitField()) return fmt::format("bit-field '{}'", F->getName());
    CanonicalType M = classify(Ctx, F->getType(), Open);
    if (M.Kind == CanonicalKind::NotPortable) return fmt::format("member '{}': {}", F->getName(), M.NotPortable);
  }
  return {};
}

}  // namespace

CanonicalType classifyType(ASTContext &Ctx, QualType T) {
  Visiting Open;
  return classify(Ctx, T, Open);
}

RecordFields recordFields(const RecordDecl *Record) {
  const auto *Class = dyn_cast<CXXRecordDecl>(Record);
  RecordFields Result;
  if (!Class) {
    for (const FieldDecl *F : Record->fields()) Result.Fields.push_back(F);
    return Result;
  }
  const CXXRecordDecl *Pattern = Class->getTemplateInstantiationPattern();
  if (const CXXMethodDecl *Method = fieldListMethod(Pattern ? Pattern : Class)) {
    Result = declaredFields(Class, Method);
    if (Result.NotPortable.empty() && !Class->hasDefaultConstructor())
      Result.NotPortable = "no default constructor, which decoding needs to make an object before assigning its fields";
    return Result;
  }
  if (Class->isPolymorphic()) Result.NotPortable = "a class with virtual functions (cilkpp_fields(...) can describe it)";
  else if (!Class->isAggregate())
    Result.NotPortable = "not an aggregate (constructors or non-public members): cilkpp_fields(...) can describe it";
  else Result.NotPortable = collectAggregateFields(Class, Result.Fields);
  if (!Result.NotPortable.empty()) return Result;
  // offsetof names a member of a base through the derived class.
  llvm::StringMap<const FieldDecl *> ByName;
  for (const FieldDecl *F : Result.Fields) {
    auto [It, New] = ByName.try_emplace(F->getName(), F);
    if (!New && !F->getName().empty()) {
      Result.NotPortable = fmt::format("two members named '{}' (one hides the other)", F->getName());
      return Result;
    }
  }
  return Result;
}

std::string recordNotPortable(ASTContext &Ctx, const RecordDecl *Record) {
  Visiting Open;
  Open.insert(Record);
  return recordNotPortableIn(Ctx, Record, Open);
}

bool needsConstruction(const CanonicalType &T) {
  switch (T.Kind) {
    case CanonicalKind::String:
    case CanonicalKind::Vector: return true;
    case CanonicalKind::Record: {
      const auto *C = dyn_cast<CXXRecordDecl>(T.Record);
      return C && (!C->isTriviallyCopyable() || recordFields(C).Declared);
    }
    default: return false;
  }
}

}  // namespace cilkpp
