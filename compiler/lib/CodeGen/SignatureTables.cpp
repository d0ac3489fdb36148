#include "CodeGen/SignatureTables.h"

#include "Analysis/CanonicalTypes.h"
#include "CodeGen/SourceText.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <memory>

using namespace clang;

namespace cilkpp {
namespace {

// The runtime's fnv1a64 (signature.h): the same hash on both sides.
std::uint64_t fnv1a64(llvm::StringRef Text) {
  std::uint64_t H = 0xcbf29ce484222325ull;
  for (unsigned char C : Text) {
    H ^= C;
    H *= 0x100000001b3ull;
  }
  return H;
}

std::string mangledName(ASTContext &Ctx, const FunctionDecl *FD) {
  std::unique_ptr<MangleContext> Mangler(Ctx.createMangleContext());
  if (!Mangler->shouldMangleDeclName(FD)) return FD->getNameAsString();
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    Mangler->mangleName(GlobalDecl(Ctor, Ctor_Complete), OS);
  else if (const auto *Dtor = dyn_cast<CXXDestructorDecl>(FD))
    Mangler->mangleName(GlobalDecl(Dtor, Dtor_Complete), OS);
  else
    Mangler->mangleName(GlobalDecl(FD), OS);
  return Name;
}

std::string kindEnumerator(CanonicalKind Kind) {
  return fmt::format("::cilkpp::rt::CanonicalKind::{}", canonicalKindName(Kind));
}

std::string typeName(ASTContext &Ctx, QualType T) { return T.getAsString(Ctx.getPrintingPolicy()); }

// One member of a record or frame, as the table and the dump describe it.
struct MemberRow {
  std::string Name;
  CanonicalType Type;
  std::string Initializer;  // the ValueType
  std::string Canonical;    // its canonical description, for the hash
  std::string Offset;       // C++ expression
  std::uint64_t DumpOffset = 0, DumpSize = 0;
  std::string AliveFlag;
  std::string AliveFlagOffset;
};

// Writes the tables one frame needs: ValueTypes that others point at, the
// tables of the user records it holds (each once), then its own.
class FrameTableWriter {
 public:
  FrameTableWriter(ASTContext &Ctx, std::string Prefix, std::string Storage,
                   llvm::DenseSet<const RecordDecl *> &EmittedAccess)
      : Ctx(Ctx), Prefix(std::move(Prefix)), Storage(std::move(Storage)), EmittedAccess(EmittedAccess) {}

  std::string Definitions;
  std::string AccessDefinitions;  // at global scope, before Definitions
  std::string RecordDump;

  // The ValueType initializer of one element of T, sized by NativeSize.
  std::pair<std::string, std::string> valueType(const CanonicalType &T, const std::string &NativeSize) {
    switch (T.Kind) {
      case CanonicalKind::Enumeration: {
        const std::string Underlying = named(valueType(*T.Element, sizeOf(T.Element->Native)).first);
        return {fmt::format("{{{}, {}, &{}}}", kindEnumerator(T.Kind), NativeSize, Underlying),
                fmt::format("enumeration({})", canonicalKindName(T.Element->Kind))};
      }
      case CanonicalKind::Record: {
        const RecordEntry &R = record(T);
        return {fmt::format("{{{}, {}, nullptr, &{}}}", kindEnumerator(T.Kind), NativeSize, R.Name),
                fmt::format("record({:#018x})", R.Hash)};
      }
      case CanonicalKind::Vector: {
        auto [ElementInit, ElementCanonical] = valueType(*T.Element, sizeOf(T.Element->Native));
        return {fmt::format("{{{}, {}, &{}, nullptr, &::cilkpp::rt::VectorOpsFor<{}>::ops}}", kindEnumerator(T.Kind),
                            NativeSize, named(ElementInit), typeQualified(Ctx, T.Element->Native)),
                fmt::format("vector({})", ElementCanonical)};
      }
      default:
        return {fmt::format("{{{}, {}}}", kindEnumerator(T.Kind), NativeSize), canonicalKindName(T.Kind)};
    }
  }

