// Small helpers over source locations used by the emitters.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "Support/SourceRanges.h"

#include <string>

namespace cilkpp {

// The statement's range including a trailing ';' if it has one.
clang::CharSourceRange statementRange(clang::ASTContext &Ctx, const clang::Stmt *S);

// The last token of a statement, counting the ';' that ends it when its last
// sub-statement is not a block (`for (...) f(i);` ends at the ';').
clang::SourceLocation statementEnd(clang::ASTContext &Ctx, const clang::Stmt *S);

// Whether the ';' that ends the statement, if it needs one, comes right after
// its last token: not with a directive between them (`r = 1\n#ifdef X\n+ 1\n
// #endif\n;`), where statementEnd cannot tell which ';' it is.
bool endsAtItsSemicolon(clang::ASTContext &Ctx, const clang::Stmt *S);

// A C string literal holding Text.
std::string cStringLiteral(llvm::StringRef Text);

// `#line N "file"` followed by a newline, with the file name as the user gave
// it so diagnostics and debuggers point at the .cilkpp source.
std::string lineDirective(unsigned Line, llvm::StringRef FileName);

// `#line 1 "<cilkpp generated>"`: code that runs outside the user's
// statements (the registration of signature tables before main) placed in a
// file of its own, as compilers place theirs in "<built-in>", so that a
// breakpoint on a line of the .cilkpp file never stops in it.
std::string generatedCodeLineDirective();

}  // namespace cilkpp
