#include "CodeGen/LocalTypeHoisting.h"

#include "Analysis/TemplateArguments.h"
#include "CodeGen/Naming.h"
#include "CodeGen/SourceText.h"
#include "Support/SourceRanges.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/DenseMap.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// Does a definition name anything declared in its function outside itself
// (a variable, another local type or alias, an enumerator, a using-declaration)?
class LocalNames : public RecursiveASTVisitor<LocalNames> {
 public:
  LocalNames(const SourceManager &SM, CharSourceRange Definition) : SM(SM), Definition(Definition) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) { return check(E->getDecl()); }
  bool VisitTagTypeLoc(TagTypeLoc TL) { return check(TL.getDecl()); }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) { return check(TL.getTypedefNameDecl()); }
  bool VisitUsingTypeLoc(UsingTypeLoc TL) { return check(TL.getFoundDecl()); }
  bool Found = false;

 private:
  bool check(const Decl *D) {
    if (!D || !D->getParentFunctionOrMethod() || inside(D)) return true;
    Found = true;
    return false;
  }
  bool inside(const Decl *D) const {
    const SourceLocation L = SM.getExpansionLoc(D->getLocation());
    return SM.isWrittenInMainFile(L) && !SM.isBeforeInTranslationUnit(L, Definition.getBegin()) &&
           SM.isBeforeInTranslationUnit(L, Definition.getEnd());
  }
  const SourceManager &SM;
  CharSourceRange Definition;
};

// Using-directives and namespace aliases in a function change what the
// names in a definition mean there; it stays put.
class ScopeChanges : public RecursiveASTVisitor<ScopeChanges> {
 public:
  bool VisitUsingDirectiveDecl(UsingDirectiveDecl *) { return found(); }
  bool VisitUsingDecl(UsingDecl *) { return found(); }
  bool VisitNamespaceAliasDecl(NamespaceAliasDecl *) { return found(); }
  bool Found = false;

 private:
  bool found() {
    Found = true;
    return false;
  }
};

class Hoister {
 public:
  Hoister(ASTContext &Ctx, Rewriter &Main, StringRef FileName)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Main(Main), FileName(FileName),
        Names(SM.getBufferData(SM.getMainFileID())) {}

  bool hoist(const TagDecl *TD) {
    const auto *Host = dyn_cast<FunctionDecl>(TD->getDeclContext());
    if (!Host || isa<CXXMethodDecl>(Host) || Host->isTemplated() || !Host->hasBody()) return false;
    if (!Host->getLexicalDeclContext()->isFileContext() || Host->getLexicalDeclContext() != Host->getDeclContext())
      return false;
    if (!TD->isCompleteDefinition()) return false;
    // An unnamed class or enum gets a name before its '{' (a class without
    // one can have no constructor that would need it), but for an enum with
    // a fixed underlying type, where the name goes before the ':'.
    const auto *Enum = dyn_cast<EnumDecl>(TD);
    if (!TD->getIdentifier() && Enum && Enum->getIntegerTypeSourceInfo()) return false;
    auto Parents = Ctx.getParents(*TD);
    const auto *Statement = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    // The type alone (`struct S {...};`), or first of the declaration of its
    // variables (`struct S {...} s, *p;`).
    if (!Statement || *Statement->decl_begin() != TD) return false;
    const SourceRange R = Statement->getSourceRange();
    if (R.getBegin().isMacroID() || R.getEnd().isMacroID() || !SM.isWrittenInMainFile(R.getBegin())) return false;
    const CharSourceRange Definition = fileRange(SM, TD->getSourceRange());
    LocalNames Local(SM, Definition);
    Local.TraverseDecl(const_cast<TagDecl *>(TD));
    ScopeChanges Changes;
    Changes.TraverseStmt(Host->getBody());
    if (Local.Found || Changes.Found) return false;

    // (Another file's class moved from the same line must not be taken for
    // this one, by the linker in inline members.)
    const unsigned Line = SM.getPresumedLineNumber(SM.getExpansionLoc(TD->getLocation()));
    const std::string Namespace = Names.takeForThisFile(fmt::format("__cilkpp_local_{}", Line));
    const std::string Name =
        TD->getIdentifier() ? TD->getName().str() : Names.take(fmt::format("__cilkpp_unnamed_{}", Line));
    const SourceLocation Begin = SM.getExpansionLoc(Host->getOuterLocStart());
    const SourceLocation At = SM.getExpansionLoc(TD->getBeginLoc());
    std::string Text = Lexer::getSourceText(Definition, SM, Ctx.getLangOpts()).str();
    if (!TD->getIdentifier()) {
      const unsigned Brace = SM.getFileOffset(SM.getExpansionLoc(TD->getBraceRange().getBegin())) -
                             SM.getFileOffset(Definition.getBegin());
      Text.insert(Brace, Name + " ");
    }
    Main.InsertTextBefore(Begin, fmt::format("\nnamespace {} {{\n{}{}{};\n}}\n{}{}", Namespace,
                                             lineDirective(SM.getPresumedLineNumber(At), FileName),
                                             std::string(SM.getSpellingColumnNumber(At) - 1, ' '), Text,
                                             lineDirective(SM.getPresumedLineNumber(Begin), FileName),
                                             std::string(SM.getSpellingColumnNumber(Begin) - 1, ' ')));
    // The type and, for an unscoped enum, its enumerators are named in the
    // function as before.
    std::string Usings = fmt::format("using {}::{};", Namespace, Name);
    if (Enum && !Enum->isScoped())
      for (const EnumConstantDecl *Enumerator : Enum->enumerators())
        Usings += fmt::format(" using {}::{};", Namespace, Enumerator->getName());
    const auto LinesOf = [&](CharSourceRange Range) {
      return std::string(llvm::count(Lexer::getSourceText(Range, SM, Ctx.getLangOpts()), '\n'), '\n');
    };
    if (Statement->isSingleDecl()) {
      const CharSourceRange Replaced = statementRange(Ctx, Statement);
      Main.ReplaceText(Replaced, Usings + LinesOf(Replaced));
    } else {
      // (Replaced first: the size of a range to replace counts what was
      // inserted at its start.)
      Main.ReplaceText(Definition, Name + LinesOf(Definition));
      Main.InsertTextBefore(SM.getExpansionLoc(R.getBegin()), Usings + " ");
    }
    return true;
  }

