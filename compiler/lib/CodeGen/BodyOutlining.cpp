#include "CodeGen/BodyOutlining.h"

#include "Analysis/TemplateArguments.h"

#include "CodeGen/ConstantValues.h"
#include "CodeGen/DeducedResults.h"
#include "CodeGen/Naming.h"
#include "CodeGen/OutlinedTemplates.h"
#include "CodeGen/PredefinedNames.h"
#include "CodeGen/SourceText.h"
#include "CodeGen/UnusedAliases.h"
#include "Sema/ParallelLoops.h"
#include "Support/Instantiations.h"
#include "Support/Lambdas.h"
#include "Support/Nameable.h"
#include "Support/References.h"
#include "Support/SourceRanges.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <cassert>

using namespace clang;

namespace cilkpp {
namespace {

// A body a keyword may belong to: a function's, a lambda's, a cilk_for's or
// a catch handler's.
struct Region {
  const FunctionDecl *Function = nullptr;
  const LambdaExpr *Lambda = nullptr;
  const ParallelLoop *Loop = nullptr;
  SourceRange Range;
  unsigned Begin = 0, End = 0;  // file offsets in the main file
  const CXXCatchStmt *Handler = nullptr;

  bool contains(unsigned Offset) const { return Begin <= Offset && Offset <= End; }
  bool contains(const Region &O) const { return Begin <= O.Begin && O.End <= End && this != &O; }
  // Whether a body inside it can be hosted by it (loops and handlers are
  // bodies within their function).
  bool isFunctionLike() const { return Function || Lambda; }
  const Stmt *body() const {
    if (Lambda) return Lambda->getBody();
    if (Loop) return Loop->Loop->getBody();
    if (Handler) return Handler->getHandlerBlock();
    return Function->getBody();
  }
};

class RegionCollector : public RecursiveASTVisitor<RegionCollector> {
 public:
  RegionCollector(const SourceManager &SM, std::vector<Region> &Regions) : SM(SM), Regions(Regions) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody()) add({FD, nullptr, nullptr, FD->getBody()->getSourceRange()});
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    add({nullptr, L, nullptr, L->getBody()->getSourceRange()});
    return true;
  }
  bool VisitCXXCatchStmt(CXXCatchStmt *C) {
    Region R;
    R.Handler = C;
    R.Range = C->getHandlerBlock()->getSourceRange();
    add(R);
    return true;
  }
  void add(Region R) {
    // A body written by a macro has no text of its own to move.
    if (R.Range.getBegin().isMacroID() || R.Range.getEnd().isMacroID()) return;
    const SourceLocation B = SM.getExpansionLoc(R.Range.getBegin()), E = SM.getExpansionLoc(R.Range.getEnd());
    if (!SM.isWrittenInMainFile(B) || !SM.isWrittenInMainFile(E)) return;
    R.Begin = SM.getFileOffset(B);
    R.End = SM.getFileOffset(E);
    Regions.push_back(R);
  }

 private:
  const SourceManager &SM;
  std::vector<Region> &Regions;
};

bool isHiddenFriend(const FunctionDecl *FD) {
  return FD->getFriendObjectKind() != Decl::FOK_None && FD->getLexicalDeclContext()->isRecord();
}

const FriendDecl *friendDeclarationOf(const FunctionDecl *FD) {
  const auto *Class = dyn_cast<CXXRecordDecl>(FD->getLexicalDeclContext());
  if (!Class || FD->getFriendObjectKind() == Decl::FOK_None) return nullptr;
  const NamedDecl *Declared = FD->getDescribedFunctionTemplate();
  if (!Declared) Declared = FD;
  for (const FriendDecl *Friend : Class->friends())
    if (Friend->getFriendDecl() == Declared) return Friend;
  return nullptr;
}

// Functions that cannot be cilk procedures themselves: a constructor or
// destructor (its clones would construct or destroy the object again), a
// conversion function (clones have names), a friend defined in its class
// (its clones could not be declared there). The body moves into a member
// function, which can, as a spawning lambda's does; a friend's into a
// static member, which has the friend's access to the class.
bool bodyMovesToMember(const FunctionDecl *FD) {
  return isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(FD) || isHiddenFriend(FD);
}

// The innermost region holding Offset.
const Region *innermost(const std::vector<Region> &Regions, unsigned Offset, bool FunctionsAndLambdasOnly) {
  const Region *Best = nullptr;
  for (const Region &R : Regions)
    if (R.contains(Offset) && !(FunctionsAndLambdasOnly && !R.isFunctionLike()) &&
        (!Best || R.End - R.Begin < Best->End - Best->Begin))
      Best = &R;
  return Best;
}

// A cilk_for's body as written, from the first token after the loop's ')'
// to its ';': an unbraced one may start with a keyword that the AST does not
// show (`cilk_for (...) cilk_spawn work(i);` begins at `work`), or end in a
// statement's ';' (`if (c) f(i); else g(i);`).
CharSourceRange loopBodyRange(ASTContext &Ctx, const ParallelLoop &L) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = statementRange(Ctx, L.Loop->getBody());
  if (isa<CompoundStmt>(L.Loop->getBody()) || L.Loop->getRParenLoc().isMacroID()) return Range;
  Range.setEnd(statementEnd(Ctx, L.Loop->getBody()));
  if (std::optional<Token> First = Lexer::findNextToken(L.Loop->getRParenLoc(), SM, Ctx.getLangOpts());
      First && SM.isBeforeInTranslationUnit(First->getLocation(), Range.getBegin()))
    Range.setBegin(First->getLocation());
  return Range;
}

// What a body uses from the function around it.
class OuterUses : public RecursiveASTVisitor<OuterUses> {
 public:
  OuterUses(const SourceManager &SM, const Region &Body) : SM(SM), Body(Body) {}

  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++LambdaDepth;
    const bool Continue = RecursiveASTVisitor::TraverseLambdaExpr(L);
    --LambdaDepth;
    return Continue;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (declaredInside(D)) return true;
    // `long helper(long);` or `extern int x;` in the function, with no
    // declaration before it outside: a name the moved body cannot see.
    if (D->isLocalExternDecl() && !declaredOutsideBefore(D)) {
      Blocker = D;
      return true;
    }
    if (!D->getParentFunctionOrMethod()) return true;
    // The host template's parameter: the outlined template has it too.
    if (isa<NonTypeTemplateParmDecl>(D)) return true;
    if (const auto *V = dyn_cast<VarDecl>(D); V && !V->hasLocalStorage() && !V->isStaticLocal()) return true;
    // A local lambda's or class's member is reached through its object (a
    // variable, looked at on its own) or its class (a type).
    if (isa<CXXMethodDecl>(D)) return true;
    if (!isa<VarDecl, BindingDecl>(D)) {
      Blocker = D;  // a local enumerator or function declaration
      return true;
    }
    // The type the body sees (const for a copy captured by a non-mutable
    // lambda around the body), unless only nested lambdas see it.
    auto [It, New] = Vars.insert({D, D->getType().getNonReferenceType()});
    if (LambdaDepth == 0 && (New || !SeenDirectly.contains(D))) {
      It->second = E->getType();
      SeenDirectly.insert(D);
    }
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *) {
    UsesThis = true;
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    checkType(TL.getDecl());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    const TypedefNameDecl *Alias = TL.getTypedefNameDecl();
    if (!Alias->getParentFunctionOrMethod() || declaredInside(Alias) || LocalAliases.contains(Alias)) return true;
    // A local alias of a type nameable outside the function is declared
    // again at the top of the moved body, after the local aliases it uses.
    // (Not a dependent one: the moved body's parameters would be spelled
    // through it.)
    if (!isNameableOutsideFunction(Alias->getUnderlyingType()) || Alias->getUnderlyingType()->isDependentType()) {
      Blocker = Alias;
      return true;
    }
    TraverseTypeLoc(Alias->getTypeSourceInfo()->getTypeLoc());
    LocalAliases.insert(Alias);
    return true;
  }

  llvm::MapVector<const ValueDecl *, QualType> Vars;  // in order of first use
  // Aliases declared in the function around the body that the body uses, in
  // an order that declares each after those it names.
  llvm::SetVector<const TypedefNameDecl *> LocalAliases;
  bool UsesThis = false;
  // A declaration local to the function around the body that the body
  // names and that cannot be passed in: a type, an enumerator, a function.
  const NamedDecl *Blocker = nullptr;

 private:
  bool declaredInside(const Decl *D) const {
    const SourceLocation L = SM.getExpansionLoc(D->getLocation());
    return SM.isWrittenInMainFile(L) && Body.contains(SM.getFileOffset(L));
  }
  bool declaredOutsideBefore(const Decl *D) const {
    return llvm::any_of(D->redecls(), [&](const Decl *Other) {
      return !Other->isLocalExternDecl() && SM.isBeforeInTranslationUnit(Other->getLocation(), Body.Range.getBegin());
    });
  }
  void checkType(const Decl *D) {
    if (D->getParentFunctionOrMethod() && !declaredInside(D)) Blocker = cast<NamedDecl>(D);
  }

  const SourceManager &SM;
  const Region &Body;
  unsigned LambdaDepth = 0;
  llvm::DenseSet<const ValueDecl *> SeenDirectly;
};

