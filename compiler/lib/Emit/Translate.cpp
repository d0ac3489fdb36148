// The translator's pipeline: dialect lexing (predefined keyword macros)
// -> Clang's parser -> semantic binding of keywords -> analysis of each
// procedure's frame -> emission through clang::Rewriter.
#include "cilkpp/compiler/Translate.h"

#include "Analysis/CallPoints.h"
#include "Analysis/ContinuationPoints.h"
#include "Analysis/ExceptionAnalysis.h"
#include "Analysis/FrameLayout.h"
#include "Analysis/NestedRootCalls.h"
#include "Analysis/OutstandingTargets.h"
#include "Analysis/PollPoints.h"
#include "CodeGen/AbbreviatedTemplates.h"
#include "CodeGen/BodyOutlining.h"
#include "CodeGen/DeducedResults.h"
#include "CodeGen/ExplicitInstantiations.h"
#include "CodeGen/ExpressionCalls.h"
#include "CodeGen/LocalTypeHoisting.h"
#include "CodeGen/LoopLowering.h"
#include "CodeGen/NamespaceScopes.h"
#include "CodeGen/ProcedureEmitter.h"
#include "CodeGen/SignatureTables.h"
#include "CodeGen/StatementLowering.h"
#include "CodeGen/StaticLocals.h"
#include "CodeGen/VirtualSpawns.h"
#include "CodeGen/SourceText.h"
#include "Dialect/Keywords.h"
#include "Dialect/MacroHistory.h"
#include "Emit/MacroGuards.h"
#include "Dialect/Pragmas.h"
#include "Emit/QuoteIncludes.h"
#include "Emit/SerialElision.h"
#include "Emit/UserSourceDiagnostics.h"
#include "Sema/ProcedureFinder.h"
#include "Support/Diagnostics.h"
#include "Support/Instantiations.h"
#include "Support/Nameable.h"
#include "Support/SelfContainedMembers.h"
#include "Support/SourceRanges.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <fmt/format.h>

#include <map>
#include <set>

using namespace clang;

namespace cilkpp {
namespace {

// Where the explicit specialization of an instantiation's fast clone can
// be declared for a procedure emitted in place (Caller) that calls it:
// before Caller's definition, or after the class around a member defined
// in its class (where its clones go). Returns the location and the scope
// open there; an invalid location where Caller is in a class template or a
// local class.
std::pair<SourceLocation, const DeclContext *> instanceDeclarationPoint(ASTContext &Ctx, const FunctionDecl *Caller) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Caller);
  if (!Method || Caller->isOutOfLine()) return {declarationBegin(Ctx, Caller), Caller->getLexicalDeclContext()};
  const CXXRecordDecl *Outer = Method->getParent();
  while (const auto *Up = dyn_cast<CXXRecordDecl>(Outer->getLexicalDeclContext())) Outer = Up;
  const SourceLocation Semi = semicolonAfterOutermostClass(Ctx, Method);
  if (Semi.isInvalid() || Outer->isDependentContext()) return {};
  return {Lexer::getLocForEndOfToken(Semi, 0, Ctx.getSourceManager(), Ctx.getLangOpts()), Outer->getLexicalDeclContext()};
}

// Whether Callee's fast clone specialization can be declared there: in a
// namespace that encloses the template's (not through an unnamed one), with
// every type its signature names declared by then.
bool instanceDeclarableBefore(ASTContext &Ctx, const FunctionDecl *Caller, const FunctionDecl *Callee) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto [Point, Here] = instanceDeclarationPoint(Ctx, Caller);
  if (Point.isInvalid() || !isa<NamespaceDecl, TranslationUnitDecl>(Here) || Caller->isExternC()) return false;
  const DeclContext *There = Callee->getDeclContext();
  while (isa<RecordDecl>(There)) There = There->getParent();
  for (const DeclContext *DC = There; DC->getPrimaryContext() != Here->getPrimaryContext(); DC = DC->getParent())
    if (!isa<NamespaceDecl>(DC) || cast<NamespaceDecl>(DC)->isAnonymousNamespace()) return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Method && !declaredBefore(SM, Ctx.getRecordType(Method->getParent()), Point))
    return false;
  if (const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs();
      Args && !declaredBefore(SM, Args->asArray(), Point))
    return false;
  return declaredBefore(SM, Callee->getType(), Point);
}