  // Defines the field table Name from Rows; returns its canonical hash.
  std::uint64_t fieldTable(const std::string &Name, const std::vector<MemberRow> &Rows, const char *What) {
    std::string Canonical = What;
    Canonical += "{";
    std::string Fields;
    for (const MemberRow &R : Rows) {
      Canonical += fmt::format("{}:{}*{}{};", R.Name, R.Canonical, R.Type.Count, R.AliveFlag.empty() ? "" : "?");
      Fields += fmt::format("  {{{}, {}, {}, {}u", cStringLiteral(R.Name), R.Initializer, R.Offset, R.Type.Count);
      if (!R.AliveFlagOffset.empty() || R.Type.Kind == CanonicalKind::NotPortable)
        Fields += fmt::format(", {}", R.AliveFlagOffset.empty() ? "~0u" : R.AliveFlagOffset);
      if (R.Type.Kind == CanonicalKind::NotPortable) Fields += ", " + cStringLiteral(R.Type.NotPortable);
      Fields += "},\n";
    }
    if (!Rows.empty())
      Definitions += fmt::format("{}::cilkpp::rt::FieldSignature {}[] = {{\n{}}};\n", Storage, Name, Fields);
    return fnv1a64(Canonical + "}");
  }

  std::string sizeOf(QualType T) { return fmt::format("sizeof({})", typeQualified(Ctx, T)); }

  std::string dumpRow(const MemberRow &R) const {
    std::string Type = R.Type.Kind == CanonicalKind::NotPortable ? "not portable: " + R.Type.NotPortable
                                                                   : describe(R.Type);
    if (!R.AliveFlag.empty()) Type += fmt::format(" (alive when {})", R.AliveFlag);
    return fmt::format("  {:>6} {:>6} {:>5}  {:<24} {}\n", R.DumpOffset, R.DumpSize, R.Type.Count, R.Name, Type);
  }

  std::string describe(const CanonicalType &T) const {
    switch (T.Kind) {
      case CanonicalKind::Enumeration:
        return fmt::format("enumeration {} of {}", typeName(Ctx, T.Native), canonicalKindName(T.Element->Kind));
      case CanonicalKind::Record: return fmt::format("record {}", typeName(Ctx, T.Native));
      case CanonicalKind::Vector: return fmt::format("vector of {}", describe(*T.Element));
      default: return canonicalKindName(T.Kind);
    }
  }

 private:
  struct RecordEntry {
    std::string Name;
    std::uint64_t Hash;
  };

  // Names a ValueType initializer, so that another can point at it.
  std::string named(const std::string &Initializer) {
    std::string Name = fmt::format("{}_type{}", Prefix, Counter++);
    Definitions += fmt::format("{}::cilkpp::rt::ValueType {}{};\n", Storage, Name, Initializer);
    return Name;
  }

  const RecordEntry &record(const CanonicalType &T) {
    auto Found = Records.find(T.Record);
    if (Found != Records.end()) return Found->second;
    const std::string Type = typeQualified(Ctx, T.Native);
    const RecordFields Members = recordFields(T.Record);
    const std::string Access = fmt::format("::cilkpp::rt::record_access<{}>", Type);
    std::vector<MemberRow> Rows;
    for (const FieldDecl *F : Members.Fields) {
      MemberRow Row;
      Row.Name = F->getNameAsString();
      Row.Type = classifyType(Ctx, F->getType());
      const std::string Size = Members.Declared ? fmt::format("{}::sizes[{}]", Access, Rows.size())
                                                : fmt::format("sizeof({}::{})", Type, Row.Name);
      std::tie(Row.Initializer, Row.Canonical) = valueType(Row.Type, fmt::format("{} / {}", Size, Row.Type.Count));
      Row.Offset = Members.Declared ? fmt::format("{}::offsets[{}]", Access, Rows.size())
                                    : fmt::format("__builtin_offsetof({}, {})", Type, Row.Name);
      Row.DumpOffset = fieldOffset(cast<CXXRecordDecl>(T.Record), F);
      Row.DumpSize = Ctx.getTypeSizeInChars(F->getType()).getQuantity();
      Rows.push_back(std::move(Row));
    }
    if (Members.Declared && EmittedAccess.insert(T.Record).second) recordAccess(Type, Members.Fields);
    const std::string Name = fmt::format("{}_record{}", Prefix, Counter++);
    const std::uint64_t Hash = fieldTable(Name + "_fields", Rows, "record");
    std::string Lifetime;
    if (Members.Declared)
      Lifetime = fmt::format(", &{0}::construct, &{0}::destroy", Access);
    else if (needsConstruction(T))
      Lifetime = fmt::format(", &::cilkpp::rt::construct_object<{0}>, &::cilkpp::rt::destroy_object<{0}>", Type);
    Definitions += fmt::format("{}::cilkpp::rt::RecordSignature {}{{{}, sizeof({}), {}u, {}, {:#018x}ull{}}};\n",
                               Storage, Name, cStringLiteral(typeName(Ctx, T.Native)), Type, Rows.size(),
                               Rows.empty() ? "nullptr" : Name + "_fields", Hash, Lifetime);
    RecordDump += fmt::format("record {} (size {}, canonical hash {:#018x}{})\n", typeName(Ctx, T.Native),
                              Ctx.getTypeSizeInChars(T.Native).getQuantity(), Hash,
                              Members.Declared ? ", fields from cilkpp_fields" : "");
    for (const MemberRow &R : Rows) RecordDump += dumpRow(R);
    return Records.insert({T.Record, {Name, Hash}}).first->second;
  }

