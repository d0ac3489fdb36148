// The members of a procedure's frame struct after the runtime's header, in
// order: the procedure's state (FrameDescription::Fields) and the bookkeeping
// the clones keep next to it. The struct and its signature table are both
// generated from this list, so they cannot disagree.
#pragma once

#include "Analysis/FrameDescription.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace cilkpp {

struct FrameMember {
  std::string Name;
  // The member's declaration in the frame struct, without indentation.
  std::string Declaration;
  // Its type; null for `__this`, which may be declared in a dependent context.
  clang::QualType Type;
  // The user's variable it holds, or nullptr for bookkeeping.
  const FrameField *Field = nullptr;
  // The member that says whether this one is constructed (class-type state
  // lives in an anonymous union and is constructed where its scope begins).
  std::string AliveFlag;
  // Declared in an anonymous union, which the frame's constructor and
  // destructor leave alone.
  bool RawStorage = false;
  // Why the member cannot travel whatever its type (`this`, a reference).
  std::string NotPortable;
};

std::vector<FrameMember> frameMembers(clang::ASTContext &Ctx, const FrameDescription &Frame);

}  // namespace cilkpp
