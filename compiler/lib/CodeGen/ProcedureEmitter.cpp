#include "CodeGen/ProcedureEmitter.h"

#include "Analysis/ExceptionAnalysis.h"
#include "CodeGen/DeducedResults.h"
#include "CodeGen/FrameMembers.h"
#include "CodeGen/NamespaceScopes.h"
#include "CodeGen/PredefinedNames.h"
#include "CodeGen/RecursionInlining.h"
#include "CodeGen/SignatureTables.h"
#include "CodeGen/SourceText.h"
#include "Dialect/MacroHistory.h"
#include "Support/Instantiations.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

// Destroys, latest first, the class-type fields that are alive, for a
// procedure that may throw: unwinding must destroy exactly those.
std::string destroyLive(const FrameDescription &Frame) {
  std::vector<const FrameField *> Managed;
  for (const FrameField &F : Frame.Fields)
    if (F.ManagedLifetime) Managed.push_back(&F);
  if (Managed.empty()) return "";
  llvm::sort(Managed, [&](const FrameField *A, const FrameField *B) {
    return A->Var->getLocation() < B->Var->getLocation();
  });
  std::string Out = "  void __cilkpp_destroy_live() noexcept {";
  for (auto It = Managed.rbegin(); It != Managed.rend(); ++It)
    Out += fmt::format(" if ({0}) {{ {0} = false; ::cilkpp::rt::destroy_field({1}); }}", liveFlagName(**It),
                       (*It)->Name);
  return Out + " }\n";
}

// A member of an instantiated class template, or an instantiation of a
// member function template, is defined as an explicit specialization.
std::string explicitSpecialization(const FunctionDecl *FD) {
  std::string Out;
  for (size_t I = 0; I < enclosingSpecializations(FD).size(); ++I) Out += "template <> ";
  if (isMemberTemplateInstance(FD)) Out += "template <> ";
  return Out;
}

// The namespace scope where a procedure's frame declarations go: around its
// definition, or after the outermost class that defines it.
const DeclContext *frameScope(const FunctionDecl *FD) {
  const DeclContext *DC = FD->getLexicalDeclContext();
  while (isa<RecordDecl>(DC)) DC = cast<Decl>(DC)->getLexicalDeclContext();
  return DC;
}

// The frame struct's definition, its name qualified with Qualifier.
std::string frameStruct(const FrameDescription &Frame, const std::vector<FrameMember> &Members,
                        const ProcedureNames &Names, StringRef Qualifier) {
  std::string Out = fmt::format("{}struct {}{} final : ::cilkpp::rt::Frame {{\n",
                                explicitSpecialization(Frame.Procedure->Definition), Qualifier, Names.Frame);
  for (const FrameMember &M : Members) Out += fmt::format("  {}\n", M.Declaration);
  if (Frame.MayThrow) Out += destroyLive(Frame);
  if (llvm::any_of(Members, [](const FrameMember &M) { return M.RawStorage; }))
    // (A specialization's constructor is named without its template
    // arguments: C++20 no longer allows them there.)
    Out += fmt::format("  {0}() noexcept {{}}\n  ~{0}() {{}}\n", StringRef(Names.Frame).take_until([](char C) { return C == '<'; }));
  return Out + "};\n";
}

// A member's frame is a member class, so it may name the class's private
// types; a free procedure's is local to the file.
std::string frameDeclarations(ASTContext &Ctx, const FrameDescription &Frame, const ProcedureNames &Names,
                              SignatureTables &Signatures, const DeclContext *Scope) {
  const FunctionDecl *FD = Frame.Procedure->Definition;
  const bool Member = isa<CXXMethodDecl>(FD);
  const std::vector<FrameMember> Members = frameMembers(Ctx, Frame);
  FrameTables Tables = Signatures.definitions(Frame, Members, Names);
  std::string Out = atGlobalScope(Scope, Tables.AtGlobalScope);
  if (!Member) Out += "namespace {\n";
  Out += frameStruct(Frame, Members, Names, Names.Scope);
  // The resume clone is declared before the frame infos take its address
  // (for a class template's member, before that instantiates it).
  if (!Member) Out += fmt::format("void {}(::cilkpp::rt::Worker *, ::cilkpp::rt::Frame *) noexcept;\n", Names.Resume);
  else if (!explicitSpecialization(FD).empty())
    Out += fmt::format("{}void {}{}(::cilkpp::rt::Worker *, ::cilkpp::rt::Frame *) noexcept;\n",
                       explicitSpecialization(FD), Names.Scope, Names.Resume);
  if (Member) Out += "namespace {\n";
  const std::string Name = FD->getQualifiedNameAsString();
  const std::string Resume = Names.Scope + Names.Resume, FrameType = Names.Scope + Names.Frame;
  const std::string Signature = SignatureTables::signatureName(Names);
  Out += Signatures.declaration(Names);
  Out += fmt::format("const ::cilkpp::rt::FrameInfo {}{{\"{}\", &{}, sizeof({}), nullptr, &{}}};\n", Names.Info, Name,
                     Resume, FrameType, Signature);
  if (!Frame.EagerFrame)
    Out += fmt::format("[[maybe_unused]] const ::cilkpp::rt::FrameInfo {}{{\"{}\", &{}, sizeof({}), &{}, &{}}};\n", Names.StackInfo,
                       Name, Resume, FrameType, Names.Info, Signature);
  Out += Tables.InUnnamedNamespace;
  return Out + "}  // namespace\n";
}

// A self-contained member's frame infos and signature tables: static
// members of a class template that its body instantiates with its clones
// class, C (Support/SelfContainedMembers.h). C's frame and resume clone are
// members of a local class, which only a template at namespace scope can
// name; the instantiation's registration runs among the static
// initializers, as a namespace-scope variable's would.
std::string selfContainedTables(ASTContext &Ctx, const FrameDescription &Frame, const std::vector<FrameMember> &Members,
                                const ProcedureNames &Names, SignatureTables &Signatures, const DeclContext *Scope) {
  ProcedureNames InClass = Names;
  InClass.Info = "info";
  InClass.StackInfo = "stack_info";
  InClass.Scope = "";
  FrameTables Tables = Signatures.definitions(Frame, Members, InClass);
  std::string Out = atGlobalScope(Scope, Tables.AtGlobalScope);
  Out += fmt::format("namespace {{\ntemplate <class C> struct {} {{\n", Names.Tables);
  Out += fmt::format("using {0} = typename C::{0};\n", Names.Frame);
  Out += Signatures.declaration(InClass);
  const std::string Name = Frame.Procedure->Definition->getQualifiedNameAsString();
  const std::string Signature = SignatureTables::signatureName(InClass);
  Out += fmt::format("static inline const ::cilkpp::rt::FrameInfo info{{\"{}\", &C::{}, sizeof({}), nullptr, &{}}};\n",
                     Name, Names.Resume, Names.Frame, Signature);
  if (!Frame.EagerFrame)
    Out += fmt::format("[[maybe_unused]] static inline const ::cilkpp::rt::FrameInfo stack_info{{\"{}\", &C::{}, "
                       "sizeof({}), &info, &{}}};\n",
                       Name, Names.Resume, Names.Frame, Signature);
  Out += Tables.InUnnamedNamespace;
  return Out + "};\n" + Tables.OutsideClass + "}  // namespace\n";
}

