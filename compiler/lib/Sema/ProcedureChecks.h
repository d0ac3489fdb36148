// Checks for what this version of the translator does not handle yet, each
// reported by name so users never get silently wrong code.
#pragma once

#include "Sema/CilkModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"

namespace cilkpp {

// The function itself: members of classes it cannot extend, templates,
// variadics, return type.
bool checkProcedureSignature(clang::ASTContext &Ctx, const clang::FunctionDecl *FD);

// checkProcedureSignature without reporting: whether FD may become a cilk
// procedure.
bool mayBeProcedure(clang::ASTContext &Ctx, const clang::FunctionDecl *FD);

// Why a spawned call cannot be handled, or nullptr when it can.
const char *unsupportedCalleeKind(clang::ASTContext &Ctx, const clang::CallExpr *Call);

// The spawn's target must have the callee's return type.
bool checkSpawnTarget(clang::ASTContext &Ctx, const SpawnSite &Site);

// Constructs in the body: goto, alloca, VLAs, and continuation points inside
// try blocks, range-for loops, condition variables or statement expressions.
bool checkProcedureBody(clang::ASTContext &Ctx, const CilkProcedure &Proc);

// The construct enclosing S that a continuation point may not sit in, or
// nullptr.
const char *unsupportedEnclosingConstruct(clang::ParentMap &PM, const clang::Stmt *S);

}  // namespace cilkpp