// The ways out of a statement other than its end or an exception: returns,
// gotos, and breaks and continues of a loop or switch around it.
class ExitFinder : public RecursiveASTVisitor<ExitFinder> {
 public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }  // its returns are its own
  bool TraverseStmt(Stmt *S) {
    if (!S) return true;
    const unsigned Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S), Switch = isa<SwitchStmt>(S);
    Loops += Loop;
    Switches += Switch;
    const bool Continue = RecursiveASTVisitor::TraverseStmt(S);
    Loops -= Loop;
    Switches -= Switch;
    return Continue;
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    Returns.push_back(R);
    return true;
  }
  bool VisitCoreturnStmt(CoreturnStmt *S) { return jump(S); }
  bool VisitGotoStmt(GotoStmt *S) { return jump(S); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) { return jump(S); }
  bool VisitBreakStmt(BreakStmt *B) {
    if (!Loops && !Switches) Breaks.push_back(B);
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *C) {
    if (!Loops) Continues.push_back(C);
    return true;
  }
  bool empty() const { return Returns.empty() && Breaks.empty() && Continues.empty() && !Jump; }
  std::vector<const ReturnStmt *> Returns;
  std::vector<const Stmt *> Breaks, Continues;
  const Stmt *Jump = nullptr;  // a goto or co_return

 private:
  bool jump(const Stmt *S) {
    if (!Jump) Jump = S;
    return true;
  }
  unsigned Loops = 0, Switches = 0;
};

// The `throw;` statements of a handler's block that rethrow the exception
// it handles (not those of handlers or lambdas inside it).
class Rethrows : public RecursiveASTVisitor<Rethrows> {
 public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXCatchStmt(CXXCatchStmt *) { return true; }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) {
    if (!E->getSubExpr()) Found.push_back(E);
    return true;
  }
  std::vector<const CXXThrowExpr *> Found;
};

// A replacement of Length characters at a file offset.
struct TextEdit {
  unsigned Offset, Length;
  std::string Text;
};

// The ways a handler that moves leaves it (Outliner::leavingHandler), and
// the type its function returns, spelled, when one returns a value.
struct LeavingHandler {
  ExitFinder Exits;
  std::string Returned, Slot;  // the type, and the optional that receives it
};

// `__func__` and its kin written in a body that moves into a function of
// its own, replaced by the names they had.
class PredefinedNames : public RecursiveASTVisitor<PredefinedNames> {
 public:
  PredefinedNames(const SourceManager &SM, const Decl *Named) : SM(SM), Named(Named) {}
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++LambdaDepth;
    const bool Continue = RecursiveASTVisitor::TraverseLambdaExpr(L);
    --LambdaDepth;
    return Continue;
  }
  bool VisitPredefinedExpr(PredefinedExpr *E) {
    if (std::optional<std::string> Literal = predefinedNameLiteral(SM, E, Named, LambdaDepth > 0)) {
      const SourceLocation At = SM.getSpellingLoc(E->getLocation());
      Edits.push_back({SM.getFileOffset(At), Lexer::MeasureTokenLength(At, SM, LangOptions()), std::move(*Literal)});
    }
    return true;
  }
  std::vector<TextEdit> Edits;

 private:
  const SourceManager &SM;
  const Decl *Named;
  unsigned LambdaDepth = 0;
};

// Using-declarations and namespace aliases in a function body: a body that
// moves out of their scope would lose them.
bool endsInThrow(const Stmt *Body) {
  const auto *Block = dyn_cast<CompoundStmt>(Body);
  const auto *Last = Block && !Block->body_empty() ? dyn_cast<Expr>(Block->body_back()) : nullptr;
  return Last && isa<CXXThrowExpr>(Last->IgnoreImplicit());
}

class ScopedNames : public RecursiveASTVisitor<ScopedNames> {
 public:
  bool VisitUsingDirectiveDecl(UsingDirectiveDecl *D) { return add(D); }
  bool VisitUsingDecl(UsingDecl *D) { return add(D); }
  bool VisitUsingEnumDecl(UsingEnumDecl *D) { return add(D); }
  bool VisitNamespaceAliasDecl(NamespaceAliasDecl *D) { return add(D); }
  std::vector<const Decl *> Found;

 private:
  bool add(const Decl *D) {
    Found.push_back(D);
    return true;
  }
};

// A parameter of the outlined function and the argument the call passes.
// A lambda that becomes a named closure class (closureClass) also needs, for
// a capture, the class's member and its initializer, and for every
// parameter what the class's operator() passes on.
struct Parameter {
  Parameter(std::string Declaration, std::string Argument, std::string Name)
      : Declaration(std::move(Declaration)), Argument(std::move(Argument)), Name(std::move(Name)) {}
  std::string Declaration;
  std::string Argument;
  std::string Name;
  std::string Member;      // "long *k;" (captures only)
  std::string Initializer; // "__builtin_addressof(k)" (captures only)
  std::string Forwarded;   // "*k"
};

class Outliner {
 public:
  Outliner(ASTContext &Ctx, Rewriter &Main, StringRef FileName)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Main(Main), FileName(FileName),
        Names(SM.getBufferData(SM.getMainFileID())) {}

