#include "CodeGen/CloneEmitter.h"

#include "Analysis/ArgumentTemporaries.h"
#include "Analysis/FrameLayout.h"
#include "Analysis/NestedRootCalls.h"
#include "Analysis/OwnCode.h"

#include "CodeGen/ConstantValues.h"
#include "CodeGen/DebuggerNames.h"
#include "CodeGen/LoopLowering.h"
#include "CodeGen/PackExpansions.h"
#include "CodeGen/PredefinedNames.h"
#include "CodeGen/SourceText.h"
#include "CodeGen/TryBlocks.h"
#include "CodeGen/UnusedAliases.h"
#include "CodeGen/VirtualSpawns.h"
#include "Dialect/MacroHistory.h"
#include "Support/Diagnostics.h"
#include "Support/Instantiations.h"
#include "Support/Lambdas.h"
#include "Support/Movable.h"
#include "Support/Nameable.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/DenseSet.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

using namespace clang;

namespace cilkpp {
namespace {

// The variable `return v;` implicitly moves from (Clang marks the move as an
// xvalue no-op cast of v), or null.
const VarDecl *implicitlyMovedVariable(const Expr *Value) {
  for (const Expr *E = Value; E;) {
    E = E->IgnoreParens();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) {
      E = Cleanups->getSubExpr();
    } else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = Bind->getSubExpr();
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      E = Construct->getNumArgs() == 1 ? Construct->getArg(0) : nullptr;
    } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_NoOp && Cast->isXValue())
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
          return dyn_cast<VarDecl>(Ref->getDecl());
      E = Cast->getSubExpr();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

// Generated statements replace user statements on the same line, so line
// numbers in the clone stay those of the .cilkpp file.
class CloneBuilder {
 public:
  CloneBuilder(ASTContext &Ctx, const FrameDescription &Frame, const ProcedureNames &Names,
               const FastCloneAvailable &IsCilkCallee, ArrayRef<SourceLocation> RemovedKeywords, CloneKind Kind,
               const EmitSettings &Settings, unsigned OmittedBaseCases, StringRef SelfSpawnTarget)
      : Settings(Settings), OmittedBaseCases(OmittedBaseCases), SelfSpawnTarget(SelfSpawnTarget), Ctx(Ctx),
        SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), Frame(Frame),
        Proc(*Frame.Procedure), FD(Proc.Definition), Names(Names), IsCilkCallee(IsCilkCallee),
        RemovedKeywords(RemovedKeywords), Kind(Kind), Tries(Ctx, Frame),
        Final(Ctx.getSourceManager(), Ctx.getLangOpts()) {
    // (Before the throw points: a pack element's temporaries are not held.)
    findPackExpansions();
    Tries.markThrowPoints([&](unsigned Spawn) { return hasThrowPoint(Spawn); });
  }

  std::optional<std::string> build() {
    collectWholeStatements();
    // A discarded branch becomes `{}`: a statement with its `;` (which
    // would end an `if` before its `else`).
    const StringRef File = SM.getBufferData(SM.getMainFileID());
    for (SourceRange R : discardedBranches(FD)) {
      const CharSourceRange Range = fileRange(SM, R);
      const unsigned Begin = SM.getFileOffset(Range.getBegin());
      unsigned End = offsetAfter(Range.getEnd());
      if (!File.slice(Begin, End).starts_with("{") && !File.slice(Begin, End).ends_with(";"))
        if (const SourceLocation Semi = semicolonAfter(Ctx, Range.getEnd()); Semi.isValid()) End = offsetAfter(Semi);
      Discarded.push_back({Begin, End});
    }
    if (!substituteFrameAccesses()) return std::nullopt;
    expandPacks();
    emptyDiscardedBranches();
    dropConstexprAroundPoints();
    for (unsigned I = 0; I < Proc.Spawns.size(); ++I) replaceWhole(spawnRange(I), spawnText(I));
    for (unsigned I = 0; I < Frame.Calls.size(); ++I)
      if (Frame.CallEntry[I]) replaceWhole(statementRange(Ctx, Frame.Calls[I].Statement), callText(I));
    for (const DeclStmt *DS : FieldDeclarations) replaceWhole(statementRange(Ctx, DS), declarationText(DS));
    for (unsigned I = 0; I < Proc.Syncs.size(); ++I) rewriteSync(I);
    for (unsigned I = 0; I < Proc.Returns.size(); ++I)
      if (!omitted(Proc.Returns[I]->getReturnLoc())) rewriteReturn(I);
    // The head ran these (ProcedureEmitter.cpp).
    for (unsigned I = 0; I < OmittedBaseCases; ++I)
      replaceWhole(statementRange(Ctx, Frame.EarlyReturns[I]), fmt::format("/* in {} */", Names.Fast));
    rewriteLoopExits();
    destroyInHandlers();
    if (Kind == CloneKind::Resume) {
      settleBeforeHandlers();
      Tries.emitDispatch(Final);
    }
    lowerParallelLoops(Ctx, Final, Proc.Loops, [this](SourceRange R) { return text(R); }, Settings.FileName);
    // After the cilk_for loops: a loop whose body is one ends after it.
    rewriteBackEdgePolls();
    // (The empty statement first: clang's -Wmisleading-indentation took a
    // poll after `if (n < 2)\n return n;`, on that line, for the if's.)
    if (const std::string Poll = entryPollText(); Frame.EntryPollAfter && !Poll.empty())
      Final.InsertTextAfterToken(statementEnd(Ctx, Frame.EntryPollAfter), ";" + Poll);
    const auto *Body = cast<CompoundStmt>(FD->getBody());
    forEachUnmarkedLocalAlias(Ctx, Body, [&](SourceLocation At, const char *Mark) {
      if (!inDiscarded(SM.getFileOffset(At))) Final.InsertTextBefore(At, Mark);
    });
    CharSourceRange BodyRange = fileRange(SM, Body->getSourceRange());
    for (SourceLocation Loc : RemovedKeywords)
      if (SM.isPointWithin(Loc, BodyRange.getBegin(), BodyRange.getEnd()) && !inDiscarded(SM.getFileOffset(Loc)))
        Final.RemoveText(CharSourceRange::getTokenRange(Loc, Loc));
    // An instantiation's clones read the template's text: its parameter
    // names must mean the instantiation's arguments.
    const std::string Aliases = templateParameterAliases(FD);
    Final.InsertTextAfterToken(Body->getLBracLoc(), (Aliases.empty() ? "" : " " + Aliases) + prologue());
    // The body's own fields die after the implicit sync at its end (its
    // children may still use them), then the frame is freed; a nested
    // block's at its end. Later fields first, as C++ destroys them.
    const bool EpilogueDestroys = Kind == CloneKind::Resume && Frame.FallsOffEnd;
    std::string BodyCleanups;
    for (const FrameField &F : Frame.Fields) {
      if (!F.ManagedLifetime) continue;
      if (EpilogueDestroys && F.Block == Body) BodyCleanups = destroy(F.Var) + BodyCleanups;
      // (Not after a block's last `break;`: dead code there made g++ warn
      // that the `case` falls through.)
      else if (!endsInJump(F.Block)) Final.InsertTextBefore(F.Block->getRBracLoc(), destroy(F.Var));
    }
    Final.InsertTextAfter(Body->getRBracLoc(), epilogue(BodyCleanups));
    Final.InsertTextAfter(Body->getRBracLoc(), unwinding());
    // Inserted before the destructions: a scope's sync waits for children
    // that may use its variables.
    for (unsigned I = 0; I < Proc.Scopes.size(); ++I) rewriteScope(I);
    // Last: text inserted before a statement goes before what replaced its
    // first token (`return`).
    if (Kind == CloneKind::Fast) exposeBeforeNestedRootCalls();
    return Final.getRewrittenText(fileRange(SM, Body->getSourceRange()));
  }

 private:
  bool accessesFrame(const VarDecl *V) const {
    const FrameField *F = Frame.field(V);
    return F && (Kind == CloneKind::Resume || F->ResidentOnFastPath);
  }
  // The frame member holding V, and the expression that names V itself
  // (a reference is held as a pointer).
  std::string fieldOf(const VarDecl *V) const { return "__frame->" + Frame.field(V)->Name; }
  // The address of V's field as a result slot: a class may overload unary
  // `&` (a proxy's, or a deleted one), which the built-in takes past.
  std::string slotOf(const VarDecl *V) const {
    const QualType T = V->getType();
    if (T->isDependentType() || T->isRecordType()) return fmt::format("__builtin_addressof({})", fieldOf(V));
    return fmt::format("&{}", fieldOf(V));
  }
  std::string accessOf(const VarDecl *V) const {
    return Frame.field(V)->IsReference ? fmt::format("(*{})", fieldOf(V)) : fieldOf(V);
  }
  // A use of V in the user's code: a const variable's field is not const
  // (the generated code stores into it), but its uses must see it const, for
  // overload resolution.
  std::string useOf(const VarDecl *V) const {
    const QualType T = V->getType();
    return !T->isReferenceType() && T.isConstQualified() ? fmt::format("::std::as_const({})", accessOf(V))
                                                         : accessOf(V);
  }
  // What stores V's current value (or referent) into its field.
  std::string valueToStore(const VarDecl *V, const std::string &Name) const {
    return Frame.field(V)->IsReference ? fmt::format("__builtin_addressof({})", Name) : Name;
  }
  // Where a use of the procedure's state is written: in the file, or in an
  // argument of a macro. Inside a macro body there is nothing to rewrite.
  std::optional<SourceLocation> writtenLoc(SourceLocation Loc, const char *What) {
    if (!Loc.isMacroID()) return Loc;
    if (SM.isMacroArgExpansion(Loc)) return SM.getSpellingLoc(Loc);
    diag::report(Ctx.getDiagnostics(), SM.getExpansionLoc(Loc), diag::ConstructUnsupported)
        << fmt::format("{} used inside a macro body", What);
    return std::nullopt;
  }

  // A save at a spawn or call; a SavedOnce field's only until it is done.
  std::string saveOnceText(const VarDecl *V) const {
    const FrameField *F = Frame.field(V);
    if (!F->SavedOnce) return saveText(V);
    return fmt::format("if (!__cilkpp_saved_{0}) {{ {1}__cilkpp_saved_{0} = true; }} ", F->Name, saveText(V));
  }
  // Whether each SavedOnce field has been saved in this call of the fast clone.
  std::string savedOnceFlags() const {
    std::string Out;
    for (const FrameField &F : Frame.Fields)
      if (F.SavedOnce) Out += fmt::format(" [[maybe_unused]] bool __cilkpp_saved_{} = false;", F.Name);
    return Out;
  }
  // A class type may have no usable copy assignment (a const member), and a
  // local declared without an initializer may be saved before the program
  // sets it: both go through init_field, which copies either without the
  // host compiler warning about the second.
  std::string saveText(const VarDecl *V) const {
    const bool MaybeUnset = !isa<ParmVarDecl>(V) && !V->hasInit() && !Frame.field(V)->IsReference;
    if (MaybeUnset)
      return fmt::format("CILKPP_SAVE_UNSET({}, {}) ", fieldOf(V), nameOf(V));
    if (V->getType()->isRecordType())
      return fmt::format("::cilkpp::rt::init_field({}, {}); ", fieldOf(V), nameOf(V));
    return fmt::format("{} = {}; ", fieldOf(V), valueToStore(V, nameOf(V)));
  }
  // A variable as the clone names it (a pack element has a name of its own).
  static std::string nameOf(const VarDecl *V) {
    const auto *Param = dyn_cast<ParmVarDecl>(V);
    return Param ? parameterName(Param) : V->getName().str();
  }
  std::string text(SourceRange R) { return render(fileRange(SM, R)); }

  // The source text of a range with frame accesses substituted.
  std::string render(CharSourceRange R) {
    unsigned Begin = SM.getFileOffset(R.getBegin());
    unsigned End = SM.getFileOffset(R.getEnd()) + Lexer::MeasureTokenLength(R.getEnd(), SM, LO);
    StringRef Buffer = SM.getBufferData(SM.getFileID(R.getBegin()));
    // Text written again elsewhere would take a part of an #if with it.
    // (Reported once, by the resume clone, which rewrites every statement
    // the fast clone does.)
    if (Kind == CloneKind::Resume && cutsConditional(Buffer.slice(Begin, End))) {
      diag::report(Ctx.getDiagnostics(), R.getBegin(), diag::ConstructUnsupported)
          << "a preprocessor directive inside a statement that the translation rewrites";
      DirectiveReports.push_back(Begin);
    }
    std::string Out;
    unsigned Pos = Begin;
    const TextSubstitutions &Active = HeldSubstitutions ? *HeldSubstitutions : Substitutions;
    for (auto It = Active.lower_bound(Begin); It != Active.end() && It->first < End; ++It) {
      Out += Buffer.substr(Pos, It->first - Pos).str() + It->second.second;
      Pos = It->first + It->second.first;
    }
    // A substitution is atomic: a pack expansion replaces `xs...`, and an
    // expression of one element covers only `xs`.
    return Pos >= End ? Out : Out + Buffer.substr(Pos, End - Pos).str();
  }
  // Whether Text holds a part of a preprocessor conditional only (an #if
  // without its #endif, an #else without its #if).
  static bool cutsConditional(StringRef Text) {
    if (Text.empty()) return false;
    int Depth = 0;
    for (size_t Line = 0; Line != StringRef::npos; Line = Text.find('\n', Line)) {
      if (Text[Line] == '\n') ++Line;
      StringRef Rest = Text.drop_front(Line).ltrim(" \t");
      if (!Rest.consume_front("#")) continue;
      Rest = Rest.ltrim(" \t");
      if (Rest.starts_with("if")) ++Depth;
      else if (Rest.starts_with("endif") && --Depth < 0) return true;
      else if (Rest.starts_with("el") && Depth == 0) return true;
    }
    return Depth != 0;
  }
  bool isVoid() const { return FD->getReturnType()->isVoidType(); }
  std::string returnType() { return typeQualified(Ctx, FD->getReturnType()); }

  // Within the base cases the fast clone's tail leaves out.
  bool omitted(SourceLocation Loc) const {
    const SourceLocation At = SM.getExpansionLoc(Loc);
    return llvm::any_of(llvm::ArrayRef(Frame.EarlyReturns).take_front(OmittedBaseCases), [&](const Stmt *S) {
      const CharSourceRange R = statementRange(Ctx, S);
      return SM.isPointWithin(At, R.getBegin(), R.getEnd());
    });
  }