// The public entry's statement: a root call of the fast clone.
std::string publicEntryCall(ASTContext &Ctx, const FunctionDecl *FD) {
  std::string Args;
  // By-value parameters of class type move on to the fast clone (which
  // takes most by reference: passesByRvalueReference), as rvalue
  // references do.
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    if (const auto *Pack = T->getAs<PackExpansionType>())
      Args += fmt::format(", static_cast<{}{}>({})...", typeQualified(Ctx, Pack->getPattern()),
                          Pack->getPattern()->isReferenceType() ? "" : " &&", declaredParameterName(P));
    else if (T->isRValueReferenceType() || (!T->isReferenceType() && !T.isTriviallyCopyableType(Ctx)))
      Args += fmt::format(", static_cast<decltype({0}) &&>({0})", declaredParameterName(P));
    else
      Args += fmt::format(", {}", declaredParameterName(P));
  }
  if (thisClass(FD)) Args = ", this" + Args;
  // One line, the body's first: a debugger's breakpoint on any later line of
  // the body finds no code of it.
  // A template whose result is deduced: its entry's result is deduced as
  // soon as it is used, while the fast clone's specialisations come at the
  // end of the file. Its root is a generic lambda, whose body (the fast
  // clone's name) is instantiated only where run_root is, at the end.
  if (resultDeducedPerInstantiation(FD))
    return fmt::format("return ::cilkpp::rt::run_root<{0}>([&]({1}) {{ return {2}(__w, __parent, __slot, 0{3}); }});",
                       deducedResultType(FD), GenericHiddenParameters,
                       qualifiedFastName(FD), Args);
  return fmt::format("return ::cilkpp::rt::run_root<{0}>([&]({1}) {{ return {2}(__w, __parent, __slot, 0{3}); }});",
                     typeQualified(Ctx, FD->getReturnType()), HiddenParameters, qualifiedFastName(FD), Args);
}

std::string publicEntryBody(ASTContext &Ctx, const FunctionDecl *FD) {
  return "{ " + publicEntryCall(Ctx, FD) + " }";
}

// The public entry passes every parameter on, so the definition names its
// unnamed ones where their names would stand (Sema rejects those a macro
// declares).
void nameUnnamedParameters(Rewriter &Main, const FunctionDecl *FD) {
  const SourceManager &SM = Main.getSourceMgr();
  for (const ParmVarDecl *P : FD->parameters()) {
    if (!P->getName().empty()) continue;
    // (Where the name goes: `int, ...`, `int (*)(int)`, `int = 3`.)
    const char *At = SM.getCharacterData(P->getLocation());
    Main.InsertTextBefore(P->getLocation(), fmt::format("{}{}{}", isAsciiIdentifierContinue(At[-1]) || At[-1] == '.' ? " " : "",
                                                        declaredParameterName(P), *At == '=' ? " " : ""));
  }
}

// Inside `extern "C" { ... }` the generated names would have C linkage:
// an internal procedure's frame info and resume clone, in an unnamed
// namespace, would still clash with another file's at link time, and a fast
// clone declared outside the block (after `extern "C" long f(long);`) and
// defined inside it would conflict. They are all `extern "C++"`.
bool inCLinkage(const FunctionDecl *FD) {
  for (const DeclContext *DC = FD->getLexicalDeclContext(); DC; DC = DC->getLexicalParent())
    if (const auto *Linkage = dyn_cast<LinkageSpecDecl>(DC))
      return Linkage->getLanguage() == LinkageSpecLanguageIDs::C;
  return false;
}

std::string withCxxLinkage(const FunctionDecl *FD, const std::string &Declarations) {
  return inCLinkage(FD) ? "extern \"C++\" {\n" + Declarations + "}\n" : Declarations;
}

// A frame's declarations are printed from the AST, with nothing the user
// wrote: the program's macros must not change them (`#define int32 int`
// against a signature table's `CanonicalKind::int32`, `#define string
// std::string` against a field's `::std::string`).
std::string withoutMacros(ASTContext &Ctx, const EmitSettings &Settings, const std::string &Declarations) {
  if (!Settings.Macros) return Declarations;
  const MacroHistory::Guard Guard = Settings.Macros->hidesEveryMacro(Ctx.getLangOpts(), Declarations);
  return Guard.Before + Declarations + Guard.After;
}

}  // namespace

// Where the definition starts, its leading attributes included
// (`[[nodiscard]] long f(...)`): the frame and clones go before them.
SourceLocation declarationBegin(ASTContext &Ctx, const FunctionDecl *FD) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(FD->getBeginLoc());
  for (const Attr *A : FD->attrs()) {
    // (The `cilk` keyword, an annotation, is removed where it stands.)
    if (A->isInherited() || A->isImplicit() || A->getRange().isInvalid() || isa<AnnotateAttr>(A)) continue;
    const SourceLocation At = SM.getExpansionLoc(A->getRange().getBegin());
    if (SM.isWrittenInMainFile(At) && SM.isBeforeInTranslationUnit(At, Begin)) Begin = At;
  }
  // `extern "C" long f(...) {...}`: what goes before the definition goes
  // before the `extern "C"` that belongs to it.
  if (const auto *Linkage = dyn_cast<LinkageSpecDecl>(FD->getLexicalDeclContext()); Linkage && !Linkage->hasBraces())
    return SM.getExpansionLoc(Linkage->getExternLoc());
  if (Begin == SM.getExpansionLoc(FD->getBeginLoc())) return Begin;
  // A standard attribute's range starts at its name, inside the `[[`.
  const StringRef Before = SM.getBufferData(SM.getFileID(Begin)).take_front(SM.getFileOffset(Begin)).rtrim();
  return Before.ends_with("[[") ? Begin.getLocWithOffset(-static_cast<int>(SM.getFileOffset(Begin) - Before.size() + 2))
                                : Begin;
}

// " noexcept" for a procedure declared so. A template's `noexcept(expr)`
// that depends on its parameters gives its fast clones none (its explicit
// specializations' too): each
// specialization's would have to agree with what the template's gives it,
// and clang cannot redeclare a class template member's specialization
// whose template has one.
static std::string exceptionSpecification(const FunctionDecl *FD) {
  // (An explicit specialization's fast clone specialises the template's.)
  const FunctionDecl *Pattern = isExplicitSpecialization(FD) ? FD->getPrimaryTemplate()->getTemplatedDecl()
                                                             : FD->getTemplateInstantiationPattern();
  const auto *Proto = (Pattern ? Pattern : FD)->getType()->getAs<FunctionProtoType>();
  if (Proto && Proto->getExceptionSpecType() == EST_DependentNoexcept) return "";
  return declaredNothrow(FD) ? " noexcept" : "";
}