// Where each procedure's fast clone is first declared, and the rewriting
// that declares it there.
class FastPrototypes {
 public:
  FastPrototypes(ASTContext &Ctx, Rewriter &Main) : Ctx(Ctx), SM(Ctx.getSourceManager()), Main(Main) {}

  // Declares the fast clone right after the first declaration written in the
  // main file when that precedes the definition. Returns true when it did.
  bool declareEarly(const FunctionDecl *FD, const FunctionDecl *Definition) {
    const FunctionDecl *First = nullptr;
    // Only a namespace-scope declaration (also one in `extern "C"`) can
    // carry a prototype that the clones, emitted at namespace scope, can
    // see. An explicit specialization's chain also holds the declaration that Clang deduced
    // from the template (without the `template <>` header), not one written.
    for (const FunctionDecl *R : FD->redecls())
      if (R->getLexicalDeclContext()->getRedeclContext()->isFileContext() &&
          SM.isWrittenInMainFile(SM.getExpansionLoc(R->getLocation())) &&
          (!isExplicitSpecialization(FD) || R->getNumTemplateParameterLists() > 0) &&
          (!First || offset(R->getBeginLoc()) < offset(First->getBeginLoc())))
        First = R;
    if (!First) return false;
    if (Definition && First == Definition) {
      Offsets[FD->getCanonicalDecl()] = offset(Definition->getBeginLoc());
      return false;
    }
    SourceLocation Semi = semicolonAfter(Ctx, First->getEndLoc());
    if (Semi.isInvalid()) return false;
    Main.InsertTextAfterToken(Semi, fmt::format(" {}", fastPrototype(Ctx, First, /*WithDefaults=*/true)));
    Offsets[FD->getCanonicalDecl()] = offset(First->getBeginLoc());
    return true;
  }

  // A spawn in code that ends at Offset may call the fast clone directly.
  bool availableBefore(const FunctionDecl *Callee, unsigned Offset) const {
    auto It = Offsets.find(Callee->getCanonicalDecl());
    return It != Offsets.end() && It->second < Offset;
  }

  unsigned offset(SourceLocation Loc) const { return SM.getFileOffset(SM.getExpansionLoc(Loc)); }

 private:
  ASTContext &Ctx;
  const SourceManager &SM;
  Rewriter &Main;
  llvm::DenseMap<const FunctionDecl *, unsigned> Offsets;
};

// Where the names of a procedure's frame and clones must differ from those
// of other procedures of the same name: an anonymous or inline namespace's
// names are visible in the enclosing one too.
const DeclContext *overloadScope(const FunctionDecl *FD) {
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  while (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
    if (!NS->isAnonymousNamespace() && !NS->isInline()) break;
    DC = NS->getParent()->getRedeclContext();
  }
  // (A namespace reopened is another NamespaceDecl of the same scope.)
  return DC->getPrimaryContext();
}

