// Places one cilk procedure's generated code in the output: the frame struct
// and fast-clone prototype before the definition, the public entry in place
// of the body, and the fast and resume clones after it.
#pragma once

#include "Analysis/FrameDescription.h"
#include "CodeGen/CloneEmitter.h"
#include "CodeGen/Naming.h"

#include "clang/Rewrite/Core/Rewriter.h"

#include <map>
#include <string>

namespace cilkpp {

// `RT __cilkpp_f_fast(hidden..., unsigned __seq, params...);`, noexcept
// when the procedure is declared so.
std::string fastPrototype(clang::ASTContext &Ctx, const clang::FunctionDecl *FD, bool WithDefaults);

// `template <class T> T __cilkpp_sum_fast(...);`, placed before the function
// template Pattern (its text starts at the template keyword).
std::string fastTemplateDeclaration(clang::ASTContext &Ctx, const clang::FunctionDecl *Pattern,
                                    llvm::StringRef FileName);

// Returns false if an error was reported.
bool emitProcedure(clang::ASTContext &Ctx, clang::Rewriter &Main, const FrameDescription &Frame,
                   const ProcedureNames &Names, const FastCloneAvailable &IsCilkCallee,
                   llvm::ArrayRef<clang::SourceLocation> RemovedKeywords, bool PrototypeBefore,
                   const EmitSettings &Settings);

// A function template translated per instantiation: the fast clone is
// declared as a template before it, its body becomes the public entry, and
// each instantiation's frame, fast clone (an explicit specialization) and
// resume clone go at the end of the file, where every type an instantiation
// may use is declared.
struct Instantiation {
  const FrameDescription *Frame;
  ProcedureNames Names;
};
// Declared receives each instantiation's fast clone declaration (`template
// <> inline long __cilkpp_psum_fast<long *>(...);`), written for global
// scope, by its canonical declaration, for procedures emitted in place
// that call it.
using FastDeclarations = std::map<const clang::FunctionDecl *, std::string>;
bool emitTemplateProcedure(clang::ASTContext &Ctx, clang::Rewriter &Main, const clang::FunctionDecl *Pattern,
                           llvm::ArrayRef<Instantiation> Instances, const FastCloneAvailable &IsCilkCallee,
                           llvm::ArrayRef<clang::SourceLocation> RemovedKeywords, const EmitSettings &Settings,
                           FastDeclarations &Declared);

// Where a procedure's definition starts, its leading attributes included:
// what goes before it goes there.
clang::SourceLocation declarationBegin(clang::ASTContext &Ctx, const clang::FunctionDecl *FD);

}  // namespace cilkpp
