#include "CodeGen/UnusedAliases.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cilkpp {

std::pair<SourceLocation, const char *> unusedAliasMark(const ASTContext &Ctx, const TypedefNameDecl &Alias,
                                                        const DeclStmt &Declaration) {
  if (isa<TypeAliasDecl>(Alias))
    return {Lexer::getLocForEndOfToken(Alias.getLocation(), 0, Ctx.getSourceManager(), Ctx.getLangOpts()),
            " [[maybe_unused]]"};
  return {Declaration.getBeginLoc(), "[[maybe_unused]] "};
}

void forEachUnmarkedLocalAlias(const ASTContext &Ctx, const Stmt *Body,
                               llvm::function_ref<void(SourceLocation, const char *)> Mark) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const ASTContext &Ctx;
    llvm::function_ref<void(SourceLocation, const char *)> Mark;
    Visitor(const ASTContext &Ctx, llvm::function_ref<void(SourceLocation, const char *)> Mark)
        : Ctx(Ctx), Mark(Mark) {}
    bool VisitDeclStmt(DeclStmt *S) {
      if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID()) return true;
      for (const Decl *D : S->decls()) {
        const auto *Alias = dyn_cast<TypedefNameDecl>(D);
        if (!Alias || Alias->hasAttr<UnusedAttr>()) continue;
        const auto [At, Text] = unusedAliasMark(Ctx, *Alias, *S);
        Mark(At, Text);
        // `typedef long A, *PA;`: one mark before the statement covers both.
        if (!isa<TypeAliasDecl>(Alias)) break;
      }
      return true;
    }
  };
  Visitor(Ctx, Mark).TraverseStmt(const_cast<Stmt *>(Body));
}

}  // namespace cilkpp