bool translateProcedures(ASTContext &Ctx, Rewriter &Main, llvm::ArrayRef<KeywordUse> Uses,
                         llvm::ArrayRef<GrainPragma> Pragmas, const UnmovedBodyReasons &UnmovedBodies,
                         EmitSettings Settings) {
  const StringRef FileName = Settings.FileName;
  SemaResult Sema;
  findCilkProcedures(Ctx, Uses, Pragmas, Sema, UnmovedBodies);

  // Every procedure that passed the semantic checks is analysed, so one run
  // reports all the errors it can.
  std::vector<FrameDescription> Frames(Sema.Procedures.size());
  for (unsigned I = 0; I < Sema.Procedures.size(); ++I) {
    Frames[I].Procedure = &Sema.Procedures[I];
    if (findContinuationPoints(Ctx, Sema.Procedures[I], Frames[I])) {
      findCallPoints(Ctx, Sema.CilkFunctions, Frames[I]);
      if (Settings.PollPoints) findPollPoints(Ctx, Sema.Procedures[I], Frames[I]);
      computeFrameLayout(Ctx, Sema.Procedures[I], Frames[I], UnmovedBodies);
      // Without continuation points the resume clone is never run.
      if (!Frames[I].Points.empty()) reportSplitStatics(Ctx, Sema.Procedures[I]);
    }
    checkOutstandingTargets(Ctx, Sema.Procedures[I]);
  }
  if (Ctx.getDiagnostics().hasErrorOccurred()) return false;
  for (const FrameDescription &Frame : Frames)
    for (const HiddenTypeSource &S : hiddenTypeSources(Frame.Procedure->Definition)) nameHiddenType(Ctx, S);
  analyseExceptions(Sema.CilkFunctions, Frames);
  bool Ok = true;

  // Blanked, as in the serial elision: the host compiler's columns on the
  // declaration's line stay the user's.
  for (SourceLocation Loc : Sema.RemovedKeywords) {
    const CharSourceRange Keyword = CharSourceRange::getTokenRange(Loc, Loc);
    Main.ReplaceText(Keyword, blankedKeyword(Main.getRewrittenText(Keyword)));
  }
  const VirtualSpawns Virtuals(Ctx, Sema.CilkFunctions);
  Virtuals.declareCompanions(Main);
  Settings.Virtuals = &Virtuals;
  const NestedRootCallees NestedRoots(Ctx, Sema.CilkFunctions);
  Settings.NestedRoots = &NestedRoots;

  // cilk_for loops outside cilk procedures; the clones lower the others.
  std::vector<const ParallelLoop *> PlainLoops;
  for (const ParallelLoop &L : Sema.Loops) PlainLoops.push_back(&L);
  for (const CilkProcedure &P : Sema.Procedures)
    for (const ParallelLoop *L : P.Loops) llvm::erase(PlainLoops, L);
  const SourceManager &SM = Ctx.getSourceManager();
  lowerParallelLoops(Ctx, Main, PlainLoops, [&](SourceRange R) {
    return Lexer::getSourceText(fileRange(SM, R), SM, Ctx.getLangOpts()).str();
  }, FileName);

  FastPrototypes Prototypes(Ctx, Main);
  // Whether a spawn in FD may call a callee's fast clone. A member's is
  // declared in its class, so it is available wherever the member is.
  // The clones of template instantiations are explicit specializations at
  // the end of the file, and code emitted in place (`InPlace`) names one
  // only where the specialization's declaration can go before it
  // (InstanceCalls, below). Elsewhere (the types in its signature may be
  // declared nowhere the declaration could go earlier) such code spawns the
  // instantiation as a plain function: its own spawns still run as a cilk
  // procedure's, under a nested root call.
  std::vector<std::pair<const FunctionDecl *, const FunctionDecl *>> InstanceCalls;
  auto CilkCalleeBefore = [&](const FunctionDecl *FD, bool InPlace) -> FastCloneAvailable {
    const unsigned End = Prototypes.offset(FD->getBody()->getEndLoc());
    return [&, End, InPlace, FD](const FunctionDecl *Callee) {
      if (!Sema.CilkFunctions.contains(Callee)) return false;
      if (InPlace && (Callee->isTemplateInstantiation() || !enclosingSpecializations(Callee).empty())) {
        if (!instanceDeclarableBefore(Ctx, FD, Callee)) return false;
        InstanceCalls.push_back({FD, Callee->getCanonicalDecl()});
        return true;
      }
      // (Its clones are local to its own body.)
      if (isSelfContainedMember(Callee)) return Callee->getDefinition() == FD;
      return isa<CXXMethodDecl>(Callee) ? Callee->isDefined() : Prototypes.availableBefore(Callee, End);
    };
  };
  std::map<const FunctionDecl *, bool> PrototypeBefore;
  for (const CilkProcedure &P : Sema.Procedures) PrototypeBefore[P.Definition] = Prototypes.declareEarly(P.Definition, P.Definition);
  // Procedures declared `cilk` here but defined in another .cilkpp file. (A
  // template's fast clone template is declared before its first
  // declaration, and its instantiations are the procedures above.)
  for (const FunctionDecl *FD : Sema.CilkFunctions.all())
    if (!FD->isTemplated() && (!FD->getDefinition() || !PrototypeBefore.count(FD->getDefinition())))
      Prototypes.declareEarly(FD, nullptr);

  std::map<std::pair<const DeclContext *, std::string>, unsigned> Overloads;
  // Instantiations of each function template, emitted together.
  std::map<const FunctionDecl *, std::vector<Instantiation>> Templates;
  std::vector<const FunctionDecl *> TemplateOrder;
  for (const FrameDescription &Frame : Frames) {
    const FunctionDecl *FD = Frame.Procedure->Definition;
    unsigned Index = Overloads[{overloadScope(FD), identifierFor(FD)}]++;
    // The template's body as written (for a member function template of a
    // class template, not the class instantiation's declaration of it).
    const FunctionDecl *Pattern = nullptr;
    if (FD->isTemplateInstantiation() || !enclosingSpecializations(FD).empty())
      Pattern = FD->getTemplateInstantiationPattern();
    if (Pattern) {
      if (!Templates.count(Pattern)) TemplateOrder.push_back(Pattern);
      ProcedureNames Names = namesFor(FD, Index);
      // Members of different instantiations of a class share their names
      // (declared once in the class template) but not their frame infos.
      if (isa<CXXMethodDecl>(FD)) {
        Names = namesFor(FD, memberTemplateOverloadIndex(Pattern));
        const std::string Suffix = fmt::format("_{}", Templates[Pattern].size());
        Names.Info += Suffix;
        Names.StackInfo += Suffix;
        // A member function template's frame and resume clone are member
        // templates: each instantiation's are its specializations.
        if (isMemberTemplateInstance(FD)) {
          Names.Frame += templateArguments(FD);
          Names.Resume += templateArguments(FD);
        }
      }
      Templates[Pattern].push_back({&Frame, Names});
      continue;
    }
    Ok &= emitProcedure(Ctx, Main, Frame, namesFor(FD, Index), CilkCalleeBefore(FD, /*InPlace=*/true), Sema.RemovedKeywords,
                        PrototypeBefore[FD], Settings);
  }
  // The fast clone's template, which the clones of instantiations and
  // explicit specializations specialise, goes before the function template's
  // first declaration.
  std::vector<const FunctionTemplateDecl *> FastTemplates;
  for (const FunctionDecl *Pattern : TemplateOrder)
    if (!isa<CXXMethodDecl>(Pattern)) FastTemplates.push_back(Pattern->getDescribedFunctionTemplate()->getCanonicalDecl());
  for (const FrameDescription &Frame : Frames)
    if (isExplicitSpecialization(Frame.Procedure->Definition))
      FastTemplates.push_back(Frame.Procedure->Definition->getPrimaryTemplate()->getCanonicalDecl());
  llvm::sort(FastTemplates, [&](const FunctionTemplateDecl *A, const FunctionTemplateDecl *B) {
    return Prototypes.offset(A->getBeginLoc()) < Prototypes.offset(B->getBeginLoc());
  });
  FastTemplates.erase(std::unique(FastTemplates.begin(), FastTemplates.end()), FastTemplates.end());
  for (const FunctionTemplateDecl *Template : FastTemplates) {
    const FunctionTemplateDecl *First = firstDeclarationInMainFile(SM, Template);
    std::string Declarations = fastTemplateDeclaration(Ctx, First->getTemplatedDecl(), FileName);
    // A deduced result is named through a serial copy of the template
    // (CodeGen/DeducedResults.h), declared first.
    if (const FunctionDecl *Pattern = Template->getTemplatedDecl()->getDefinition();
        Pattern && resultDeducedPerInstantiation(Pattern)) {
      Declarations = serialCopyDeclaration(Ctx, Pattern, Uses, Pragmas, FileName) + Declarations;
      Main.InsertTextBefore(SM.getExpansionLoc(Pattern->getDescribedFunctionTemplate()->getTemplateParameters()->getTemplateLoc()),
                            serialCopyDefinitionAfterDeclaration(Ctx, Pattern, Uses, Pragmas, FileName));
    }
    Main.InsertTextBefore(SM.getExpansionLoc(First->getTemplateParameters()->getTemplateLoc()), Declarations);
  }
  for (const FunctionDecl *Pattern : TemplateOrder)
    if (isa<CXXMethodDecl>(Pattern) && resultDeducedPerInstantiation(Pattern))
      insertMemberSerialCopy(Main, Pattern, Uses, Pragmas, FileName);
  FastDeclarations Declared;
  for (const FunctionDecl *Pattern : TemplateOrder)
    Ok &= emitTemplateProcedure(Ctx, Main, Pattern, Templates[Pattern], CilkCalleeBefore(Pattern, /*InPlace=*/false),
                                Sema.RemovedKeywords, Settings, Declared);
  // Each caller's, once, in the order of its calls.
  std::map<const FunctionDecl *, std::string> BeforeCaller;
  std::vector<const FunctionDecl *> Callers;
  std::set<std::pair<const FunctionDecl *, const FunctionDecl *>> Seen;
  for (const auto &[Caller, Callee] : InstanceCalls) {
    auto It = Declared.find(Callee);
    if (It == Declared.end() || !Seen.insert({Caller, Callee}).second) continue;
    if (!BeforeCaller.count(Caller)) Callers.push_back(Caller);
    BeforeCaller[Caller] += It->second;
  }
  for (const FunctionDecl *Caller : Callers)
    if (const auto [Point, Here] = instanceDeclarationPoint(Ctx, Caller); Point.isValid())
      Main.InsertTextBefore(Point, fmt::format("\n{}", atGlobalScope(Here, BeforeCaller[Caller])));
  std::vector<const FunctionDecl *> Definitions;
  for (const FrameDescription &Frame : Frames) Definitions.push_back(Frame.Procedure->Definition);
  moveExplicitInstantiations(Ctx, Main, Definitions, Settings.Macros, FileName);
  return Ok;
}

