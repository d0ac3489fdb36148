// Source ranges as written in the file, with macro expansions resolved to
// where they were expanded. Shared by the semantic checks and codegen.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace cilkpp {

inline clang::CharSourceRange fileRange(const clang::SourceManager &SM, clang::SourceRange R) {
  return clang::CharSourceRange::getTokenRange(SM.getExpansionLoc(R.getBegin()),
                                               SM.getExpansionRange(R.getEnd()).getEnd());
}

// Location of the ';' right after the token at End (a statement's last
// token), or an invalid location.
inline clang::SourceLocation semicolonAfter(clang::ASTContext &Ctx, clang::SourceLocation End) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  std::optional<clang::Token> Next =
      clang::Lexer::findNextToken(SM.getExpansionRange(End).getEnd(), SM, Ctx.getLangOpts());
  if (Next && Next->is(clang::tok::semi)) return Next->getLocation();
  return {};
}

// The ';' ending the namespace-scope class that encloses a member, where the
// translator defines what it generates for the member; invalid when the
// class definition also declares variables (`struct S { ... } s;`).
inline clang::SourceLocation semicolonAfterOutermostClass(clang::ASTContext &Ctx, const clang::CXXMethodDecl *MD) {
  const clang::CXXRecordDecl *Outer = MD->getParent();
  // (Lexically: a nested class defined outside its class, `struct
  // Outer::Inner {...};`, ends at its own semicolon.)
  while (const auto *Up = llvm::dyn_cast<clang::CXXRecordDecl>(Outer->getLexicalDeclContext())) Outer = Up;
  // (An explicitly instantiated class template has no braces of its own.)
  if (const clang::CXXRecordDecl *Pattern = Outer->getTemplateInstantiationPattern()) Outer = Pattern;
  const clang::SourceLocation RBrace = Outer->getBraceRange().getEnd();
  if (clang::SourceLocation Semi = semicolonAfter(Ctx, RBrace); Semi.isValid()) return Semi;
  // `typedef struct S {...} S;`: the ';' after the typedef's name, which
  // declares no variable.
  const clang::SourceManager &SM = Ctx.getSourceManager();
  std::optional<clang::Token> Name = clang::Lexer::findNextToken(SM.getExpansionRange(RBrace).getEnd(), SM, Ctx.getLangOpts());
  if (!Name || !Name->is(clang::tok::raw_identifier)) return {};
  const clang::DeclContext *Scope = Outer->getDeclContext();
  for (const clang::Decl *D : Scope->decls())
    if (const auto *Typedef = llvm::dyn_cast<clang::TypedefDecl>(D);
        Typedef && Typedef->getName() == Name->getRawIdentifier() &&
        Typedef->getUnderlyingType()->getAsCXXRecordDecl() == Outer && Typedef->getLocation() == Name->getLocation())
      return semicolonAfter(Ctx, Name->getLocation());
  return {};
}

}  // namespace cilkpp
