// The single description of a cilk procedure's frame. Codegen derives the
// frame struct, the fast clone, the resume clone and (later) the signature
// table from this one object, so they cannot drift apart.
#pragma once

#include "Sema/CilkModel.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace cilkpp {

// Settle: a try block without continuation points of its own, entered while
// children may be outstanding. On the resume path an exception leaving its
// statements waits there, as a sync, for those children before the handlers
// run; the point is where the frame resumes after that wait (TryBlocks.h).
enum class PointKind { Spawn, Sync, Return, EndOfBody, ScopeEnd, Poll, Call, Settle };

struct ContinuationPoint {
  PointKind Kind;
  int Entry = 0;             // value of Frame::entry that resumes here
  unsigned Site = 0;         // index into the procedure's Spawns/Syncs/Returns/Scopes/PollSites, Calls or Tries
  clang::SourceLocation Loc;
  // Spawn, call and poll points: fields the fast clone must store before the
  // frame can be taken (live there and held in registers on the fast path).
  std::vector<const clang::VarDecl *> FastPathSaves;
};

struct FrameField {
  const clang::VarDecl *Var;
  std::string Name;
  // Address taken: the fast clone keeps it in the frame too, so every pointer
  // to it stays valid after a steal.
  bool ResidentOnFastPath = false;
  // A class type with a non-trivial copy or destructor: the generated code
  // constructs it in the frame at its declaration and destroys it where its
  // block is left (end of block, return, break, continue). Such frames never
  // move (EagerFrame), so the object is never copied behind the user's back.
  bool ManagedLifetime = false;
  // A reference: the frame holds a pointer to what it refers to.
  bool IsReference = false;
  // The block whose end destroys a ManagedLifetime field.
  const clang::CompoundStmt *Block = nullptr;
  // Large, initialised once per call and never written afterwards: once the
  // fast clone has saved it at a spawn or call, the frame's copy stays
  // current, and later ones skip the copy (a 16 KiB parameter was copied
  // again at each spawn of a loop).
  bool SavedOnce = false;
};

struct FrameDescription {
  const CilkProcedure *Procedure = nullptr;
  std::vector<FrameField> Fields;
  std::vector<ContinuationPoint> Points;
  std::vector<int> SpawnEntry;   // per spawn
  // Per spawn: immediately followed by a sync, so the fast clone calls a
  // plain callee instead of exposing a continuation that could only wait.
  std::vector<bool> SpawnIsTail;
  std::vector<int> SyncEntry;    // per sync; 0 when nothing can be outstanding
  std::vector<int> ReturnEntry;  // per return; 0 when no implicit sync is needed
  int EndEntry = 0;              // implicit sync at the closing brace, or 0
  std::vector<int> ScopeEntry;   // per cilk_scope; 0 when it spawns nothing
  // Poll points (poll.h): the procedure's entry and the back-edges of its
  // loops, where a faster worker may take the running frame over. Per site:
  // the loop (nullptr for the entry), and its point's entry, 0 where the
  // site has no poll point (PollPoints.h, FrameLayout.h say where).
  std::vector<const clang::Stmt *> PollSites;
  std::vector<int> PollEntry;
  // Plain calls of cilk procedures (Analysis/CallPoints.h), spawn-like
  // sites without the keyword, and per call its point's entry, 0 where
  // FrameLayout dropped it (the call stays a nested root call).
  std::vector<SpawnSite> Calls;
  std::vector<int> CallEntry;
  // Per return: `return f(...);` that the fast clone may make a tail call of
  // f's fast clone in its own place (parent, slot, number; CallPoints.h), or
  // nullptr.
  std::vector<const clang::CallExpr *> TailCalls;
  // Every try statement of the body (not of its lambdas or local classes),
  // in source order.
  std::vector<const clang::CXXTryStmt *> Tries;
  // The entry's poll point follows the body's leading base cases (`if (n <
  // 2) return n;`): the last of them, or nullptr (before the first statement).
  const clang::Stmt *EntryPollAfter = nullptr;
  bool FallsOffEnd = false;      // the closing brace is reachable
  bool EagerFrame = false;       // allocate the frame at entry, not at the first spawn
  // The body's leading base cases (`if (n < 2) return n;`) that can be run
  // as written before anything else: the fast clone's head runs them before
  // it calls the rest, and with EagerFrame the rest runs them again before
  // it allocates the frame, so that leaves neither save registers nor
  // allocate one.
  std::vector<const clang::Stmt *> EarlyReturns;
  // The procedure may throw (ExceptionAnalysis): it numbers its spawns, and
  // its resume clone can unwind.
  bool MayThrow = false;
  // Per spawn: the spawned call may throw, so the parent catches and routes
  // the exception (exceptions.h).
  std::vector<bool> SpawnMayThrow;
  // Some spawn holds temporaries of its arguments (ArgumentTemporaries.h)
  // that a stolen frame keeps until its next sync.
  bool HoldsTemporaries = false;

  // Spawns into a variable of another scalar type than the callee's result
  // (`int n = spawn count(...)`, count returning long): the child delivers
  // into a frame field of the result's type, converted into the variable
  // right away on the fast path, else at the next sync of the resume clone.
  struct ConvertedResult {
    unsigned Spawn;
    clang::QualType Type;  // the callee's result type
  };
  std::vector<ConvertedResult> ConvertedResults;

  llvm::DenseMap<const clang::VarDecl *, unsigned> FieldIndex;

  const FrameField *field(const clang::VarDecl *V) const {
    auto It = FieldIndex.find(V);
    return It == FieldIndex.end() ? nullptr : &Fields[It->second];
  }
};

}  // namespace cilkpp