// What one parse produces: the translation, or the main file with bodies
// outlined, to be parsed again.
struct RoundResult {
  std::optional<std::string> Output;
  std::optional<std::string> Outlined;
};

class TranslationConsumer : public ASTConsumer {
 public:
  TranslationConsumer(const TranslateOptions &Options, bool MayOutline, std::vector<KeywordUse> &Uses,
                      const std::vector<KeywordUse> &HeaderUses, std::vector<GrainPragma> &Pragmas,
                      std::vector<QuoteInclude> &Includes, const MacroHistory &Macros, Preprocessor &PP,
                      RoundResult &Result)
      : Options(Options), MayOutline(MayOutline), Uses(Uses), HeaderUses(HeaderUses), Pragmas(Pragmas),
        Includes(Includes), Macros(Macros), PP(PP), Result(Result) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred()) return;
    const SourceManager &SM = Ctx.getSourceManager();
    if (!Options.Serial && (reportReducers(Ctx.getDiagnostics()) | reportRuntimeNamespaceTaken(Ctx))) return;
    UnmovedBodyReasons UnmovedBodies;
    if (!Options.Serial && MayOutline) {
      // The next round reports whatever this one would.
      Ctx.getDiagnostics().setSuppressAllDiagnostics(true);
      Result.Outlined = nameInventedTemplateParameters(Ctx, Uses, Pragmas);
      if (!Result.Outlined) Result.Outlined = lowerParallelRangeLoops(Ctx, Uses, Pragmas, Options.InputPath);
      if (!Result.Outlined) Result.Outlined = outlineSpawningBodies(Ctx, Uses, Pragmas, Options.InputPath, UnmovedBodies);
      if (!Result.Outlined) Result.Outlined = lowerStatementsAroundContinuations(Ctx, Uses, Options.InputPath, Options.PollPoints);
      if (!Result.Outlined) {
        // (One semantic pass for the two rounds that rewrite procedures' own
        // statements.)
        SemaResult Sema;
        findCilkProcedures(Ctx, Uses, Pragmas, Sema);
        Result.Outlined = hoistExpressionCalls(Ctx, Sema);
        if (!Result.Outlined) Result.Outlined = hoistStaticLocals(Ctx, Sema);
      }
      if (!Result.Outlined) Result.Outlined = hoistLocalTypes(Ctx, Uses, Options.InputPath);
      Ctx.getDiagnostics().setSuppressAllDiagnostics(false);
      if (Result.Outlined) return;
    }
    if (Options.Dependencies) recordDependencies(SM);
    Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
    std::string Header;
    if (Options.Serial) {
      elideKeywords(Main, Uses, Pragmas);
    } else {
      SignatureTables Signatures(Ctx, Options.InputPath);
      if (!translateProcedures(Ctx, Main, Uses, Pragmas, UnmovedBodies,
                               {Options.InputPath, Options.CountSpawns, Options.PollPoints,
                                Options.InlinedRecursion, &Signatures, /*Virtuals=*/nullptr, &Macros}))
        return;
      if (Options.DumpSignatures) {
        Result.Output = Signatures.dump();
        return;
      }
      guardTranslatedDeclarations(Ctx, Main, Macros, Options.InputPath);
      Header = runtimeInclude(PP, Macros) + openCilkPredefine();
      // Makes the statistics show the spawns column (abi.h).
      if (Options.CountSpawns)
        Header += "[[maybe_unused]] static const bool __cilkpp_counts_spawns = ::cilkpp::rt::count_spawns_in_stats();\n";
    }
    if (Ctx.getDiagnostics().hasErrorOccurred()) return;
    if (!Options.Serial) reportHeaderKeywords(Ctx.getDiagnostics(), SM);
    Header += hostKeywordDefines(Options.Serial);
    undefineBeforeKeywordDefinitions(SM, Main, Macros, Options.InputPath);
    pinQuoteIncludes(Main, Includes);
    const RewriteBuffer *Edited = Main.getRewriteBufferFor(SM.getMainFileID());
    std::string Body = Edited ? std::string(Edited->begin(), Edited->end()) : SM.getBufferData(SM.getMainFileID()).str();
    // A byte-order mark is skipped only at the very start of a file.
    if (llvm::StringRef(Body).starts_with("\xEF\xBB\xBF")) Body.erase(0, 3);
    // g++ places the function that runs static initializers (the
    // registrations) at the file's last token, which must not be the user's.
    if (!Options.Serial && !llvm::StringRef(Body).ends_with("\n")) Body += "\n";
    const std::string AtEnd =
        Options.Serial ? "" : generatedCodeLineDirective() + "static_assert(true, \"the last token: static initializers\");\n";
    Result.Output = Header + lineDirective(1, Options.InputPath) + Body + AtEnd;
  }

 private:
  bool reportReducers(DiagnosticsEngine &Diags) const {
    bool Reported = false;
    for (const KeywordUse &U : Uses) {
      if (U.Kind != KeywordKind::Reducer) continue;
      cilkpp::diag::report(Diags, U.Loc, cilkpp::diag::ReducerUnsupported) << U.Spelling;
      Reported = true;
    }
    return Reported;
  }

  static bool reportRuntimeNamespaceTaken(ASTContext &Ctx) {
    bool Reported = false;
    auto Check = [&](const NamedDecl *Named) {
      if (isa<NamespaceDecl>(Named) || !Named->getIdentifier() || Named->getName() != "cilkpp") return;
      cilkpp::diag::report(Ctx.getDiagnostics(), Named->getLocation(), cilkpp::diag::RuntimeNamespaceTaken);
      Reported = true;
    };
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      if (const auto *Named = dyn_cast<NamedDecl>(D)) Check(Named);
      // (An unscoped enum's enumerators are global names too.)
      if (const auto *Enum = dyn_cast<EnumDecl>(D); Enum && !Enum->isScoped())
        for (const EnumConstantDecl *Enumerator : Enum->enumerators()) Check(Enumerator);
    }
    return Reported;
  }

  // Once per header, at its first keyword (in the last round only: each
  // round lexes the headers again).
  void reportHeaderKeywords(DiagnosticsEngine &Diags, const SourceManager &SM) const {
    std::set<FileID> Reported;
    for (const KeywordUse &U : HeaderUses)
      if (Reported.insert(SM.getFileID(SM.getExpansionLoc(U.Loc))).second)
        cilkpp::diag::report(Diags, SM.getExpansionLoc(U.Loc), cilkpp::diag::KeywordInHeader) << U.Spelling;
  }

  void recordDependencies(const SourceManager &SM) {
    std::vector<std::string> Headers;
    const OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (!Main || It->first != *Main) Headers.push_back(It->first.getName().str());
    llvm::sort(Headers);
    Headers.erase(std::unique(Headers.begin(), Headers.end()), Headers.end());
    *Options.Dependencies = {Options.InputPath};
    Options.Dependencies->insert(Options.Dependencies->end(), Headers.begin(), Headers.end());
  }

  const TranslateOptions &Options;
  const bool MayOutline;
  std::vector<KeywordUse> &Uses;
  const std::vector<KeywordUse> &HeaderUses;
  std::vector<GrainPragma> &Pragmas;
  std::vector<QuoteInclude> &Includes;
  const MacroHistory &Macros;
  Preprocessor &PP;
  RoundResult &Result;
};

