#include "CodeGen/OutlinedTemplates.h"

#include "CodeGen/Naming.h"
#include "Support/Instantiations.h"
#include "Support/Nameable.h"
#include "Support/SourceRanges.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

#include <fmt/format.h>

#include <vector>

using namespace clang;

namespace cilkpp {
namespace {

std::string inventedName(unsigned Index) { return fmt::format("__cilkpp_auto_{}", Index + 1); }

bool hasDefaultArgument(const NamedDecl *P) {
  if (const auto *T = dyn_cast<TemplateTypeParmDecl>(P)) return T->hasDefaultArgument();
  if (const auto *N = dyn_cast<NonTypeTemplateParmDecl>(P)) return N->hasDefaultArgument();
  if (const auto *C = dyn_cast<TemplateTemplateParmDecl>(P)) return C->hasDefaultArgument();
  return true;
}

class ValueReturns : public RecursiveASTVisitor<ValueReturns> {
 public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }  // their returns are their own
  bool TraverseDecl(Decl *D) { return isa_and_nonnull<VarDecl>(D) ? RecursiveASTVisitor::TraverseDecl(D) : true; }
  bool VisitReturnStmt(ReturnStmt *S) {
    Found = Found || S->getRetValue();
    return !Found;
  }
  bool Found = false;
};

// The lambdas written at a place, in one instantiation of their function.
class LambdasAt : public RecursiveASTVisitor<LambdasAt> {
 public:
  explicit LambdasAt(SourceLocation Loc) : Loc(Loc) {}
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (L->getBeginLoc() == Loc) Found.push_back(L);
    return true;
  }
  std::vector<const LambdaExpr *> Found;

 private:
  SourceLocation Loc;
};

}  // namespace

std::optional<OutlinedTemplate> outlinedTemplate(ASTContext &Ctx, const FunctionDecl *Host, const LambdaExpr *Lambda,
                                                 std::string &WhyNot) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::string> Params, Arguments;
  const auto *Method = dyn_cast<CXXMethodDecl>(Host);
  OutlinedTemplate Result;
  // A member of a class template, not nested in another template. Defined
  // outside the class, the moved body is defined there too, under the
  // class's template head as the definition writes it; declared in the
  // class, its types must read the same there, so the definition must name
  // the class's parameters as the class does.
  auto MemberOfClassTemplateMovable = [&] {
    const ClassTemplateDecl *Class = Method ? Method->getParent()->getDescribedClassTemplate() : nullptr;
    if (!Class) {
      WhyNot = "its function is a template inside another template";
      return false;
    }
    if (Method->getParent()->getDeclContext()->isDependentContext()) {
      WhyNot = "its function is a member of a class template nested in another template";
      return false;
    }
    if (!Method->isOutOfLine()) return true;
    if (Method->getNumTemplateParameterLists() != 1) {
      WhyNot = "its function is a member of a class template defined outside its class";
      return false;
    }
    const TemplateParameterList *Outer = Method->getTemplateParameterList(0);
    const TemplateParameterList *Declared = Class->getTemplateParameters();
    for (unsigned I = 0; I < Outer->size() && I < Declared->size(); ++I)
      if (Outer->getParam(I)->getName() != Declared->getParam(I)->getName()) {
        WhyNot = fmt::format("its definition outside the class renames the class's template parameter '{}' to '{}'",
                             Declared->getParam(I)->getName(), Outer->getParam(I)->getName());
        return false;
      }
    SourceRange Written = Outer->getSourceRange();
    if (const Expr *Requires = Outer->getRequiresClause()) Written.setEnd(Requires->getEndLoc());
    const CharSourceRange Range = fileRange(SM, Written);
    if (Range.isInvalid()) {
      WhyNot = "its function's template head is written by a macro";
      return false;
    }
    Result.ClassHead = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str() + " ";
    return true;
  };
  if (const FunctionTemplateDecl *Template = Host->getDescribedFunctionTemplate()) {
    // A member function template's body becomes another member function
    // template.
    if (Host->getDeclContext()->isDependentContext() && !MemberOfClassTemplateMovable()) return std::nullopt;
    const TemplateParameterList *List = Template->getTemplateParameters();
    if (List->getRequiresClause()) {
      WhyNot = "its function template has a requires-clause (a constrained parameter, `template <std::integral T>`, "
               "does not keep it in place)";
      return std::nullopt;
    }
    if (List->hasParameterPack()) {
      WhyNot = "its function template has a parameter pack";
      return std::nullopt;
    }
    for (const NamedDecl *P : *List) {
      if (P->getName().empty()) {
        WhyNot = "its function template has an unnamed template parameter";
        return std::nullopt;
      }
      if (hasDefaultArgument(P)) {
        WhyNot = fmt::format("its function template's parameter '{}' has a default argument", P->getName());
        return std::nullopt;
      }
      const CharSourceRange Range = fileRange(SM, P->getSourceRange());
      if (Range.isInvalid()) {
        WhyNot = "its function template's parameters are written by a macro";
        return std::nullopt;
      }
      Params.push_back(Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str());
      Arguments.push_back(P->getName().str());
    }
  } else if (Host->isTemplated()) {
    // A member function of a class template: the body becomes another
    // member, in the scope of the class's parameters.
    if (!MemberOfClassTemplateMovable()) return std::nullopt;
  }
  if (Lambda && Lambda->isGenericLambda()) {
    for (const NamedDecl *P : *Lambda->getTemplateParameterList()) {
      const auto *Invented = dyn_cast<TemplateTypeParmDecl>(P);
      if (!Invented || !Invented->isImplicit()) {
        WhyNot = "it has an explicit template parameter list";
        return std::nullopt;
      }
      if (Invented->isParameterPack()) {
        WhyNot = "it has an 'auto...' parameter";
        return std::nullopt;
      }
      Params.push_back("class " + inventedName(Invented->getIndex()));
    }
  }
  if (Params.empty()) return Result;
  Result.Head = fmt::format("template <{}> ", fmt::join(Params, ", "));
  if (!Arguments.empty()) Result.Arguments = fmt::format("<{}>", fmt::join(Arguments, ", "));
  return Result;
}