 private:
  ASTContext &Ctx;
  const SourceManager &SM;
  Rewriter &Main;
  StringRef FileName;
  FreshNames Names;
};

}  // namespace

// The local classes and enums that the variables of a function holding a
// continuation point are of (through pointers, arrays and template
// arguments): such a variable may live in the frame, declared outside.
class LocalVariableTypes : public RecursiveASTVisitor<LocalVariableTypes> {
 public:
  LocalVariableTypes(const SourceManager &SM, ArrayRef<KeywordUse> Uses) : SM(SM), Uses(Uses) {}

  bool VisitVarDecl(VarDecl *V) {
    const auto *Host = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
    if (!V->isLocalVarDeclOrParm() || !Host || !Host->hasBody() || !holdsContinuationPoint(Host)) return true;
    add(V->getType());
    return true;
  }

  llvm::SetVector<const TagDecl *> Found;

 private:
  bool holdsContinuationPoint(const FunctionDecl *FD) {
    auto [It, New] = Holding.try_emplace(FD, false);
    if (New) It->second = findContinuationPoint(FD);
    return It->second;
  }
  bool findContinuationPoint(const FunctionDecl *FD) const {
    const SourceRange Body = FD->getBody()->getSourceRange();
    if (!Body.getBegin().isFileID() || !SM.isWrittenInMainFile(Body.getBegin())) return false;
    const unsigned Begin = SM.getFileOffset(Body.getBegin()), End = SM.getFileOffset(Body.getEnd());
    return llvm::any_of(Uses, [&](const KeywordUse &U) {
      const unsigned At = SM.getFileOffset(U.Loc);
      return (U.Kind == KeywordKind::Spawn || U.Kind == KeywordKind::Sync || U.Kind == KeywordKind::CilkScope) &&
             Begin < At && At < End;
    });
  }
  void add(QualType T) {
    T = T.getCanonicalType().getNonReferenceType();
    while (T->isPointerType() || T->isArrayType())
      T = T->isPointerType() ? T->getPointeeType() : QualType(T->getPointeeOrArrayElementType(), 0);
    const TagDecl *TD = T->getAsTagDecl();
    if (!TD) return;
    if (TD->getParentFunctionOrMethod()) Found.insert(TD);
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(TD))
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
        if (Arg.getKind() == TemplateArgument::Type) add(Arg.getAsType());
  }

  const SourceManager &SM;
  ArrayRef<KeywordUse> Uses;
  llvm::DenseMap<const FunctionDecl *, bool> Holding;
};

std::optional<std::string> hoistLocalTypes(ASTContext &Ctx, ArrayRef<KeywordUse> Uses, StringRef FileName) {
  llvm::SetVector<const TagDecl *> Types = unnamedTemplateArguments(Ctx, Uses).LocalTypes;
  LocalVariableTypes Variables(Ctx.getSourceManager(), Uses);
  Variables.TraverseDecl(Ctx.getTranslationUnitDecl());
  Types.insert(Variables.Found.begin(), Variables.Found.end());
  if (Types.empty()) return std::nullopt;
  Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
  Hoister H(Ctx, Main, FileName);
  bool Moved = false;
  for (const TagDecl *TD : Types) Moved |= H.hoist(TD);
  if (!Moved) return std::nullopt;
  const RewriteBuffer *Edited = Main.getRewriteBufferFor(Ctx.getSourceManager().getMainFileID());
  return std::string(Edited->begin(), Edited->end());
}

}  // namespace cilkpp