// A member's result `decltype(n + base)`, printed as `decltype(n +
// this->base)`, as its fast clone (a static member taking the object as
// __this) declares it: `this` may not appear there.
static std::string withThisParameter(StringRef Type) {
  std::string Out;
  for (size_t I = 0; I < Type.size();) {
    const bool Keyword = Type.substr(I).starts_with("this") && (I == 0 || !isAsciiIdentifierContinue(Type[I - 1])) &&
                         (I + 4 == Type.size() || !isAsciiIdentifierContinue(Type[I + 4]));
    Out += Keyword ? "__this" : Type.substr(I, 1);
    I += Keyword ? 4 : 1;
  }
  return Out;
}

// The fast clone's declarator. It throws what the procedure throws, so it is
// noexcept exactly when the procedure is declared so: every file that
// declares the procedure agrees on that. A member's takes `this` as __this.
static std::string fastSignature(ASTContext &Ctx, const FunctionDecl *FD, StringRef Prefix, StringRef Name,
                                 bool WithDefaults, ArrayRef<const ParmVarDecl *> MaybeUnused = {}) {
  std::string Params = parameterList(Ctx, FD, WithDefaults, /*ForFastClone=*/true, MaybeUnused);
  if (thisClass(FD))
    Params = "[[maybe_unused]] " + declareThis(Ctx, FD) + (Params.empty() ? "" : ", ") + Params;
  // Without the result's top-level cv-qualifiers: a scalar's mean nothing
  // (the host compiler warns about them once, at the user's declaration), a
  // class's would only keep the caller from moving the result. Every
  // declaration of a clone, the template's and its specializations', drops
  // them alike.
  const bool Deduced = resultDeducedPerInstantiation(FD);
  std::string Result = Deduced ? deducedResultType(FD, /*InCloneDeclaration=*/true)
                               : typeQualified(Ctx, FD->getReturnType().getUnqualifiedType());
  if (thisClass(FD)) Result = withThisParameter(Result);
  // A dependent result written after the parameters may name them
  // (`-> decltype(n + 1)`): it stays there. So does an instantiated
  // member's defined outside its class, where the class's scope starts only
  // after the qualified name: its result, printed from the template's, may
  // name a member (`enable_if_t<(sizeof(long) < K), R>`). A result whose
  // declarator wraps the name (a function pointer) is clearer there too.
  const bool Trailing =
      Deduced || declaratorWrapsName(Ctx, FD->getReturnType()) ||
      (FD->getReturnType()->isDependentType() && FD->getType()->castAs<FunctionProtoType>()->hasTrailingReturn()) ||
      (isa<CXXMethodDecl>(FD) && Name.contains("::") && FD->getTemplateInstantiationPattern() &&
       !FD->getReturnType()->isVoidType());
  return fmt::format("{}{} {}({}, {}{}{}){}{}", Prefix, Trailing ? "auto" : Result, Name, HiddenParameters,
                     FastCloneOrderParameter, Params.empty() ? "" : ", ", Params, exceptionSpecification(FD),
                     Trailing ? " -> " + Result : "");
}

// An explicit specialization's fast clone specialises the template's.
static std::string fastName(const FunctionDecl *FD, const ProcedureNames &Names) {
  return Names.Scope + Names.Fast + (isExplicitSpecialization(FD) ? templateArguments(FD) : "");
}

std::string fastPrototype(ASTContext &Ctx, const FunctionDecl *FD, bool WithDefaults) {
  const std::string Prototype = fastSignature(Ctx, FD, storagePrefix(FD), fastName(FD, namesFor(FD, 0)),
                                              WithDefaults && !isExplicitSpecialization(FD)) +
                                ";";
  return inCLinkage(FD) ? "extern \"C++\" { " + Prototype + " }" : Prototype;
}

std::string fastTemplateDeclaration(ASTContext &Ctx, const FunctionDecl *Pattern, StringRef FileName) {
  const SourceManager &SM = Ctx.getSourceManager();
  const TemplateParameterList *Params = Pattern->getDescribedFunctionTemplate()->getTemplateParameters();
  const SourceLocation Begin = SM.getExpansionLoc(Params->getTemplateLoc());
  const unsigned Line = SM.getPresumedLineNumber(Begin), Column = SM.getSpellingColumnNumber(Begin);
  const std::string ParamsText = Lexer::getSourceText(fileRange(SM, Params->getSourceRange()), SM, Ctx.getLangOpts()).str();
  std::string Out = Column > 1 ? "\n" : "";
  Out += lineDirective(Line, FileName);
  Out += fmt::format("{} {};\n", ParamsText,
                     fastSignature(Ctx, Pattern, storagePrefix(Pattern), namesFor(Pattern, 0).Fast, /*WithDefaults=*/true));
  return Out + lineDirective(Line, FileName) + std::string(Column - 1, ' ');
}

// A member procedure's frame and clones, declared in its class; `public`, as
// spawns of the member from anywhere call the fast clone. A member function
// template's are member templates with its parameters, specialised per
// instantiation.
static std::string memberDeclarations(ASTContext &Ctx, const FunctionDecl *FD, const ProcedureNames &Names,
                                      bool SplitFastClone = false, unsigned InlinedLevels = 0) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Head;
  if (const FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate()) {
    // With its requires-clause: templates overloaded on their constraints
    // alone would otherwise declare the same fast clone twice.
    const TemplateParameterList *Params = Template->getTemplateParameters();
    SourceRange Written = Params->getSourceRange();
    if (const Expr *Requires = Params->getRequiresClause()) Written.setEnd(Requires->getEndLoc());
    Head = Lexer::getSourceText(fileRange(SM, Written), SM, Ctx.getLangOpts()).str() + " ";
  }
  // (Its resume clone and frame do not name the result.)
  const std::string FastHead = clonesDeferDeduction(FD) ? fmt::format("template <int {} = 0> ", DeferredTag) : Head;
  std::string Constraint;
  if (const Expr *Requires = FD->getTrailingRequiresClause())
    Constraint = " requires " + Lexer::getSourceText(fileRange(SM, Requires->getSourceRange()), SM, Ctx.getLangOpts()).str();
  std::string Out = fmt::format(" public: {0}struct {1}; {5}{2}{4}; {0}static void {3}(::cilkpp::rt::Worker *, "
                                "::cilkpp::rt::Frame *) noexcept; ",
                                Head, Names.Frame, fastSignature(Ctx, FD, "static ", Names.Fast, /*WithDefaults=*/true),
                                Names.Resume, Constraint, FastHead);
  if (SplitFastClone)
    Out += fmt::format("{}{}{}; ", FastHead,
                       fastSignature(Ctx, FD, "static ", fastTailName(Names), /*WithDefaults=*/false), Constraint);
  for (unsigned Level = 1; Level <= InlinedLevels; ++Level) {
    ProcedureNames Copy = Names;
    Copy.Fast = inlinedCopyName(Names, Level);
    Out += fastSignature(Ctx, FD, "static ", Copy.Fast, /*WithDefaults=*/true) + "; ";
    if (SplitFastClone) Out += fastSignature(Ctx, FD, "static ", fastTailName(Copy), /*WithDefaults=*/false) + "; ";
  }
  return Out;
}