  // Before a statement whose calls may enter a cilk procedure through its
  // public entry (Analysis/NestedRootCalls.h), the frames above this one
  // are exposed: a nested root call would hide them from thieves. Not
  // inside statements that are rewritten whole (spawns, call points,
  // declarations of frame variables), whose text is generated again.
  void exposeBeforeNestedRootCalls() {
    if (!Settings.NestedRoots) return;
    struct Calls : OwnCodeVisitor<Calls> {
      using OwnCodeVisitor::OwnCodeVisitor;
      bool VisitCallExpr(CallExpr *C) {
        Found.push_back(C);
        return true;
      }
      std::vector<const CallExpr *> Found;
    } V(Proc);
    V.TraverseStmt(FD->getBody());
    ParentMap PM(FD->getBody());
    llvm::DenseSet<const Stmt *> Exposed;
    for (const CallExpr *C : V.Found) {
      const FunctionDecl *Callee = C->getDirectCallee();
      // (Left out: a procedure whose fast clone this code may call. Its
      // spawns, call points and tail calls go through that clone; the few
      // calls of it that stay nested root calls are not worth an exposure
      // before every such call.)
      if (!Settings.NestedRoots->reaches(Callee) || IsCilkCallee(Callee)) continue;
      const Stmt *S = statementAround(PM, C);
      if (!S || S->getBeginLoc().isMacroID() || insideWholeRange(S->getBeginLoc()) || !Exposed.insert(S).second)
        continue;
      Final.InsertTextBefore(S->getBeginLoc(), "::cilkpp::rt::expose_chain(__w, __parent); ");
    }
  }

  // The statement holding E where another statement may go before it.
  static const Stmt *statementAround(ParentMap &PM, const Stmt *E) {
    for (const Stmt *S = E;;) {
      const Stmt *Parent = PM.getParent(S);
      if (!Parent) return nullptr;
      if (isa<CompoundStmt>(Parent)) return S;
      if (const auto *Case = dyn_cast<SwitchCase>(Parent); Case && Case->getSubStmt() == S) return S;
      if (const auto *Label = dyn_cast<LabelStmt>(Parent); Label && Label->getSubStmt() == S) return S;
      S = Parent;
    }
  }

