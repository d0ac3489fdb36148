#include "CodeGen/DebuggerNames.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// Per name, the declarations the procedure declares or refers to by it, and
// where it refers to each variable.
struct NameUses : RecursiveASTVisitor<NameUses> {
  explicit NameUses(const SourceManager &SM) : SM(SM) {}
  const SourceManager &SM;
  llvm::StringMap<llvm::SmallPtrSet<const Decl *, 2>> Meanings;
  llvm::DenseSet<SourceLocation> References;  // spelling locations of DeclRefExprs to variables

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  void note(const NamedDecl *D) {
    if (const IdentifierInfo *Name = D ? D->getIdentifier() : nullptr)
      Meanings[Name->getName()].insert(D->getCanonicalDecl());
  }
  bool VisitNamedDecl(NamedDecl *D) {
    note(D);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    note(E->getDecl());
    if (isa<VarDecl>(E->getDecl())) References.insert(SM.getSpellingLoc(E->getLocation()));
    return true;
  }
  bool VisitOverloadExpr(OverloadExpr *E) {
    for (const NamedDecl *D : E->decls()) note(D);
    if (const IdentifierInfo *Name = E->getName().getAsIdentifierInfo())
      Meanings[Name->getName()].insert(nullptr);  // unresolved: may mean anything
    return true;
  }
  bool VisitDependentScopeDeclRefExpr(DependentScopeDeclRefExpr *E) {
    if (const IdentifierInfo *Name = E->getDeclName().getAsIdentifierInfo()) Meanings[Name->getName()].insert(nullptr);
    return true;
  }
  bool VisitTypeLoc(TypeLoc TL) {
    if (const auto *Tag = TL.getType()->getAsTagDecl()) note(Tag);
    if (const auto *Typedef = TL.getType()->getAs<TypedefType>()) note(Typedef->getDecl());
    // (An alias template's name: `vec<int>`.)
    if (const auto *Specialization = TL.getType()->getAs<TemplateSpecializationType>())
      note(Specialization->getTemplateName().getAsTemplateDecl());
    return true;
  }
  // A lambda's capture of a frame variable is an init-capture of the same
  // name (`[&x = __frame->x]`), which the reference would have it hide
  // (clang's -Wshadow-all).
  llvm::DenseSet<const VarDecl *> Captured;
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable())
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar())) Captured.insert(V);
    return true;
  }
};

// Whether every token spelled `Name` in the procedure's text is the
// variable's declaration, a reference to it, or a member name after `.` or
// `->` (labels, namespaces and template names are not in NameUses).
bool onlyTheVariable(ASTContext &Ctx, const FunctionDecl *FD, const VarDecl *V, StringRef Name,
                     const llvm::DenseSet<SourceLocation> &References) {
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation Begin = SM.getExpansionLoc(FD->getBeginLoc()), End = SM.getExpansionLoc(FD->getEndLoc());
  if (SM.getFileID(Begin) != SM.getFileID(End)) return false;
  const StringRef Buffer = SM.getBufferData(SM.getFileID(Begin));
  Lexer Raw(SM.getLocForStartOfFile(SM.getFileID(Begin)), Ctx.getLangOpts(), Buffer.begin(),
            Buffer.begin() + SM.getFileOffset(Begin), Buffer.end());
  const SourceLocation Declared = SM.getSpellingLoc(V->getLocation());
  tok::TokenKind Previous = tok::unknown;
  Token T;
  while (!Raw.LexFromRawLexer(T) && SM.getFileOffset(T.getLocation()) <= SM.getFileOffset(End)) {
    if (T.is(tok::raw_identifier) && T.getRawIdentifier() == Name && T.getLocation() != Declared &&
        !References.contains(T.getLocation()) && Previous != tok::period && Previous != tok::arrow)
      return false;
    Previous = T.getKind();
  }
  return true;
}

}  // namespace

std::string debuggerNames(ASTContext &Ctx, const FrameDescription &Frame, bool ResumeClone) {
  const FunctionDecl *FD = Frame.Procedure->Definition;
  NameUses Uses(Ctx.getSourceManager());
  Uses.TraverseDecl(const_cast<FunctionDecl *>(FD));

  std::string Out;
  for (const FrameField &F : Frame.Fields) {
    const VarDecl *V = F.Var;
    // (Names starting with `__` are the translation's own.)
    if (F.IsReference || !V->getIdentifier() || V->getName().starts_with("__") || Uses.Captured.contains(V)) continue;
    if (!ResumeClone && (!F.ResidentOnFastPath || isa<ParmVarDecl>(V))) continue;
    const auto Meanings = Uses.Meanings.find(V->getName());
    if (Meanings == Uses.Meanings.end() || Meanings->second.size() != 1 ||
        !Meanings->second.contains(V->getCanonicalDecl()))
      continue;
    if (!onlyTheVariable(Ctx, FD, V, V->getName(), Uses.References)) continue;
    // (A field may be renamed: `entry_1` for a variable `entry`, which the
    // frame's header has.)
    Out += fmt::format(" [[maybe_unused]] auto &{} = __frame->{};", V->getName().str(), F.Name);
  }
  return Out;
}

}  // namespace cilkpp