// A procedure that starts with base cases (`if (n < 2) return n;`) has a
// fast clone in two parts: a head that runs them and calls the tail, the
// fast clone proper. Compilers inline the head into the procedure's spawns
// and calls, so a leaf costs its test and no more; the tail saves the
// registers and holds the frame. g++ makes that split itself, but not of a
// function with vague linkage (a member defined in its class, an inline
// function, a template), and clang++ not at all (docs/performance.md, "The
// fast clone's head"). The head forwards the parameters, which the fast
// clone takes by reference or trivially copies. The tail leaves the base
// cases out. Returns the head's base cases, none where the clone stays
// whole.
static CopiedBaseCases fastCloneHead(ASTContext &Ctx, const FrameDescription &Frame, const FunctionDecl *FD) {
  const bool HasFrame = !Frame.Points.empty() || Frame.EagerFrame;
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  const bool HasPack =
      Pattern && llvm::any_of(Pattern->parameters(), [](const ParmVarDecl *P) { return P->isParameterPack(); });
  // (A qualified definition, `long ns::f(...)`, would need the tail
  // declared in ns first.)
  if (!HasFrame || Frame.EarlyReturns.empty() || FD->isVariadic() || HasPack || isExplicitSpecialization(FD) ||
      (!isa<CXXMethodDecl>(FD) && FD->getQualifierLoc()))
    return {};
  return copyableBaseCases(Ctx, *FD, Frame.EarlyReturns);
}

// Parameters only the head's base cases read: the tail, which has them too,
// does not (an unused-parameter warning the serial program does not give).
static std::vector<const ParmVarDecl *> readOnlyByHead(const FunctionDecl *FD, const CopiedBaseCases &Head) {
  struct Reads : RecursiveASTVisitor<Reads> {
    llvm::SmallPtrSet<const ParmVarDecl *, 8> Params;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *P = dyn_cast<ParmVarDecl>(E->getDecl())) Params.insert(P);
      return true;
    }
  };
  Reads InHead, InTail;
  const auto *Body = cast<CompoundStmt>(FD->getBody());
  for (const Stmt *S : Body->body())
    (llvm::is_contained(Head.Statements, S) ? InHead : InTail).TraverseStmt(const_cast<Stmt *>(S));
  std::vector<const ParmVarDecl *> Out;
  for (const ParmVarDecl *P : FD->parameters())
    if (InHead.Params.contains(P) && !InTail.Params.contains(P)) Out.push_back(P);
  return Out;
}

// An instantiation's head names the template's parameters as its clones do.
// Each base case keeps its line and column (warnings about it point there),
// the call of the tail has the body's first line.
static std::string fastCloneHeadBody(ASTContext &Ctx, const FunctionDecl *FD, const ProcedureNames &Names,
                                     const CopiedBaseCases &Head, StringRef FileName, StringRef TemplateArguments = "") {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string BaseCases;
  for (const Stmt *S : Head.Statements) {
    const SourceLocation Begin = SM.getExpansionLoc(S->getBeginLoc());
    BaseCases += fmt::format("\n{}{:{}}{}", lineDirective(SM.getPresumedLineNumber(Begin), FileName), "",
                             SM.getSpellingColumnNumber(Begin) - 1, *baseCaseText(Ctx, S));
  }
  const unsigned BodyLine = SM.getPresumedLineNumber(SM.getExpansionLoc(FD->getBody()->getBeginLoc()));
  std::string Args = "__w, __parent, __slot, __seq";
  if (thisClass(FD)) Args += ", __this";
  for (const ParmVarDecl *P : FD->parameters()) {
    const std::string Name = declaredParameterName(P);
    Args += P->getType()->isReferenceType() || passesByRvalueReference(Ctx, P)
                ? fmt::format(", static_cast<decltype({0}) &&>({0})", Name)
                : ", " + Name;
  }
  const std::string Aliases = templateParameterAliases(FD);
  return fmt::format("{{{}{}\n{}return {}{}({}); }}", Aliases.empty() ? "" : " " + Aliases, BaseCases,
                     lineDirective(BodyLine, FileName), fastTailName(Names), TemplateArguments, Args);
}

// Whether the procedure's own spawns may call inlined copies of its fast
// clone (RecursionInlining.h): not templates (emitTemplateProcedure), nor
// where the copies could not be declared beside the fast clone or would
// change what the program links to.
static bool mayHaveInlinedCopies(const FunctionDecl *FD, const EmitSettings &Settings) {
  return Settings.InlinedRecursion && !FD->isVariadic() && !isExplicitSpecialization(FD) && !FD->hasAttr<WeakAttr>() &&
         (isa<CXXMethodDecl>(FD) || !FD->getQualifierLoc());
}

// The fast clone's copies' bodies, level 1 first: each calls the next level,
// the last the fast clone itself. Diagnostics were given for the fast
// clone's own body.
static std::optional<std::vector<std::string>> inlinedCopyBodies(ASTContext &Ctx, const FrameDescription &Frame,
                                                                  const ProcedureNames &Names,
                                                                  const FastCloneAvailable &IsCilkCallee,
                                                                  ArrayRef<SourceLocation> RemovedKeywords,
                                                                  const EmitSettings &Settings,
                                                                  unsigned OmittedBaseCases, unsigned Levels,
                                                                  StringRef Arguments) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  const bool Suppressed = Diags.getSuppressAllDiagnostics();
  Diags.setSuppressAllDiagnostics(true);
  std::vector<std::string> Bodies;
  for (unsigned Level = 1; Level <= Levels; ++Level) {
    ProcedureNames Copy = Names;
    Copy.Fast = inlinedCopyName(Names, Level);
    std::optional<std::string> Body =
        emitCloneBody(Ctx, Frame, Copy, IsCilkCallee, RemovedKeywords, CloneKind::Fast, Settings, OmittedBaseCases,
                      Level < Levels ? inlinedCopyName(Names, Level + 1) + Arguments.str() : "");
    if (!Body) break;
    Bodies.push_back(std::move(*Body));
  }
  Diags.setSuppressAllDiagnostics(Suppressed);
  if (Bodies.size() != Levels) return std::nullopt;
  return Bodies;
}