class TranslationAction : public ASTFrontendAction {
 public:
  TranslationAction(const TranslateOptions &Options, bool MayOutline, RoundResult &Result)
      : Options(Options), MayOutline(MayOutline), Result(Result) {}

 protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.setPredefines(PP.getPredefines() + keywordPredefines(Options.Serial));
    PP.addPPCallbacks(std::make_unique<KeywordRecorder>(PP, Uses, HeaderUses));
    PP.addPPCallbacks(std::make_unique<QuoteIncludeRecorder>(CI.getSourceManager(), Includes));
    PP.addPPCallbacks(std::make_unique<MacroHistoryRecorder>(CI.getSourceManager(), Macros, runtimeHeaderDirectory(PP)));
    PP.AddPragmaHandler("cilk", new GrainsizePragmaHandler(Pragmas));
    PP.AddPragmaHandler("cilk", new UnknownCilkPragmaHandler);
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    return std::make_unique<TranslationConsumer>(Options, MayOutline, Uses, HeaderUses, Pragmas, Includes, Macros,
                                                 CI.getPreprocessor(), Result);
  }

 private:
  const TranslateOptions &Options;
  const bool MayOutline;
  RoundResult &Result;
  std::vector<KeywordUse> Uses, HeaderUses;
  std::vector<GrainPragma> Pragmas;
  std::vector<QuoteInclude> Includes;
  MacroHistory Macros;
};