  // Moves the region's body out; false (and nothing rewritten, whyNot()
  // saying why) when it cannot move. With AsClosure, the lambda itself becomes an object of a
  // named class whose operator() calls the moved body: a local holding it
  // can then live in a frame, and a template instantiated with it can be
  // named. Spawns: the body holds a keyword (so the moved body is a cilk
  // procedure).
  bool outline(const Region &R, const std::vector<Region> &Regions, bool AsClosure, bool Spawns) {
    AliasesToMark.clear();
    ConstantsToMark.clear();
    DeducedTypes.clear();
    ClosureTypeArguments.clear();
    const FunctionDecl *Host = hostFunction(R, Regions);
    if (!Host) return refuse("it is not inside a function body");
    CurrentHost = Host;
    // (Its handlers would no longer see the member initializers' exceptions
    // nor rethrow at their end.)
    if (R.Function && isa<CXXTryStmt>(R.Function->getBody())) return refuse("it is a function-try-block");
    if (!hostAllowsOutlining(Host, R)) return false;
    std::optional<OutlinedTemplate> Template = outlinedTemplate(Ctx, Host, R.Lambda, WhyNot);
    if (!Template) return false;
    // A named closure of a lambda in a function template is a class template
    // with the host's parameters; a generic lambda's call operator is a
    // member template with the lambda's (a generic lambda that spawns moved
    // its body out in an earlier round: outlineSpawningBodies).
    assert(!(AsClosure && Spawns && R.Lambda->isGenericLambda()));
    if (namesDeducedResultTemplate(R.body(), Host))
      return refuse("it calls its function, a template whose result type is deduced (write the result type)");
    OuterUses Uses(SM, R);
    Uses.TraverseStmt(const_cast<Stmt *>(R.body()));
    for (const TypedefNameDecl *Alias : Uses.LocalAliases)
      if (!redeclareAlias(*Alias)) return false;
    if (const NamedDecl *Local = Uses.Blocker)
      return refuse(fmt::format("it uses '{}', {} declared in its function", Local->getName(),
                                isa<TypeDecl>(Local)           ? "a type"
                                : isa<EnumConstantDecl>(Local) ? "an enumerator"
                                : isa<FunctionDecl>(Local)     ? "a function"
                                                               : "a variable"));

    std::vector<Parameter> Params;
    LeavingHandler Leaving;
    bool CapturesThis = false;
    std::string ReturnType = "void", Qualifiers;
    bool TrailingResult = false;  // a result whose declarator wraps the name, `int (*)(int)`
    if (R.Lambda) {
      if (!lambdaParameters(*R.Lambda, Uses, Params, CapturesThis)) return false;
      const CXXMethodDecl *Op = R.Lambda->getCallOperator();
      QualType Result = spelledWithoutVariables(Op->getReturnType());
      if (namesVariable(Result)) return refuse("its result type names a variable");
      if (Result->isUndeducedType() || (Result->isDependentType() && Result->getContainedDeducedType())) {
        // In a template or a generic lambda, deduced per instantiation; a
        // cilk procedure's result type must be written: the one every
        // instantiation deduces, or void.
        if (!Spawns) ReturnType = "auto";
        else if (std::optional<std::string> Common = commonDeducedResult(Ctx, Host, *R.Lambda)) ReturnType = *Common;
        else if (!returnsNoValue(*R.Lambda))
          return refuse("its instantiations deduce different result types (a result type written after its "
                        "parameters, `-> T`, is one)");
      } else {
        if (!isNameableOutsideFunction(Result)) return refuse("its result type cannot be named outside its function");
        ReturnType = typeQualified(Ctx, Result);
        TrailingResult = declaratorWrapsName(Ctx, Result);
      }
      if (Op->getType()->castAs<FunctionProtoType>()->isNothrow()) Qualifiers = " noexcept";
    } else if (R.Loop) {
      if (!loopParameters(*R.Loop, Uses, Params)) return false;
      CapturesThis = Uses.UsesThis;
    } else {
      // (A function's returns return from the moved body as they did from
      // the function, which returns what the moved body returns.)
      if (R.Handler && !leavingHandler(R, Regions, Leaving)) return false;
      if (!Leaving.Exits.empty()) ReturnType = "int";
      if (R.Function && !isa<CXXConstructorDecl, CXXDestructorDecl>(R.Function)) {
        const QualType Result = R.Function->getReturnType();
        if (Result->getContainedDeducedType()) return refuse("its result type is deduced");
        ReturnType = typeQualified(Ctx, Result);
        TrailingResult = declaratorWrapsName(Ctx, Result);
      }
      if (!referenceParameters(Uses, Params)) return false;
      CapturesThis = Uses.UsesThis;
    }
    // The types of variables known only per instantiation, which the call
    // deduces (deducedPerInstantiation).
    std::vector<std::string> DeducedParameters;
    for (const auto &Deduced : DeducedTypes) DeducedParameters.push_back("class " + Deduced.second);
    Template->appendParameters(DeducedParameters);
    // A named closure's own template head and the arguments its
    // construction names: the host's parameters in a function template, and
    // the captures' deduced types; its call operator's head: a generic
    // lambda's parameters.
    std::string ClosureHead, ClosureArguments, OperatorHead;
    if (AsClosure) {
      const auto Host = Template->Parameters.begin(), Own = Host + Template->HostParameters,
                 Deduced = Template->Parameters.end() - DeducedParameters.size();
      std::vector<std::string> ClassParameters(Host, Own), Arguments(Template->Named.begin(),
                                                                     Template->Named.begin() + Template->HostParameters);
      ClassParameters.insert(ClassParameters.end(), Deduced, Template->Parameters.end());
      llvm::append_range(Arguments, ClosureTypeArguments);
      if (!ClassParameters.empty()) {
        ClosureHead = fmt::format("template <{}> ", fmt::join(ClassParameters, ", "));
        ClosureArguments = fmt::format("<{}>", fmt::join(Arguments, ", "));
      }
      if (Own != Deduced) OperatorHead = fmt::format("template <{}> ", fmt::join(Own, Deduced, ", "));
    }
    if (AsClosure && !ClosureTypeArguments.empty()) includeHeader("type_traits");
    std::vector<TextEdit> Edits = declaredTypesOfOuterVariables(R, Uses);
    // A handler's frame may resume on another thread, where no exception is
    // being handled: `throw;` rethrows the one its call passed on.
    if (R.Handler) {
      Rethrows Found;
      Found.TraverseStmt(const_cast<Stmt *>(R.body()));
      if (!Found.Found.empty()) {
        for (const CXXThrowExpr *E : Found.Found) {
          if (E->getThrowLoc().isMacroID()) return refuse("a 'throw' in it is written by a macro");
          Edits.push_back({SM.getFileOffset(E->getThrowLoc()), std::strlen("throw"),
                           "::std::rethrow_exception(__cilkpp_handled)"});
        }
        Params.push_back({"::std::exception_ptr __cilkpp_handled", "::std::current_exception()", "__cilkpp_handled"});
        includeHeader("exception");
      }
      if (!leaveThroughResult(R, Leaving, Edits)) return false;
      if (!Leaving.Returned.empty()) {
        Params.push_back({fmt::format("::std::optional<{}> &{}", Leaving.Returned, Leaving.Slot), Leaving.Slot,
                          Leaving.Slot});
        includeHeader("optional");
      }
    }
    const Decl *NamedByBody = R.Lambda ? R.Lambda->getCallOperator() : Host;
    std::optional<std::string> BodyText = movedBody(R, NamedByBody, std::move(Edits));
    if (!BodyText) return refuse("a 'continue' in it is written by a macro");
    if (std::optional<std::string> Clash = clash(R, Params))
      return refuse(fmt::format("it declares '{}', the name of a variable of its function that it uses", *Clash));

    const auto *Method = dyn_cast<CXXMethodDecl>(Host);
    if (CapturesThis && (!Method || !Method->isInstance())) return refuse("it uses 'this' outside a member function");
    const bool Instance = CapturesThis;
    // A lambda capturing `*this` calls the moved body on its copy, which is
    // const in a const member and unless the lambda is mutable.
    if (Instance && (Method->isConst() || (R.Lambda && copyOfThisCapture(*R.Lambda) && !R.Lambda->isMutable())))
      Qualifiers = " const" + Qualifiers;

    const std::string Name = uniqueName(R);
    std::vector<std::string> Declarations, Arguments;
    for (const Parameter &P : Params) {
      Declarations.push_back(P.Declaration);
      Arguments.push_back(P.Argument);
    }
    const std::string ParamList = fmt::format("{}", fmt::join(Declarations, ", "));
    const std::string Args = fmt::format("{}", fmt::join(Arguments, ", "));
    const std::string Signature = TrailingResult
                                      ? fmt::format("auto {}({}){} -> {}", Name, ParamList, Qualifiers, ReturnType)
                                      : fmt::format("{} {}({}){}", ReturnType, Name, ParamList, Qualifiers);
    const std::string ClosureName = AsClosure ? uniqueName(R, NamedClosurePrefix) : "";
    if (AsClosure && !closureAllowed(*R.Lambda)) return false;
    const std::string ThisMember =
        AsClosure && Instance ? declareQualified(Ctx, Method->getThisType(), "__cilkpp_this") : "";
    const bool InClass = Method && !Host->isOutOfLine();
    // An out-of-line member's definitions are qualified as the host's is.
    const std::string Qualifier =
        Method && !InClass ? Lexer::getSourceText(CharSourceRange::getTokenRange(Host->getQualifierLoc().getSourceRange()),
                                                  SM, Ctx.getLangOpts()).str()
                           : "";
    std::optional<std::string> Closure;
    if (AsClosure) {
      Closure = closureClass(*R.Lambda, ClosureName, Qualifier, Name + Template->Arguments, Params, ThisMember,
                             Template->ClassHead + ClosureHead, OperatorHead);
      if (!Closure) return refuse("its parameters cannot be declared outside it");
    }

    // The call (or the closure object) left in place keeps the lines.
    const CharSourceRange Replaced =
        AsClosure ? fileRange(SM, R.Lambda->getSourceRange()) : bodyRange(R);
    const std::string ReplacedText = Lexer::getSourceText(Replaced, SM, Ctx.getLangOpts()).str();
    const std::string Lines(llvm::count(ReplacedText, '\n'), '\n');
    std::string Call;
    const LeavingActions Actions = leavingActions(R, Leaving);
    if (AsClosure) {
      std::vector<std::string> Initializers;
      if (!ThisMember.empty()) Initializers.push_back("this");
      for (const Parameter &P : Params)
        if (!P.Member.empty()) Initializers.push_back(P.Initializer);
      Call = fmt::format("{}{}{{{}}}{}", ClosureName, ClosureArguments,
                         fmt::join(Initializers, ", "), Lines);
    } else {
      // A handler that ends by throwing still visibly does (`throw;` is
      // never reached): a function returning a value would otherwise seem
      // to fall off its end (-Wreturn-type).
      const char *Rethrow = R.Handler && endsInThrow(R.body()) ? " throw;" : "";
      const bool Returns = R.Lambda || (R.Function && ReturnType != "void");
      if (Leaving.Exits.empty())
        Call = fmt::format("{{ {}{}{}({});{} }}{}", Returns ? "return " : "", Name, Template->Arguments, Args, Rethrow,
                           Lines);
      else
        Call = fmt::format("{{ {}{}{}{}({});{}{} }}{}",
                           Leaving.Returned.empty()
                               ? ""
                               : fmt::format("::std::optional<{}> {}; ", Leaving.Returned, Leaving.Slot),
                           Actions.Tested ? "const int __cilkpp_left = " : "", Name, Template->Arguments, Args,
                           Actions.Text, Rethrow, Lines);
    }

    const SourceLocation HostBegin = beginOf(Host);
    const SourceLocation BodyBegin = bodyRange(R).getBegin();
    const PredefinedNameMacros NameMacros = predefinedNameMacros(R.body(), NamedByBody);
    std::string Definition =
        fmt::format("\n{}{}", NameMacros.Define, lineDirective(SM.getPresumedLineNumber(BodyBegin), FileName));
    // The body on a line of its own at its original line and column, so a
    // diagnostic in it points where the user wrote it and quotes it.
    // (In a block of their own around the body, which may declare the same
    // names again.)
    if (!Usings.empty()) *BodyText = "{ " + Usings + *BodyText + " }";
    const std::string PlacedBody =
        fmt::format("\n{}{}{}", lineDirective(SM.getPresumedLineNumber(BodyBegin), FileName),
                    std::string(SM.getSpellingColumnNumber(BodyBegin) - 1, ' '), *BodyText);
    if (InClass) {
      Definition += fmt::format("private: {}{}{}{}\n", Template->Head, Instance ? "" : "static ", Signature, PlacedBody);
      // Public: a template instantiated with it names it from outside.
      if (Closure) Definition += "public: " + *Closure + "\n";
      Definition += fmt::format("{}:\n", accessName(Host->getAccess()));
    } else if (Method) {
      // Declared in the class, defined where the host is, qualified as the
      // host's own definition is.
      Main.InsertTextBefore(SM.getExpansionLoc(Method->getParent()->getBraceRange().getEnd()),
                            fmt::format(" private: {}{}{}; {}", Template->Head, Instance ? "" : "static ", Signature,
                                        AsClosure ? fmt::format("public: {}struct {}; ", ClosureHead, ClosureName)
                                                  : ""));
      // (The result type trails, so that it is looked up in the class, as
      // the lambda's was: `-> Elem` for a member alias.)
      Definition += fmt::format("{}{}auto {}{}({}){} -> {}{}\n", Template->ClassHead, Template->Head, Qualifier, Name,
                                ParamList, Qualifiers, ReturnType, PlacedBody);
      if (Closure) Definition += *Closure + "\n";
    } else {
      // The moved body may call the host (a recursive cilk_for body); the
      // prototype goes before the #line that places the body. (A function
      // with a deduced result cannot be called before its definition, a
      // function template's can: its calls are instantiated later.)
      const FunctionTemplateDecl *HostTemplate = Host->getDescribedFunctionTemplate();
      const bool Redeclared = HostTemplate ? HostTemplate->getPreviousDecl() != nullptr : Host->getPreviousDecl() != nullptr;
      // (Not a friend's, which would declare a member there.)
      if (!Redeclared && !isHiddenFriend(Host) &&
          (HostTemplate || !Host->getDeclaredReturnType()->getContainedDeducedType())) {
        const ResultSpelling Result = resultSpelling(Ctx, Host->getReturnType());
        Definition = fmt::format("\n{}{}{}{} {}({}){}{};{}", HostTemplate ? hostTemplateHead(HostTemplate) : "",
                                 storagePrefix(Host), Host->isConstexpr() ? "constexpr " : "", Result.Before,
                                 redeclarationName(Host), parameterList(Ctx, Host, /*WithDefaults=*/false),
                                 Host->getType()->castAs<FunctionProtoType>()->isNothrow() ? " noexcept" : "",
                                 Result.After, Definition);
      }
      Definition += fmt::format("{}static {}{}\n", Template->Head, Signature, PlacedBody);
      if (Closure) Definition += *Closure + "\n";
    }
    Definition += NameMacros.Undefine + lineDirective(SM.getPresumedLineNumber(HostBegin), FileName) +
                  std::string(SM.getSpellingColumnNumber(HostBegin) - 1, ' ');
    Main.InsertTextAfter(HostBegin, Definition);  // after earlier bodies of the same host
    Main.ReplaceText(Replaced, Call);
    markMovedDeclarations();
    return true;
  }