  // Statements replaced as a whole: spawns, and declarations of variables
  // that live in the frame in this clone.
  void collectWholeStatements() {
    for (unsigned I = 0; I < OmittedBaseCases; ++I) addWholeRange(Frame.EarlyReturns[I]);
    for (unsigned I = 0; I < Proc.Spawns.size(); ++I) addWholeRange(spawnRange(I));
    for (unsigned I = 0; I < Frame.Calls.size(); ++I)
      if (Frame.CallEntry[I]) addWholeRange(Frame.Calls[I].Statement);
    for (const ParallelLoop *Loop : Proc.Loops) addWholeRange(loopHeaderRange(SM, *Loop));
    for (unsigned I = 0; I < Proc.Returns.size(); ++I)
      if (memberTailCall(I)) addWholeRange(Proc.Returns[I]);
    struct Visitor : RecursiveASTVisitor<Visitor> {
      CloneBuilder &B;
      explicit Visitor(CloneBuilder &B) : B(B) {}
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      bool VisitDeclStmt(DeclStmt *DS) {
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D); V && B.accessesFrame(V) && !B.isSpawnStatement(DS)) {
            B.FieldDeclarations.push_back(DS);
            B.addWholeRange(DS);
            break;
          }
        return true;
      }
    } V(*this);
    V.TraverseStmt(FD->getBody());
  }

  // A statement spawnText or callText replaces.
  bool isSpawnStatement(const Stmt *S) const {
    for (const SpawnSite &Site : Proc.Spawns)
      if (Site.Statement == S) return true;
    for (unsigned I = 0; I < Frame.Calls.size(); ++I)
      if (Frame.CallEntry[I] && Frame.Calls[I].Statement == S) return true;
    return false;
  }

  // The statement of a spawn, from the keyword (`spawn f(x);`) or from the
  // target (`x = spawn f(x);`) to its semicolon.
  CharSourceRange spawnRange(unsigned Index) {
    const SpawnSite &Site = Proc.Spawns[Index];
    CharSourceRange R = statementRange(Ctx, Site.Statement);
    if (SM.isBeforeInTranslationUnit(Site.KeywordLoc, R.getBegin())) R.setBegin(Site.KeywordLoc);
    return R;
  }

  // Replaces a statement written over several lines (`f(a,\n b)`) with
  // text that ends as many lines further down, so that the lines after it
  // keep their numbers (`__LINE__`, diagnostics, debuggers).
  void replaceWhole(CharSourceRange R, std::string Text) {
    const unsigned Begin = SM.getFileOffset(R.getBegin()), End = offsetAfter(R.getEnd());
    const StringRef Buffer = SM.getBufferData(SM.getMainFileID()), Written = Buffer.slice(Begin, End);
    // A directive inside that the new text does not carry along (in a part
    // it renders again) would be dropped, also one in lines the preprocessor
    // skipped (`#ifdef EXTRA` among the arguments without -DEXTRA, which
    // the host compile may have).
    const auto Dropped = [&](unsigned At) {
      const size_t LineBegin = Buffer.rfind('\n', At) + 1, LineEnd = Buffer.find('\n', At);
      return !StringRef(Text).contains(Buffer.slice(LineBegin, LineEnd).trim());
    };
    const bool Reported = llvm::any_of(DirectiveReports, [&](unsigned At) { return Begin <= At && At < End; });
    if (Kind == CloneKind::Resume && !Reported && Settings.Macros &&
        llvm::any_of(Settings.Macros->directivesWithin(Begin, End), Dropped))
      diag::report(Ctx.getDiagnostics(), R.getBegin(), diag::ConstructUnsupported)
          << "a preprocessor directive inside a statement that the translation rewrites";
    const size_t Lines = Written.count('\n'), Kept = StringRef(Text).count('\n');
    if (Lines > Kept) Text.append(Lines - Kept, '\n');
    Final.ReplaceText(R, Text);
  }

  static bool endsInJump(const CompoundStmt *Block) {
    const Stmt *Last = Block->body_empty() ? nullptr : Block->body_back();
    return isa_and_nonnull<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, CXXThrowExpr>(Last);
  }

  void addWholeRange(const Stmt *S) { addWholeRange(statementRange(Ctx, S)); }
  void addWholeRange(CharSourceRange R) {
    WholeRanges.push_back({SM.getFileOffset(R.getBegin()), SM.getFileOffset(R.getEnd())});
  }

  bool insideWholeRange(SourceLocation Loc) const {
    unsigned Offset = SM.getFileOffset(Loc);
    for (auto [Begin, End] : WholeRanges)
      if (Begin <= Offset && Offset <= End) return true;
    // (A pack expansion is replaced as a whole too: expandPacks.)
    for (const PackExpansion &E : Expansions)
      if (E.Begin <= Offset && Offset < E.End) return true;
    return inDiscarded(Offset);
  }

  // Branches of `if constexpr` that this instantiation discards: the
  // template's text there may not even be valid for it (`f(rest...)` of an
  // empty pack), and in the clone, a non-template, it would be checked.
  std::vector<std::pair<unsigned, unsigned>> Discarded;
  bool inDiscarded(unsigned Offset) const {
    return llvm::any_of(Discarded, [&](auto R) { return R.first <= Offset && Offset < R.second; });
  }
  // The resume clone jumps to labels at continuation points, and a jump into
  // an `if constexpr` is ill-formed; in a clone the condition is a
  // constant anyway (a template's discarded branch is `{}` there).
  void dropConstexprAroundPoints() {
    struct Visitor : RecursiveASTVisitor<Visitor> {
      CloneBuilder &B;
      explicit Visitor(CloneBuilder &B) : B(B) {}
      bool VisitIfStmt(IfStmt *S) {
        if (!S->isConstexpr()) return true;
        const SourceLocation Begin = B.SM.getExpansionLoc(S->getBeginLoc()), End = B.SM.getExpansionLoc(S->getEndLoc());
        const auto Inside = [&](SourceLocation Loc) { return B.SM.isPointWithin(Loc, Begin, End); };
        const bool HasPoint = llvm::any_of(B.Frame.Points, [&](const ContinuationPoint &P) { return Inside(P.Loc); });
        std::optional<Token> Keyword = Lexer::findNextToken(B.SM.getExpansionLoc(S->getIfLoc()), B.SM, B.LO);
        if (HasPoint && Keyword && Keyword->is(tok::raw_identifier) && Keyword->getRawIdentifier() == "constexpr")
          B.substitute(Keyword->getLocation(), Keyword->getLength(), "");
        return true;
      }
    } V(*this);
    V.TraverseStmt(FD->getBody());
  }

  void emptyDiscardedBranches() {
    for (auto [Begin, End] : Discarded) replaceSpan(Begin, End, "{}");
  }

  // The instantiation's pack expansions (PackExpansions.h); an element
  // spawned as an argument takes its text from there.
  std::vector<PackExpansion> Expansions;
  llvm::DenseMap<const Expr *, std::pair<unsigned, unsigned>> ElementOf;  // expansion, element

  void findPackExpansions() {
    Expansions = packExpansionsOf(SM, LO, FD);
    for (unsigned I = 0; I < Expansions.size(); ++I)
      for (unsigned K = 0; K < Expansions[I].Elements.size(); ++K) ElementOf[Expansions[I].Elements[K]] = {I, K};
  }

  unsigned offsetAfter(SourceLocation TokenLoc) const {
    return SM.getFileOffset(TokenLoc) + Lexer::MeasureTokenLength(TokenLoc, SM, LO);
  }

  // Each expansion is replaced as a whole by its elements' texts: a pack
  // element's uses name its own parameter, or its frame field.
  void expandPacks() {
    auto ParameterText = [this](const ParmVarDecl *P) { return accessesFrame(P) ? accessOf(P) : parameterName(P); };
    for (PackExpansion &E : Expansions) {
      if (inDiscarded(E.Begin)) continue;
      for (const Expr *Element : E.Elements)
        E.Texts.push_back(renderPackElement(Ctx, E, Element, Substitutions, ParameterText));
      for (QualType T : E.Types) E.Texts.push_back(typeQualified(Ctx, T));
      const auto [Begin, End] = replacedRange(SM.getBufferData(SM.getMainFileID()), E);
      replaceSpan(Begin, End, replacementText(E));
    }
  }

  // Replaces [Begin, End) of the main file, and whatever was substituted
  // inside it, in the clone and in renders of statements around it.
  void replaceSpan(unsigned Begin, unsigned End, const std::string &Text) {
    for (auto It = Substitutions.lower_bound(Begin); It != Substitutions.end() && It->first < End;)
      It = Substitutions.erase(It);
    Substitutions[Begin] = {End - Begin, Text};
    bool Whole = false;
    for (auto [WholeBegin, WholeEnd] : WholeRanges) Whole |= WholeBegin <= Begin && Begin <= WholeEnd;
    if (!Whole) Final.ReplaceText(SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Begin), End - Begin, Text);
  }

  // Every use of a frame variable becomes __frame->field.
  bool substituteFrameAccesses() {
    struct Visitor : RecursiveASTVisitor<Visitor> {
      CloneBuilder &B;
      bool Ok = true;
      explicit Visitor(CloneBuilder &B) : B(B) {}
      // A lambda captures a frame variable from the frame, by an init-capture
      // of the same name and kind (`[&x]` becomes `[&x = __frame->x]`, an
      // implicit capture gets one appended), so its body stays as written.
      bool TraverseLambdaExpr(LambdaExpr *L) {
        if (LambdaDepth == 0) {
          SourceLocation Close = L->getIntroducerRange().getEnd();
          for (const LambdaCapture &C : L->captures()) {
            const auto *V = C.capturesVariable() ? dyn_cast<VarDecl>(C.getCapturedVar()) : nullptr;
            if (!V || !B.accessesFrame(V)) continue;
            const std::string Name = V->getName().str();
            if (C.isExplicit()) {
              SourceLocation At = B.SM.getSpellingLoc(C.getLocation());
              B.substitute(At, Name.size(), Name + " = " + B.accessOf(V));
              // The capture's own reference to the variable names it as written.
              CaptureNames.insert(B.SM.getFileOffset(At));
            } else {
              const char *Kind = C.getCaptureKind() == LCK_ByRef ? "&" : "";
              B.substitute(B.SM.getSpellingLoc(Close), 0, fmt::format(", {}{} = {}", Kind, Name, B.accessOf(V)));
            }
          }
        }
        for (const LambdaCapture &C : L->captures())
          if (C.isExplicit()) ExplicitCaptures.insert(C.getLocation());
        const bool CopiesObject = copiesProcedureObject(*L);
        if (CopiesObject && !copyObjectInCapture(*L)) return Ok = false, true;
        ++LambdaDepth;
        Lambdas.push_back(L);
        bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
        Lambdas.pop_back();
        --LambdaDepth;
        if (CopiesObject) ThisPointers.pop_back();
        return Result;
      }
      // What `this` of the procedure is in the clones: the `__this`
      // parameter (a frame's copy in the resume clone), or inside a lambda
      // that captures `*this` by copy, a pointer to that copy, which the
      // clone's lambda holds as `__cilkpp_self` (a static clone has no `this`
      // to capture). The pointer is a variable of the lambda's body, so a
      // lambda inside that captures `this` by copy copies the pointer, as it
      // would have.
      llvm::SmallVector<std::string, 2> ThisPointers{"__this"};
      llvm::DenseSet<unsigned> CopiedThisCaptures;  // offsets of their `*this`
      bool copiesProcedureObject(const LambdaExpr &L) const {
        const LambdaCapture *Capture = copyOfThisCapture(L);
        if (!Capture) return false;
        const Expr *Init = L.capture_inits().begin()[Capture - L.capture_begin()];
        const auto *Copied = Init ? Init->getType()->getAsCXXRecordDecl() : nullptr;
        const CXXRecordDecl *Class = thisClass(B.FD);
        return Copied && Class && Copied->getCanonicalDecl() == Class->getCanonicalDecl();
      }
      // `[*this]` (`* this` too) becomes `[__cilkpp_self = *__this]`, and the
      // body starts with the pointer to the copy, a pointer to const for a
      // mutable lambda in a const member (whose copy C++ makes const; an
      // init-capture's own type drops const).
      bool copyObjectInCapture(const LambdaExpr &L) {
        std::optional<SourceLocation> Star = B.writtenLoc(copyOfThisCapture(L)->getLocation(), "a capture of '*this'");
        std::optional<SourceLocation> Body = B.writtenLoc(L.getBody()->getBeginLoc(), "the body of a lambda capturing '*this'");
        if (!Star || !Body) return false;
        const std::optional<Token> This = Lexer::findNextToken(*Star, B.SM, B.LO);
        if (!This || !This->is(tok::raw_identifier) || This->getRawIdentifier() != "this") {
          diag::report(B.Ctx.getDiagnostics(), *Star, diag::ConstructUnsupported) << "a capture of '*this' spelled by a macro";
          return false;
        }
        const unsigned At = B.SM.getFileOffset(*Star), End = B.SM.getFileOffset(This->getEndLoc());
        B.substitute(*Star, End - At, "__cilkpp_self = *" + ThisPointers.back());
        for (unsigned Offset = At; Offset < End; ++Offset) CopiedThisCaptures.insert(Offset);
        const auto *Method = dyn_cast<CXXMethodDecl>(B.FD);
        B.substitute(Body->getLocWithOffset(1), 0,
                     fmt::format(" [[maybe_unused]] {}auto *const __cilkpp_this_copy = __builtin_addressof(__cilkpp_self);",
                                 Method && Method->isConst() && L.isMutable() ? "const " : ""));
        ThisPointers.push_back("__cilkpp_this_copy");
        return true;
      }
      // A constant a lambda names without capturing it (`[] { return x + n; }`
      // with `const long n = 3;`): its value, so that a constant expression
      // stays one.
      // So too where C++ reads a constant's value without using the variable
      // (`std::array<long, n>`, `case n:`; NOUR_Constant): the frame's copy is
      // no constant.
      std::optional<std::string> uncapturedConstant(const DeclRefExpr *DR, const VarDecl *V) const {
        const bool InLambda = !Lambdas.empty() && !Lambdas.back()->getCallOperator()->Encloses(V->getDeclContext()) &&
                              llvm::none_of(Lambdas.back()->captures(), [&](const LambdaCapture &C) {
                                return C.capturesVariable() && C.getCapturedVar() == V;
                              });
        // (Not `[n]`, which names the variable.)
        if (!InLambda && (DR->isNonOdrUse() != NOUR_Constant || ExplicitCaptures.contains(DR->getLocation())))
          return std::nullopt;
        return constantValue(B.Ctx, *V);
      }
      unsigned LambdaDepth = 0;
      llvm::SmallVector<const LambdaExpr *, 2> Lambdas;
      llvm::DenseSet<SourceLocation> ExplicitCaptures;

      bool capturedByInnermostLambda(const VarDecl *V) const {
        return !Lambdas.empty() && llvm::any_of(Lambdas.back()->captures(), [&](const LambdaCapture &C) {
                 return C.capturesVariable() && C.getCapturedVar() == V;
               });
      }

      // Operands that are not evaluated, where a lambda captures nothing.
      unsigned Unevaluated = 0;
      bool unevaluated(llvm::function_ref<bool()> Traverse) {
        ++Unevaluated;
        const bool Result = Traverse();
        --Unevaluated;
        return Result;
      }
      // `decltype(x)` of a variable in the frame is the variable's declared
      // type, which no expression on the frame gives (a const variable's
      // field is not const; a captured one's init-capture is a reference).
      bool TraverseDecltypeTypeLoc(DecltypeTypeLoc TL) {
        const auto *DR = dyn_cast<DeclRefExpr>(TL.getUnderlyingExpr());
        const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
        // (An instantiation keeps a non-dependent `decltype(x)` of its
        // template, naming the template's variable: its own is at the same
        // place.)
        if (V && !B.Frame.field(V))
          for (const FrameField &F : B.Frame.Fields)
            if (F.Var->getLocation() == V->getLocation()) V = F.Var;
        const CharSourceRange R = fileRange(B.SM, TL.getSourceRange());
        if (V && B.accessesFrame(V) && !V->getType()->isDependentType() && R.isValid() &&
            B.SM.isWrittenInMainFile(R.getBegin()) && !TL.getBeginLoc().isMacroID() && !TL.getEndLoc().isMacroID()) {
          B.replaceSpan(B.SM.getFileOffset(R.getBegin()), B.offsetAfter(R.getEnd()),
                        simpleTypeSpecifier(B.Ctx, V->getType()));
          return true;
        }
        return unevaluated([&] { return RecursiveASTVisitor::TraverseDecltypeTypeLoc(TL); });
      }
      bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
        return unevaluated([&] { return RecursiveASTVisitor::TraverseUnaryExprOrTypeTraitExpr(E); });
      }
      bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *E) {
        return unevaluated([&] { return RecursiveASTVisitor::TraverseCXXNoexceptExpr(E); });
      }
      bool TraverseCXXTypeidExpr(CXXTypeidExpr *E) {
        if (E->isPotentiallyEvaluated()) return RecursiveASTVisitor::TraverseCXXTypeidExpr(E);
        return unevaluated([&] { return RecursiveASTVisitor::TraverseCXXTypeidExpr(E); });
      }

      // An instantiation's clones are explicit specializations, outside any
      // template, where a requires-expression would be checked as written
      // (`requires { t.size(); }` with t an int is an error there): it
      // becomes its value for the instantiation.
      bool TraverseRequiresExpr(RequiresExpr *E) {
        if (!B.FD->isTemplateInstantiation() && !B.FD->getMemberSpecializationInfo())
          return RecursiveASTVisitor::TraverseRequiresExpr(E);
        const CharSourceRange R = fileRange(B.SM, E->getSourceRange());
        if (!B.SM.isWrittenInMainFile(R.getBegin())) return true;
        B.replaceSpan(B.SM.getFileOffset(R.getBegin()), B.offsetAfter(R.getEnd()), E->isSatisfied() ? "true" : "false");
        return true;
      }
      llvm::DenseSet<unsigned> CaptureNames;

      // `this` is the __this parameter of the fast clone and a copy of the
      // frame's in the resume clone: `this->x` becomes `__this->x`, `x`
      // (a member) `__this->x`.
      // (A local class's own `this` is its objects'.)
      bool isProcedureThis(const CXXThisExpr *E) const {
        const CXXRecordDecl *Class = thisClass(B.FD);
        const CXXRecordDecl *Object = E->getType()->getPointeeCXXRecordDecl();
        return Class && Object && Object->getCanonicalDecl() == Class->getCanonicalDecl();
      }
      bool VisitCXXThisExpr(CXXThisExpr *E) {
        if (E->isImplicit() || !isProcedureThis(E)) return true;
        std::optional<SourceLocation> Loc = B.writtenLoc(E->getLocation(), "'this' in a member procedure");
        if (!Loc) return Ok = false, true;
        if (CopiedThisCaptures.contains(B.SM.getFileOffset(*Loc))) return true;
        B.substitute(*Loc, std::strlen("this"), ThisPointers.back());
        return true;
      }
      bool VisitMemberExpr(MemberExpr *ME) {
        const auto *This = dyn_cast<CXXThisExpr>(ME->getBase()->IgnoreImpCasts());
        if (!This || !This->isImplicit() || !isProcedureThis(This)) return true;
        std::optional<SourceLocation> Loc = B.writtenLoc(ME->getBeginLoc(), "a member named without 'this->'");
        if (!Loc) return Ok = false, true;
        // The first token is replaced rather than prefixed: a statement
        // rewritten around the member (`return x;`) would drop an insertion.
        const unsigned Length = Lexer::MeasureTokenLength(*Loc, B.SM, B.LO);
        B.substitute(*Loc, Length, ThisPointers.back() + "->" + Lexer::getSourceText(CharSourceRange::getCharRange(*Loc, Loc->getLocWithOffset(Length)), B.SM, B.LO).str());
        return true;
      }

      bool VisitDeclRefExpr(DeclRefExpr *DR) {
        const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        // A pack element is named per element of its expansion (renderElement).
        if (const auto *P = dyn_cast_or_null<ParmVarDecl>(V); P && packElementIndex(P)) return true;
        if (!V || !B.accessesFrame(V)) return true;
        if (std::optional<std::string> Constant = uncapturedConstant(DR, V)) {
          std::optional<SourceLocation> Loc = B.writtenLoc(DR->getLocation(), "a constant named in a lambda");
          if (!Loc) return Ok = false, true;
          B.substitute(*Loc, V->getName().size(), *Constant);
          return true;
        }
        // In a lambda, a variable it captures is named through its capture
        // (above); one named only where it is not evaluated (`sizeof(x)`,
        // `decltype(x + 1)`) is not captured, so it is read from the frame.
        if (DR->refersToEnclosingVariableOrCapture() && (Unevaluated == 0 || capturedByInnermostLambda(V)))
          return true;
        if (CaptureNames.contains(B.SM.getFileOffset(B.SM.getSpellingLoc(DR->getLocation())))) return true;
        std::optional<SourceLocation> Loc =
            B.writtenLoc(DR->getLocation(), "a variable that lives across a continuation point");
        if (!Loc) return Ok = false, true;
        B.substitute(*Loc, V->getName().size(), B.useOf(V));
        return true;
      }

      // `__func__` and its kin name the procedure (or a lambda's
      // operator()), not the clone they end up in. (One in a macro's body is
      // left to predefinedNameMacros.)
      bool VisitPredefinedExpr(PredefinedExpr *E) {
        if (std::optional<std::string> Literal = predefinedNameLiteral(B.SM, E, B.FD, LambdaDepth > 0)) {
          const SourceLocation Loc = B.SM.getSpellingLoc(E->getLocation());
          B.substitute(Loc, Lexer::MeasureTokenLength(Loc, B.SM, B.LO), *Literal);
        }
        return true;
      }

      // `sizeof...(xs)` is the instantiation's pack length.
      bool VisitSizeOfPackExpr(SizeOfPackExpr *E) {
        if (E->isValueDependent() || E->isPartiallySubstituted()) return true;
        const CharSourceRange R = fileRange(B.SM, E->getSourceRange());
        const unsigned Begin = B.SM.getFileOffset(R.getBegin());
        B.substitute(R.getBegin(), B.offsetAfter(R.getEnd()) - Begin, std::to_string(E->getPackLength()));
        return true;
      }

      // A template template parameter has no block-scope alias
      // (templateParameterAliases): its uses name the instantiation's
      // argument instead (`Box<T>` becomes `::Vec<T>`).
      bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
        return substituteTemplateName(TL.getTypePtr()->getTemplateName(), TL.getTemplateNameLoc());
      }
      bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &A) {
        if (A.getArgument().getKind() == TemplateArgument::Template &&
            !substituteTemplateName(A.getArgument().getAsTemplate(), A.getTemplateNameLoc()))
          return false;
        return RecursiveASTVisitor::TraverseTemplateArgumentLoc(A);
      }
      bool substituteTemplateName(TemplateName Name, SourceLocation At) {
        const SubstTemplateTemplateParmStorage *Subst = Name.getAsSubstTemplateTemplateParm();
        if (!Subst || At.isInvalid()) return true;
        std::optional<SourceLocation> Loc = B.writtenLoc(At, "a template template parameter");
        if (!Loc) return Ok = false, true;
        B.substitute(*Loc, Lexer::MeasureTokenLength(*Loc, B.SM, B.LO),
                     templateNameQualified(B.Ctx, Subst->getReplacement()));
        return true;
      }
    } V(*this);
    V.TraverseStmt(FD->getBody());
    return V.Ok;
  }

  // Replaces Length characters at Loc, in the clone and in the text of any
  // statement replaced as a whole.
  // Insertions (Length 0) at one place accumulate.
  void substitute(SourceLocation Loc, unsigned Length, const std::string &Text) {
    auto [It, Inserted] = Substitutions.try_emplace(SM.getFileOffset(Loc), Length, Text);
    // The same use reached twice: a type written once for several declarators
    // (`decltype(f(x)) a, b;`) is traversed once per declarator.
    if (!Inserted && Length != 0 && It->second == std::make_pair(Length, Text)) return;
    if (!Inserted && Length == 0 && It->second.first == 0) It->second.second += Text;
    else It->second = {Length, Text};
    if (insideWholeRange(Loc)) return;
    if (Length == 0) Final.InsertTextBefore(Loc, Text);
    else Final.ReplaceText(Loc, Length, Text);
  }

  // `T v;` of a class type: its initializer is an implicit default
  // construction (by a constructor whose parameters all have defaults).
  static bool defaultInitialised(const VarDecl *V) {
    const auto *CE = dyn_cast_or_null<CXXConstructExpr>(V->getInit());
    return CE && CE->getParenOrBraceRange().isInvalid() &&
           llvm::all_of(CE->arguments(), [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); });
  }

  // Value-initialised without an initializer in the text: `T x(xs...)` of
  // an empty pack (the fast clone writes `T x{}`).
  static bool valueInitialisedUnwritten(const VarDecl *V) {
    const Expr *Init = V->getInit();
    if (!Init) return false;
    if (isa<ImplicitValueInitExpr, CXXScalarValueInitExpr>(Init)) return true;
    const auto *CE = dyn_cast<CXXConstructExpr>(Init);
    return CE && CE->requiresZeroInitialization() && CE->getNumArgs() == 0;
  }

  static bool defaultConstructorIsTrivial(const VarDecl *V) {
    const auto *CE = cast<CXXConstructExpr>(V->getInit());
    return CE->getConstructor()->isTrivial();
  }

  // The text that initialises a variable: "5" for `int x = 5`, "{1, 2}" for
  // `int a[2]{1, 2}`, "(3)" for `S s(3)`; empty when default-initialised.
  // The ')' that closes the '(' at Open, or an invalid location.
  SourceLocation matchingParen(SourceLocation Open) const {
    int Depth = 1;
    for (SourceLocation Cursor = Open;;) {
      std::optional<Token> Tok = Lexer::findNextToken(Cursor, SM, LO);
      if (!Tok || Tok->is(tok::eof)) return {};
      Cursor = Tok->getLocation();
      if (Tok->is(tok::l_paren)) ++Depth;
      if (Tok->is(tok::r_paren) && --Depth == 0) return Cursor;
    }
  }

  std::string initializerText(const VarDecl *V, bool &IsCopyInit) {
    const Expr *Init = V->getInit();
    if (!Init || defaultInitialised(V)) return "";
    // Find where the initializer starts: the first '=', '{' or '(' after the
    // declarator (whose array bounds and function-pointer parameter lists
    // come after the name) that is not inside array bounds.
    SourceLocation Cursor = SM.getExpansionLoc(V->getLocation()), Start;
    if (const TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
      SourceLocation DeclaratorEnd = SM.getExpansionLoc(TSI->getTypeLoc().getEndLoc());
      if (DeclaratorEnd.isValid() && SM.isBeforeInTranslationUnit(Cursor, DeclaratorEnd)) Cursor = DeclaratorEnd;
    }
    // (Never past the declaration: `T v;` followed by `if (...)`.)
    const SourceLocation DeclarationEnd = SM.getExpansionRange(V->getSourceRange().getEnd()).getEnd();
    for (int Brackets = 0; Start.isInvalid();) {
      std::optional<Token> Tok = Lexer::findNextToken(Cursor, SM, LO);
      if (!Tok || Tok->is(tok::eof)) return "";
      Cursor = Tok->getLocation();
      if (SM.isBeforeInTranslationUnit(DeclarationEnd, Cursor)) return "";
      if (Tok->is(tok::l_square)) ++Brackets;
      if (Tok->is(tok::r_square)) --Brackets;
      if (Brackets != 0 || !Tok->isOneOf(tok::equal, tok::l_brace, tok::l_paren)) continue;
      IsCopyInit = Tok->is(tok::equal);
      if (!IsCopyInit) {
        Start = Cursor;
      } else if (std::optional<Token> First = Lexer::findNextToken(Cursor, SM, LO)) {
        Start = First->getLocation();
      } else {
        return "";
      }
    }
    SourceLocation End = SM.getExpansionRange(V->getSourceRange().getEnd()).getEnd();
    // `T x(xs...)` instantiated with one element ends at the element.
    if (V->getInitStyle() == VarDecl::CallInit)
      if (SourceLocation Close = matchingParen(Start); Close.isValid()) End = Close;
    std::string Text = render(CharSourceRange::getTokenRange(Start, End));
    return StringRef(Text).trim().str();
  }

  std::string fieldInitialisation(const VarDecl *V) {
    bool IsCopyInit = false;
    if (Frame.field(V)->ManagedLifetime) {
      // Constructed in place: `T v(args)`, `T v{args}`, `T v = e` and `T v`
      // become `new (&field) T(args)`, `T{args}`, `T(e)` and `T`.
      std::string Init = initializerText(V, IsCopyInit);
      if (Init.empty() && valueInitialisedUnwritten(V)) Init = "{}";
      // (A C array: `new (&field) T[N]{a, b}` for `T v[N] = {a, b}`.)
      if (IsCopyInit && !V->getType()->isArrayType()) Init = "(" + Init + ")";
      return fmt::format("::new (static_cast<void *>(__builtin_addressof({}))) {}{}{}", fieldOf(V),
                         typeQualified(Ctx, V->getType().getUnqualifiedType()), Init, markLive(V));
    }
    // `T v;` of a trivially copyable class whose default constructor does
    // something (default member initializers, a user-provided constructor).
    std::string Init = defaultInitialised(V) && !defaultConstructorIsTrivial(V) ? "{}" : initializerText(V, IsCopyInit);
    if (Init.empty() && valueInitialisedUnwritten(V)) Init = "{}";
    if (Init.empty()) return "";
    if (Frame.field(V)->IsReference) {
      // `T &r = e` and `T &r(e)` / `T &r{e}`: the referent's address.
      if (!IsCopyInit) Init = Init.substr(1, Init.size() - 2);
      const bool Xvalue = V->getInit() && V->getInit()->IgnoreImplicit()->isXValue();
      return fmt::format("{} = {}({})", fieldOf(V), Xvalue ? "::cilkpp::rt::address_of_xvalue" : "__builtin_addressof",
                         Init);
    }
    QualType T = V->getType().getUnqualifiedType();
    std::string Value = IsCopyInit ? Init : fmt::format("::cilkpp::rt::id<{}>{}", typeQualified(Ctx, T), Init);
    // An array copy-initialised from a string literal or a braced list that
    // may be shorter (`char buf[64] = "hi";`, `char t[2][8] = {"a", "b"};`):
    // the rest zero, as the declaration makes it.
    if (IsCopyInit && T->isConstantArrayType() && V->getInit()) {
      const Expr *E = V->getInit()->IgnoreParens();
      // (`char b[64] = {"hi"};` too.)
      if (const auto *List = dyn_cast<InitListExpr>(E); List && List->isStringLiteralInit())
        return fmt::format("::cilkpp::rt::init_string_field({}, {})", fieldOf(V),
                           render(CharSourceRange::getTokenRange(List->getInit(0)->getSourceRange())));
      if (isa<StringLiteral>(E)) return fmt::format("::cilkpp::rt::init_string_field({}, {})", fieldOf(V), Init);
      if (isa<InitListExpr>(E)) Value = fmt::format("::cilkpp::rt::id<{}>{}", typeQualified(Ctx, T), Init);
    }
    if (T->isScalarType()) return fmt::format("{} = {}", fieldOf(V), IsCopyInit ? "(" + Value + ")" : Value);
    return fmt::format("::cilkpp::rt::init_field({}, {})", fieldOf(V), Value);
  }

  std::string declarationText(const DeclStmt *DS) {
    std::string Out;
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V) continue;
      std::string Init = fieldInitialisation(V);
      if (Init.empty()) continue;
      if (!Out.empty()) Out += ", ";
      Out += Init;
    }
    return Out + ";";
  }

  // Arguments are evaluated in the parent before the frame is exposed to
  // thieves, so a thief's continuation cannot race with their evaluation.
  // A function object or lambda called in place (`spawn [&] { ... }()`):
  // the object is evaluated first, as C++17 evaluates a call's callee.
  std::string calleeText(const SpawnSite &Site) {
    if (calledObject(Site)) return "__f";
    if (EvaluatedCallee.first == Site.Call) return EvaluatedCallee.second;
    return text(Site.Call->getCallee()->getSourceRange());
  }
  // A plain callee's object or function pointer, evaluated with the
  // arguments before the spawn (spawnArguments): a thief may run the
  // continuation meanwhile (`spawn accs()[i].add(1)` read a stolen frame's
  // i after a thief's ++i, as `mk(i).run()` and `std::move(v[i]).m()` did).
  // Left in the call: a function named directly, `m()` of this, and `o.m()`
  // of a variable, whose address never changes.
  std::pair<const CallExpr *, std::string> EvaluatedCallee;
  void evaluateCalleeFirst(const SpawnSite &Site, std::string &Decls) {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Site.Call)) {
      const auto *ME = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens());
      if (!ME || isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) return;
      const auto *Ref = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
      const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (!ME->isArrow() && V && !V->getType()->isReferenceType()) return;
      const SourceLocation Name = ME->getTemplateKeywordLoc().isValid() ? ME->getTemplateKeywordLoc()
                                  : ME->hasQualifier()                  ? ME->getQualifierLoc().getBeginLoc()
                                                                        : ME->getMemberLoc();
      const std::string Called = text(SourceRange(Name, ME->getEndLoc()));
      if (ME->isArrow()) {
        Decls += fmt::format("auto *const __o = {}; ", objectPointer(Member));
        EvaluatedCallee = {Site.Call, "__o->" + Called};
        return;
      }
      // Bound as C++ binds it, so that a temporary (`mk(i).run()`) lives on
      // and an rvalue stays one for a `&&`-qualified member.
      Decls += fmt::format("auto &&__o = {}; ", text(ME->getBase()->getSourceRange()));
      EvaluatedCallee = {Site.Call, "static_cast<decltype(__o) &&>(__o)." + Called};
      return;
    }
    const Expr *Callee = Site.Call->getCallee();
    if (Site.Call->getDirectCallee() || Callee->isTypeDependent() || isa<CXXOperatorCallExpr>(Site.Call) ||
        !Callee->getType()->isFunctionPointerType())
      return;
    Decls += fmt::format("auto *const __fn = {}; ", text(Callee->getSourceRange()));
    EvaluatedCallee = {Site.Call, "__fn"};
  }

  // Temporaries of a spawn's arguments that its child may refer to
  // (ArgumentTemporaries.h) are held until the child completes: while the
  // child runs, by the statement (a HeldScope, runtime/include/cilkpp/rt/
  // held.h); once the frame can be stolen, by the frame, until a thief's
  // next sync. Those that cannot be held make the spawn the plain call the
  // serial elision makes, temporaries and all: it returns when the child
  // and everything it spawned have completed (the child's own spawns still
  // run in parallel). So does a temporary made by a default argument of a
  // cilk callee (its fast clone adds it).
  const ArgumentTemporaries &temporariesOf(const SpawnSite &Site) const {
    auto [It, Inserted] = Temporaries.try_emplace(Site.Call);
    if (Inserted) It->second = argumentTemporaries(Ctx, Site, FD, Site.Callee && IsCilkCallee(Site.Callee));
    return It->second;
  }
  mutable llvm::DenseMap<const CallExpr *, ArgumentTemporaries> Temporaries;

  bool holdsTemporaries(const SpawnSite &Site) const {
    const ArgumentTemporaries &T = temporariesOf(Site);
    if (!T.holdable() || (T.InDefaultArgument && escapes(directCall(Site)))) return false;
    // (A pack element's text comes from its expansion.)
    for (const Expr *Element : llvm::make_first_range(ElementOf))
      for (const MaterializeTemporaryExpr *E : T.Held)
        if (SM.isPointWithin(E->getBeginLoc(), Element->getBeginLoc(), Element->getEndLoc())) return false;
    return true;
  }
  bool callsWithTemporaries(const SpawnSite &Site) const {
    const ArgumentTemporaries &T = temporariesOf(Site);
    return (T.Referenced && !holdsTemporaries(Site)) || (T.InDefaultArgument && escapes(directCall(Site)));
  }

  // Each held temporary made again in place by a lambda, in the HeldScope
  // named __held: `__held.hold([&] { return s + "a"; })`, or with the type
  // where the text converts to it (`"a"` to a std::string), unqualified
  // (a volatile return type is deprecated).
  TextSubstitutions heldSubstitutions(const SpawnSite &Site) {
    TextSubstitutions Out = Substitutions;
    // (Inner ones first, rendered into the lambdas of those around them.)
    HeldSubstitutions = &Out;
    for (const MaterializeTemporaryExpr *E : temporariesOf(Site).Held) {
      const CharSourceRange R = fileRange(SM, E->getSourceRange());
      const unsigned Begin = SM.getFileOffset(R.getBegin()), End = offsetAfter(R.getEnd());
      const std::string Value = render(R);
      std::string Text;
      if (madeAsWritten(Ctx, E)) {
        Text = fmt::format("__held.hold([&] {{ return {}; }})", Value);
      } else {
        const std::string T = heldTypeSpelling(E->getType().getUnqualifiedType());
        Text = fmt::format("__held.hold<{0}>([&]() -> {0} {{ return {1}; }})", T, Value);
      }
      for (auto It = Out.lower_bound(Begin); It != Out.end() && It->first < End;) It = Out.erase(It);
      Out[Begin] = {End - Begin, std::move(Text)};
    }
    HeldSubstitutions = nullptr;
    return Out;
  }
  // The type as written (`::std::string`) unless an alias in it is a member
  // this code may not name (a private `using Str = std::string`, or
  // libstdc++'s `basic_string::__sv_type`): then as C++ sees it.
  std::string heldTypeSpelling(QualType T) const {
    for (QualType Sugar = T;;) {
      const auto *Alias = Sugar->getAs<TypedefType>();
      if (!Alias) break;
      const AccessSpecifier Access = Alias->getDecl()->getAccess();
      if (Access == AS_private || Access == AS_protected) return typeQualified(Ctx, T.getCanonicalType());
      Sugar = Alias->desugar();
    }
    return typeQualified(Ctx, T);
  }
  // While set, render substitutes these (heldSubstitutions) instead.
  const TextSubstitutions *HeldSubstitutions = nullptr;

  // A spawn of a cilk procedure calls its fast clone. One that dispatches
  // virtually calls the member's companion if it has one (VirtualSpawns.h),
  // else the override, whose public entry runs a cilk procedure.
  enum class SpawnCall { Plain, FastClone, Companion };
  SpawnCall spawnCall(const SpawnSite &Site) const {
    return callsWithTemporaries(Site) ? SpawnCall::Plain : directCall(Site);
  }
  // How the spawn calls its callee when its arguments allow.
  SpawnCall directCall(const SpawnSite &Site) const {
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Site.Callee); Method && dispatches(Site, Method))
      return Settings.Virtuals && Settings.Virtuals->dispatchesThroughCompanion(Method) ? SpawnCall::Companion
                                                                                      : SpawnCall::Plain;
    // (A cilk callee's clones would deliver their result of the callee's type
    // into the slot: convertsIntoLValue.)
    if (convertsIntoLValue(Ctx, Site)) return SpawnCall::Plain;
    return IsCilkCallee(Site.Callee) ? SpawnCall::FastClone : SpawnCall::Plain;
  }
  // A fast clone or companion may return before the child completes.
  static bool escapes(SpawnCall How) { return How != SpawnCall::Plain; }
  // Whether the spawn's callee comes from the object's dynamic type: not for
  // `B::m()`, nor where C++ knows that type (a final class or member, an
  // object that is no reference).
  static bool dispatches(const SpawnSite &Site, const CXXMethodDecl *Method) {
    if (!Method->isVirtual()) return false;
    const auto *Member = dyn_cast<CXXMemberCallExpr>(Site.Call);
    const auto *ME = Member ? dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens()) : nullptr;
    if (!ME) return true;
    if (ME->hasQualifier()) return false;
    const CXXMethodDecl *Known = Method->getDevirtualizedMethod(ME->getBase(), /*IsAppleKext=*/false);
    return !Known || Known->getCanonicalDecl() != Method->getCanonicalDecl();
  }

  // The object a member's fast clone gets as __this: `p` of `p->m()`, the
  // address of `o` of `o.m()`, this clone's own for `m()`.
  std::string objectPointer(const CXXMemberCallExpr *Call) {
    const auto *ME = cast<MemberExpr>(Call->getCallee()->IgnoreParens());
    const Expr *Base = ME->getBase();
    if (const auto *This = dyn_cast<CXXThisExpr>(Base->IgnoreImpCasts()); This && This->isImplicit()) return "__this";
    // (`std::move(o).m()`: an xvalue has no address that & could take.)
    if (!ME->isArrow())
      return fmt::format("{}({})", Base->isLValue() ? "__builtin_addressof" : "::cilkpp::rt::object_address",
                         text(Base->getSourceRange()));
    return arrowOperand(Base);
  }
  // `__o` as the class that declares the spawned member, whose companion a
  // class between them could hide.
  std::string companionObject(const CXXMemberCallExpr *Call) {
    const auto *Method = cast<CXXMethodDecl>(Call->getMethodDecl());
    const CXXRecordDecl *Object = Call->getObjectType()->getAsCXXRecordDecl();
    if (Object && Object->getCanonicalDecl() == Method->getParent()->getCanonicalDecl()) return "__o";
    return fmt::format("static_cast<{}{} *>(__o)", Method->isConst() ? "const " : "",
                       classInScope(Ctx, Method->getParent()));
  }
  // The pointer `p->` dereferences: `p` itself, or what an overloaded `->`
  // (a smart pointer, an iterator) returns, applied as often as C++ does.
  std::string arrowOperand(const Expr *Base) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Base->IgnoreParenImpCasts());
    if (!Op || Op->getOperator() != OO_Arrow) return text(Base->getSourceRange());
    return fmt::format("({}).operator->()", arrowOperand(Op->getArg(0)));
  }

  void spawnArguments(const SpawnSite &Site, std::string &Decls, std::string &Args) {
    const std::vector<QualType> Params = parameterTypes(Site.Call);
    unsigned First = 0;
    // The object comes before the arguments, as C++17 evaluates it.
    const SpawnCall How = spawnCall(Site);
    if (const Expr *Object = calledObject(Site)) {
      Decls += fmt::format("auto &&__f = {}; ", text(Object->getSourceRange()));
      // (A cilk operator()'s fast clone takes the object as a member's.)
      if (How == SpawnCall::FastClone && thisClass(Site.Callee)) Args = "__builtin_addressof(__f)";
      First = 1;
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Site.Call);
        Member && (How == SpawnCall::Companion || (How == SpawnCall::FastClone && thisClass(Site.Callee)))) {
      Decls += fmt::format("auto *const __o = {}; ", objectPointer(Member));
      if (How == SpawnCall::FastClone) Args = "__o";
    }
    if (How == SpawnCall::Plain) evaluateCalleeFirst(Site, Decls);
    // A static member called through an object (`get().sm(n)`): the object
    // is evaluated, first, though the call does not use it.
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Site.Callee); Method && Method->isStatic())
      if (const auto *ME = dyn_cast<MemberExpr>(Site.Call->getCallee()->IgnoreParenImpCasts());
          ME && ME->getBase()->HasSideEffects(Ctx))
        Decls += fmt::format("(void)({}); ", text(ME->getBase()->getSourceRange()));
    for (unsigned I = First; I < Site.Call->getNumArgs(); ++I) {
      const Expr *Arg = Site.Call->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg)) break;
      std::string Name = fmt::format("__a{}", I - First);
      auto Element = ElementOf.find(Arg);
      std::string Value = Element != ElementOf.end() ? Expansions[Element->second.first].Texts[Element->second.second]
                                                     : text(Arg->getSourceRange());
      if (!Args.empty()) Args += ", ";
      if (I - First >= Params.size()) {
        Decls += fmt::format("auto &&{} = {}; ", Name, Value);
        Args += fmt::format("static_cast<decltype({0}) &&>({0})", Name);
        continue;
      }
      QualType T = Params[I - First];
      if (const CXXRecordDecl *Local = localClassIn(T); T->isReferenceType() && Local && Local->isLambda()) {
        // (A lambda written in place for a `const F &`: its type has no name.)
        Decls += fmt::format("auto &&{} = {}; ", Name, Value);
        Args += fmt::format("static_cast<decltype({0}) &&>({0})", Name);
        continue;
      }
      if (T->isReferenceType()) {
        Decls += fmt::format("{} = {}; ", declareQualified(Ctx, T, Name), Value);
        // (An lvalue reference passes as it is; the cast would be useless.)
        Args += T->isLValueReferenceType() ? Name : fmt::format("static_cast<{}>({})", typeQualified(Ctx, T), Name);
      } else if (T->isScalarType()) {
        // The type itself: a member typedef may be private to the callee's
        // class, and this code is outside it.
        Decls += fmt::format("{} = {}; ", declareQualified(Ctx, T.getCanonicalType().getUnqualifiedType(), Name), Value);
        Args += Name;
      } else {
        // The argument is moved into the parameter, unless a fast clone
        // takes it by reference.
        const FunctionDecl *Callee = Site.Callee;
        const bool Referenced = How == SpawnCall::FastClone && Callee && I - First < Callee->getNumParams() &&
                                passesByRvalueReference(Ctx, Callee->getParamDecl(I - First));
        if (Kind == CloneKind::Fast && !Referenced && !isMoveConstructible(T))
          diag::report(Ctx.getDiagnostics(), SM.getExpansionLoc(Arg->getBeginLoc()), diag::ImmovableArgument)
              << T.getUnqualifiedType();
        if (const CXXRecordDecl *Closure = T->getAsCXXRecordDecl(); Closure && Closure->isLambda()) {
          // (A lambda written in place, `std::for_each(b, e, [](long &x) { ... })`:
          // its type has no name, and the argument is of that type.)
          Decls += fmt::format("auto {} = {}; ", Name, Value);
          Args += fmt::format("static_cast<decltype({0}) &&>({0})", Name);
          continue;
        }
        if (Element == ElementOf.end() && passesLocalDirectly(Site, Arg, T)) {
          Args += Value;
          continue;
        }
        Decls += fmt::format("{} = {}; ", declareQualified(Ctx, T.getUnqualifiedType(), Name), Value);
        Args += fmt::format("static_cast<{} &&>({})", typeQualified(Ctx, T.getUnqualifiedType()), Name);
      }
    }
  }

  // Whether the fast clone may copy a by-value argument straight from the
  // local it names into the parameter instead of through `__aN` (a large
  // trivially copyable struct was copied twice per spawn). Only this worker
  // sees a fast clone's own local, even if its continuation is stolen
  // meanwhile, and nothing between the arguments and the call (the frame's
  // set-up, the poll) writes it; the other arguments and the target must not
  // write it either, and the copy must not throw.
  bool passesLocalDirectly(const SpawnSite &Site, const Expr *Arg, QualType T) const {
    if (Kind != CloneKind::Fast || HeldSubstitutions || !T.isTriviallyCopyableType(Ctx) || T.isVolatileQualified())
      return false;
    const auto *Copy = dyn_cast<CXXConstructExpr>(Arg->IgnoreImplicitAsWritten());
    if (!Copy || Copy->getNumArgs() != 1 || !Copy->getConstructor()->isCopyOrMoveConstructor()) return false;
    const auto *Ref = dyn_cast<DeclRefExpr>(Copy->getArg(0)->IgnoreImpCasts());
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() || Ref->refersToEnclosingVariableOrCapture() ||
        accessesFrame(V) || !Ctx.hasSameUnqualifiedType(V->getType(), T))
      return false;
    if (Site.TargetLValue && Site.TargetLValue->HasSideEffects(Ctx)) return false;
    return llvm::none_of(Site.Call->arguments(), [&](const Expr *Other) { return Other != Arg && Other->HasSideEffects(Ctx); });
  }

  bool convertsIntoVariable(unsigned Index) const {
    return llvm::any_of(Frame.ConvertedResults,
                        [&](const FrameDescription::ConvertedResult &C) { return C.Spawn == Index; });
  }

  std::string spawnText(unsigned Index) {
    const SpawnSite &Site = Proc.Spawns[Index];
    const int Entry = Frame.SpawnEntry[Index];
    const bool Fast = Kind == CloneKind::Fast;
    std::string Decls = constructedTarget(Site), Args;
    if (callsWithTemporaries(Site)) {
      std::string Target;
      if (Site.Target) Target = (accessesFrame(Site.Target) ? fieldOf(Site.Target) : Site.Target->getName().str()) + " = ";
      if (Site.TargetLValue) Target = text(Site.TargetLValue->getSourceRange()) + " = ";
      const std::string Call = fmt::format("{{ {}{}{}; }}", Decls, Target, text(Site.Call->getSourceRange()));
      if (!Fast) return fmt::format("{{ {} __cilkpp_resume_{}:; }}", Call, Entry);
      return declaredTarget(Site, Call);
    }
    const bool Holds = holdsTemporaries(Site);
    if (Holds) {
      // (Declared first: it dies with the statement, after the result is stored.)
      Decls = "::cilkpp::rt::HeldScope __held(__w); " + Decls;
      const TextSubstitutions Held = heldSubstitutions(Site);
      HeldSubstitutions = &Held;
      spawnArguments(Site, Decls, Args);
      HeldSubstitutions = nullptr;
    } else {
      spawnArguments(Site, Decls, Args);
    }
    // After the arguments, as C++17 evaluates `lhs = f(args)`.
    if (Site.TargetLValue)
      Decls += fmt::format("auto *const __t = __builtin_addressof({}); ", text(Site.TargetLValue->getSourceRange()));
    if (Settings.CountSpawns) Decls += "::cilkpp::rt::count_spawn(__w); ";
    if (Fast && !exposesContinuation(Index)) return declaredTarget(Site, plainTailCallText(Site, Decls, Args));

    std::string Out = "{ " + Decls + frameSetUp();
    if (Fast)
      for (const VarDecl *V : Frame.Points[pointIndex(PointKind::Spawn, Index)].FastPathSaves)
        Out += saveOnceText(V);
    // Children are numbered in serial order before a thief can see the frame.
    if (Frame.MayThrow) Out += "[[maybe_unused]] const unsigned __child = ++__frame->__cilkpp_spawns; ";
    // The fast clone leaves its frame latent for a callee that answers
    // thieves' requests at its own spawns; any other callee may run long
    // without one, so the frame and its latent ancestors go on the deque
    // first (exposure.h). A spawn right before a sync does not answer
    // requests itself: its continuation could only wait; the callee's
    // spawns answer them.
    const SpawnCall How = spawnCall(Site);
    const bool Lazy = Fast && How != SpawnCall::Plain;
    // A child that may outlive the statement gets the temporaries it holds
    // lent to the frame before a thief can take the frame.
    const bool Lends = Holds && escapes(How);
    if (Lends) Out += "__held.lend(__frame->__cilkpp_held); ";
    // A converted result that arrives after a steal lands in its own field
    // and the next sync converts it. The flag is set while no thief can see
    // the frame (a promoted frame is a copy) and cleared when the call
    // returns to a frame still ours.
    const bool Converted = convertsIntoVariable(Index);
    if (Converted) Out += fmt::format("__frame->{} = true; ", convertPendingName(Index));
    Out += fmt::format("__frame->entry = {}; ", Entry);
    if (!Fast)
      Out += "__w->push(__frame); ";
    else if (!Lazy)
      Out += "::cilkpp::rt::expose_chain(__w, __frame); ";
    else if (!Frame.SpawnIsTail[Index])
      Out += "::cilkpp::rt::poll_exposure(__w, __frame); ";

    const bool HasResult = Site.Target || Site.TargetLValue;
    const std::string Slot = Converted           ? fmt::format("&__frame->{}", convertedResultName(Index))
                             : Site.Target       ? slotOf(Site.Target)
                             : Site.TargetLValue ? std::string("__t")
                                                 : std::string("nullptr");
    std::string Call;
    const std::string Order = Frame.MayThrow ? "__child" : "0";
    if (How == SpawnCall::FastClone)
      Call = fmt::format("{}(__w, __frame, {}, {}{}{})", fastCloneOf(Site.Callee), Slot, Order,
                         Args.empty() ? "" : ", ", Args);
    else if (How == SpawnCall::Companion)
      Call = fmt::format("{}->{}(__w, __frame, {}, {}{}{})", companionObject(cast<CXXMemberCallExpr>(Site.Call)),
                         VirtualSpawns::companionName(cast<CXXMethodDecl>(Site.Callee)), Slot, Order,
                         Args.empty() ? "" : ", ", Args);
    else
      Call = fmt::format("{}({})", calleeText(Site), Args);
    if (Frame.SpawnMayThrow[Index]) {
      Out += catchingCall(Site, Call, Entry, Lends);
    } else {
      Out += HasResult ? fmt::format("auto __r = {}; ", Call) : Call + "; ";
    }

    Out += !Fast ? "if (__builtin_expect(!__w->pop(), 0)) { "
          : Lazy ? (Frame.EagerFrame ? "if (!::cilkpp::rt::pooled_still_ours(__w, __frame)) { "
                                     : "if (!::cilkpp::rt::still_ours(__w, __frame)) { ")
                 : "if (__builtin_expect(!::cilkpp::rt::reclaim(__w, __frame), 0)) { ";
    const std::string Result = HasResult ? movedIfClass(Site.Call->getCallReturnType(Ctx).getNonReferenceType(), "__r") : "";
    if (convertsIntoLValue(Ctx, Site))
      Out += fmt::format("::cilkpp::rt::parent_stolen_converting(__w, __frame, __t, {}); ", Result);
    else
      Out += HasResult ? fmt::format("::cilkpp::rt::parent_stolen(__w, __frame, {}, {}); ", Slot, Result)
                       : "::cilkpp::rt::parent_stolen(__w, __frame); ";
    Out += (Lends ? "__held.disown(); " : "") + escape() + " } ";
    if (Lends) Out += "__held.take_back(); ";
    if (Converted) Out += fmt::format("__frame->{} = false; ", convertPendingName(Index));
    if (Site.Target) {
      const bool InFrame = accessesFrame(Site.Target);
      Out += fmt::format("{} = {}; ", InFrame ? fieldOf(Site.Target) : Site.Target->getName().str(), Result);
    }
    if (Site.TargetLValue) Out += fmt::format("*__t = {}; ", Result);
    Out += "}";

    if (!Fast) return fmt::format("{{ {} __cilkpp_resume_{}:; {}}}", Out, Entry, hasThrowPoint(Index) ? throwPoint(Entry) : "");
    return declaredTarget(Site, Out);
  }

  // Where a resume clone's spawn whose child threw goes (catchingCall),
  // reached only by its label: the frame syncs as at a sync statement,
  // resuming at entry -Entry (a thief never sees that entry: the frame is
  // off the deque), then throws the first exception in serial order among
  // its children's.
  std::string throwPoint(int Entry) const {
    return fmt::format("if (false) {{ {}: __frame->entry = -{}; if (!::cilkpp::rt::sync(__w, __frame)) return; "
                       "__cilkpp_rethrow_{}: {}::cilkpp::rt::rethrow_first_thrown(*__frame); }} ",
                       throwLabel(Entry), Entry, Entry, releaseHeld());
  }
  // After a sync of the resume clone: the temporaries lent by spawns whose
  // children have now completed.
  std::string releaseHeld() const {
    return Frame.HoldsTemporaries ? "__frame->__cilkpp_held.release(__w); " : "";
  }
  static std::string throwLabel(int Entry) { return fmt::format("__cilkpp_threw_{}", Entry); }
  // The spawn is made where it is (not as a call with its temporaries) and
  // its child may throw.
  bool hasThrowPoint(unsigned Spawn) const {
    return Frame.MayThrow && Frame.SpawnMayThrow[Spawn] && !callsWithTemporaries(Proc.Spawns[Spawn]);
  }

  // A call point (Analysis/CallPoints.h). The fast clone calls the callee's
  // fast clone with this frame as the parent, its state saved as at a spawn;
  // if the callee escaped (runtime/include/cilkpp/rt/calls.h), the frame
  // resumes at the point's label once the callee completes, the result in
  // the target's field. The resume clone makes the call as written (a
  // nested root call: a stolen frame waits there, as it did before call
  // points) and passes the label, numbering the callee among its children
  // all the same.
  std::string callText(unsigned Index) {
    const SpawnSite &Site = Frame.Calls[Index];
    const int Entry = Frame.CallEntry[Index];
    const std::string Target =
        !Site.Target ? "" : (accessesFrame(Site.Target) ? fieldOf(Site.Target) : Site.Target->getName().str()) + " = ";
    if (Kind == CloneKind::Resume) {
      const std::string Count = Frame.MayThrow ? "++__frame->__cilkpp_spawns; " : "";
      const std::string Rethrow =
          Frame.MayThrow ? " ::cilkpp::rt::rethrow_if_call_threw(*__frame, __frame->__cilkpp_spawns);" : "";
      return fmt::format("{{ {{ {}{}{}; }} __cilkpp_resume_{}:;{} }}", Count, Target, text(Site.Call->getSourceRange()),
                         Entry, Rethrow);
    }
    if (spawnCall(Site) != SpawnCall::FastClone)
      return declaredTarget(Site, fmt::format("{{ {}{}; }}", Target, text(Site.Call->getSourceRange())));
    std::string Decls, Args;
    spawnArguments(Site, Decls, Args);
    std::string Out = "{ " + Decls + frameSetUp();
    for (const VarDecl *V : Frame.Points[pointIndex(PointKind::Call, Index)].FastPathSaves) Out += saveOnceText(V);
    if (Frame.MayThrow) Out += "const unsigned __child = ++__frame->__cilkpp_spawns; ";
    Out += fmt::format("__frame->entry = {}; ::cilkpp::rt::begin_call(__frame); ", Entry);
    const std::string Call =
        fmt::format("{}(__w, __frame, {}, {}{}{})", fastCloneOf(Site.Callee),
                    Site.Target ? slotOf(Site.Target) : std::string("nullptr"), Frame.MayThrow ? "__child" : "0",
                    Args.empty() ? "" : ", ", Args);
    Out += Site.Target ? fmt::format("auto __r = {}; ", Call) : Call + "; ";
    Out += fmt::format("if (!::cilkpp::rt::call_returned(__w, __frame)) {} ", escape());
    if (Site.Target) Out += Target + "__r; ";
    return declaredTarget(Site, Out + "}");
  }

  // The fast clone that a spawn or call of Callee calls.
  std::string fastCloneOf(const FunctionDecl *Callee) const {
    if (!SelfSpawnTarget.empty() && Callee->getCanonicalDecl() == FD->getCanonicalDecl()) return SelfSpawnTarget.str();
    return qualifiedFastName(Callee);
  }

  // The fast clone sets its frame up on the C stack where it first needs it
  // (a spawn, a poll point that answers a request), unless it allocated it
  // at entry (EagerFrame). At the entry's poll point it is not set up yet.
  std::string frameSetUp(bool AtEntry = false) const {
    if (Kind != CloneKind::Fast || Frame.EagerFrame) return "";
    const std::string Init = fmt::format("__frame = ::cilkpp::rt::init_stack_frame(__frame_storage, __parent, __slot, &{});",
                                         Names.StackInfo);
    // What never changes is stored once, when the frame is first exposed.
    std::string Once;
    if (Frame.MayThrow) Once += " __frame->__cilkpp_seq = __seq;";
    if (thisClass(FD)) Once += " __frame->__this = __this;";
    if (AtEntry) return Init + Once + " ";
    return Once.empty() ? fmt::format("if (!__frame) {} ", Init) : fmt::format("if (!__frame) {{ {}{} }} ", Init, Once);
  }

  // How a clone leaves when its frame now belongs to another worker (its
  // continuation stolen, or the frame mugged): at once, delivering nothing.
  // A class result is value-initialised by name: `return {};` cannot call
  // an explicit default constructor.
  std::string escape() {
    if (Kind != CloneKind::Fast || isVoid()) return "return;";
    if (FD->getReturnType()->isRecordType()) return fmt::format("return ::cilkpp::rt::id<{}>();", returnType());
    return "return {};";
  }

  // A poll point (Analysis/PollPoints.h). With a request pending, the fast
  // clone saves the state live there and records the point, as a spawn does,
  // and asks the runtime; if a faster worker took the frame over (mugged
  // it), the clone returns as after a steal, and that worker resumes the
  // frame at the point's label in the resume clone. Without a request it
  // costs a load and a branch, and the variables stay in registers.
  std::string pollText(const ContinuationPoint &P) {
    if (Kind == CloneKind::Resume)
      return fmt::format("if (::cilkpp::rt::poll_requested(__w)) {{ __frame->entry = {0}; if (::cilkpp::rt::poll(__w, "
                         "__frame)) return; }} __cilkpp_resume_{0}:;",
                         P.Entry);
    std::string Saves;
    for (const VarDecl *V : P.FastPathSaves) Saves += saveText(V);
    return fmt::format("if (::cilkpp::rt::poll_requested(__w)) {{ {}{}__frame->entry = {}; if (::cilkpp::rt::poll(__w, "
                       "__frame)) {} }}",
                       frameSetUp(/*AtEntry=*/!Frame.PollSites[P.Site]), Saves, P.Entry, escape());
  }

  bool hasCallPoints() const {
    return llvm::any_of(Frame.Points, [](const ContinuationPoint &P) { return P.Kind == PointKind::Call; });
  }
  bool hasPollPoints() const {
    return llvm::any_of(Frame.Points, [](const ContinuationPoint &P) { return P.Kind == PointKind::Poll; });
  }
  // The entry of the poll point at a loop's back-edge, or 0.
  int pollEntryOf(const Stmt *Loop) const {
    for (unsigned I = 0; I < Frame.PollSites.size(); ++I)
      if (Frame.PollSites[I] == Loop) return Frame.PollEntry[I];
    return 0;
  }
  static std::string continueLabel(int Entry) { return fmt::format("__cilkpp_continue_{}", Entry); }

  // A loop's back-edge poll goes after its body, so the body's variables are
  // out of scope there (a block around the body when it declares some: the
  // resume clone's jump to the label may not bypass their initialisation),
  // and every `continue` of the loop goes to it (rewriteLoopExits).
  void rewriteBackEdgePolls() {
    std::vector<const ContinuationPoint *> Polls;
    for (const ContinuationPoint &P : Frame.Points)
      if (P.Kind == PointKind::Poll && Frame.PollSites[P.Site]) Polls.push_back(&P);
    // Inner loops first: a loop whose body ends where an inner loop's does
    // closes its block after the inner one's.
    llvm::sort(Polls, [&](const ContinuationPoint *A, const ContinuationPoint *B) {
      return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Frame.PollSites[B->Site]->getBeginLoc()),
                                          SM.getExpansionLoc(Frame.PollSites[A->Site]->getBeginLoc()));
    });
    for (const ContinuationPoint *P : Polls) {
      const Stmt *Loop = Frame.PollSites[P->Site];
      const Stmt *Body = isa<ForStmt>(Loop)     ? cast<ForStmt>(Loop)->getBody()
                         : isa<WhileStmt>(Loop) ? cast<WhileStmt>(Loop)->getBody()
                                                : cast<DoStmt>(Loop)->getBody();
      const std::string Label = loopContinues(Loop) ? continueLabel(P->Entry) + ": " : "";
      if (const auto *Block = dyn_cast<CompoundStmt>(Body)) {
        const SourceLocation Close = SM.getExpansionLoc(Block->getRBracLoc());
        if (llvm::any_of(Block->body(), [](const Stmt *S) { return isa<DeclStmt>(S); })) {
          Final.InsertTextBefore(SM.getExpansionLoc(Block->getLBracLoc()), "{ ");
          Final.InsertTextAfterToken(Close, fmt::format(" {}{} }}", Label, pollText(*P)));
        } else {
          // After what the block's end already holds (destructions, a sync).
          Final.InsertTextAfter(Close, fmt::format("{}{} ", Label, pollText(*P)));
        }
        continue;
      }
      // A single statement (whose spawn keyword, if any, comes before it):
      // the block opens after the header (written in the file: PollPoints).
      const SourceLocation Open = isa<DoStmt>(Loop) ? cast<DoStmt>(Loop)->getDoLoc()
                                  : isa<ForStmt>(Loop) ? cast<ForStmt>(Loop)->getRParenLoc()
                                                       : cast<WhileStmt>(Loop)->getRParenLoc();
      const bool Declares = isa<DeclStmt>(Body);
      Final.InsertTextAfterToken(SM.getExpansionLoc(Open), Declares ? " { {" : " {");
      Final.InsertTextAfterToken(statementEnd(Ctx, Body),
                                 fmt::format("{} {}{} }}", Declares ? " }" : "", Label, pollText(*P)));
    }
  }

  // Has the loop a `continue` of its own (not of a loop nested in it, nor
  // in a lambda)?
  bool loopContinues(const Stmt *Loop) const { return ContinuingLoops.contains(Loop); }
  llvm::DenseSet<const Stmt *> ContinuingLoops;

  // A spawned call that may throw: if the continuation was stolen meanwhile,
  // the exception goes to the thief's frame, else on through this clone. On
  // the resume path an earlier child still running elsewhere may throw too,
  // and the first in serial order wins: the frame syncs first, at the
  // spawn's throw point (throwPoint), and rethrows there (exceptions.h).
  std::string catchingCall(const SpawnSite &Site, const std::string &Call, int Entry, bool Lends) {
    // (Temporaries lent to the frame: back to the statement, which destroys
    // them as the exception leaves it; or the thief's, with the frame.)
    const std::string TakeBack = Lends ? "{ __held.take_back(); " : "", Disown = Lends ? "__held.disown(); " : "";
    const std::string Close = Lends ? " }" : "";
    const std::string Handler =
        Kind == CloneKind::Fast
            ? fmt::format("catch (...) {{ if (::cilkpp::rt::fast_spawn_threw(__w, __frame, __child)) {}throw;{} {}{} }} ",
                          TakeBack, Close, Disown, escape())
            : fmt::format("catch (...) {{ if (!::cilkpp::rt::spawn_threw(__w, __frame, __child)) {}return;{} {}goto {}; }} ",
                          Lends ? "{ " + Disown : "", Close, Lends ? "__held.take_back(); " : "", throwLabel(Entry));
    if (!Site.Target && !Site.TargetLValue) return fmt::format("try {{ {}; }} {}", Call, Handler);
    const QualType Result = Site.Call->getCallReturnType(Ctx).getNonReferenceType().getUnqualifiedType();
    return fmt::format("::cilkpp::rt::Deferred<{}> __result; try {{ ::new (__result.slot()) {}({}); __result.ready(); }} "
                       "{}auto &__r = __result.get(); ",
                       typeQualified(Ctx, Result), simpleTypeSpecifier(Ctx, Result), Call, Handler);
  }

  // A class-type result is moved, not copied, into its target.
  std::string movedIfClass(QualType T, const char *Name) const {
    return T->isRecordType() && !T.isTriviallyCopyableType(Ctx) ? fmt::format("::std::move({})", Name) : Name;
  }

  // A class-type variable that the Declare form declares in the frame is
  // value-initialised before the spawn; the result is move-assigned to it
  // (by the child, if the parent is stolen meanwhile).
  std::string constructedTarget(const SpawnSite &Site) {
    if (Site.Form != SpawnForm::Declare || !accessesFrame(Site.Target) || !Frame.field(Site.Target)->ManagedLifetime)
      return "";
    return fmt::format("::new (static_cast<void *>(__builtin_addressof({}))) {}(){}; ", fieldOf(Site.Target),
                       typeQualified(Ctx, Site.Target->getType().getUnqualifiedType()), markLive(Site.Target));
  }

  // The Declare form declares its variable before the block that sets it.
  std::string declaredTarget(const SpawnSite &Site, std::string Block) {
    if (Site.Form != SpawnForm::Declare || accessesFrame(Site.Target)) return Block;
    // (`[[maybe_unused]] long z = spawn f(n);` keeps its attribute.)
    Block = fmt::format("{}{}; {}", Site.Target->hasAttr<UnusedAttr>() ? "[[maybe_unused]] " : "",
                        declareQualified(Ctx, Site.Target->getType().getUnqualifiedType(), Site.Target->getName()), Block);
    return Site.InCompound ? Block : "{ " + Block + " }";
  }

  // A spawn of a plain function right before a sync, on the fast path: a
  // call. Its continuation could only wait, and the callee has no frames
  // that thieves could take meanwhile.
  std::string plainTailCallText(const SpawnSite &Site, const std::string &Decls, const std::string &Args) {
    std::string Target;
    if (Site.Target) Target = (accessesFrame(Site.Target) ? fieldOf(Site.Target) : Site.Target->getName().str()) + " = ";
    if (Site.TargetLValue) Target = "*__t = ";
    return fmt::format("{{ {}{}{}({}); }}", Decls, Target, calleeText(Site), Args);
  }

  // Whether the fast clone's spawn needs the frame: all but plainTailCallText.
  bool exposesContinuation(unsigned Index) const {
    const SpawnSite &Site = Proc.Spawns[Index];
    return !callsWithTemporaries(Site) && (!Frame.SpawnIsTail[Index] || spawnCall(Site) != SpawnCall::Plain);
  }
  bool hasExposingSpawn() const {
    for (unsigned I = 0; I < Proc.Spawns.size(); ++I)
      if (exposesContinuation(I)) return true;
    return false;
  }

  unsigned pointIndex(PointKind K, unsigned Site) const {
    for (unsigned I = 0; I < Frame.Points.size(); ++I)
      if (Frame.Points[I].Kind == K && Frame.Points[I].Site == Site) return I;
    llvm_unreachable("continuation point not found");
  }

  // Class-type fields say whether they are alive: unwinding destroys those,
  // and a frame sent elsewhere carries only those (signature.h).
  std::string destroy(const VarDecl *V) {
    return fmt::format(" __frame->{} = false; ::cilkpp::rt::destroy_field({});", liveFlagName(*Frame.field(V)),
                       fieldOf(V));
  }
  std::string markLive(const VarDecl *V) { return fmt::format(", __frame->{} = true", liveFlagName(*Frame.field(V))); }

  bool encloses(const Stmt *Outer, SourceLocation Loc) const {
    CharSourceRange R = fileRange(SM, Outer->getSourceRange());
    return SM.isPointWithin(SM.getExpansionLoc(Loc), R.getBegin(), R.getEnd());
  }

  // Destroys, latest first, the class-type fields a jump at Jump leaves:
  // those declared before it in a block that contains it and that lies
  // inside Target (the whole body for a return).
  std::string cleanupsFor(const Stmt *Jump, const Stmt *Target) {
    std::string Out;
    SourceLocation At = SM.getExpansionLoc(Jump->getBeginLoc());
    for (const FrameField &F : Frame.Fields) {
      if (!F.ManagedLifetime || !encloses(F.Block, At) || !encloses(Target, F.Block->getBeginLoc())) continue;
      if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(F.Var->getLocation()), At)) continue;
      Out = destroy(F.Var) + Out;
    }
    return Out;
  }

  // Is the class-type field in scope at Loc?
  bool inScopeAt(const FrameField &F, SourceLocation Loc) const {
    return encloses(F.Block, Loc) &&
           SM.isBeforeInTranslationUnit(SM.getExpansionLoc(F.Var->getLocation()), SM.getExpansionLoc(Loc));
  }

  // A goto destroys, latest first, the class-type fields in scope where it
  // is and not where its label is.
  std::string cleanupsForGoto(const GotoStmt *Goto) {
    std::string Out;
    SourceLocation Label = Goto->getLabel()->getStmt()->getBeginLoc();
    for (const FrameField &F : Frame.Fields)
      if (F.ManagedLifetime && inScopeAt(F, Goto->getBeginLoc()) && !inScopeAt(F, Label)) Out = destroy(F.Var) + Out;
    return Out;
  }

  // break, continue and goto that leave blocks holding class-type fields
  // destroy them. A continue of a loop with a back-edge poll goes to the
  // poll (rewriteBackEdgePolls).
  void rewriteLoopExits() {
    struct Visitor : RecursiveASTVisitor<Visitor> {
      std::vector<const Stmt *> Jumps;
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      bool VisitBreakStmt(BreakStmt *S) { return Jumps.push_back(S), true; }
      bool VisitContinueStmt(ContinueStmt *S) { return Jumps.push_back(S), true; }
      bool VisitGotoStmt(GotoStmt *S) { return Jumps.push_back(S), true; }
    } V;
    V.TraverseStmt(FD->getBody());
    ParentMap PM(FD->getBody());
    for (const Stmt *Jump : V.Jumps) {
      std::string Cleanups;
      if (const auto *Goto = dyn_cast<GotoStmt>(Jump)) {
        Cleanups = cleanupsForGoto(Goto);
      } else {
        const Stmt *Target = PM.getParent(const_cast<Stmt *>(Jump));
        while (Target && !isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Target) &&
               !(isa<BreakStmt>(Jump) && isa<SwitchStmt>(Target)))
          Target = PM.getParent(const_cast<Stmt *>(Target));
        if (!Target) continue;
        Cleanups = cleanupsFor(Jump, Target);
        if (const int Entry = isa<ContinueStmt>(Jump) ? pollEntryOf(Target) : 0) {
          ContinuingLoops.insert(Target);
          const SourceLocation Keyword = SM.getExpansionLoc(Jump->getBeginLoc());
          Final.ReplaceText(CharSourceRange::getTokenRange(Keyword, Keyword), "goto " + continueLabel(Entry));
        }
      }
      SourceLocation Semi = semicolonAfter(Ctx, Jump->getEndLoc());
      if (Cleanups.empty() || Semi.isInvalid()) continue;
      SourceLocation Keyword = SM.getExpansionLoc(Jump->getBeginLoc());
      Final.InsertTextBefore(Keyword, "{" + Cleanups + " ");
      Final.InsertTextAfterToken(Semi, " }");
    }
  }

  // On the resume path a sync that may have to wait records where to resume.
  // A procedure that may throw rethrows there what its children threw: to
  // the handlers of the try block the sync is in, else straight to the
  // procedure's unwinding.
  std::string resumeSync(int Entry) const {
    std::string Out =
        fmt::format("__frame->entry = {0}; if (!::cilkpp::rt::sync(__w, __frame)) return; __cilkpp_resume_{0}:; {1}", Entry,
                    releaseHeld());
    // Results that arrived for a variable of another type, converted now
    // that their children have completed.
    for (const FrameDescription::ConvertedResult &C : Frame.ConvertedResults) {
      const VarDecl *Target = Proc.Spawns[C.Spawn].Target;
      if (!Frame.field(Target)) continue;  // (not used after the sync)
      // (Explicitly: the host compiler warns about the conversion where the
      // spawn is, in the fast clone.)
      Out += fmt::format("if (__frame->{0}) {{ __frame->{0} = false; {1} = static_cast<{3}>(__frame->{2}); }} ",
                         convertPendingName(C.Spawn), fieldOf(Target), convertedResultName(C.Spawn),
                         typeQualified(Ctx, Target->getType().getNonReferenceType().getUnqualifiedType()));
    }
    if (!Frame.MayThrow) return Out;
    const auto Point = llvm::find_if(Frame.Points, [&](const ContinuationPoint &P) { return P.Entry == Entry; });
    return Out + (Tries.inTryBlock(Point->Loc)
                      ? "if (__builtin_expect(__frame->pending != nullptr, 0)) ::cilkpp::rt::rethrow_pending(*__frame); "
                      : "if (__builtin_expect(__frame->pending != nullptr, 0)) goto __cilkpp_unwind; ");
  }

  // On the resume path children may still run when the procedure's own code
  // throws in a try block: an inner try around the block's statements
  // catches the exception before the handlers. Where the block holds
  // continuation points, or children may be outstanding in it (a
  // PointKind::Settle point), it records the exception (after every child
  // in serial order) and goes to the block's settle point, which syncs
  // (suspending the frame, never waiting on this worker's stack: a worker
  // in a nested root call may be running this frame above one of its
  // children) and then throws the first exception in serial order on to the
  // handlers; in any other block (no child outstanding, or a settle point
  // FrameLayout dropped), settle_exception waits for the children and does
  // the same.
  // Inside the block, before its resume dispatch, so that the dispatch jumps
  // within it. (Also where the procedure counts as not throwing: a handler
  // of its own may still catch what its code throws, and the analysis counts
  // on no child running when a handler starts.)
  void settleBeforeHandlers() {
    const std::vector<const CXXTryStmt *> &Statements = Tries.statements();
    for (unsigned T = 0; T < Statements.size(); ++T) {
      const CompoundStmt *Block = Statements[T]->getTryBlock();
      Final.InsertTextAfterToken(SM.getExpansionLoc(Block->getLBracLoc()), " try {");
      const std::string Settle =
          Tries.hasSettlePoint(T)
              ? fmt::format("}} catch (...) {{ ::cilkpp::rt::record_exception(__frame, ::std::current_exception(), "
                            "::cilkpp::rt::continuation_seq); goto __cilkpp_settle_{0}; }} "
                            "if (false) {{ __cilkpp_settle_{0}: __frame->entry = {1}; if "
                            "(!::cilkpp::rt::sync(__w, __frame)) return; __cilkpp_resettle_{0}: "
                            "{2}::cilkpp::rt::rethrow_first_thrown(*__frame); }} ",
                            T + 1, Tries.settleEntry(T), releaseHeld())
              : std::string("} catch (...) { ::cilkpp::rt::settle_exception(__w, *__frame); } ");
      Final.InsertText(SM.getExpansionLoc(Block->getRBracLoc()), Settle, /*InsertAfter=*/true);
    }
  }

  // A handler is entered after the class-type variables of its try block
  // are destroyed; those that live in the frame are destroyed at its start.
  void destroyInHandlers() {
    if (!Frame.MayThrow) return;
    for (const CXXTryStmt *Try : Tries.statements()) {
      std::string Cleanups;
      for (const FrameField &F : Frame.Fields)
        if (F.ManagedLifetime && encloses(Try->getTryBlock(), F.Block->getBeginLoc()))
          Cleanups = fmt::format(" if (__frame->{0}) {{ __frame->{0} = false; ::cilkpp::rt::destroy_field({1}); }}",
                                 liveFlagName(F), fieldOf(F.Var)) +
                     Cleanups;
      if (Cleanups.empty()) continue;
      for (unsigned I = 0; I < Try->getNumHandlers(); ++I)
        if (const auto *Body = dyn_cast<CompoundStmt>(Try->getHandler(I)->getHandlerBlock()))
          Final.InsertTextAfterToken(Body->getLBracLoc(), Cleanups);
    }
  }

  void rewriteSync(unsigned Index) {
    const SyncSite &Site = Proc.Syncs[Index];
    const int Entry = Frame.SyncEntry[Index];
    CharSourceRange Keyword = CharSourceRange::getTokenRange(Site.KeywordLoc, Site.KeywordLoc);
    if (Kind == CloneKind::Fast || Entry == 0) {
      // (A space: `done:sync;` must not become `done:::cilkpp...`.)
      Final.ReplaceText(Keyword, " ::cilkpp::rt::fast_sync()");
      return;
    }
    SourceLocation Semi = semicolonAfter(Ctx, Site.KeywordLoc);
    CharSourceRange Whole = Semi.isValid() ? CharSourceRange::getTokenRange(Site.KeywordLoc, Semi) : Keyword;
    Final.ReplaceText(Whole, "{ " + resumeSync(Entry) + "}");
  }

  // The keyword goes; on the resume path the block ends with a sync.
  void rewriteScope(unsigned Index) {
    const ScopeSite &Site = Proc.Scopes[Index];
    if (!Site.IsTryBlock) Final.RemoveText(CharSourceRange::getCharRange(Site.KeywordLoc, Site.Block->getLBracLoc()));
    const int Entry = Frame.ScopeEntry[Index];
    if (Kind == CloneKind::Resume && Entry != 0) Final.InsertTextBefore(Site.Block->getRBracLoc(), resumeSync(Entry));
  }

  // `return p->m(args);` in the fast clone, a tail call of a member
  // (CallPoints.h), is generated again whole, the object's address among
  // the arguments: `return ::C::m's fast clone(__w, __parent, __slot,
  // __seq, p, args);`. Not where a macro writes the return, nor with the
  // elements of a pack among the arguments (one text for several).
  const CXXMemberCallExpr *memberTailCall(unsigned Index) const {
    if (Kind != CloneKind::Fast || Frame.EagerFrame || Frame.TailCalls.empty()) return nullptr;
    const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(Frame.TailCalls[Index]);
    if (!Member) return nullptr;
    SpawnSite Site;
    Site.Call = Member;
    Site.Callee = Member->getDirectCallee();
    if (spawnCall(Site) != SpawnCall::FastClone) return nullptr;
    const ReturnStmt *R = Proc.Returns[Index];
    if (R->getBeginLoc().isMacroID() || R->getEndLoc().isMacroID() || omitted(R->getReturnLoc())) return nullptr;
    llvm::DenseSet<unsigned> Written;
    for (const Expr *Arg : Member->arguments())
      if (Arg->getBeginLoc().isMacroID() || !Written.insert(Arg->getBeginLoc().getRawEncoding()).second) return nullptr;
    return Member;
  }

  // `return f(args);` in a fast clone whose frame is on the stack becomes
  // `return f's fast clone(__w, __parent, __slot, __seq, args);`: f runs in
  // this procedure's place (CallPoints.h). The arguments stay as written.
  bool tailCall(unsigned Index) {
    if (const CXXMemberCallExpr *Member = memberTailCall(Index)) {
      std::vector<std::string> Args{objectPointer(Member)};
      for (const Expr *Arg : Member->arguments()) Args.push_back(text(Arg->getSourceRange()));
      replaceWhole(statementRange(Ctx, Proc.Returns[Index]),
                   fmt::format("return {}(__w, __parent, __slot, __seq, {})",
                               qualifiedFastName(Member->getDirectCallee()), fmt::join(Args, ", ")));
      return true;
    }
    const CallExpr *Call = Frame.TailCalls.empty() ? nullptr : Frame.TailCalls[Index];
    if (!Call || isa<CXXMemberCallExpr>(Call)) return false;
    SpawnSite Site;
    Site.Call = Call;
    Site.Callee = Call->getDirectCallee();
    if (spawnCall(Site) != SpawnCall::FastClone) return false;
    const SourceRange Callee = Call->getCallee()->IgnoreParenImpCasts()->getSourceRange();
    const std::optional<Token> Paren = Lexer::findNextToken(SM.getExpansionLoc(Callee.getEnd()), SM, LO);
    if (Callee.getBegin().isMacroID() || !Paren || !Paren->is(tok::l_paren)) return false;
    Final.ReplaceText(fileRange(SM, Callee), qualifiedFastName(Site.Callee));
    Final.InsertTextAfterToken(Paren->getLocation(),
                               Call->getNumArgs() ? "__w, __parent, __slot, __seq, " : "__w, __parent, __slot, __seq");
    return true;
  }

  void rewriteReturn(unsigned Index) {
    const ReturnStmt *R = Proc.Returns[Index];
    const Expr *Value = R->getRetValue();
    SourceLocation Keyword = R->getReturnLoc();
    SourceLocation Semi = semicolonAfter(Ctx, R->getEndLoc());
    if (Keyword.isMacroID() || Semi.isInvalid()) {
      // (Once, for both clones.)
      if (Kind == CloneKind::Fast)
        diag::report(Ctx.getDiagnostics(), SM.getExpansionLoc(Keyword), diag::ConstructUnsupported)
            << "a return statement written inside a macro";
      return;
    }
    // `return` and the blanks after it, so `return x;` becomes `f(x);`.
    CharSourceRange KeywordRange =
        Value ? CharSourceRange::getCharRange(Keyword, SM.getExpansionLoc(Value->getBeginLoc()))
              : CharSourceRange::getTokenRange(Keyword, Keyword);
    CharSourceRange SemiRange = CharSourceRange::getTokenRange(Semi, Semi);
    const bool ValueDelivered = Value && !isVoid();
    // `return v;` moves v ([class.copy.elision]); the clones name v's frame
    // field, or store v into `__ret`, where it would be copied: spell the
    // move out.
    const VarDecl *Moved = ValueDelivered ? implicitlyMovedVariable(Value) : nullptr;
    const bool SpellMove = Moved && (accessesFrame(Moved) || Kind == CloneKind::Resume || Frame.EagerFrame);
    const std::string Open = SpellMove ? "::std::move(" : "", Close = SpellMove ? ")" : "";
    // `return {a, b};` initialises `__ret` as written; any other value is
    // parenthesised (it may be a comma expression).
    const bool Braced = Value && *SM.getCharacterData(SM.getExpansionLoc(Value->getBeginLoc())) == '{';
    const std::string InitOpen = Braced ? "" : "(", InitClose = Braced ? "" : ")";
    // Class-type fields in scope die after the value is computed.
    const std::string Cleanups = cleanupsFor(R, FD->getBody());
    if (Kind == CloneKind::Fast) {
      // A frame on the C stack needs nothing at a return.
      if (!Frame.EagerFrame && tailCall(Index)) return;
      if (!Frame.EagerFrame) {
        if (SpellMove) {
          Final.ReplaceText(KeywordRange, "return " + Open);
          Final.ReplaceText(SemiRange, Close + ";");
        }
        return;
      }
      const std::string Free = Cleanups + " ::cilkpp::rt::free_frame(__w, __frame);";
      if (ValueDelivered) {
        // The value may read the frame, so it is computed before the free.
        Final.ReplaceText(KeywordRange, fmt::format("{{ {} = {}{}", declareQualified(Ctx, FD->getReturnType().getUnqualifiedType(), "__ret"), InitOpen, Open));
        Final.ReplaceText(SemiRange, fmt::format("{}{};{} return __ret; }}", Close, InitClose, Free));
      } else if (Value && isVoid()) {
        Final.ReplaceText(KeywordRange, "{ ");
        Final.ReplaceText(SemiRange, fmt::format(";{} return; }}", Free));
      } else {
        Final.ReplaceText(KeywordRange, fmt::format("{{{} return{}", Free, Value ? " " : ""));
        Final.ReplaceText(SemiRange, "; }");
      }
      return;
    }
    const int Entry = Frame.ReturnEntry[Index];
    std::string Prefix = "{ " + (Entry ? resumeSync(Entry) : std::string());
    if (ValueDelivered && (!Cleanups.empty() || Braced)) {
      Final.ReplaceText(KeywordRange, fmt::format("{}{} = {}{}", Prefix, declareQualified(Ctx, FD->getReturnType().getUnqualifiedType(), "__ret"), InitOpen, Open));
      Final.ReplaceText(SemiRange, fmt::format("{}{};{} ::cilkpp::rt::complete_frame<{}>(__w, __frame, {}); return; }}",
                                               Close, InitClose, Cleanups, returnType(),
                                               movedIfClass(FD->getReturnType(), "__ret")));
    } else if (!Cleanups.empty()) {
      Final.ReplaceText(KeywordRange, Prefix);
      Final.ReplaceText(SemiRange, fmt::format(";{} ::cilkpp::rt::complete_frame(__w, __frame); return; }}", Cleanups));
    } else if (ValueDelivered) {
      // An arithmetic conversion as the return's own: the fast clone's
      // `return` already warns about it (-Wconversion), so the argument
      // does not convert a second time. (For class types static_cast would
      // be direct-initialisation, which may pick another constructor.)
      const QualType Result = FD->getReturnType(), From = Value->IgnoreImpCasts()->getType();
      const bool Arithmetic = Result->isArithmeticType() && !Result->isEnumeralType() && From->isArithmeticType() &&
                              !From->isEnumeralType() && !Ctx.hasSameUnqualifiedType(Result, From);
      const std::string Converted =
          Arithmetic ? "static_cast<" + typeQualified(Ctx, Result.getUnqualifiedType()) + ">" : "";
      Final.ReplaceText(KeywordRange,
                        fmt::format("{}::cilkpp::rt::complete_frame<{}>(__w, __frame, {}({}", Prefix, returnType(), Converted, Open));
      Final.ReplaceText(SemiRange, Close + ")); return; }");
    } else if (Value) {
      Final.ReplaceText(KeywordRange, Prefix);
      Final.ReplaceText(SemiRange, "; ::cilkpp::rt::complete_frame(__w, __frame); return; }");
    } else {
      Final.ReplaceText(KeywordRange, Prefix + "::cilkpp::rt::complete_frame(__w, __frame); return");
      Final.ReplaceText(SemiRange, "; }");
    }
  }

  std::string prologue() {
    if (Kind == CloneKind::Resume) {
      std::string Out = fmt::format(" auto *const __frame = static_cast<{} *>(__base);", Names.Frame);
      if (thisClass(FD)) Out += " [[maybe_unused]] auto *const __this = __frame->__this;";
      Out += debuggerNames(Ctx, Frame, /*ResumeClone=*/true);
      if (Tries.holdPoints()) Out += " bool __cilkpp_resuming = false;";
      if (Frame.MayThrow) Out += " try {";
      Out += " switch (__frame->entry) {";
      for (const ContinuationPoint &P : Frame.Points) {
        if (P.Kind == PointKind::Settle) continue;  // (Tries.settleCases)
        Out += fmt::format(" case {}: {}", P.Entry, Tries.entryCase(P));
        if (Tries.hasThrowPoint(P)) Out += fmt::format(" case -{}: {}", P.Entry, Tries.throwCase(P));
      }
      if (Frame.MayThrow) Out += fmt::format(" case {}: goto __cilkpp_unwind_resume;", unwindEntry());
      Out += Tries.settleCases();
      Out += " default: __builtin_unreachable(); }";
      return Out + (Frame.EntryPollAfter ? "" : entryPollText());
    }
    const std::string EntryPoll = Frame.EntryPollAfter ? "" : entryPollText();
    if (!Frame.EagerFrame)
      return !hasExposingSpawn() && !hasPollPoints() && !hasCallPoints()
                 ? ""
                 : fmt::format(" ::cilkpp::rt::StackFrame<{0}> __frame_storage; {0} *__frame = nullptr;{1}{2}", Names.Frame,
                               savedOnceFlags(), EntryPoll);
    // The leading base cases again before the frame is allocated: a leaf
    // returns without touching the pool, and the compiler drops the
    // repeated tests.
    std::string Out = (OmittedBaseCases ? "" : copyableBaseCases(Ctx, *FD, Frame.EarlyReturns).Text) +
                      fmt::format(" {0} *const __frame = ::cilkpp::rt::new_frame<{0}>(__w, __parent, __slot, &{1});",
                                  Names.Frame, Names.Info);
    if (Frame.MayThrow) Out += " __frame->__cilkpp_seq = __seq;";
    if (thisClass(FD)) Out += " __frame->__this = __this;";
    for (const ParmVarDecl *P : FD->parameters()) {
      if (!accessesFrame(P)) continue;
      if (!Frame.field(P)->ManagedLifetime) {
        Out += fmt::format(" {} = {};", fieldOf(P), valueToStore(P, parameterName(P)));
        continue;
      }
      // Moved, not copied, into the frame (a const one is copied, as C++
      // would); the frame's object is the one the body uses and destroys.
      const std::string T = typeQualified(Ctx, P->getType().getUnqualifiedType());
      Out += fmt::format(" ::new (static_cast<void *>(__builtin_addressof({}))) {}(static_cast<{} &&>({})){};", fieldOf(P), T,
                         typeQualified(Ctx, P->getType()), parameterName(P), markLive(P));
    }
    Out += debuggerNames(Ctx, Frame, /*ResumeClone=*/false) + savedOnceFlags();
    return (Frame.MayThrow ? Out + " try {" : Out) + EntryPoll;
  }

  // The poll point at the procedure's entry, if it has one: at the start of
  // the body or after its leading base cases (FrameDescription.h). Nothing
  // runs before it in the resume clone but the switch: its label is all the
  // resume clone needs.
  std::string entryPollText() {
    for (const ContinuationPoint &P : Frame.Points)
      if (P.Kind == PointKind::Poll && !Frame.PollSites[P.Site])
        return Kind == CloneKind::Resume ? fmt::format(" __cilkpp_resume_{}:;", P.Entry) : fmt::format(" {}", pollText(P));
    return "";
  }

  bool hasManagedFields() const {
    return llvm::any_of(Frame.Fields, [](const FrameField &F) { return F.ManagedLifetime; });
  }
  int unwindEntry() const {
    int Max = 0;
    for (const ContinuationPoint &P : Frame.Points) Max = std::max(Max, P.Entry);
    return Max + 1;
  }

  // Where an exception leaves a procedure that may throw. The fast clone
  // frees a frame it allocated and lets the exception go on. The resume
  // clone waits for its outstanding children (they precede the exception in
  // serial order and may use the frame), destroys the live class-type
  // fields and hands the first exception in serial order to the parent.
  std::string unwinding() {
    if (!Frame.MayThrow) return "";
    const std::string DestroyLive = hasManagedFields() ? "__frame->__cilkpp_destroy_live(); " : "";
    if (Kind == CloneKind::Fast)
      return Frame.EagerFrame
                 ? fmt::format("}} catch (...) {{ {}::cilkpp::rt::free_frame(__w, __frame); throw; }} ", DestroyLive)
                 : "";
    return fmt::format(
        "}} catch (...) {{ ::cilkpp::rt::record_exception(__frame, ::std::current_exception(), "
        "::cilkpp::rt::continuation_seq); goto __cilkpp_unwind; }} "
        "__cilkpp_unwind: __frame->entry = {}; if (!::cilkpp::rt::sync(__w, __frame)) return; "
        "__cilkpp_unwind_resume: {}{}::cilkpp::rt::complete_frame_exceptionally(__w, __frame, __frame->__cilkpp_seq); ",
        unwindEntry(), releaseHeld(), DestroyLive);
  }

  // What runs when control falls off the closing brace (in the resume
  // clone, Cleanups destroy the body's fields after the implicit sync).
  std::string epilogue(const std::string &Cleanups) {
    if (!Frame.FallsOffEnd) return "";
    const bool IsMain = FD->isMain();
    if (Kind == CloneKind::Fast) {
      std::string Out = Frame.EagerFrame ? " ::cilkpp::rt::free_frame(__w, __frame);" : "";
      return IsMain ? Out + " return 0; " : Out + (Out.empty() ? "" : " ");
    }
    std::string Out = " { " + (Frame.EndEntry ? resumeSync(Frame.EndEntry) : std::string()) +
                      (Cleanups.empty() ? "" : Cleanups.substr(1) + " ");
    if (IsMain) return Out + "::cilkpp::rt::complete_frame<int>(__w, __frame, 0); return; } ";
    if (isVoid()) return Out + "::cilkpp::rt::complete_frame(__w, __frame); return; } ";
    return Out + "__builtin_unreachable(); } ";
  }

  const EmitSettings &Settings;
  // The fast clone's tail leaves out this many leading base cases.
  const unsigned OmittedBaseCases;
  // What the fast clone's spawns and calls of its own procedure call, where
  // not its fast clone (RecursionInlining.h).
  const StringRef SelfSpawnTarget;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  const FrameDescription &Frame;
  const CilkProcedure &Proc;
  const FunctionDecl *FD;
  const ProcedureNames &Names;
  const FastCloneAvailable &IsCilkCallee;
  ArrayRef<SourceLocation> RemovedKeywords;
  const CloneKind Kind;
  TryBlocks Tries;
  // Frame accesses by file offset: (length replaced, replacement). The
  // source of the texts of subexpressions inside replaced statements.
  TextSubstitutions Substitutions;
  Rewriter Final;
  std::vector<const DeclStmt *> FieldDeclarations;
  std::vector<std::pair<unsigned, unsigned>> WholeRanges;
  // Where render reported a directive in text it writes again (once per
  // statement is enough).
  std::vector<unsigned> DirectiveReports;
};

}  // namespace