class TranslationActionFactory : public tooling::FrontendActionFactory {
 public:
  TranslationActionFactory(const TranslateOptions &Options, bool MayOutline, RoundResult &Result)
      : Options(Options), MayOutline(MayOutline), Result(Result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<TranslationAction>(Options, MayOutline, Result);
  }

 private:
  const TranslateOptions &Options;
  const bool MayOutline;
  RoundResult &Result;
};

// Rounds of rewriting before the last parse: one per level of lambdas that
// spawn nested in one another, plus one each for the statements around
// continuation points, the calls inside expressions, the static locals and
// the local types, and again for lambdas those last ones made movable (a
// local class moved out is then named by a using-declaration) and the
// procedures they became. Deeper lambdas stay serial.
constexpr int MaxOutliningRounds = 20;

// The command for the input, naming it as the user did: ClangTool asks for
// its absolute path, and Clang's diagnostics print the name the command
// gives (the host compiler's print the user's).
class InputAsGiven : public tooling::CompilationDatabase {
 public:
  InputAsGiven(const std::vector<std::string> &Args, std::string Input) : Fixed(".", Args), Input(std::move(Input)) {}
  std::vector<tooling::CompileCommand> getCompileCommands(StringRef) const override {
    return Fixed.getCompileCommands(Input);
  }