// The fast clone's body and its copies' (none where it gets none). Its
// spawns of itself call its first copy, if it gets copies: how many depends
// on how many such spawns there are. MayInline: whether it may have copies
// (the body's size decides too). Arguments: an instantiation's template
// arguments, which name its specializations.
struct FastCloneBodies {
  std::optional<std::string> Fast;
  std::vector<std::string> Copies;
};
static FastCloneBodies fastCloneBodies(ASTContext &Ctx, const FrameDescription &Frame, const ProcedureNames &Names,
                                       const FastCloneAvailable &IsCilkCallee, ArrayRef<SourceLocation> RemovedKeywords,
                                       const EmitSettings &Settings, unsigned OmittedBaseCases, bool MayInline,
                                       StringRef Arguments = "") {
  const unsigned BodySize = MayInline ? copyableBodySize(Frame) : 0;
  const std::string FirstCopy = BodySize ? inlinedCopyName(Names, 1) + Arguments.str() : "";
  FastCloneBodies Out;
  Out.Fast = emitCloneBody(Ctx, Frame, Names, IsCilkCallee, RemovedKeywords, CloneKind::Fast, Settings,
                           OmittedBaseCases, FirstCopy);
  if (!Out.Fast || FirstCopy.empty()) return Out;
  unsigned SelfSpawns = 0;
  for (size_t At = Out.Fast->find(FirstCopy + "("); At != std::string::npos; At = Out.Fast->find(FirstCopy + "(", At + 1))
    ++SelfSpawns;
  const unsigned Levels = inlinedRecursionLevels(BodySize, SelfSpawns);
  std::optional<std::vector<std::string>> Bodies =
      Levels ? inlinedCopyBodies(Ctx, Frame, Names, IsCilkCallee, RemovedKeywords, Settings, OmittedBaseCases, Levels,
                                 Arguments)
             : std::nullopt;
  if (Bodies)
    Out.Copies = std::move(*Bodies);
  else if (SelfSpawns)
    Out.Fast = emitCloneBody(Ctx, Frame, Names, IsCilkCallee, RemovedKeywords, CloneKind::Fast, Settings,
                             OmittedBaseCases);
  return Out;
}

// A free procedure's copies are internal to the file, declared with the
// fast clone's default arguments before the fast clone calls the first
// (a member's are declared in its class: memberDeclarations).
static std::string inlinedCopyPrototypes(ASTContext &Ctx, const FunctionDecl *FD, const ProcedureNames &Names,
                                         unsigned Levels) {
  std::string Out;
  for (unsigned Level = 1; Level <= Levels; ++Level)
    Out += fastSignature(Ctx, FD, "CILKPP_INLINED_RECURSION static ", inlinedCopyName(Names, Level),
                         /*WithDefaults=*/true) +
           ";\n";
  return Out;
}

// The copies' definitions, each from the body's line: a member's outside
// its class, a self-contained member's in its clones class, a template
// instantiation's as explicit specialisations (Specialization: their
// `template <>` headers; Arguments: a function template's arguments).
static std::string inlinedCopies(ASTContext &Ctx, const FunctionDecl *FD, const ProcedureNames &Names,
                                 const CopiedBaseCases &Head, ArrayRef<std::string> Bodies, StringRef FileName,
                                 StringRef Specialization = "", StringRef Arguments = "") {
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string Line =
      lineDirective(SM.getPresumedLineNumber(SM.getExpansionLoc(FD->getBody()->getBeginLoc())), FileName);
  const bool InClass = !Names.Tables.empty();
  const std::string Storage = !Specialization.empty() ? Specialization.str() + "CILKPP_INLINED_RECURSION "
                              : isa<CXXMethodDecl>(FD) && !InClass ? "CILKPP_INLINED_RECURSION "
                                                                     : "CILKPP_INLINED_RECURSION static ";
  const std::string Scope = InClass ? "" : Names.Scope;
  std::string Out;
  for (unsigned Level = 1; Level <= Bodies.size(); ++Level) {
    ProcedureNames Copy = Names;
    Copy.Fast = inlinedCopyName(Names, Level);
    const std::string Fast =
        fastSignature(Ctx, FD, Storage, Scope + Copy.Fast + Arguments.str(), /*WithDefaults=*/InClass);
    if (Head.Count == 0) {
      Out += fmt::format("\n{}{} {}", Line, Fast, Bodies[Level - 1]);
      continue;
    }
    const std::string Tail = fastSignature(Ctx, FD, Storage, Scope + fastTailName(Copy) + Arguments.str(),
                                           /*WithDefaults=*/false, readOnlyByHead(FD, Head));
    Out += fmt::format("\n{}{} {}\n{}{} {}", Line, Tail, Bodies[Level - 1], Line, Fast,
                       fastCloneHeadBody(Ctx, FD, Copy, Head, FileName, Arguments));
  }
  return Out;
}

// `CILKPP_RESUME_CLONE ` where the resume clone's switch jumps into a loop
// (a continuation point inside one: a spawn, sync or poll point in a loop
// body), the shape g++ 12's basic-block vectorizer miscompiled (abi.h);
// nothing elsewhere, so that clones without it keep the vectorizer.
static std::string resumeCloneAttributes(ASTContext &Ctx, const FunctionDecl *FD, const FrameDescription &Frame) {
  struct Loops : RecursiveASTVisitor<Loops> {
    std::vector<SourceRange> Ranges;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }  // its own function
    bool VisitStmt(Stmt *S) {
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) Ranges.push_back(S->getSourceRange());
      return true;
    }
  } Found;
  Found.TraverseStmt(FD->getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  const auto Inside = [&](SourceLocation Loc, SourceRange R) {
    const SourceLocation At = SM.getExpansionLoc(Loc), Begin = SM.getExpansionLoc(R.getBegin()),
                         End = SM.getExpansionLoc(R.getEnd());
    return !SM.isBeforeInTranslationUnit(At, Begin) && !SM.isBeforeInTranslationUnit(End, At);
  };
  for (const ContinuationPoint &P : Frame.Points)
    if (P.Loc.isValid() && llvm::any_of(Found.Ranges, [&](SourceRange R) { return Inside(P.Loc, R); }))
      return "CILKPP_RESUME_CLONE ";
  return "";
}