  // The offset of F, a field of Class or of one of its (non-virtual) bases.
  std::uint64_t fieldOffset(const CXXRecordDecl *Class, const FieldDecl *F) const {
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(Class);
    if (F->getParent() == Class)
      return Ctx.toCharUnitsFromBits(Layout.getFieldOffset(F->getFieldIndex())).getQuantity();
    const auto *Owner = cast<CXXRecordDecl>(F->getParent());
    for (const CXXBaseSpecifier &Base : Class->bases()) {
      const CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl();
      if (B == Owner || B->isDerivedFrom(Owner))
        return Layout.getBaseClassOffset(B).getQuantity() + fieldOffset(B, F);
    }
    return 0;
  }

  // The specialization of cilkpp::rt::record_access that cilkpp_fields
  // befriends: what only the class may name, for the tables to point at.
  void recordAccess(const std::string &Type, const std::vector<const FieldDecl *> &Fields) {
    std::string Offsets, Sizes;
    for (const FieldDecl *F : Fields) {
      Offsets += fmt::format("      __builtin_offsetof({}, {}),\n", Type, F->getName());
      Sizes += fmt::format("      sizeof({}::{}),\n", Type, F->getName());
    }
    // An empty list (`cilkpp_fields()`) has no arrays: C++ has no empty ones.
    const std::string Layout =
        Fields.empty() ? ""
                       : fmt::format("  static constexpr ::std::uint32_t offsets[] = {{\n{}  }};\n"
                                     "  static constexpr ::std::uint32_t sizes[] = {{\n{}  }};\n",
                                     Offsets, Sizes);
    AccessDefinitions += fmt::format(
        "template <>\n"
        "struct cilkpp::rt::record_access<{0}> {{\n"
        "  using type = {0};\n"
        "{1}"
        "  static void construct(void *object) noexcept {{ ::new (object) type(); }}\n"
        "  static void destroy(void *object) noexcept {{ static_cast<type *>(object)->~type(); }}\n"
        "}};\n",
        Type, Layout);
  }

  ASTContext &Ctx;
  std::string Prefix;
  std::string Storage;  // what each definition starts with
  unsigned Counter = 0;
  llvm::DenseMap<const RecordDecl *, RecordEntry> Records;
  llvm::DenseSet<const RecordDecl *> &EmittedAccess;
};

std::uint64_t alignTo(std::uint64_t Value, std::uint64_t Align) { return (Value + Align - 1) / Align * Align; }

// sizeof(cilkpp::rt::Frame) on the target (runtime/include/cilkpp/rt/frame.h:
// three pointers, three 32-bit integers, three pointers), for the dump's
// offsets; the emitted tables use __builtin_offsetof.
std::uint64_t frameHeaderSize(ASTContext &Ctx) {
  const std::uint64_t Pointer = Ctx.getTypeSizeInChars(Ctx.VoidPtrTy).getQuantity();
  return alignTo(3 * Pointer + 12, Pointer) + 3 * Pointer;
}

}  // namespace

std::string internalLinkageKey(StringRef FileName) {
  const StringRef Name = llvm::sys::path::filename(FileName);
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Source = llvm::MemoryBuffer::getFile(FileName))
    return fmt::format("@{}#{:016x}", Name.str(), llvm::xxh3_64bits((*Source)->getBuffer()));
  return fmt::format("@{}", Name.str());
}

std::uint64_t functionIndex(ASTContext &Ctx, const FunctionDecl *FD, StringRef InternalKey) {
  std::string Key = mangledName(Ctx, FD);
  if (!FD->isExternallyVisible()) Key += InternalKey;
  return fnv1a64(Key);
}

std::string SignatureTables::declaration(const ProcedureNames &Names) const {
  return fmt::format("{} ::cilkpp::rt::FrameSignature {};\n", Names.Tables.empty() ? "extern" : "static",
                     signatureName(Names));
}