  // A handler that spawns moves into a function of its own; the ways out
  // of it besides its end (a return of its function, a break or continue of
  // a loop or switch around it) become results of that function, which the
  // handler left in place acts on: 1 for a return (the value in
  // `__cilkpp_returned_LINE_COLUMN`, named after the `catch`: a handler
  // inside may return through its own), 2 for a break, 3 for a continue.
  bool leavingHandler(const Region &R, const std::vector<Region> &Regions, LeavingHandler &Leaving) {
    Leaving.Exits.TraverseStmt(const_cast<Stmt *>(R.body()));
    if (Leaving.Exits.Jump)
      return refuse(isa<CoreturnStmt>(Leaving.Exits.Jump) ? "a 'co_return' leaves it" : "a 'goto' leaves it");
    const bool ReturnsValue = llvm::any_of(Leaving.Exits.Returns, [](const ReturnStmt *Ret) {
      return Ret->getRetValue() && !Ret->getRetValue()->getType()->isVoidType();
    });
    if (!ReturnsValue) return true;
    const Region *Around = innermost(Regions, R.Begin, /*FunctionsAndLambdasOnly=*/true);
    if (!Around) return refuse("it is not inside a function body");
    const QualType Result =
        Around->Lambda ? Around->Lambda->getCallOperator()->getReturnType() : Around->Function->getReturnType();
    if (Result->getContainedDeducedType()) return refuse("it returns from a function whose result type is deduced");
    if (Result->isReferenceType()) return refuse("it returns a reference from its function");
    if (!isNameableOutsideFunction(Result)) return refuse("its function's result type cannot be named outside it");
    Leaving.Returned = typeQualified(Ctx, Result);
    const SourceLocation Catch = SM.getExpansionLoc(R.Handler->getCatchLoc());
    Leaving.Slot = fmt::format("__cilkpp_returned_{}_{}", SM.getPresumedLineNumber(Catch),
                               SM.getPresumedColumnNumber(Catch));
    return true;
  }

  // The moved body's exits return their numbers (a return's value is
  // emplaced first), and its end 0.
  bool leaveThroughResult(const Region &R, const LeavingHandler &Leaving, std::vector<TextEdit> &Edits) {
    if (Leaving.Exits.empty()) return true;
    auto Token = [&](SourceLocation Loc, std::string Text) {
      Edits.push_back({SM.getFileOffset(Loc), Lexer::MeasureTokenLength(Loc, SM, Ctx.getLangOpts()), std::move(Text)});
    };
    for (const Stmt *B : Leaving.Exits.Breaks) {
      if (B->getBeginLoc().isMacroID()) return refuse("a 'break' in it is written by a macro");
      Token(B->getBeginLoc(), "return 2");
    }
    for (const Stmt *C : Leaving.Exits.Continues) {
      if (C->getBeginLoc().isMacroID()) return refuse("a 'continue' in it is written by a macro");
      Token(C->getBeginLoc(), "return 3");
    }
    for (const ReturnStmt *Ret : Leaving.Exits.Returns) {
      const SourceLocation Semi = semicolonAfter(Ctx, Ret->getEndLoc());
      if (Ret->getBeginLoc().isMacroID() || Ret->getEndLoc().isMacroID() || Semi.isInvalid())
        return refuse("a 'return' in it is written by a macro");
      const Expr *Value = Ret->getRetValue();
      if (Value && !Value->getType()->isVoidType()) {
        const bool Braced = *SM.getCharacterData(SM.getExpansionLoc(Value->getBeginLoc())) == '{';
        Token(Ret->getReturnLoc(),
              fmt::format("{{ {}.emplace({}", Leaving.Slot, Braced ? Leaving.Returned : ""));
        Token(Semi, "); return 1; }");
      } else {
        Token(Ret->getReturnLoc(), "{");
        Token(Semi, "; return 1; }");
      }
    }
    Edits.push_back({SM.getFileOffset(cast<CompoundStmt>(R.body())->getRBracLoc()), 0, "return 0; "});
    return true;
  }

  // What the handler left in place does with the moved body's result: each
  // way out it takes, the one its last statement takes last and
  // unconditionally (so that the handler visibly ends there too). Tested:
  // whether an action depends on the result.
  struct LeavingActions {
    std::string Text;
    bool Tested = false;
  };
  static LeavingActions leavingActions(const Region &R, const LeavingHandler &Leaving) {
    if (!R.Handler || Leaving.Exits.empty()) return {};
    const auto *Block = cast<CompoundStmt>(R.body());
    const Stmt *Last = Block->body_empty() ? nullptr : Block->body_back();
    struct Way {
      bool Taken;
      int Number;
      std::string Action;
      bool Final;
    };
    const std::string Return =
        Leaving.Returned.empty() ? "return;" : fmt::format("return *::std::move({});", Leaving.Slot);
    const Way Ways[] = {{!Leaving.Exits.Breaks.empty(), 2, "break;", isa_and_nonnull<BreakStmt>(Last)},
                        {!Leaving.Exits.Continues.empty(), 3, "continue;", isa_and_nonnull<ContinueStmt>(Last)},
                        {!Leaving.Exits.Returns.empty(), 1, Return, isa_and_nonnull<ReturnStmt>(Last)}};
    std::string Out, Final;
    for (const Way &W : Ways) {
      if (!W.Taken) continue;
      if (W.Final) Final = " " + W.Action;
      else Out += fmt::format(" if (__cilkpp_left == {}) {}", W.Number, W.Action);
    }
    return {Out + Final, !Out.empty()};
  }

  // The moved body receives the variables it uses from around it by
  // reference, so `decltype(v)` there would name a reference type: each
  // becomes the variable's declared type, spelled.
  std::vector<TextEdit> declaredTypesOfOuterVariables(const Region &R, const OuterUses &Uses) {
    struct Finder : RecursiveASTVisitor<Finder> {
      bool VisitDecltypeTypeLoc(DecltypeTypeLoc TL) {
        if (const auto *E = dyn_cast<DeclRefExpr>(TL.getUnderlyingExpr())) Found.push_back({TL, E->getDecl()});
        return true;
      }
      std::vector<std::pair<DecltypeTypeLoc, const ValueDecl *>> Found;
    } Finder;
    Finder.TraverseStmt(const_cast<Stmt *>(R.body()));
    std::vector<TextEdit> Edits;
    for (const auto &[TL, D] : Finder.Found) {
      if (!Uses.Vars.count(D) || D->getType()->isReferenceType()) continue;
      // (A lambda's own parameter is declared as it was: `auto x` as
      // `__cilkpp_auto_1 x`, whose type has no other spelling.)
      if (R.Lambda && D->getDeclContext() == R.Lambda->getCallOperator()) continue;
      if (TL.getBeginLoc().isMacroID() || TL.getEndLoc().isMacroID()) continue;
      const unsigned Begin = SM.getFileOffset(TL.getBeginLoc());
      const unsigned End = SM.getFileOffset(Lexer::getLocForEndOfToken(TL.getEndLoc(), 0, SM, Ctx.getLangOpts()));
      const auto Deduced = DeducedTypes.find(D);
      std::string Type = Deduced != DeducedTypes.end() ? Deduced->second : typeQualified(Ctx, D->getType());
      // (`int[4] &a` is no declaration: the moved body's reference parameter
      // gives the type through decltype instead.)
      if (Deduced == DeducedTypes.end() && declaratorWrapsName(Ctx, D->getType())) {
        Type = fmt::format("::std::remove_reference_t<decltype({})>", D->getName());
        includeHeader("type_traits");
      }
      Edits.push_back({Begin, End - Begin, Type});
    }
    return Edits;
  }

  // Why the last outline() returned false: a clause that completes "this
  // lambda runs serially: ...".
  const std::string &whyNot() const { return WhyNot; }

 private:
  bool refuse(std::string Reason) {
    WhyNot = std::move(Reason);
    return false;
  }

  // "template <class T> " as the host template declares its parameters.
  std::string hostTemplateHead(const FunctionTemplateDecl *Template) const {
    const CharSourceRange Range = fileRange(SM, Template->getTemplateParameters()->getSourceRange());
    return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str() + " ";
  }

  // The function whose body holds the region, looking through lambdas.
  const FunctionDecl *hostFunction(const Region &R, const std::vector<Region> &Regions) const {
    const DeclContext *DC = nullptr;
    if (R.Lambda) {
      DC = R.Lambda->getLambdaClass()->getDeclContext();
    } else {
      const Region *Around = innermost(Regions, R.Begin, /*FunctionsAndLambdasOnly=*/true);
      if (!Around) return nullptr;
      DC = Around->Function ? static_cast<const DeclContext *>(Around->Function) : Around->Lambda->getCallOperator();
    }
    for (; DC; DC = DC->getParent()) {
      if (const auto *RD = dyn_cast<CXXRecordDecl>(DC); RD && RD->isLambda()) continue;
      if (const auto *M = dyn_cast<CXXMethodDecl>(DC); M && M->getParent()->isLambda()) continue;
      return dyn_cast<FunctionDecl>(DC);
    }
    return nullptr;
  }