// A self-contained member's body becomes its clones class and the public
// entry's call; its tables go before its definition:
//
//   <tables class template>
//   long Tree::count(int d) { struct __cilkpp_count_clones {
//   #line <body's line>
//     struct __cilkpp_count_frame final : ::cilkpp::rt::Frame { ... };
//     static long __cilkpp_count_fast(...) { <the body> }
//     static void __cilkpp_count_resume(...) noexcept { ... }
//   };
//   #line <body's line>
//   static_cast<void>(&<tables>::info_registered); return ::cilkpp::rt::run_root<long>(...); }
static void emitSelfContainedMember(ASTContext &Ctx, Rewriter &Main, const FrameDescription &Frame,
                                    const ProcedureNames &Names, const CopiedBaseCases &Head, const std::string &FastBody,
                                    const std::string &ResumeBody, ArrayRef<std::string> CopyBodies,
                                    const EmitSettings &Settings) {
  const StringRef FileName = Settings.FileName;
  const FunctionDecl *FD = Frame.Procedure->Definition;
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = cast<CompoundStmt>(FD->getBody());
  const SourceLocation Begin = declarationBegin(Ctx, FD);
  const SourceLocation RBrace = SM.getExpansionLoc(Body->getRBracLoc());
  const unsigned BeginLine = SM.getPresumedLineNumber(Begin), BeginColumn = SM.getSpellingColumnNumber(Begin);
  const unsigned BodyLine = SM.getPresumedLineNumber(SM.getExpansionLoc(Body->getLBracLoc()));
  const unsigned EndLine = SM.getPresumedLineNumber(RBrace), EndColumn = SM.getSpellingColumnNumber(RBrace);
  const std::vector<FrameMember> Members = frameMembers(Ctx, Frame);

  std::string Before = BeginColumn > 1 ? "\n" : "";
  Before += lineDirective(BeginLine, FileName);
  Before += withCxxLinkage(FD, withoutMacros(Ctx, Settings, selfContainedTables(Ctx, Frame, Members, Names,
                                                                                *Settings.Signatures, frameScope(FD))));
  Main.InsertTextBefore(Begin, Before + lineDirective(BeginLine, FileName) + std::string(BeginColumn - 1, ' '));

  const std::string Clones = StringRef(Names.Scope).drop_back(2).str();
  const std::string Line = lineDirective(BodyLine, FileName);
  std::string Text = fmt::format("{{ struct {} {{\n{}", Clones, Line);
  Text += withoutMacros(Ctx, Settings, frameStruct(Frame, Members, Names, ""));
  const PredefinedNameMacros NameMacros = predefinedNameMacros(FD->getBody(), FD);
  Text += NameMacros.Define + Line;
  const std::string Fast = fastSignature(Ctx, FD, "static ", Names.Fast, /*WithDefaults=*/false);
  if (Head.Count == 0) {
    Text += fmt::format("CILKPP_CLONES_BEGIN {} {}\n", Fast, FastBody);
  } else {
    const std::string Tail = fastSignature(Ctx, FD, "[[__gnu__::__noinline__]] static ", fastTailName(Names),
                                           /*WithDefaults=*/false, readOnlyByHead(FD, Head));
    Text += fmt::format("CILKPP_CLONES_BEGIN {} {}\n", Tail, FastBody);
    Text += Line + Fast + " " + fastCloneHeadBody(Ctx, FD, Names, Head, FileName) + "\n";
  }
  Text += Line + fmt::format("{}static void {}([[maybe_unused]] ::cilkpp::rt::Worker *__w, [[maybe_unused]] "
                             "::cilkpp::rt::Frame *__base) noexcept {}{} CILKPP_CLONES_END\n",
                             resumeCloneAttributes(Ctx, FD, Frame), Names.Resume, ResumeBody,
                             inlinedCopies(Ctx, FD, Names, Head, CopyBodies, FileName));
  Text += NameMacros.Undefine + "};\n" + Line;
  // (Instantiates the tables, and with them their registration.)
  Text += fmt::format("static_cast<void>(&{}_registered); {} }}", Names.Info, publicEntryCall(Ctx, FD));
  nameUnnamedParameters(Main, FD);
  Main.ReplaceText(fileRange(SM, Body->getSourceRange()), Text);
  Main.InsertTextAfterToken(RBrace, fmt::format("\n{}{}", lineDirective(EndLine, FileName), std::string(EndColumn, ' ')));
}

bool emitProcedure(ASTContext &Ctx, Rewriter &Main, const FrameDescription &Frame, const ProcedureNames &Names,
                   const FastCloneAvailable &IsCilkCallee, ArrayRef<SourceLocation> RemovedKeywords,
                   bool PrototypeBefore, const EmitSettings &Settings) {
  const StringRef FileName = Settings.FileName;
  const FunctionDecl *FD = Frame.Procedure->Definition;
  const SourceManager &SM = Ctx.getSourceManager();
  const CopiedBaseCases Head = fastCloneHead(Ctx, Frame, FD);
  FastCloneBodies Bodies = fastCloneBodies(Ctx, Frame, Names, IsCilkCallee, RemovedKeywords, Settings, Head.Count,
                                           mayHaveInlinedCopies(FD, Settings));
  std::optional<std::string> &FastBody = Bodies.Fast;
  const std::vector<std::string> &CopyBodies = Bodies.Copies;
  // Without continuation points nothing can be stolen or suspended, so
  // nothing is ever resumed.
  std::optional<std::string> ResumeBody =
      Frame.Points.empty() ? std::optional<std::string>("{ __builtin_unreachable(); }")
                           : emitCloneBody(Ctx, Frame, Names, IsCilkCallee, RemovedKeywords, CloneKind::Resume, Settings);
  if (!FastBody || !ResumeBody) return false;
  if (!Names.Tables.empty()) {
    emitSelfContainedMember(Ctx, Main, Frame, Names, Head, *FastBody, *ResumeBody, CopyBodies, Settings);
    return true;
  }

  const auto *Body = cast<CompoundStmt>(FD->getBody());
  const SourceLocation Begin = declarationBegin(Ctx, FD);
  SourceLocation LBrace = SM.getExpansionLoc(Body->getLBracLoc());
  SourceLocation RBrace = SM.getExpansionLoc(Body->getRBracLoc());
  const unsigned BeginLine = SM.getPresumedLineNumber(Begin), BeginColumn = SM.getSpellingColumnNumber(Begin);
  const unsigned BodyLine = SM.getPresumedLineNumber(LBrace);
  const unsigned EndLine = SM.getPresumedLineNumber(RBrace), EndColumn = SM.getSpellingColumnNumber(RBrace);

  const bool Member = isa<CXXMethodDecl>(FD);
  // A member defined in its class has its generated definitions after the
  // class; any other procedure around its own definition.
  const bool AfterClass = Member && !FD->isOutOfLine();
  if (Member) {
    const auto *Class = cast<CXXRecordDecl>(FD->getDeclContext());
    Main.InsertTextAfter(SM.getExpansionLoc(Class->getBraceRange().getEnd()),
                         memberDeclarations(Ctx, FD, Names, Head.Count > 0, CopyBodies.size()));
  }

  // Before the definition; #line brings the user's text back to its place.
  std::string Before = BeginColumn > 1 || AfterClass ? "\n" : "";
  Before += lineDirective(BeginLine, FileName);
  // `long ns::f(...) {...}` at global scope: the fast clone's prototype (where
  // ns::f was declared in a header), the frame and the resume clone go into
  // ns, where the body's names are found.
  const DeclContext *Reopened =
      !Member && FD->getLexicalDeclContext()->isTranslationUnit() && isa<NamespaceDecl>(FD->getDeclContext())
          ? FD->getDeclContext()
          : nullptr;
  std::string Declarations;
  if (!PrototypeBefore && !Member) Declarations += fastPrototype(Ctx, FD, /*WithDefaults=*/true) + "\n";
  if (!Member && !CopyBodies.empty())
    Declarations += withCxxLinkage(FD, inlinedCopyPrototypes(Ctx, FD, Names, CopyBodies.size()));
  Declarations += withCxxLinkage(
      FD, withoutMacros(Ctx, Settings, frameDeclarations(Ctx, Frame, Names, *Settings.Signatures, frameScope(FD))));
  Before += Reopened ? inScope(Reopened, Declarations) : Declarations;
  std::string Reposition = lineDirective(BeginLine, FileName) + std::string(BeginColumn - 1, ' ');
  // Spawns call the fast clone, so an internal procedure that is only ever
  // spawned leaves its public entry unused.
  // (An explicit specialization's attributes would go after `template <>`.)
  if (!FD->isExternallyVisible() && !Member && !isExplicitSpecialization(FD)) Reposition += "[[maybe_unused]] ";

  nameUnnamedParameters(Main, FD);
  Main.ReplaceText(fileRange(SM, Body->getSourceRange()), publicEntryBody(Ctx, FD));

  const PredefinedNameMacros NameMacros = predefinedNameMacros(FD->getBody(), FD);
  std::string After = fmt::format("\n{}{}", NameMacros.Define, lineDirective(BodyLine, FileName));
  // `long ns::fib(long n) {...}` defines the fast clone declared in ns.
  std::string Qualifier;
  if (!Member && FD->getQualifierLoc())
    Qualifier = Lexer::getSourceText(CharSourceRange::getTokenRange(FD->getQualifierLoc().getSourceRange()), SM,
                                     Ctx.getLangOpts())
                    .str();
  // (A member defined in its class is inline, and so are its clones.)
  const std::string Storage = Member ? (FD->isInlined() ? "inline " : "") : storagePrefix(FD);
  const std::string Fast = fastSignature(Ctx, FD, Storage, Qualifier + fastName(FD, Names), /*WithDefaults=*/false);
  const bool CLinkage = !Member && inCLinkage(FD);
  const std::string CxxLinkage = CLinkage ? "extern \"C++\" { " : "";
  if (Head.Count == 0) {
    After += fmt::format("CILKPP_CLONES_BEGIN {}{} {}\n", CxxLinkage, Fast, *FastBody);
  } else {
    const std::string Tail = fastSignature(Ctx, FD, "[[__gnu__::__noinline__]] " + (Member ? Storage : std::string("static ")),
                                           Names.Scope + fastTailName(Names), /*WithDefaults=*/false,
                                           readOnlyByHead(FD, Head));
    After += fmt::format("CILKPP_CLONES_BEGIN {}{} {}\n", CxxLinkage, Tail, *FastBody);
    After += lineDirective(BodyLine, FileName) + Fast + " " + fastCloneHeadBody(Ctx, FD, Names, Head, FileName) + "\n";
  }
  After += lineDirective(BodyLine, FileName);
  const std::string Resume = fmt::format(
      "{}void {}{}([[maybe_unused]] ::cilkpp::rt::Worker *__w, [[maybe_unused]] ::cilkpp::rt::Frame *__base) noexcept {}",
      resumeCloneAttributes(Ctx, FD, Frame), Names.Scope, Names.Resume, *ResumeBody);
  const std::string InFile = fmt::format("namespace {{ {} }}", Resume);
  After += Member ? (FD->isInlined() ? "inline " : "") + Resume : Reopened ? inScope(Reopened, InFile) : InFile;
  After += inlinedCopies(Ctx, FD, Names, Head, CopyBodies, FileName) + (CLinkage ? " }" : "") + " CILKPP_CLONES_END\n" +
           NameMacros.Undefine;

  if (AfterClass) {
    // The class is complete there (Sema checked that the ';' exists).
    const SourceLocation ClassSemi = SM.getExpansionLoc(semicolonAfterOutermostClass(Ctx, cast<CXXMethodDecl>(FD)));
    const unsigned SemiLine = SM.getPresumedLineNumber(ClassSemi), SemiColumn = SM.getSpellingColumnNumber(ClassSemi);
    Main.InsertTextAfterToken(ClassSemi, Before + After + lineDirective(SemiLine, FileName) + std::string(SemiColumn, ' '));
    // The public entry's body has its own number of lines: the class's
    // later members get theirs back.
    Main.InsertTextAfterToken(RBrace, fmt::format("\n{}{}", lineDirective(EndLine, FileName), std::string(EndColumn, ' ')));
    return true;
  }
  Main.InsertTextBefore(Begin, Before + Reposition);
  After += lineDirective(EndLine, FileName) + std::string(EndColumn, ' ');
  Main.InsertTextAfterToken(RBrace, After);
  return true;
}