FrameTables SignatureTables::definitions(const FrameDescription &Frame, const std::vector<FrameMember> &Members,
                                         const ProcedureNames &Names) {
  const FunctionDecl *FD = Frame.Procedure->Definition;
  const std::string FrameType = Names.Scope + Names.Frame;
  // (A self-contained member's tables are static members of a class template.)
  const bool InClass = !Names.Tables.empty();
  const std::string Storage = InClass ? "static inline const " : "const ";
  FrameTableWriter Writer(Ctx, Names.Info, Storage, EmittedAccess);

  std::vector<MemberRow> Rows;
  llvm::StringMap<std::string> MemberOffsets;
  for (const FrameMember &M : Members)
    MemberOffsets[M.Name] = fmt::format("__builtin_offsetof({}, {})", FrameType, M.Name);
  std::uint64_t Offset = frameHeaderSize(Ctx);
  std::string NotPortable;
  for (const FrameMember &M : Members) {
    MemberRow Row;
    Row.Name = M.Name;
    QualType Stored = M.Type.isNull() ? Ctx.VoidPtrTy : M.Type;
    if (!M.NotPortable.empty() || M.Type.isNull()) {
      Row.Type.Native = Stored;
      Row.Type.NotPortable = M.NotPortable;
    } else {
      Row.Type = classifyType(Ctx, M.Type);
    }
    std::tie(Row.Initializer, Row.Canonical) =
        Writer.valueType(Row.Type, fmt::format("sizeof({}::{}) / {}", FrameType, M.Name, Row.Type.Count));
    Row.Offset = MemberOffsets[M.Name];
    if (!M.AliveFlag.empty()) {
      Row.AliveFlag = M.AliveFlag;
      Row.AliveFlagOffset = MemberOffsets[M.AliveFlag];
    }
    Row.DumpSize = Ctx.getTypeSizeInChars(Stored).getQuantity();
    Row.DumpOffset = Offset = alignTo(Offset, Ctx.getTypeAlignInChars(Stored).getQuantity());
    Offset += Row.DumpSize;
    if (NotPortable.empty() && Row.Type.Kind == CanonicalKind::NotPortable)
      NotPortable = fmt::format("member '{}': {}", M.Name, Row.Type.NotPortable);
    Rows.push_back(std::move(Row));
  }

  const std::string Fields = Names.Info + "_fields", State = Names.Info + "_state";
  const std::uint64_t Hash = Writer.fieldTable(Fields, Rows, "frame");
  int Entries = 0;
  for (const ContinuationPoint &P : Frame.Points) Entries = std::max(Entries, P.Entry);
  const std::string Procedure = FD->getQualifiedNameAsString();
  const std::string Mangled = mangledName(Ctx, FD);
  const std::uint64_t Index = functionIndex(Ctx, FD, InternalKey);

  const char *AllowOffsetof = "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Winvalid-offsetof\"\n";
  std::string Out = AllowOffsetof;
  Out += Writer.Definitions;
  Out += fmt::format("{}::cilkpp::rt::RecordSignature {}{{{}, sizeof({}), {}u, {}, {:#018x}ull}};\n", Storage, State,
                     cStringLiteral("frame of " + Procedure), FrameType, Rows.size(), Rows.empty() ? "nullptr" : Fields,
                     Hash);
  Out += "#pragma GCC diagnostic pop\n";
  const std::string Signature = fmt::format("{{{:#018x}ull, {}, &{}, &{}, {}}};\n", Index, cStringLiteral(Mangled),
                                            Names.Info, State, Entries);
  FrameTables Tables;
  if (InClass)
    Tables.OutsideClass = fmt::format("template <class C> ::cilkpp::rt::FrameSignature {}<C>::{}{}", Names.Tables,
                                      signatureName(Names), Signature);
  else
    Out += fmt::format("::cilkpp::rt::FrameSignature {}{}", signatureName(Names), Signature);
  // (Whatever follows the frame's declarations starts with a #line.)
  Out += generatedCodeLineDirective();
  Out += fmt::format("[[maybe_unused]] {}bool {}_registered = "
                     "(::cilkpp::rt::register_frame_signature(&{}), true);\n",
                     Storage, Names.Info, signatureName(Names));

  Dump += fmt::format("function {:#018x} {} ({}), entries 1-{}\n", Index, Procedure, Mangled, Entries);
  Dump += Writer.RecordDump;
  Dump += fmt::format("frame of {} (canonical hash {:#018x}): {}\n", Procedure, Hash,
                      NotPortable.empty() ? "portable" : "not portable, " + NotPortable);
  Dump += fmt::format("  {:>6} {:>6} {:>5}  {:<24} {}\n", "offset", "size", "count", "name", "canonical type");
  for (const MemberRow &R : Rows) Dump += Writer.dumpRow(R);
  Dump += "\n";
  if (!Writer.AccessDefinitions.empty())
    Tables.AtGlobalScope = AllowOffsetof + Writer.AccessDefinitions + "#pragma GCC diagnostic pop\n";
  Tables.InUnnamedNamespace = std::move(Out);
  return Tables;
}

}  // namespace cilkpp