  bool hostAllowsOutlining(const FunctionDecl *Host, const Region &R) {
    // (A free function's explicit specialization is declared by its
    // template: the outlined function may call it.)
    if (Host->getTemplateSpecializationKind() != TSK_Undeclared &&
        (isa<CXXMethodDecl>(Host) || Host->getTemplateSpecializationKind() != TSK_ExplicitSpecialization))
      return refuse("its function is a specialization of a member of a template");
    if (!SM.isWrittenInMainFile(SM.getExpansionLoc(Host->getBeginLoc())))
      return refuse("its function is written by a macro");
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Host)) {
      const CXXRecordDecl *Class = Method->getParent();
      if (Class->isLocalClass()) return refuse("its function is a member of a local class");
      if (Class->isLambda() || isa<ClassTemplateSpecializationDecl>(Class))
        return refuse("its function is a member of a class template specialization");
      const SourceLocation RBrace = Class->getBraceRange().getEnd();
      if (RBrace.isValid() && !SM.isWrittenInMainFile(SM.getExpansionLoc(RBrace)))
        return refuse("its function's class is defined in another file");
      if (RBrace.isInvalid() || RBrace.isMacroID() || !SM.isWrittenInMainFile(RBrace))
        return refuse("the end of its function's class is written by a macro");
      if (Host->isOutOfLine() && !Host->getQualifierLoc())
        return refuse("its function is defined outside its class without naming it");
    } else if (isa<LinkageSpecDecl>(Host->getLexicalDeclContext())) {
      // (The host's prototype and the outlined function would differ in
      // linkage.)
      return refuse("its function is inside an 'extern \"C\"' block");
    } else if (isHiddenFriend(Host)) {
      // (Its own body moves into a static member of the class; what the
      // body holds moves in the next round, out of that member.)
      const auto *Class = cast<CXXRecordDecl>(Host->getLexicalDeclContext());
      if (R.Function != Host) return refuse("its function is a friend defined in a class");
      if (Class->isLocalClass()) return refuse("its function is a friend defined in a local class");
    } else if (!Host->getLexicalDeclContext()->getRedeclContext()->isFileContext()) {
      return refuse("its function is a friend defined in a class");
    }
    // Names brought into the host's body by using-declarations (`using
    // namespace std;`) before the region, in a block around it, are
    // brought into the moved body too; any other is left out of it.
    ScopedNames Names;
    Names.TraverseStmt(Host->getBody());
    Usings.clear();
    const CharSourceRange Region = bodyRange(R);
    for (const Decl *D : Names.Found) {
      if (R.contains(SM.getFileOffset(SM.getExpansionLoc(D->getLocation())))) continue;
      if (D->getBeginLoc().isMacroID() || D->getEndLoc().isMacroID())
        return refuse("a using-declaration before it in its function is written by a macro");
      if (!SM.isBeforeInTranslationUnit(D->getEndLoc(), Region.getBegin())) continue;
      auto Statements = Ctx.getParents(*D);
      const auto *Declaration = Statements.empty() ? nullptr : Statements[0].get<DeclStmt>();
      auto Blocks = Declaration ? Ctx.getParents(*Declaration) : DynTypedNodeList(DynTypedNode());
      const auto *Block = Blocks.empty() ? nullptr : Blocks[0].get<CompoundStmt>();
      if (!Block) return refuse("a using-declaration before it in its function is not in a block");
      if (SM.isBeforeInTranslationUnit(Block->getRBracLoc(), Region.getEnd())) continue;
      Usings += Lexer::getSourceText(fileRange(SM, D->getSourceRange()), SM, Ctx.getLangOpts()).str() + "; ";
    }
    return true;
  }
  // The using-declarations and aliases the moved body needs
  // (hostAllowsOutlining, redeclareAlias).
  std::string Usings;

  // Declares a local alias again in Usings, as the type it names spelled
  // out (its own text may name the function's variables, `decltype(v)`,
  // which the moved body receives by reference).
  bool redeclareAlias(const TypedefNameDecl &Alias) {
    auto Parents = Ctx.getParents(Alias);
    const auto *Declaration = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    if (!Declaration || Declaration->getBeginLoc().isMacroID() || Declaration->getEndLoc().isMacroID())
      return refuse(fmt::format("it uses '{}', a type declared in its function by a macro", Alias.getName()));
    // The translation spells the types it writes without the alias, which
    // may leave it unused (-Wunused-local-typedefs), here and where the
    // user declared it.
    Usings += fmt::format("using {} [[maybe_unused]] = {}; ", Alias.getName(),
                          typeQualified(Ctx, Alias.getUnderlyingType()));
    if (!Marked.contains(&Alias)) AliasesToMark.push_back(&Alias);
    return true;
  }
  // A local constant the body uses, with a value known here (a constexpr
  // bound, `const int n = 8;`), is declared again at the top of the moved
  // body with that value: passed in, it would be no constant (`std::array<
  // long, n>`), and a lambda that names it without capturing it has nothing
  // to pass. False: it is not such a constant.
  bool redeclareConstant(const ValueDecl *D) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || V->getType()->isReferenceType()) return false;
    std::optional<std::string> Declaration = constantRedeclaration(Ctx, *V);
    if (!Declaration) return false;
    Usings += *Declaration + " ";
    if (!V->hasAttr<UnusedAttr>() && !Marked.contains(V)) ConstantsToMark.push_back(V);
    return true;
  }

  // Local aliases and constants the moved body declares again, whose
  // declarations in the function are marked [[maybe_unused]] once it has
  // moved: the function may no longer use them.
  std::vector<const TypedefNameDecl *> AliasesToMark;
  std::vector<const VarDecl *> ConstantsToMark;
  llvm::DenseSet<const Decl *> Marked;
  void markMovedDeclarations() {
    for (const TypedefNameDecl *Alias : AliasesToMark) {
      if (!Marked.insert(Alias).second) continue;
      const auto *Declaration = Ctx.getParents(*Alias)[0].get<DeclStmt>();
      const auto [At, Text] = unusedAliasMark(Ctx, *Alias, *Declaration);
      Main.InsertTextBefore(At, Text);
    }
    for (const VarDecl *Constant : ConstantsToMark) {
      if (!Marked.insert(Constant).second) continue;
      auto Parents = Ctx.getParents(*Constant);
      const auto *Declaration = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
      // (`constexpr int a = 1, b = 2;`: one mark covers both.)
      if (!Declaration || Declaration->getBeginLoc().isMacroID() ||
          llvm::any_of(Declaration->decls(), [&](const Decl *Other) { return Other != Constant && Marked.contains(Other); }))
        continue;
      Main.InsertTextBefore(Declaration->getBeginLoc(), "[[maybe_unused]] ");
    }
  }

  // Captures first (by reference), then the lambda's own parameters.
  bool lambdaParameters(const LambdaExpr &L, const OuterUses &Uses, std::vector<Parameter> &Params,
                        bool &CapturesThis) {
    const CXXMethodDecl *Op = L.getCallOperator();
    llvm::DenseSet<const ValueDecl *> Captured;
    auto AddCapture = [&](const ValueDecl *D, bool ByCopy) {
      Captured.insert(D);
      const QualType Stored = spelledWithoutVariables(D->getType().getNonReferenceType());
      QualType T = Stored;
      if (ByCopy && Op->isConst()) T.addConst();
      // An init-capture (`[x = k]`) is made where the lambda is, from its
      // initializer: a named closure's member is made from it too.
      const auto *InitCapture = dyn_cast<VarDecl>(D);
      if (InitCapture && (!InitCapture->isInitCapture() || !InitCapture->getInit())) InitCapture = nullptr;
      const std::string Source =
          InitCapture
              ? Lexer::getSourceText(fileRange(SM, InitCapture->getInit()->getSourceRange()), SM, Ctx.getLangOpts()).str()
              : D->getName().str();
      if (deducedPerInstantiation(Stored)) {
        // (`[x = {1, 2}]` is an initializer_list, which decltype of the
        // braces cannot say.)
        if (InitCapture && isa<InitListExpr>(InitCapture->getInit()->IgnoreImplicit()))
          return refuse(fmt::format("its capture '{}' is initialized by a braced list and has a type that depends "
                                    "on a template parameter",
                                    D->getName()));
        if (declaredDecltypeAuto(D))
          return refuse(fmt::format("it captures '{}', declared 'decltype(auto)' in a template", D->getName()));
        if (!nameableInInstantiations(D))
          return refuse(fmt::format("the type of '{}', which it captures, cannot be named outside its function",
                                    D->getName()));
        const std::string Type = deducedTypeOf(D), Name = D->getName().str();
        Parameter P{fmt::format("{}{}{} &{}", Uses.Vars.count(D) ? "" : "[[maybe_unused]] ",
                                T.isConstQualified() ? "const " : "", Type, Name),
                    Name, Name};
        // A named closure class is a template over it too, and its
        // construction names it (a copy is never const: see below).
        P.Member = fmt::format("{} {}{};", Type, ByCopy ? "" : "*", Name);
        P.Initializer = ByCopy ? Source : fmt::format("__builtin_addressof({})", Source);
        P.Forwarded = fmt::format("{}{}", ByCopy ? "" : "*", Name);
        // (An init-capture's type is what `auto x = init;` or `auto &x =
        // init;` deduces.)
        if (InitCapture)
          ClosureTypeArguments.push_back(fmt::format("::std::{}<decltype(({}))>",
                                                     ByCopy ? "decay_t" : "remove_reference_t", Source));
        else {
          const std::string Declared = fmt::format("::std::remove_reference_t<decltype({})>", Name);
          ClosureTypeArguments.push_back(ByCopy ? fmt::format("::std::remove_cv_t<{}>", Declared) : Declared);
        }
        Params.push_back(std::move(P));
        return true;
      }
      if (!isNameableOutsideFunction(T))
        return refuse(fmt::format("the type of '{}', which it captures, cannot be named outside its function",
                                  D->getName()));
      if (!spellsHiddenType(D, Stored, fmt::format("'{}', which it captures,", D->getName()))) return false;
      // (A capture the body does not use is the lambda's business, not an
      // unused parameter.)
      Parameter P{std::string(Uses.Vars.count(D) ? "" : "[[maybe_unused]] ") +
                      declareQualified(Ctx, Ctx.getLValueReferenceType(T), D->getName()),
                  D->getName().str(), D->getName().str()};
      // As a named closure's member: a copy, or a pointer for a reference.
      // Not const even for a const variable: frames assign and
      // default-construct the closure (operator() is const unless mutable).
      P.Member = declareQualified(Ctx, ByCopy ? Stored.getUnqualifiedType() : Ctx.getPointerType(Stored), D->getName()) + ";";
      P.Initializer = ByCopy ? Source : fmt::format("__builtin_addressof({})", Source);
      P.Forwarded = fmt::format("{}{}", ByCopy ? "" : "*", D->getName());
      Params.push_back(std::move(P));
      return true;
    };
    for (const LambdaCapture &C : L.captures()) {
      if (C.capturesThis()) {
        // (`[*this]` too: the moved body is a member called on the copy.)
        CapturesThis = true;
        continue;
      }
      if (!C.capturesVariable()) return refuse("it captures the size of a variable-length array");
      if (!AddCapture(C.getCapturedVar(), C.getCaptureKind() == LCK_ByCopy)) return false;
    }
    // Everything else the body names from around it is captured by the
    // default: in a template Clang leaves implicit captures of variables
    // whose use is type-dependent to each instantiation.
    for (const auto &[D, Type] : Uses.Vars) {
      if (Captured.contains(D) || llvm::is_contained(Op->parameters(), D)) continue;
      if (redeclareConstant(D)) continue;
      if (L.getCaptureDefault() == LCD_None || !L.getCallOperator()->isDependentContext())
        return refuse(fmt::format("it uses '{}' of its function without capturing it", D->getName()));
      if (!AddCapture(D, L.getCaptureDefault() == LCD_ByCopy)) return false;
    }
    for (const ParmVarDecl *P : Op->parameters()) {
      const QualType T = spelledWithoutVariables(P->getType());
      if (namesVariable(T))
        return refuse(fmt::format("the type of its parameter '{}' names a variable", P->getName()));
      if (P->getName().empty()) continue;  // unused by the body
      if (T->isDependentType()) {
        std::optional<std::string> Declaration =
            L.isGenericLambda() ? genericParameterDeclaration(Ctx, P) : declareQualified(Ctx, T, P->getName());
        if (!Declaration)
          return refuse(fmt::format("its parameter '{}' cannot be declared outside it", P->getName()));
        Parameter Param{*Declaration, forwardDependent(P->getName()), P->getName().str()};
        Param.Forwarded = Param.Argument;
        Params.push_back(std::move(Param));
        continue;
      }
      if (!isNameableOutsideFunction(T))
        return refuse(fmt::format("the type of its parameter '{}' cannot be named outside its function", P->getName()));
      std::string Argument = P->getName().str();
      // The parameter is the lambda's own; it moves on, as a forwarding
      // call would.
      if (T->isRValueReferenceType() || (!T->isReferenceType() && !T.isTriviallyCopyableType(Ctx)))
        Argument = fmt::format("static_cast<{} &&>({})", typeQualified(Ctx, T.getNonReferenceType()), P->getName());
      Parameter Param{declareQualified(Ctx, T, P->getName()), Argument, P->getName().str()};
      Param.Forwarded = Argument;
      Params.push_back(std::move(Param));
    }
    return true;
  }

  // A private member type of a variable of the function, which the moved
  // body declares, is spelled through the call that made the variable
  // (typeQualified), if one did. Subject: how the message names the
  // variable ("'it', which it captures,").
  bool spellsHiddenType(const ValueDecl *D, QualType T, StringRef Subject) {
    const auto *V = dyn_cast<VarDecl>(D);
    const auto *Function = V ? dyn_cast<FunctionDecl>(V->getDeclContext()) : nullptr;
    if (!Function || !hiddenMemberType(T, Function)) return true;
    const std::vector<HiddenTypeSource> Sources = hiddenTypeSources(Function);
    if (llvm::none_of(Sources, [&](const HiddenTypeSource &S) { return Ctx.hasSameUnqualifiedType(S.Type, T); }))
      return refuse(fmt::format("the type of {} is a private or protected member type that no public call in "
                                "its function names",
                                Subject));
    for (const HiddenTypeSource &S : Sources) nameHiddenType(Ctx, S);
    return true;
  }

  // A named closure holds copies and pointers it can initialise from the
  // capture list; an array copy cannot be.
  bool closureAllowed(const LambdaExpr &L) {
    // (Its copy of the object would be a member of a class nested in the
    // object's class, which is incomplete there.)
    if (copyOfThisCapture(L))
      return refuse("it captures '*this' by copy and is kept where it must become a named class (in a variable that "
                    "lives across a spawn, or passed to a template that spawns)");
    for (const LambdaCapture &C : L.captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByCopy && C.getCapturedVar()->getType()->isArrayType())
        return refuse(fmt::format("it captures the array '{}' by copy and is kept where it must become a named "
                                  "class (in a variable that lives across a spawn, or passed to a template that "
                                  "spawns)",
                                  C.getCapturedVar()->getName()));
    return true;
  }

  // The class that replaces a lambda stored in a local or passed to a
  // template: the captures as members (in the capture list's order, which
  // the initializer follows), and an operator() that calls the moved body.
  // Unlike the closure type it has a name, so a frame or an explicit
  // specialization can name it. In a function template it is a class
  // template (ClassHead); a generic lambda's operator() is a template
  // (OperatorHead). Where the result type is deduced per instantiation,
  // operator() returns exactly what the moved body does.
  // A type written with a variable of the function (`Vec<D>` for a local
  // `constexpr int D`, `decltype(x)`) means the same without the sugar,
  // where it does not depend on template parameters.
  static QualType spelledWithoutVariables(QualType T) {
    return namesVariable(T) && !T->isDependentType() ? T.getCanonicalType() : T;
  }

  std::optional<std::string> closureClass(const LambdaExpr &L, StringRef ClassName, StringRef Qualifier,
                                          StringRef Function, const std::vector<Parameter> &Params,
                                          StringRef ThisMember, StringRef ClassHead, StringRef OperatorHead) const {
    const CXXMethodDecl *Op = L.getCallOperator();
    std::string Members;
    std::vector<std::string> OperatorParams, Forwarded;
    for (const Parameter &P : Params) {
      if (!P.Member.empty()) Members += " " + P.Member;
      Forwarded.push_back(P.Forwarded);
    }
    for (const ParmVarDecl *P : Op->parameters()) {
      std::optional<std::string> Declaration =
          L.isGenericLambda() ? genericParameterDeclaration(Ctx, P)
                              : declareQualified(Ctx, spelledWithoutVariables(P->getType()), P->getName());
      if (!Declaration) return std::nullopt;
      // (Callers may leave out what has a default.)
      if (P->hasDefaultArg() && !P->hasUninstantiatedDefaultArg())
        *Declaration += " = " + Lexer::getSourceText(fileRange(SM, P->getDefaultArgRange()), SM, Ctx.getLangOpts()).str();
      OperatorParams.push_back(*Declaration);
    }
    std::string Callee = Function.str();
    if (!ThisMember.empty()) {
      Members = fmt::format(" {};{}", ThisMember, Members);
      Callee = "__cilkpp_this->" + Callee;
    }
    const QualType Declared = Op->getReturnType();
    // A result written out and the same for every call (`[](auto self, int
    // k) -> long`) is spelled: a call operator template with a deduced
    // result could not be a forwarder (Sema/Forwarders.h).
    // (A type naming its function template's parameters reads the same in
    // the class template, which has them; an `auto` parameter's type has no
    // name there.)
    const bool Spelled = L.isGenericLambda() ? !Declared->getContainedDeducedType() && !namesInventedParameter(Declared)
                                             : !Declared->isUndeducedType() && !Declared->isDependentType();
    const std::string Result = Spelled ? typeQualified(Ctx, Declared) : "decltype(auto)";
    return fmt::format("{}struct {}{} {{{} {}{} operator()({}){}{} {{ return {}({}); }} }};", ClassHead, Qualifier,
                       ClassName, Members, OperatorHead, Result, fmt::join(OperatorParams, ", "), Op->isConst() ? " const" : "",
                       Op->getType()->castAs<FunctionProtoType>()->isNothrow() ? " noexcept" : "", Callee,
                       fmt::join(Forwarded, ", "));
  }

  // What a loop or handler body uses from around it, by reference (a
  // handler's exception variable among them), except Skip.
  bool referenceParameters(const OuterUses &Uses, std::vector<Parameter> &Params, const ValueDecl *Skip = nullptr) {
    for (const auto &[D, Type] : Uses.Vars) {
      if (D == Skip || redeclareConstant(D)) continue;
      const bool Deduced = deducedPerInstantiation(Type);
      if (Deduced && declaredDecltypeAuto(D))
        return refuse(fmt::format("it uses '{}', declared 'decltype(auto)' in a template", D->getName()));
      if (Deduced ? !nameableInInstantiations(D) : !isNameableOutsideFunction(Type))
        return refuse(fmt::format("the type of '{}', which it uses, cannot be named outside its function", D->getName()));
      if (Deduced) {
        Params.push_back({deducedTypeOf(D) + " &" + D->getName().str(), D->getName().str(), D->getName().str()});
        continue;
      }
      Params.push_back({declareQualified(Ctx, Ctx.getLValueReferenceType(spelledWithoutVariables(Type)), D->getName()),
                        D->getName().str(), D->getName().str()});
    }
    return true;
  }

  // The variables the body uses, by reference; the loop variable by value.
  bool loopParameters(const ParallelLoop &L, const OuterUses &Uses, std::vector<Parameter> &Params) {
    if (!referenceParameters(Uses, Params, L.Var)) return false;
    const std::string Name = L.Var->getName().str();
    // (The iterator a range-based cilk_for loops over once rewritten:
    // StatementLowering names it.)
    const bool RangeIterator = StringRef(Name).starts_with("__cilkpp_begin_");
    const bool Deduced = deducedPerInstantiation(L.Var->getType());
    if (Deduced ? !nameableInInstantiations(L.Var) : !isNameableOutsideFunction(L.Var->getType()))
      return refuse(RangeIterator ? "the type of its range's iterator cannot be named outside its function"
                                  : fmt::format("the type of its loop variable '{}' cannot be named outside its "
                                                "function",
                                                Name));
    // (A body need not use it: `cilk_for (int i = 0; i < n; ++i) spawn work();`.)
    const std::string Unused = Uses.Vars.count(L.Var) ? "" : "[[maybe_unused]] ";
    if (Deduced) {
      Params.push_back({Unused + deducedTypeOf(L.Var) + " " + Name, Name, Name});
      return true;
    }
    // (An iterator of a view, `std::ranges::iota_view<long, long>::_Iterator`.)
    if (!spellsHiddenType(L.Var, L.Var->getType(),
                          RangeIterator ? "its range's iterator" : fmt::format("'{}', its loop variable,", L.Var->getName())))
      return false;
    Params.push_back({Unused + declareQualified(Ctx, spelledWithoutVariables(L.Var->getType()), Name), Name, Name});
    return true;
  }

  // A variable declared `auto` in a template has no type to write until an
  // instantiation deduces it, nor one whose type names another variable
  // (`std::vector<decltype(it)>`); the moved body (a template then) deduces
  // it from the call's argument instead, as a parameter of its own:
  // `__cilkpp_type_of_n &n`.
  static bool deducedPerInstantiation(QualType T) {
    return T->isUndeducedType() ||
           (T->isDependentType() && (T->getContainedDeducedType() || namesVariable(T) ||
                                     // (A structured binding's, or a generic lambda's `auto` parameter.)
                                     T->isSpecificBuiltinType(BuiltinType::Dependent) || namesInventedParameter(T)));
  }
  static bool namesInventedParameter(QualType T) {
    struct Finder : RecursiveASTVisitor<Finder> {
      bool VisitTemplateTypeParmType(TemplateTypeParmType *P) {
        Found = Found || (P->getDecl() && P->getDecl()->isImplicit());
        return !Found;
      }
      bool Found = false;
    } F;
    F.TraverseType(T);
    return F.Found;
  }
  // A `decltype(auto)` variable may be a reference in one instantiation and
  // not in another: `decltype(d)` in the moved body could not say which.
  static bool declaredDecltypeAuto(const ValueDecl *D) {
    const auto *Auto = D->getType()->getContainedAutoType();
    return Auto && Auto->isDecltypeAuto() && D->getType()->isDependentType();
  }
  // Whether D's counterpart in each instantiation of the host has a type
  // that the moved body's instantiations can name (not a lambda's).
  bool nameableInInstantiations(const ValueDecl *D) const {
    struct Counterpart : RecursiveASTVisitor<Counterpart> {
      SourceLocation At;
      const ValueDecl *Found = nullptr;
      bool VisitValueDecl(ValueDecl *V) {
        if (V->getLocation() == At) Found = V;
        return !Found;
      }
    };
    for (const FunctionDecl *Instance : instantiationsOf(CurrentHost)) {
      Counterpart Finder;
      Finder.At = D->getLocation();
      Finder.TraverseStmt(Instance->getBody());
      // (A view's private iterator type, in an instantiation's range-based
      // cilk_for: the moved body would be instantiated with it.)
      if (Finder.Found && (!isNameableOutsideFunction(Finder.Found->getType().getNonReferenceType()) ||
                           hiddenMemberType(Finder.Found->getType(), Instance)))
        return false;
    }
    return true;
  }
  const FunctionDecl *CurrentHost = nullptr;

  std::string deducedTypeOf(const ValueDecl *D) {
    return DeducedTypes.insert({D, "__cilkpp_type_of_" + D->getName().str()}).first->second;
  }
  llvm::MapVector<const ValueDecl *, std::string> DeducedTypes;
  // What a named closure's construction passes for each of DeducedTypes.
  std::vector<std::string> ClosureTypeArguments;

  // The text that moves: a lambda's body, or a loop's with its `continue`s
  // (of this loop) made `return`s.
  // The body's text with Edits (at file offsets) made, a cilk_for body's
  // `continue`s returning, and the predefined names (`__func__`) written in
  // it naming what they named in place: Named for the body's own.
  std::optional<std::string> movedBody(const Region &R, const Decl *Named, std::vector<TextEdit> Edits) const {
    const CharSourceRange Range = bodyRange(R);
    std::string Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
    if (R.Loop)
      for (const ContinueStmt *C : R.Loop->Continues) {
        if (C->getContinueLoc().isMacroID()) return std::nullopt;
        Edits.push_back({SM.getFileOffset(C->getContinueLoc()), std::strlen("continue"), "return"});
      }
    PredefinedNames Names(SM, Named);
    Names.TraverseStmt(const_cast<Stmt *>(R.body()));
    llvm::append_range(Edits, Names.Edits);
    const unsigned Begin = SM.getFileOffset(Range.getBegin());
    llvm::sort(Edits, [](const TextEdit &A, const TextEdit &B) { return A.Offset > B.Offset; });
    for (const TextEdit &E : Edits) Text.replace(E.Offset - Begin, E.Length, E.Text);
    if (R.Loop && !isa<CompoundStmt>(R.Loop->Loop->getBody())) Text = "{ " + Text + " }";
    return Text;
  }

  CharSourceRange bodyRange(const Region &R) const {
    if (R.Loop) return loopBodyRange(Ctx, *R.Loop);
    return fileRange(SM, R.body()->getSourceRange());
  }

  // A variable declared at the top of the moved body with a parameter's
  // name would redeclare the parameter: that name.
  std::optional<std::string> clash(const Region &R, const std::vector<Parameter> &Params) const {
    const auto *Block = dyn_cast<CompoundStmt>(R.body());
    if (!Block) return std::nullopt;
    llvm::StringSet<> Names;
    for (const Parameter &P : Params) Names.insert(P.Name);
    for (const Stmt *S : Block->body())
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *ND = dyn_cast<NamedDecl>(D); ND && Names.contains(ND->getName())) return ND->getName().str();
    return std::nullopt;
  }

  // Where the outlined definition goes: before the host's first token
  // (`template` of a template), including its attributes (the `cilk`
  // specifier).
  SourceLocation beginOf(const FunctionDecl *Host) const {
    SourceLocation Begin = SM.getExpansionLoc(Host->getOuterLocStart());
    // (A friend's declaration starts at `friend`, before its specifiers.)
    if (const FriendDecl *Friend = friendDeclarationOf(Host)) Begin = SM.getExpansionLoc(Friend->getFriendLoc());
    // (A member template of a class template defined outside the class
    // starts with the class's head, `template <class T> template <class F>`.)
    if (const FunctionTemplateDecl *Template = Host->getDescribedFunctionTemplate(); Template && !Host->getNumTemplateParameterLists())
      Begin = SM.getExpansionLoc(Template->getTemplateParameters()->getTemplateLoc());
    for (const Attr *A : Host->attrs()) {
      if (A->isInherited() || A->isImplicit() || A->getRange().isInvalid()) continue;
      const SourceLocation At = SM.getExpansionLoc(A->getRange().getBegin());
      if (SM.isWrittenInMainFile(At) && SM.isBeforeInTranslationUnit(At, Begin)) Begin = At;
    }
    return Begin;
  }

  // `__cilkpp_lambda_12_<file's hash>`, or with Prefix given
  // `<Prefix>12_<file's hash>`: another file's lambda of line 12 gets a name
  // of its own, for the linker and in a unity build.
  std::string uniqueName(const Region &R, StringRef Prefix = "") {
    const SourceLocation At = R.Lambda     ? R.Lambda->getBeginLoc()
                              : R.Loop     ? R.Loop->KeywordLoc
                              : R.Function ? R.Function->getLocation()
                                           : R.Handler->getCatchLoc();
    const char *Kind = R.Lambda                                         ? "lambda"
                       : R.Loop                                         ? "loop_body"
                       : isa_and_nonnull<CXXConstructorDecl>(R.Function) ? "constructor_body"
                       : isa_and_nonnull<CXXDestructorDecl>(R.Function)  ? "destructor_body"
                       : isa_and_nonnull<CXXConversionDecl>(R.Function)  ? "conversion_body"
                       : R.Function                                     ? "friend_body"
                                                                        : "handler";
    const std::string Start = Prefix.empty() ? fmt::format("__cilkpp_{}_", Kind) : Prefix.str();
    return Names.takeForThisFile(Start + std::to_string(SM.getPresumedLineNumber(SM.getExpansionLoc(At))));
  }


  static const char *accessName(AccessSpecifier A) {
    switch (A) {
      case AS_private: return "private";
      case AS_protected: return "protected";
      default: return "public";
    }
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  Rewriter &Main;
  StringRef FileName;
  FreshNames Names;
  // A standard header declares what the moved text now names; the #line
  // keeps the file's own line numbers.
  void includeHeader(StringRef Header) {
    if (!IncludedHeaders.insert(Header).second) return;
    const SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
    Main.InsertTextBefore(Start, fmt::format("#include <{}>\n{}", Header, lineDirective(1, FileName)));
  }
  llvm::StringSet<> IncludedHeaders;
  std::string WhyNot;
};