// Copied on the line of the body's `{`, so only text that means the same
// there on one line: no comment, literal, backslash or carriage return in
// it, and no preprocessor line between the `{` and it.
// `__func__` and its kin: copied as written into the head they would name
// the fast clone.
static bool namesItsFunction(const Stmt *S) {
  if (!S) return false;
  if (isa<PredefinedExpr>(S)) return true;
  return llvm::any_of(S->children(), namesItsFunction);
}

// A member's fast clone has the object as `__this`: `base` (through the
// implicit `this`) becomes `__this->base`, and `this` `__this`. nullopt
// where a `this` is written by a macro or is a lambda's.
static std::optional<std::string> withObjectAsThisParameter(const SourceManager &SM, const Stmt *S, StringRef Text) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const CXXThisExpr *> Found;
    bool InLambda = false;
    // (A lambda that names `this` captures it.)
    bool TraverseLambdaExpr(LambdaExpr *L) {
      InLambda |= llvm::any_of(L->captures(), [](const LambdaCapture &C) { return C.capturesThis(); });
      return true;
    }
    bool VisitCXXThisExpr(CXXThisExpr *E) {
      Found.push_back(E);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  if (F.InLambda) return std::nullopt;
  if (F.Found.empty()) return Text.str();
  const unsigned Begin = SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
  std::string Out = Text.str();
  // Last first, so that earlier offsets hold.
  llvm::sort(F.Found, [&](const CXXThisExpr *A, const CXXThisExpr *B) {
    return SM.getFileOffset(A->getLocation()) > SM.getFileOffset(B->getLocation());
  });
  for (const CXXThisExpr *E : F.Found) {
    if (E->getLocation().isMacroID()) return std::nullopt;
    const unsigned At = SM.getFileOffset(E->getLocation()) - Begin;
    if (At >= Out.size()) return std::nullopt;
    if (E->isImplicit())
      Out.insert(At, "__this->");
    else if (Out.compare(At, 4, "this") == 0)
      Out.replace(At, 4, "__this");
    else
      return std::nullopt;
  }
  return Out;
}

