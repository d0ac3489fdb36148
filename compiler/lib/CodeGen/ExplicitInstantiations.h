// Explicit instantiation definitions (`template long tfib<long>(long);`,
// `template struct Grid<int>;`) of templates whose instantiations are cilk
// procedures. Their clones are explicit specializations at the end of the
// file (ProcedureEmitter), and a specialization must precede the
// instantiation that uses it: clang++ rejects the file otherwise. So each
// such explicit instantiation moves to the end of the file, after the
// clones, in its namespaces and at its own line (#line); its place keeps
// blanks.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/ArrayRef.h"

namespace cilkpp {

class MacroHistory;

void moveExplicitInstantiations(clang::ASTContext &Ctx, clang::Rewriter &Main,
                                llvm::ArrayRef<const clang::FunctionDecl *> Procedures, const MacroHistory *Macros,
                                llvm::StringRef FileName);

}  // namespace cilkpp