// Lambdas held in locals (`auto f = [&] { ... };`), with the local.
// Also lambdas whose types are template arguments of a local's type
// (`auto w = wrap([](long x) { ... });` holding a W<lambda>).
class StoredLambdas : public RecursiveASTVisitor<StoredLambdas> {
 public:
  // A template's locals have their types in its instantiations
  // (`decltype(auto) r = (v | views::filter([](T x) {...}));`).
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitLambdaExpr(LambdaExpr *L) {
    Written[L->getLambdaClass()] = L;
    // The template's lambda, where it is written, not an instantiation's (a
    // member of a class template defined outside the class is visited after
    // the class's instantiations).
    auto [It, New] = AsWritten.try_emplace(L->getBeginLoc().getRawEncoding(), L);
    // (A generic lambda's call operator is a template even in an instantiation:
    // its class's context tells.)
    if (!New && L->getLambdaClass()->getDeclContext()->isDependentContext()) It->second = L;
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (!V->hasLocalStorage() || isa<ParmVarDecl>(V)) return true;
    const QualType T = V->getType();
    if (!T->isDependentType()) closuresInArguments(V, T.getNonReferenceType());
    if (!V->getInit()) return true;
    const auto *L = dyn_cast<LambdaExpr>(V->getInit()->IgnoreImplicit());
    if (!L) return true;
    // In a template the lambda is type-dependent, so `auto` stays undeduced.
    if (T->getAsCXXRecordDecl() == L->getLambdaClass() || (isa<AutoType>(T.getTypePtr()) && T->isDependentType()))
      Found.push_back({V, L});
    return true;
  }
  // After the traversal: the lambdas of the closure types found in
  // template arguments.
  void resolveArguments() {
    for (const auto &[V, Closure] : InArguments)
      if (auto It = Written.find(Closure); It != Written.end())
        if (auto Pattern = AsWritten.find(It->second->getBeginLoc().getRawEncoding()); Pattern != AsWritten.end())
          Found.push_back({V, Pattern->second});
  }
  std::vector<std::pair<const VarDecl *, const LambdaExpr *>> Found;

