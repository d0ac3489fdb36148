#include "CodeGen/Naming.h"

#include "Analysis/FrameDescription.h"

#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace cilkpp {
namespace {

PrintingPolicy policy(ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.SuppressUnwrittenScope = true;
  return P;
}

std::string print(ASTContext &Ctx, QualType T, StringRef Name) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  T.print(OS, policy(Ctx), Name);
  return Out;
}

}  // namespace

ProcedureNames namesFor(const FunctionDecl *FD, unsigned OverloadIndex) {
  std::string Base = "__cilkpp_" + FD->getName().str();
  std::string Unique = OverloadIndex ? Base + "_" + std::to_string(OverloadIndex) : Base;
  return {Unique + "_frame", Unique + "_info", Unique + "_stack_info", Unique + "_resume", Base + "_fast"};
}

std::string qualifiedFastName(const FunctionDecl *FD) {
  std::string Scope;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      Scope = NS->getName().str() + "::" + Scope;
  return "::" + Scope + namesFor(FD, 0).Fast;
}

std::string liveFlagName(const FrameField &F) { return "__cilkpp_live_" + F.Name; }

std::string typeQualified(ASTContext &Ctx, QualType T) {
  return print(Ctx, TypeName::getFullyQualifiedType(T, Ctx, /*WithGlobalNsPrefix=*/true), "");
}

std::string declareQualified(ASTContext &Ctx, QualType T, StringRef Name) {
  return print(Ctx, TypeName::getFullyQualifiedType(T, Ctx, /*WithGlobalNsPrefix=*/true), Name);
}

std::string declareAsWritten(ASTContext &Ctx, QualType T, StringRef Name) { return print(Ctx, T, Name); }

std::string parameterList(ASTContext &Ctx, const FunctionDecl *FD, bool WithDefaults) {
  std::string Out;
  for (const ParmVarDecl *P : FD->parameters()) {
    if (!Out.empty()) Out += ", ";
    Out += declareQualified(Ctx, P->getType(), P->getName());
    if (WithDefaults && P->hasDefaultArg() && !P->hasUninstantiatedDefaultArg()) {
      const SourceManager &SM = Ctx.getSourceManager();
      CharSourceRange R = CharSourceRange::getTokenRange(SM.getExpansionRange(P->getDefaultArgRange()).getAsRange());
      Out += " = " + Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
    }
  }
  return Out;
}

std::string storagePrefix(const FunctionDecl *FD) {
  std::string Out;
  if (FD->getStorageClass() == SC_Static) Out += "static ";
  if (FD->isInlineSpecified()) Out += "inline ";
  return Out;
}

}  // namespace cilkpp