std::optional<std::string> baseCaseText(ASTContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  const StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(SM.getExpansionLoc(S->getBeginLoc()), statementEnd(Ctx, S)), SM,
      Ctx.getLangOpts());
  return withObjectAsThisParameter(SM, S, Text);
}

CopiedBaseCases copyableBaseCases(ASTContext &Ctx, const FunctionDecl &FD, ArrayRef<const Stmt *> BaseCases) {
  const SourceManager &SM = Ctx.getSourceManager();
  CopiedBaseCases Out;
  const SourceLocation Open = SM.getExpansionLoc(FD.getBody()->getBeginLoc());
  for (const Stmt *S : BaseCases) {
    const SourceLocation End = statementEnd(Ctx, S);
    const StringRef Since = Lexer::getSourceText(CharSourceRange::getTokenRange(Open, End), SM, Ctx.getLangOpts());
    const StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(SM.getExpansionLoc(S->getBeginLoc()), End), SM, Ctx.getLangOpts());
    if (Since.contains('#') || Text.empty() || Text.find_first_of("\"'\\\r") != StringRef::npos ||
        Text.contains("//") || Text.contains("/*") || namesItsFunction(S))
      break;
    std::optional<std::string> Line = baseCaseText(Ctx, S);
    if (!Line) break;
    std::replace(Line->begin(), Line->end(), '\n', ' ');
    Out.Text += " " + *Line;
    ++Out.Count;
    Out.Statements.push_back(S);
  }
  return Out;
}

std::optional<std::string> emitCloneBody(ASTContext &Ctx, const FrameDescription &Frame, const ProcedureNames &Names,
                                         const FastCloneAvailable &IsCilkCallee,
                                         ArrayRef<SourceLocation> RemovedKeywords, CloneKind Kind,
                                         const EmitSettings &Settings, unsigned OmittedBaseCases,
                                         StringRef SelfSpawnTarget) {
  unsigned ErrorsBefore = Ctx.getDiagnostics().getNumErrors();
  std::optional<std::string> Body =
      CloneBuilder(Ctx, Frame, Names, IsCilkCallee, RemovedKeywords, Kind, Settings, OmittedBaseCases, SelfSpawnTarget)
          .build();
  if (Ctx.getDiagnostics().getNumErrors() != ErrorsBefore) return std::nullopt;
  return Body;
}

}  // namespace cilkpp