 private:
  void closuresInArguments(const VarDecl *V, QualType T) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
    if (!Spec) return;
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
      if (Arg.getKind() != TemplateArgument::Type) continue;
      const QualType A = Arg.getAsType().getCanonicalType();
      if (const CXXRecordDecl *Class = A->getAsCXXRecordDecl(); Class && Class->isLambda())
        InArguments.push_back({V, Class});
      else
        closuresInArguments(V, A);
    }
  }
  llvm::DenseMap<const CXXRecordDecl *, const LambdaExpr *> Written;
  // By where it is written: the lambda as written (a template's, not an
  // instantiation's), which the regions hold.
  llvm::DenseMap<unsigned, const LambdaExpr *> AsWritten;
  std::vector<std::pair<const VarDecl *, const CXXRecordDecl *>> InArguments;
};

// A local's scope holds a continuation point of the body that declares it
// after its declaration, so the local is a frame field.
bool liveInFrame(ASTContext &Ctx, const VarDecl *V, const std::vector<Region> &Regions, ArrayRef<KeywordUse> Uses) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Parents = Ctx.getParents(*V);
  const auto *Declaration = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!Declaration) return false;
  auto Scopes = Ctx.getParents(*Declaration);
  const auto *Scope = Scopes.empty() ? nullptr : Scopes[0].get<Stmt>();
  if (!Scope) return false;
  const SourceLocation Begin = SM.getExpansionLoc(V->getLocation()), End = SM.getExpansionLoc(Scope->getEndLoc());
  if (!SM.isWrittenInMainFile(Begin) || !SM.isWrittenInMainFile(End)) return false;
  const unsigned From = SM.getFileOffset(Begin), To = SM.getFileOffset(End);
  const Region *Body = innermost(Regions, From, /*FunctionsAndLambdasOnly=*/false);
  return llvm::any_of(Uses, [&](const KeywordUse &U) {
    const unsigned At = SM.getFileOffset(U.Loc);
    return (U.Kind == KeywordKind::Spawn || U.Kind == KeywordKind::Sync || U.Kind == KeywordKind::CilkScope) &&
           From < At && At <= To && innermost(Regions, At, /*FunctionsAndLambdasOnly=*/false) == Body;
  });
}

}  // namespace

