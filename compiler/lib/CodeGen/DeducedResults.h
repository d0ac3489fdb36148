// Function templates whose result type is deduced (`template <class It> auto
// psum(It b, It e)`), and members of class templates so declared. Their
// clones are declared in the template, before any instantiation has
// deduced the result, so the declarations name it as what
// a serial copy of the template returns: `decltype(::__cilkpp_psum_serial<It>(
// ...))`. The copy is the definition with the keywords elided and its own
// name; it is never called, only instantiated for its deduction, which then
// follows C++'s rules exactly (a recursive call after the first return
// statement sees the deduced type, because the copy's recursive calls are
// calls of the copy). Each instantiation's clones are declared with the type
// Clang deduced.
#pragma once

#include "Dialect/Keywords.h"
#include "Dialect/Pragmas.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace cilkpp {

// True for a function template's pattern (or a class template's member)
// declared with a deduced result: each instantiation deduces its own.
bool resultDeducedPerInstantiation(const clang::FunctionDecl *FD);

// True when S (a lambda's body, say) names Host, a function template with a
// deduced result. Moved out of Host, S would call Host itself where the
// serial copy's deduction needs the copy.
bool namesDeducedResultTemplate(const clang::Stmt *S, const clang::FunctionDecl *Host);

// A class template's member that is not a template itself: its clones'
// declarations in the class are templates of one defaulted parameter,
// DeferredTag, which their result type names, so that the copy's
// deduction waits for the complete class (the class is instantiated with
// its members' declarations, and clang lets no member of the incomplete
// class be accessed). Instantiations specialise them with `<0>`.
bool clonesDeferDeduction(const clang::FunctionDecl *Pattern);
inline constexpr const char *DeferredTag = "__cilkpp_deferred";

// The pattern's result as its public entry and, InCloneDeclaration, its
// clones' declarations spell it, after their parameters:
// `decltype(::ns::__cilkpp_psum_serial<It>(static_cast<decltype(b) &&>(b),
// ...))`; a member's `decltype(this->template __cilkpp_sum_serial<F>(...))`.
std::string deducedResultType(const clang::FunctionDecl *Pattern, bool InCloneDeclaration = false);

// The serial copy's declaration, to go before the template's first
// declaration (with the fast clone's template, which names it): the
// copy's definition when the template's first declaration defines it, else
// a copy of that first declaration. With Reposition, the text that follows
// gets its line back.
std::string serialCopyDeclaration(clang::ASTContext &Ctx, const clang::FunctionDecl *Pattern,
                                  llvm::ArrayRef<KeywordUse> Uses, llvm::ArrayRef<GrainPragma> Pragmas,
                                  llvm::StringRef FileName, bool Reposition = false);

// The serial copy's definition, to go before the pattern's, when the
// template was declared before (empty otherwise).
std::string serialCopyDefinitionAfterDeclaration(clang::ASTContext &Ctx, const clang::FunctionDecl *Pattern,
                                                 llvm::ArrayRef<KeywordUse> Uses, llvm::ArrayRef<GrainPragma> Pragmas,
                                                 llvm::StringRef FileName);

// A member's serial copy is a member of its class (or class template),
// declared before the member's first declaration and defined before its
// definition when that is outside the class: the clones' declarations at
// the class's end name it through `this`.
void insertMemberSerialCopy(clang::Rewriter &Main, const clang::FunctionDecl *Pattern, llvm::ArrayRef<KeywordUse> Uses,
                            llvm::ArrayRef<GrainPragma> Pragmas, llvm::StringRef FileName);

}  // namespace cilkpp