 private:
  tooling::FixedCompilationDatabase Fixed;
  std::string Input;
};

}  // namespace

std::optional<std::string> translate(const TranslateOptions &Options) {
  // -Wno-everything: the host compiler reports warnings on the translated
  // code; Clang reporting them too would print each one twice. (Unlike -w it
  // leaves the translator's own warnings on.) It also turns off warnings
  // that are errors by default; those of a `return` that does not match its
  // function (an error for g++ too) stay errors: the translation rewrites
  // such a return, and the host would not see it. (The user's own
  // -Wno-return-mismatch, after these, still wins.)
  std::vector<std::string> Args = {"-x", "c++", "-Wno-everything", "-Werror=return-mismatch",
                                   "-resource-dir=" CILKPP_CLANG_RESOURCE_DIR};
  Args.insert(Args.end(), Options.ParseArgs.begin(), Options.ParseArgs.end());
  const InputAsGiven Database(Args, Options.InputPath);
  // Each round that outlines bodies hands the next one the rewritten file,
  // under the file's own name, so includes and diagnostics stay the same.
  llvm::SmallString<256> AbsolutePath(Options.InputPath);
  llvm::sys::fs::make_absolute(AbsolutePath);
  std::optional<std::string> Source;
  std::unique_ptr<UserSourceDiagnostics> Diagnostics;
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> UserText = llvm::MemoryBuffer::getFile(Options.InputPath))
    Diagnostics = std::make_unique<UserSourceDiagnostics>(Options.InputPath, (*UserText)->getBuffer().str());
  for (int Round = 0;; ++Round) {
    tooling::ClangTool Tool(Database, {Options.InputPath});
    Tool.setPrintErrorMessage(false);
    if (Diagnostics) Tool.setDiagnosticConsumer(Diagnostics.get());
    if (Source) Tool.mapVirtualFile(AbsolutePath, *Source);
    RoundResult Result;
    TranslationActionFactory Factory(Options, Round < MaxOutliningRounds, Result);
    if (Tool.run(&Factory) != 0) return std::nullopt;
    if (!Result.Outlined) return Result.Output;
    Source = std::move(Result.Outlined);
  }
}

}  // namespace cilkpp