bool emitTemplateProcedure(ASTContext &Ctx, Rewriter &Main, const FunctionDecl *Pattern, ArrayRef<Instantiation> Instances,
                           const FastCloneAvailable &IsCilkCallee, ArrayRef<SourceLocation> RemovedKeywords,
                           const EmitSettings &Settings, FastDeclarations &Declared) {
  const StringRef FileName = Settings.FileName;
  const SourceManager &SM = Ctx.getSourceManager();
  const bool Member = isa<CXXMethodDecl>(Pattern);
  SourceLocation Begin = SM.getExpansionLoc(Pattern->getBeginLoc());
  // Instantiations may differ in their base cases; the tail's template is
  // declared where any has a head.
  std::vector<CopiedBaseCases> Heads;
  for (const Instantiation &I : Instances) Heads.push_back(fastCloneHead(Ctx, *I.Frame, I.Frame->Procedure->Definition));
  const bool AnyHead = llvm::any_of(Heads, [](const CopiedBaseCases &H) { return H.Count > 0; });
  const ProcedureNames PatternNames = namesFor(Pattern, Member ? memberTemplateOverloadIndex(Pattern) : 0);
  // (A class template's member has its clones declared in the class, once
  // all instantiations' are known: below.)
  if (!Member) {
    // (The fast clone's template is declared before the template's first
    // declaration: translateProcedures.)
    Begin = SM.getExpansionLoc(Pattern->getDescribedFunctionTemplate()->getTemplateParameters()->getTemplateLoc());
  }
  const unsigned BeginLine = SM.getPresumedLineNumber(Begin);
  const auto *Body = cast<CompoundStmt>(Pattern->getBody());
  nameUnnamedParameters(Main, Pattern);
  Main.ReplaceText(fileRange(SM, Body->getSourceRange()), publicEntryBody(Ctx, Pattern));
  // The public entry's body has one line: what follows gets its lines back.
  const SourceLocation RBrace = SM.getExpansionLoc(Body->getRBracLoc());
  Main.InsertTextAfterToken(RBrace, fmt::format("\n{}{:{}}", lineDirective(SM.getPresumedLineNumber(RBrace), FileName), "",
                                                SM.getSpellingColumnNumber(RBrace)));

  const unsigned BodyLine = SM.getPresumedLineNumber(SM.getExpansionLoc(Body->getLBracLoc()));
  // A free function template's clones specialise the fast clone's template
  // in its namespace; a member's are named through their class, from the
  // class's namespace (a class in an anonymous namespace has no name that
  // reaches it from outside).
  const DeclContext *Scope = Pattern->getDeclContext();
  while (isa<RecordDecl>(Scope)) Scope = Scope->getParent();
  std::string AtEnd, Declarations;
  if (AnyHead && !Member) {
    const TemplateParameterList *Params = Pattern->getDescribedFunctionTemplate()->getTemplateParameters();
    Declarations += fmt::format(
        "{} {};\n", Lexer::getSourceText(fileRange(SM, Params->getSourceRange()), SM, Ctx.getLangOpts()).str(),
        fastSignature(Ctx, Pattern, "", fastTailName(PatternNames), /*WithDefaults=*/false));
  }
  // Instantiations get inlined copies (RecursionInlining.h) as explicit
  // specialisations: a function template's of copy templates declared
  // with the fast clone's (not one with a parameter pack or constraints,
  // which the copy templates would have to repeat), a class template
  // member's of copies declared in the class (not a member function
  // template's).
  const FunctionTemplateDecl *Described = Pattern->getDescribedFunctionTemplate();
  const TemplateParameterList *PatternParams = Described ? Described->getTemplateParameters() : nullptr;
  // (Its clones are templates of their own: DeducedResults.h.)
  const bool Deferred = clonesDeferDeduction(Pattern);
  const bool TemplateMayInline =
      Settings.InlinedRecursion && !Pattern->isVariadic() && !Pattern->getTrailingRequiresClause() &&
      (Member ? !Described && !Deferred
              : !PatternParams->hasParameterPack() && !PatternParams->getRequiresClause() && !Pattern->getQualifierLoc());
  unsigned CopyLevels = 0;
  std::string CopySpecializations;
  for (unsigned Index = 0; Index < Instances.size(); ++Index) {
    const Instantiation &I = Instances[Index];
    const CopiedBaseCases &Head = Heads[Index];
    const FunctionDecl *FD = I.Frame->Procedure->Definition;
    const std::string Arguments = Deferred                                      ? "<0>"
                                  : Member && !isMemberTemplateInstance(FD) ? ""
                                                                            : templateArguments(FD);
    FastCloneBodies Bodies =
        fastCloneBodies(Ctx, *I.Frame, I.Names, IsCilkCallee, RemovedKeywords, Settings, Head.Count,
                        TemplateMayInline, Arguments);
    std::optional<std::string> &FastBody = Bodies.Fast;
    CopyLevels = std::max<unsigned>(CopyLevels, Bodies.Copies.size());
    const std::string Header = Member ? explicitSpecialization(FD) : "template <> ";
    for (unsigned Level = 1; Level <= Bodies.Copies.size(); ++Level) {
      ProcedureNames Copy = I.Names;
      Copy.Fast = inlinedCopyName(I.Names, Level);
      const std::string Storage = Header + "CILKPP_INLINED_RECURSION ";
      CopySpecializations += fastSignature(Ctx, FD, Storage, I.Names.Scope + Copy.Fast + Arguments, false) + ";\n";
      if (Head.Count)
        CopySpecializations +=
            fastSignature(Ctx, FD, Storage, I.Names.Scope + fastTailName(Copy) + Arguments, false) + ";\n";
    }
    std::optional<std::string> ResumeBody =
        I.Frame->Points.empty()
            ? std::optional<std::string>("{ __builtin_unreachable(); }")
            : emitCloneBody(Ctx, *I.Frame, I.Names, IsCilkCallee, RemovedKeywords, CloneKind::Resume, Settings);
    if (!FastBody || !ResumeBody) return false;
    AtEnd += fmt::format("\n{}{}", lineDirective(BeginLine, FileName),
                         withoutMacros(Ctx, Settings, frameDeclarations(Ctx, *I.Frame, I.Names, *Settings.Signatures, Scope)));
    const std::string Fast =
        fastSignature(Ctx, FD, "", I.Names.Scope + I.Names.Fast + Arguments, /*WithDefaults=*/false);
    // Inline, as the instantiation it translates: other files of the
    // program instantiate it too.
    const std::string Specialization = Header + "inline ";
    // (Deferred: the clone is also a template of the member.)
    const std::string FastHeader = Deferred ? Header + "template <> " : Header;
    const std::string FastSpecialization = FastHeader + "inline ";
    Declarations += fmt::format("{}{};\n", FastSpecialization, Fast);
    Declared[FD->getCanonicalDecl()] = inScope(Scope, fmt::format("{}{};\n", FastSpecialization, Fast));
    const PredefinedNameMacros NameMacros = predefinedNameMacros(FD->getBody(), FD);
    AtEnd += NameMacros.Define + lineDirective(BodyLine, FileName);
    if (Head.Count == 0) {
      AtEnd += fmt::format("CILKPP_CLONES_BEGIN {}{} {}\n", FastSpecialization, Fast, *FastBody);
    } else {
      const std::string Tail =
          fastSignature(Ctx, FD, "", I.Names.Scope + fastTailName(I.Names) + Arguments, /*WithDefaults=*/false);
      AtEnd += fmt::format("CILKPP_CLONES_BEGIN {}[[__gnu__::__noinline__]] inline {} {}\n", FastHeader, Tail, *FastBody);
      AtEnd += lineDirective(BodyLine, FileName) + FastSpecialization + Fast + " " +
               fastCloneHeadBody(Ctx, FD, I.Names, Head, FileName, Arguments) + "\n";
    }
    AtEnd += lineDirective(BodyLine, FileName);
    const std::string Resume =
        fmt::format("{}void {}{}([[maybe_unused]] ::cilkpp::rt::Worker *__w, [[maybe_unused]] "
                    "::cilkpp::rt::Frame *__base) noexcept {}",
                    resumeCloneAttributes(Ctx, FD, *I.Frame), I.Names.Scope, I.Names.Resume, *ResumeBody);
    AtEnd += (Member ? Specialization + Resume : fmt::format("namespace {{ {} }}", Resume)) +
             inlinedCopies(Ctx, FD, I.Names, Head, Bodies.Copies, FileName, Header, Arguments) + " CILKPP_CLONES_END\n" +
             NameMacros.Undefine;
  }
  if (Member) {
    const auto *Class = cast<CXXRecordDecl>(Pattern->getDeclContext());
    Main.InsertTextAfter(SM.getExpansionLoc(Class->getBraceRange().getEnd()),
                         memberDeclarations(Ctx, Pattern, PatternNames, AnyHead, CopyLevels));
  }
  // The copy templates, which only their specialisations define.
  if (CopyLevels && !Member) {
    const std::string Params =
        Lexer::getSourceText(fileRange(SM, PatternParams->getSourceRange()), SM, Ctx.getLangOpts()).str();
    std::string CopyTemplates;
    for (unsigned Level = 1; Level <= CopyLevels; ++Level) {
      ProcedureNames Copy = PatternNames;
      Copy.Fast = inlinedCopyName(PatternNames, Level);
      CopyTemplates += fmt::format("{} {};\n", Params, fastSignature(Ctx, Pattern, "", Copy.Fast, /*WithDefaults=*/true));
      if (AnyHead)
        CopyTemplates +=
            fmt::format("{} {};\n", Params, fastSignature(Ctx, Pattern, "", fastTailName(Copy), /*WithDefaults=*/false));
    }
    Declarations = CopyTemplates + Declarations;
  }
  Declarations += CopySpecializations;
  // Every specialization is declared before any is defined: one
  // instantiation's clone may call another's (an overload of the member), and
  // a specialization must precede its first use.
  const SourceLocation End = SM.getLocForEndOfFile(SM.getMainFileID());
  auto AsHere = [&](const std::string &Text) {
    return Settings.Macros ? Settings.Macros->macrosAsAt(SM, Ctx.getLangOpts(), SM.getFileOffset(RBrace),
                                                         SM.getFileOffset(Begin), SM.getFileOffset(RBrace), Text)
                           : Text;
  };
  Main.InsertTextBefore(End, AsHere(fmt::format("\n{}", inScope(Scope, lineDirective(BeginLine, FileName) + Declarations))));
  Main.InsertTextAfter(End, AsHere(inScope(Scope, AtEnd)));
  return true;
}

}  // namespace cilkpp
