// Signature tables (runtime/include/cilkpp/rt/signature.h, Lu 1995 §3): for
// every frame, the canonical type, offset, size and count of each member and,
// recursively, of the user types it holds; and the procedure's entry in the
// program-wide function table, keyed by a stable index.
#pragma once

#include "Analysis/FrameDescription.h"
#include "CodeGen/FrameMembers.h"
#include "CodeGen/Naming.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cilkpp {

// What a procedure of internal linkage adds to its mangled name, which other
// files may reuse: `@`, the file's base name, and `#` and a hash of the file
// as written (which builds of the same source share wherever it lies:
// x/util.cilkpp and y/util.cilkpp may each have a static procedure of one name).
std::string internalLinkageKey(llvm::StringRef FileName);

// The stable function-table index of a procedure: FNV-1a 64 of its mangled
// name, followed by InternalKey for internal linkage.
std::uint64_t functionIndex(clang::ASTContext &Ctx, const clang::FunctionDecl *FD, llvm::StringRef InternalKey);

struct FrameTables {
  // Specializations of cilkpp::rt::record_access for the classes that declare
  // their fields (fields.h); C++ allows them only at global scope. Each class's
  // once per translation unit.
  std::string AtGlobalScope;
  std::string InUnnamedNamespace;  // the tables and the registration
  // For a self-contained member's tables (ProcedureNames::Tables), which
  // InUnnamedNamespace declares as static members: the definition of the
  // FrameSignature, which the frame infos before it point at.
  std::string OutsideClass;
};

class SignatureTables {
 public:
  SignatureTables(clang::ASTContext &Ctx, llvm::StringRef FileName)
      : Ctx(Ctx), InternalKey(internalLinkageKey(FileName)) {}

  // The name of the procedure's FrameSignature, which its FrameInfos point at.
  static std::string signatureName(const ProcedureNames &Names) { return Names.Info + "_signature"; }

  // `extern` declaration of the FrameSignature, for before the FrameInfos
  // (`static` in a self-contained member's tables class).
  std::string declaration(const ProcedureNames &Names) const;

  // Definitions of the frame's tables and its function-table registration,
  // for after the FrameInfos. Also recorded for dump().
  FrameTables definitions(const FrameDescription &Frame, const std::vector<FrameMember> &Members,
                          const ProcedureNames &Names);

  // Everything definitions() emitted, readable (cilkpp --dump-signatures).
  std::string dump() const { return Dump; }

 private:
  clang::ASTContext &Ctx;
  std::string InternalKey;  // internalLinkageKey of the file, read once
  std::string Dump;
  llvm::DenseSet<const clang::RecordDecl *> EmittedAccess;
};

}  // namespace cilkpp
