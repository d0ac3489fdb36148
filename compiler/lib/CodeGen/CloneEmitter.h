// The two clones of a cilk procedure's body.
//
// The fast clone runs like the serial code: state stays in C++ locals and is
// stored into the frame only at spawns (and at poll points with a request
// pending); a sync is a no-op because nothing is outstanding unless the frame
// was stolen, and then the fast clone is gone.
// The resume clone continues a stolen or suspended frame: every variable
// that lives in the frame is accessed there, and a switch on Frame::entry
// jumps to the continuation point.
#pragma once

#include "Analysis/FrameDescription.h"
#include "CodeGen/Naming.h"

#include "clang/AST/ASTContext.h"

#include <functional>
#include <optional>
#include <string>

namespace cilkpp {

enum class CloneKind { Fast, Resume };

// What every procedure of a translation unit is emitted with.
class SignatureTables;
class VirtualSpawns;

class MacroHistory;
class NestedRootCallees;

struct EmitSettings {
  // As the user named the .cilkpp file: #line directives and messages the
  // generated code prints.
  llvm::StringRef FileName;
  // Each spawn counts itself for CILKPP_STATS (TranslateOptions::CountSpawns).
  bool CountSpawns = false;
  // Procedures poll at their entry and loop back-edges
  // (TranslateOptions::PollPoints, Analysis/PollPoints.h).
  bool PollPoints = true;
  // (TranslateOptions::InlinedRecursion, CodeGen/RecursionInlining.h.)
  bool InlinedRecursion = true;
  // Collects the signature tables of the file's frames (for
  // --dump-signatures); every emitted frame gets its tables.
  SignatureTables *Signatures = nullptr;
  // Which dispatching spawns of virtual members call companions.
  const VirtualSpawns *Virtuals = nullptr;
  // What macros meant where: template clones move to the end of the file.
  const MacroHistory *Macros = nullptr;
  // Which calls may make nested root calls (Analysis/NestedRootCalls.h).
  const NestedRootCallees *NestedRoots = nullptr;
};

// Whether a spawned callee is a cilk procedure whose fast clone is declared
// before the given location.
using FastCloneAvailable = std::function<bool(const clang::FunctionDecl *Callee)>;

// The body's leading base cases (FrameDescription::EarlyReturns) as written,
// on one line, up to the first that cannot be copied there, and how many.
struct CopiedBaseCases {
  std::string Text;  // on one line
  unsigned Count = 0;
  std::vector<const clang::Stmt *> Statements;  // the Count statements
};
CopiedBaseCases copyableBaseCases(clang::ASTContext &Ctx, const clang::FunctionDecl &FD,
                                  llvm::ArrayRef<const clang::Stmt *> BaseCases);
// One base case's text in the fast clone: as written, with a member's object
// as its `__this` parameter (`base` becomes `__this->base`); nullopt where
// that cannot be spelled.
std::optional<std::string> baseCaseText(clang::ASTContext &Ctx, const clang::Stmt *S);

// Returns the clone's body, from its '{' to its '}', with the same line
// structure as the original body; nullopt after reporting an error.
// RemovedKeywords: keywords removed from the output (SemaResult); those in the body (block
// scope declarations) are removed from the clone too. OmittedBaseCases: the
// fast clone's tail leaves out that many leading base cases, which its head
// runs. SelfSpawnTarget: where not empty, what the fast clone's spawns and
// calls of its own procedure call instead of its fast clone (an inlined
// copy, CodeGen/RecursionInlining.h).
std::optional<std::string> emitCloneBody(clang::ASTContext &Ctx, const FrameDescription &Frame,
                                         const ProcedureNames &Names, const FastCloneAvailable &IsCilkCallee,
                                         llvm::ArrayRef<clang::SourceLocation> RemovedKeywords, CloneKind Kind,
                                         const EmitSettings &Settings, unsigned OmittedBaseCases = 0,
                                         llvm::StringRef SelfSpawnTarget = {});

}  // namespace cilkpp
