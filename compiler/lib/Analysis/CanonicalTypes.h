// The canonical type of a C++ type (Lu 1995, §3; docs/signatures.md): what a
// frame field or a member of a user type becomes in the canonical format, or
// why it cannot travel. The signature tables are generated from this.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cilkpp {

// Mirrors cilkpp::rt::CanonicalKind (runtime/include/cilkpp/rt/signature.h);
// the spellings below are the enumerators' names there.
enum class CanonicalKind {
  Boolean,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float32,
  Float64,
  Enumeration,
  Record,
  String,
  Vector,
  NotPortable,
};

// The runtime's enumerator name ("int32", "not_portable").
const char *canonicalKindName(CanonicalKind Kind);

struct CanonicalType {
  CanonicalKind Kind = CanonicalKind::NotPortable;
  clang::QualType Native;          // one element, arrays stripped
  std::uint64_t Count = 1;         // elements of a (flattened) fixed array
  std::shared_ptr<CanonicalType> Element;  // Enumeration: underlying; Vector: element
  const clang::RecordDecl *Record = nullptr;  // Record
  std::string NotPortable;         // NotPortable: why
};

// The members that make up a record's value, in the order the tables list
// them: an aggregate's own fields after its bases', or what a class lists in
// cilkpp_fields(...) (runtime/include/cilkpp/fields.h).
struct RecordFields {
  std::vector<const clang::FieldDecl *> Fields;
  // Listed by cilkpp_fields: the tables reach the members, the default
  // constructor and the destructor through cilkpp::rt::record_access<T>.
  bool Declared = false;
  std::string NotPortable;  // why the list cannot describe the record
};
RecordFields recordFields(const clang::RecordDecl *Record);

// Classifies T (a field's declared type). Class types are portable when they
// are std::string, std::vector<T> of a portable T, aggregates whose members
// and bases are all portable, or classes that declare portable fields with
// cilkpp_fields(...).
CanonicalType classifyType(clang::ASTContext &Ctx, clang::QualType T);

// Why a record cannot travel, or empty: the first member (or base) that is
// not portable, named, or a property of the record itself (a union, a
// non-aggregate without cilkpp_fields, a type private to its class).
std::string recordNotPortable(clang::ASTContext &Ctx, const clang::RecordDecl *Record);

// Whether objects of the type need constructing and destroying (a string or
// vector somewhere inside, members cilkpp_fields leaves out), so that
// decoding cannot just write bytes.
bool needsConstruction(const CanonicalType &T);

}  // namespace cilkpp
