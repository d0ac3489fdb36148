#include "CodeGen/OutlinedTemplates.h"

#include "CodeGen/Naming.h"
#include "Support/Instantiations.h"
#include "Support/Nameable.h"
#include "Support/References.h"
#include "Support/SourceRanges.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

#include <fmt/format.h>

#include <vector>

using namespace clang;

namespace cilkpp {

std::string inventedName(unsigned Index) { return fmt::format("__cilkpp_auto_{}", Index + 1); }

CharSourceRange constraintRange(const SourceManager &SM, const TemplateTypeParmDecl *Invented) {
  const TypeConstraint *Constraint = Invented ? Invented->getTypeConstraint() : nullptr;
  if (!Constraint) return {};
  return fileRange(SM, Constraint->getConceptReference()->getSourceRange());
}

namespace {

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


// The lambda's own template parameter that a type in its parameter P's
// declaration names (`auto` invents one), or null for one of an enclosing
// template's.
const TemplateTypeParmDecl *lambdaParameter(const ParmVarDecl *P, const TemplateTypeParmType *Type) {
  const auto *Operator = dyn_cast<FunctionDecl>(P->getDeclContext());
  const FunctionTemplateDecl *Template = Operator ? Operator->getDescribedFunctionTemplate() : nullptr;
  const TemplateParameterList *List = Template ? Template->getTemplateParameters() : nullptr;
  if (!List || Type->getDepth() != List->getDepth() || Type->getIndex() >= List->size()) return nullptr;
  return dyn_cast<TemplateTypeParmDecl>(List->getParam(Type->getIndex()));
}

// A template parameter as its declaration writes it, for a template head
// elsewhere; WhyNot says what stops it, naming Owner ("its function
// template", "it").
std::optional<std::string> writtenParameter(ASTContext &Ctx, const NamedDecl *P, llvm::StringRef Owner,
                                            std::string &WhyNot) {
  if (P->getName().empty()) {
    WhyNot = fmt::format("{} has an unnamed template parameter", Owner);
    return std::nullopt;
  }
  if (P->isTemplateParameterPack()) {
    WhyNot = fmt::format("{} has a template parameter pack", Owner);
    return std::nullopt;
  }
  if (hasDefaultArgument(P)) {
    WhyNot = fmt::format("{} gives its template parameter '{}' a default argument", Owner, P->getName());
    return std::nullopt;
  }
  SourceRange Written = P->getSourceRange();
  // (Which starts at the concept's name, after a qualifier.)
  if (const auto *Type = dyn_cast<TemplateTypeParmDecl>(P); Type && Type->hasTypeConstraint())
    Written.setBegin(Type->getTypeConstraint()->getConceptReference()->getBeginLoc());
  const CharSourceRange Range = fileRange(Ctx.getSourceManager(), Written);
  if (Range.isInvalid()) {
    WhyNot = fmt::format("{} has template parameters written by a macro", Owner);
    return std::nullopt;
  }
  return Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

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
  // (A friend defined in the class moves into a static member: BodyOutlining.)
  const auto *Owner = Method ? Method->getParent()
                             : Host->getFriendObjectKind() != Decl::FOK_None
                                 ? dyn_cast<CXXRecordDecl>(Host->getLexicalDeclContext())
                                 : nullptr;
  auto MemberOfClassTemplateMovable = [&] {
    const ClassTemplateDecl *Class = Owner ? Owner->getDescribedClassTemplate() : nullptr;
    if (!Class) {
      WhyNot = "its function is a template inside another template";
      return false;
    }
    if (Owner->getDeclContext()->isDependentContext()) {
      WhyNot = "its function is a member of a class template nested in another template";
      return false;
    }
    if (!Method || !Method->isOutOfLine()) return true;
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
    for (const NamedDecl *P : *List) {
      std::optional<std::string> Written = writtenParameter(Ctx, P, "its function template", WhyNot);
      if (!Written) return std::nullopt;
      Params.push_back(std::move(*Written));
      Arguments.push_back(P->getName().str());
    }
  } else if (Host->isTemplated()) {
    // A member function of a class template: the body becomes another
    // member, in the scope of the class's parameters.
    if (!MemberOfClassTemplateMovable()) return std::nullopt;
  }
  Result.HostParameters = Params.size();
  if (Lambda && Lambda->isGenericLambda()) {
    const TemplateParameterList *List = Lambda->getTemplateParameterList();
    if (List->getRequiresClause() || Lambda->getCallOperator()->getTrailingRequiresClause()) {
      WhyNot = "it has a requires-clause";
      return std::nullopt;
    }
    // Its explicit parameters come first; the call left in the lambda names
    // them, so that those its arguments do not deduce still match.
    for (const NamedDecl *P : *List) {
      if (!P->isImplicit()) {
        std::optional<std::string> Written = writtenParameter(Ctx, P, "it", WhyNot);
        if (!Written) return std::nullopt;
        Params.push_back(std::move(*Written));
        Arguments.push_back(P->getName().str());
        continue;
      }
      const auto *Invented = cast<TemplateTypeParmDecl>(P);
      if (Invented->isParameterPack()) {
        WhyNot = "it has an 'auto...' parameter";
        return std::nullopt;
      }
      std::string Kind = "class";
      if (const TypeConstraint *Constraint = Invented->getTypeConstraint()) {
        const ASTTemplateArgumentListInfo *Args = Constraint->getTemplateArgsAsWritten();
        if (Args && llvm::any_of(Args->arguments(), [](const TemplateArgumentLoc &Arg) {
              return Arg.getArgument().getKind() == TemplateArgument::Type ? namesVariable(Arg.getArgument().getAsType())
                     : Arg.getArgument().getKind() == TemplateArgument::Expression
                         ? namesVariable(Arg.getArgument().getAsExpr())
                         : false;
            })) {
          WhyNot = "the constraint of one of its 'auto' parameters names a variable";
          return std::nullopt;
        }
      }
      if (Invented->hasTypeConstraint()) {
        const CharSourceRange Range = constraintRange(SM, Invented);
        if (Range.isInvalid()) {
          WhyNot = "the constraint of one of its 'auto' parameters is written by a macro";
          return std::nullopt;
        }
        Kind = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
      }
      Params.push_back(Kind + " " + inventedName(Invented->getIndex()));
    }
  }
  Result.appendParameters(Params);
  Result.Named = Arguments;
  if (!Arguments.empty()) Result.Arguments = fmt::format("<{}>", fmt::join(Arguments, ", "));
  return Result;
}

void OutlinedTemplate::appendParameters(const std::vector<std::string> &More) {
  Parameters.insert(Parameters.end(), More.begin(), More.end());
  if (!Parameters.empty()) Head = fmt::format("template <{}> ", fmt::join(Parameters, ", "));
}

std::optional<std::string> genericParameterDeclaration(ASTContext &Ctx, const ParmVarDecl *P) {
  const SourceManager &SM = Ctx.getSourceManager();
  const TypeSourceInfo *Info = P->getTypeSourceInfo();
  if (!Info || P->hasDefaultArg()) return std::nullopt;
  const CharSourceRange Range = fileRange(SM, P->getSourceRange());
  if (Range.isInvalid()) return std::nullopt;
  std::string Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
  const unsigned Begin = SM.getFileOffset(Range.getBegin());
  struct Edit {
    unsigned Offset, Length;  // in Text
    std::string Replacement;
  };
  // Each `auto` of the declaration becomes its template parameter's name;
  // a constraint before it goes (it is in the template head).
  std::vector<Edit> Edits;
  for (TypeLoc TL = Info->getTypeLoc(); !TL.isNull(); TL = TL.getNextTypeLoc()) {
    if (!TL.getAs<AutoTypeLoc>() && !TL.getAs<TemplateTypeParmTypeLoc>()) continue;
    const auto *Parameter = TL.getType()->getAs<TemplateTypeParmType>();
    if (!Parameter) return std::nullopt;
    // A parameter the lambda or its function declares reads the same there.
    const TemplateTypeParmDecl *Invented = lambdaParameter(P, Parameter);
    if (!Invented || !Invented->isImplicit()) continue;
    const SourceLocation At = TL.getBeginLoc();
    if (At.isMacroID() || SM.getFileOffset(At) < Begin) return std::nullopt;
    const unsigned Offset = SM.getFileOffset(At) - Begin;
    if (Text.compare(Offset, 4, "auto") != 0) return std::nullopt;
    Edits.push_back({Offset, 4, inventedName(Parameter->getIndex())});
    if (const CharSourceRange Constraint = constraintRange(SM, Invented); Constraint.isValid()) {
      const unsigned From = SM.getFileOffset(Constraint.getBegin()), To = SM.getFileOffset(Constraint.getEnd());
      if (From < Begin || To - Begin > Offset) return std::nullopt;
      Edits.push_back({From - Begin, Offset - (From - Begin), ""});
    }
  }
  // Last first, so that earlier offsets hold.
  llvm::sort(Edits, [](const Edit &A, const Edit &B) { return A.Offset > B.Offset; });
  for (const Edit &E : Edits) Text.replace(E.Offset, E.Length, E.Replacement);
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
  // (Inside a generic lambda of the function, that lambda's call operator
  // is the template.)
  const FunctionDecl *Template = Host;
  for (const DeclContext *DC = Lambda.getLambdaClass()->getDeclContext(); DC && DC != Host; DC = DC->getParent())
    if (const auto *F = dyn_cast<FunctionDecl>(DC); F && F->getDescribedFunctionTemplate()) {
      Template = F;
      break;
    }
  if (!Template->isTemplated()) {
    Lambdas.push_back(&Lambda);
  } else {
    for (const FunctionDecl *Instance : instantiationsOf(Template)) {
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