std::optional<std::string> outlineSpawningBodies(ASTContext &Ctx, ArrayRef<KeywordUse> Uses,
                                                 ArrayRef<GrainPragma> Pragmas, StringRef FileName,
                                                 UnmovedBodyReasons &Refused) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<ParallelLoop> Loops;
  bindParallelLoops(Ctx, Uses, Pragmas, Loops);
  std::vector<Region> Regions;
  RegionCollector Collector(SM, Regions);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const ParallelLoop &L : Loops) {
    const CharSourceRange Body = loopBodyRange(Ctx, L);
    Collector.add({nullptr, nullptr, &L, Body.getAsRange()});
  }

  // Lambdas and loops whose own code holds a keyword.
  std::vector<const Region *> Candidates;
  llvm::DenseSet<const Region *> Spawning;
  for (const KeywordUse &U : Uses) {
    if (U.Kind == KeywordKind::Cilk || U.Kind == KeywordKind::CilkFor) continue;
    const Region *R = innermost(Regions, SM.getFileOffset(U.Loc), /*FunctionsAndLambdasOnly=*/false);
    if (R && !R->Function && !llvm::is_contained(Candidates, R)) {
      Candidates.push_back(R);
      Spawning.insert(R);
    }
    // (Also the function holding the lambda, loop or handler that holds
    // the keyword: that body moves out of the member the function's body
    // moved into, in the next round.)
    const Region *F = nullptr;
    for (const Region &Around : Regions)
      if (Around.Function && Around.contains(SM.getFileOffset(U.Loc)) && (!F || F->contains(Around))) F = &Around;
    if (F && bodyMovesToMember(F->Function) && !llvm::is_contained(Candidates, F)) {
      Candidates.push_back(F);
      Spawning.insert(F);
    }
  }
  // Lambdas held in frames become named closures.
  llvm::DenseSet<const Region *> Closures;
  StoredLambdas Stored;
  Stored.TraverseDecl(Ctx.getTranslationUnitDecl());
  Stored.resolveArguments();
  for (const auto &[V, L] : Stored.Found) {
    auto It = llvm::find_if(Regions, [&, L = L](const Region &R) { return R.Lambda == L; });
    if (It == Regions.end() || !liveInFrame(Ctx, V, Regions, Uses)) continue;
    Closures.insert(&*It);
    if (!llvm::is_contained(Candidates, &*It)) Candidates.push_back(&*It);
  }
  // Lambdas passed to templates that spawn become named closures.
  for (const CXXRecordDecl *Closure : unnamedTemplateArguments(Ctx, Uses).Closures) {
    // (A lambda in a class template's member has a closure type per
    // instantiation, each at the lambda's place.)
    auto It = llvm::find_if(Regions, [&](const Region &R) {
      return R.Lambda && R.Lambda->getLambdaClass()->getLocation() == Closure->getLocation();
    });
    if (It == Regions.end()) continue;
    Closures.insert(&*It);
    if (!llvm::is_contained(Candidates, &*It)) Candidates.push_back(&*It);
  }
  // So do lambdas held in locals that a moving body uses from its function
  // (a helper lambda that a recursive spawning lambda calls, a key lambda
  // that a comparator passed to a spawning template calls), and those that
  // they use in turn: the body, moved out, names their types.
  for (size_t Next = 0; Next < Candidates.size(); ++Next) {
    const Region *R = Candidates[Next];
    if (!Spawning.contains(R) && !Closures.contains(R)) continue;
    OuterUses Used(SM, *R);
    Used.TraverseStmt(const_cast<Stmt *>(R->body()));
    for (const auto &[V, L] : Stored.Found) {
      if (!Used.Vars.count(V)) continue;
      auto It = llvm::find_if(Regions, [&, L = L](const Region &Other) { return Other.Lambda == L; });
      if (It == Regions.end()) continue;
      Closures.insert(&*It);
      if (!llvm::is_contained(Candidates, &*It)) Candidates.push_back(&*It);
    }
  }
  if (Candidates.empty()) return std::nullopt;

  Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
  Outliner O(Ctx, Main, FileName);
  // In source order, outermost first; a candidate inside one that moved
  // moves with it and waits for the next round.
  llvm::sort(Candidates, [](const Region *A, const Region *B) {
    return A->Begin != B->Begin ? A->Begin < B->Begin : A->End > B->End;
  });
  std::vector<const Region *> Moved;
  for (const Region *R : Candidates) {
    if (llvm::any_of(Moved, [&](const Region *M) { return M->contains(*R); })) continue;
    // A generic lambda that spawns moves its body out first; the lambda
    // left in place forwards to it and becomes a named closure with a call
    // operator template in the next round, as one that never spawned does.
    const bool AsClosure = Closures.contains(R) && !(Spawning.contains(R) && R->Lambda->isGenericLambda());
    if (O.outline(*R, Regions, AsClosure, Spawning.contains(R))) Moved.push_back(R);
    else if (Spawning.contains(R) || Closures.contains(R)) Refused[R->Begin] = O.whyNot();
  }
  if (Moved.empty()) return std::nullopt;
  const RewriteBuffer *Edited = Main.getRewriteBufferFor(SM.getMainFileID());
  return std::string(Edited->begin(), Edited->end());
}

}  // namespace cilkpp
