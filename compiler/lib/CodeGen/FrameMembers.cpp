#include "CodeGen/FrameMembers.h"

#include "CodeGen/Naming.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// Arrays keep their element type's qualifiers out of the frame: the clones
// assign the elements.
QualType storedType(ASTContext &Ctx, QualType T) {
  if (T->isArrayType()) {
    Qualifiers Dropped;
    return Ctx.getUnqualifiedArrayType(T, Dropped);
  }
  return T.getUnqualifiedType();
}

FrameMember bookkeeping(ASTContext &Ctx, QualType T, std::string Name, const char *Initializer) {
  FrameMember M;
  M.Declaration = declareQualified(Ctx, T, Name) + Initializer + ";";
  M.Name = std::move(Name);
  M.Type = T;
  return M;
}

// An implicit default constructor that is trivial but deleted: a member
// that is a reference or const without an initializer, here or in a member.
bool implicitDefaultConstructorIsDeleted(ASTContext &Ctx, const CXXRecordDecl *Class) {
  for (const FieldDecl *F : Class->fields()) {
    if (F->hasInClassInitializer()) continue;
    const QualType T = Ctx.getBaseElementType(F->getType());
    if (T->isReferenceType()) return true;
    if (const auto *Member = T->getAsCXXRecordDecl()) {
      if (!Member->hasDefinition()) continue;
      if (T.isConstQualified() && !Member->hasUserProvidedDefaultConstructor()) return true;
      if (implicitDefaultConstructorIsDeleted(Ctx, Member)) return true;
    } else if (T.isConstQualified()) {
      return true;
    }
  }
  return false;
}

// Whether the frame's own constructor could not default-initialise a member
// of type T (no default constructor, one that does work, or a deleted one):
// the clones assign it before use anyway.
bool needsRawStorage(ASTContext &Ctx, QualType T) {
  const auto *Class = Ctx.getBaseElementType(T)->getAsCXXRecordDecl();
  return Class && Class->hasDefinition() &&
         (!Class->hasTrivialDefaultConstructor() || implicitDefaultConstructorIsDeleted(Ctx, Class));
}

}  // namespace

std::vector<FrameMember> frameMembers(ASTContext &Ctx, const FrameDescription &Frame) {
  const FunctionDecl *FD = Frame.Procedure->Definition;
  std::vector<FrameMember> Members;
  if (thisClass(FD)) {
    FrameMember This;
    This.Name = "__this";
    This.Declaration = declareThis(Ctx, FD) + ";";
    This.NotPortable = "the object a member procedure runs on (this)";
    Members.push_back(std::move(This));
  }
  for (const FrameField &F : Frame.Fields) {
    FrameMember M;
    M.Name = F.Name;
    M.Field = &F;
    M.Type = F.IsReference ? Ctx.getPointerType(F.Var->getType().getNonReferenceType())
                           : storedType(Ctx, F.Var->getType());
    // A variable's own alignas (frames are 64-byte aligned; FrameLayout
    // keeps anything aligned more out of them).
    const std::string Aligned =
        !F.IsReference && F.Var->hasAttr<AlignedAttr>()
            ? fmt::format("alignas({}) ", Ctx.getDeclAlign(F.Var).getQuantity())
            : std::string();
    const std::string Declaration = Aligned + declareQualified(Ctx, M.Type, F.Name) + ";";
    // In an anonymous union the frame neither constructs nor destroys it;
    // the clones do, where the variable's scope begins and ends (or, for a
    // trivially copyable class, assign it).
    M.RawStorage = F.ManagedLifetime || (!F.IsReference && needsRawStorage(Ctx, M.Type));
    M.Declaration = M.RawStorage ? fmt::format("union {{ {} }};", Declaration) : Declaration;
    if (F.ManagedLifetime) M.AliveFlag = liveFlagName(F);
    if (F.IsReference) M.NotPortable = "a reference";
    Members.push_back(std::move(M));
  }
  for (const FrameDescription::ConvertedResult &C : Frame.ConvertedResults) {
    Members.push_back(bookkeeping(Ctx, C.Type, convertedResultName(C.Spawn), "{}"));
    Members.push_back(bookkeeping(Ctx, Ctx.BoolTy, convertPendingName(C.Spawn), " = false"));
  }
  if (Frame.HoldsTemporaries) {
    FrameMember Held;
    Held.Name = "__cilkpp_held";
    Held.Declaration = "::cilkpp::rt::HeldTemporaries __cilkpp_held;";
    Held.NotPortable = "temporaries of spawned calls' arguments";
    Members.push_back(std::move(Held));
  }
  if (Frame.MayThrow) {
    Members.push_back(bookkeeping(Ctx, Ctx.UnsignedIntTy, "__cilkpp_seq", ""));
    Members.push_back(bookkeeping(Ctx, Ctx.UnsignedIntTy, "__cilkpp_spawns", " = 0"));
  }
  for (const FrameField &F : Frame.Fields)
    if (F.ManagedLifetime) Members.push_back(bookkeeping(Ctx, Ctx.BoolTy, liveFlagName(F), " = false"));
  return Members;
}

}  // namespace cilkpp