std::optional<std::string> genericParameterDeclaration(ASTContext &Ctx, const ParmVarDecl *P) {
  const SourceManager &SM = Ctx.getSourceManager();
  const TypeSourceInfo *Info = P->getTypeSourceInfo();
  if (!Info || P->hasDefaultArg()) return std::nullopt;
  const CharSourceRange Range = fileRange(SM, P->getSourceRange());
  if (Range.isInvalid()) return std::nullopt;
  std::string Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
  const unsigned Begin = SM.getFileOffset(Range.getBegin());
  // Each `auto` of the declaration, last first so earlier offsets hold.
  std::vector<std::pair<unsigned, unsigned>> Autos;  // offset in Text, template parameter index
  for (TypeLoc TL = Info->getTypeLoc(); !TL.isNull(); TL = TL.getNextTypeLoc()) {
    if (!TL.getAs<AutoTypeLoc>() && !TL.getAs<TemplateTypeParmTypeLoc>()) continue;
    const auto *Parameter = TL.getType()->getAs<TemplateTypeParmType>();
    const SourceLocation At = TL.getBeginLoc();
    if (!Parameter || At.isMacroID() || SM.getFileOffset(At) < Begin) return std::nullopt;
    Autos.emplace_back(SM.getFileOffset(At) - Begin, Parameter->getIndex());
  }
  for (auto It = Autos.rbegin(); It != Autos.rend(); ++It) {
    if (Text.compare(It->first, 4, "auto") != 0) return std::nullopt;
    Text.replace(It->first, 4, inventedName(It->second));
  }
  return Text;
}

std::string forwardDependent(llvm::StringRef Name) { return fmt::format("static_cast<decltype({0}) &&>({0})", Name); }

bool returnsNoValue(const LambdaExpr &Lambda) {
  ValueReturns Returns;
  Returns.TraverseStmt(Lambda.getBody());
  return !Returns.Found;
}

}  // namespace cilkpp

namespace cilkpp {

std::optional<std::string> commonDeducedResult(ASTContext &Ctx, const FunctionDecl *Host, const LambdaExpr &Lambda) {
  // The lambda itself where its function is not a template, else its
  // counterpart in each instantiation of the function.
  std::vector<const LambdaExpr *> Lambdas;
  if (!Host->isTemplated()) {
    Lambdas.push_back(&Lambda);
  } else {
    for (const FunctionDecl *Instance : instantiationsOf(Host)) {
      LambdasAt Finder(Lambda.getBeginLoc());
      Finder.TraverseStmt(Instance->getBody());
      Lambdas.insert(Lambdas.end(), Finder.Found.begin(), Finder.Found.end());
    }
  }
  // A generic lambda's call operators are the specializations of its
  // operator template.
  std::vector<const FunctionDecl *> Operators;
  for (const LambdaExpr *L : Lambdas) {
    if (const FunctionTemplateDecl *Template = L->getDependentCallOperator())
      Operators.insert(Operators.end(), Template->specializations().begin(), Template->specializations().end());
    else
      Operators.push_back(L->getCallOperator());
  }
  std::optional<std::string> Common;
  for (const FunctionDecl *Op : Operators) {
    const QualType Result = Op->getReturnType();
    if (Result->isUndeducedType() || Result->isDependentType() || !isNameableOutsideFunction(Result)) return std::nullopt;
    const std::string Text = typeQualified(Ctx, Result);
    if (Common && *Common != Text) return std::nullopt;
    Common = Text;
  }
  return Common;
}

}  // namespace cilkpp
