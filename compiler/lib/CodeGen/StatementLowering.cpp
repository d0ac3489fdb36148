#include "CodeGen/StatementLowering.h"

#include "Analysis/PollPoints.h"
#include "CodeGen/Naming.h"
#include "CodeGen/SourceText.h"
#include "Support/Instantiations.h"
#include "Support/LoopIndexTypes.h"
#include "Support/Nameable.h"
#include "Support/SourceRanges.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <fmt/format.h>

#include <optional>
#include <string>

using namespace clang;

namespace cilkpp {
namespace {

struct OffsetRange {
  unsigned Begin, End;
  bool contains(unsigned Offset) const { return Begin <= Offset && Offset <= End; }
};

// The variable (or structured binding) declared at a place, in one
// instantiation's body.
template <class Declaration>
class DeclarationAt : public RecursiveASTVisitor<DeclarationAt<Declaration>> {
 public:
  static const Declaration *find(const FunctionDecl *FD, SourceLocation Loc) {
    DeclarationAt Finder(Loc);
    Finder.TraverseStmt(FD->getBody());
    return Finder.Found;
  }
  bool VisitVarDecl(VarDecl *D) {
    if (D->getLocation() == Loc) Found = dyn_cast<Declaration>(D);
    return !Found;
  }

 private:
  explicit DeclarationAt(SourceLocation Loc) : Loc(Loc) {}
  SourceLocation Loc;
  const Declaration *Found = nullptr;
};

// The temporary whose lifetime a local reference V extends: its
// initializer is the temporary, or a base, member or element of it.
const MaterializeTemporaryExpr *extendedTemporary(const VarDecl *V) {
  if (!V || isa<ParmVarDecl, DecompositionDecl>(V) || !V->hasLocalStorage() || !V->getType()->isReferenceType() ||
      !V->getInit())
    return nullptr;
  const Expr *E = V->getInit();
  while (true) {
    E = E->IgnoreParens();
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
      return Temporary->getExtendingDecl() == V ? Temporary : nullptr;
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) E = Cleanups->getSubExpr();
    else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
             Cast && (Cast->getCastKind() == CK_NoOp || Cast->getCastKind() == CK_DerivedToBase ||
                      Cast->getCastKind() == CK_UncheckedDerivedToBase))
      E = Cast->getSubExpr();
    else if (const auto *Member = dyn_cast<MemberExpr>(E); Member && !Member->isArrow()) E = Member->getBase();
    else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E);
             Subscript && Subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      E = Subscript->getBase();
    else return nullptr;
  }
}

// A local reference that keeps alive a temporary of its own type, and only
// that (`const std::string &s = make();`, `auto &&v = std::vector<int>(n);`):
// declared without the `&` it holds the same object, which a frame can hold,
// where it cannot hold a reference into the fast clone's stack.
bool bindsOwnTemporary(const ASTContext &Ctx, const VarDecl *V) {
  const MaterializeTemporaryExpr *Temporary = extendedTemporary(V);
  if (!Temporary) return false;
  const Expr *Init = V->getInit();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Init)) Init = Cleanups->getSubExpr();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Init); Cast && Cast->getCastKind() == CK_NoOp)
    Init = Cast->getSubExpr();
  return Init == Temporary && Ctx.hasSameUnqualifiedType(Temporary->getType(), V->getType().getNonReferenceType());
}

// The `&` or `&&` of V's declarator, where the file spells it.
std::optional<SourceLocation> referenceSigil(const SourceManager &SM, const VarDecl *V) {
  const TypeSourceInfo *Written = V->getTypeSourceInfo();
  const auto Reference = Written ? Written->getTypeLoc().getAs<ReferenceTypeLoc>() : ReferenceTypeLoc();
  if (!Reference || !Reference.getSigilLoc().isFileID() || !SM.isWrittenInMainFile(Reference.getSigilLoc()))
    return std::nullopt;
  return Reference.getSigilLoc();
}

// The statements to lower, and the bodies whose keywords are their own:
// lambdas' and cilk_for loops'.
class StatementCollector : public RecursiveASTVisitor<StatementCollector> {
 public:
  StatementCollector(const SourceManager &SM, ArrayRef<KeywordUse> Uses) : SM(SM), Uses(Uses) {}

  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    add(S);
    return true;
  }
  bool VisitIfStmt(IfStmt *S) {
    if ((S->getConditionVariable() || S->getInit()) && !S->isConstexpr()) add(S);
    return true;
  }
  bool VisitSwitchStmt(SwitchStmt *S) {
    if (S->getConditionVariable() || S->getInit()) add(S);
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) {
    if (S->getConditionVariable()) add(S);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *S) {
    if (S->isSingleDecl() && isa<DecompositionDecl>(S->getSingleDecl()) &&
        cast<DecompositionDecl>(S->getSingleDecl())->hasLocalStorage())
      add(S);
    else if (llvm::any_of(S->decls(), [](const Decl *D) {
               const auto *V = dyn_cast<VarDecl>(D);
               return V && V->hasLocalStorage() && V->getType()->isReferenceType();
             }))
      add(S);  // Lowering::lowerTemporaryReferences decides
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    OwnBodies.push_back(range(L->getBody()->getSourceRange()));
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && SM.isWrittenInMainFile(SM.getExpansionLoc(FD->getBody()->getBeginLoc())))
      Functions.push_back({FD, range(FD->getBody()->getSourceRange())});
    return true;
  }
  bool VisitForStmt(ForStmt *F) {
    // A cilk_for: its `for` is the keyword's expansion.
    if (F->getForLoc().isMacroID()) {
      const SourceLocation At = SM.getExpansionLoc(F->getForLoc());
      if (llvm::any_of(Uses, [&](const KeywordUse &U) { return U.Kind == KeywordKind::CilkFor && U.Loc == At; }))
        OwnBodies.push_back(range(F->getBody()->getSourceRange()));
      return true;
    }
    // Scalars declared in the header are handled in place; only a variable
    // that must be destroyed where its scope ends needs the block.
    const auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
    const bool ClassInit = Init && llvm::any_of(Init->decls(), [&](const Decl *D) {
                             const auto *V = dyn_cast<VarDecl>(D);
                             return V && !V->getType()->isReferenceType() &&
                                    !V->getType().isTriviallyCopyableType(V->getASTContext());
                           });
    if (ClassInit || F->getConditionVariable()) add(F);
    return true;
  }

  std::vector<const Stmt *> Statements;
  std::vector<OffsetRange> OwnBodies;
  // Function bodies written in the main file.
  std::vector<std::pair<const FunctionDecl *, OffsetRange>> Functions;

  OffsetRange range(SourceRange R) const {
    return {SM.getFileOffset(SM.getExpansionLoc(R.getBegin())), SM.getFileOffset(SM.getExpansionLoc(R.getEnd()))};
  }

 private:
  void add(const Stmt *S) {
    if (SM.isWrittenInMainFile(SM.getExpansionLoc(S->getBeginLoc()))) Statements.push_back(S);
  }
  const SourceManager &SM;
  ArrayRef<KeywordUse> Uses;
};

// What a range-based for in a template calls for its first and last
// iterator, so each instantiation finds them as the loop would: the range's
// own begin()/end() (preferred: 0 converts to int exactly), else begin()/end()
// found by argument-dependent lookup, or an array's bounds; and what
// `const auto &x = *it` binds per instantiation: a reference to an element,
// or (where *it is a prvalue) the value itself, which a frame can hold.
// Written once at the top of a file that needs it, in plain C++ (no header).
constexpr const char *RangeHelpers =
    "template <class R> auto __cilkpp_range_begin(R &r, int) -> decltype(r.begin()) { return r.begin(); }\n"
    "template <class R> auto __cilkpp_range_begin(R &r, long) -> decltype(begin(r)) { return begin(r); }\n"
    "template <class T, decltype(sizeof(0)) N> T *__cilkpp_range_begin(T (&r)[N], int) { return r; }\n"
    "template <class R> auto __cilkpp_range_end(R &r, int) -> decltype(r.end()) { return r.end(); }\n"
    "template <class R> auto __cilkpp_range_end(R &r, long) -> decltype(end(r)) { return end(r); }\n"
    "template <class T, decltype(sizeof(0)) N> T *__cilkpp_range_end(T (&r)[N], int) { return r + N; }\n"
    "template <class R> struct __cilkpp_const_bound { using type = const R; };\n"
    "template <class R> struct __cilkpp_const_bound<R &> { using type = const R &; };\n"
    "template <class R> struct __cilkpp_const_bound<R &&> { using type = const R &; };\n";

// A temporary object, or a member or element of one.
static bool isPartOfTemporary(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (isa<MaterializeTemporaryExpr>(E)) return true;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) E = Cast->getSubExpr();
    else if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) E = Cleanups->getSubExpr();
    else if (const auto *Member = dyn_cast<MemberExpr>(E); Member && !Member->isArrow()) E = Member->getBase();
    else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E);
             Subscript && Subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      E = Subscript->getBase();
    else return false;
  }
}

class Lowering {
 public:
  Lowering(ASTContext &Ctx, Rewriter &Main) : Ctx(Ctx), SM(Ctx.getSourceManager()), Main(Main) {}

  bool UsesRangeHelpers = false;

  bool lower(const Stmt *S) {
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) return lowerRangeFor(R);
    if (const auto *If = dyn_cast<IfStmt>(S))
      return lowerConditional(If, If->getIfLoc(), If->getLParenLoc(), If->getRParenLoc(), If->getCond(),
                              If->getConditionVariable(), "if");
    if (const auto *Sw = dyn_cast<SwitchStmt>(S))
      return lowerConditional(Sw, Sw->getSwitchLoc(), Sw->getLParenLoc(), Sw->getRParenLoc(), Sw->getCond(),
                              Sw->getConditionVariable(), "switch");
    if (const auto *W = dyn_cast<WhileStmt>(S)) return lowerWhile(W);
    if (const auto *F = dyn_cast<ForStmt>(S)) return lowerFor(F);
    const auto *Declaration = cast<DeclStmt>(S);
    if (Declaration->isSingleDecl() && isa<DecompositionDecl>(Declaration->getSingleDecl()))
      return lowerBindings(Declaration);
    return lowerTemporaryReferences(Declaration);
  }

  // The region a statement's variables are in scope for: the statement, or
  // for a declaration the rest of its block.
  std::optional<SourceRange> scopeOf(const Stmt *S) const {
    if (!isa<DeclStmt>(S)) return S->getSourceRange();
    auto Parents = Ctx.getParents(*S);
    const auto *Block = Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
    if (!Block) return std::nullopt;  // a range-for's variable: lowered with its loop first
    return SourceRange(S->getBeginLoc(), Block->getRBracLoc());
  }

 private:
  bool lowerRangeFor(const CXXForRangeStmt *S) {
    const Expr *Range = S->getRangeInit();
    // In a template the range's type may be known per instantiation only:
    // RangeHelpers then choose begin and end there.
    const auto *BeginDecl = S->getBeginStmt() ? dyn_cast<VarDecl>(S->getBeginStmt()->getSingleDecl()) : nullptr;
    const bool Dependent = !BeginDecl || !BeginDecl->getInit();
    if (!Range || !rewritable(S)) return false;
    const SourceLocation For = SM.getExpansionLoc(S->getForLoc());
    const std::string Suffix = fmt::format("{}_{}", SM.getPresumedLineNumber(For), SM.getSpellingColumnNumber(For));
    const std::string RangeName = fmt::format("__cilkpp_range_{}", Suffix),
                      BeginName = fmt::format("__cilkpp_begin_{}", Suffix), EndName = fmt::format("__cilkpp_end_{}", Suffix);
    std::string First, Last;
    const Expr *Value = Range->IgnoreImplicit();
    // `{a, b}`: an array of its own, which a frame can hold (an
    // initializer_list would point into the fast clone's stack).
    const auto *List = dyn_cast<CXXStdInitializerListExpr>(Value);
    const auto *Elements = List ? dyn_cast<InitListExpr>(List->getSubExpr()->IgnoreImplicit()) : nullptr;
    const ConstantArrayType *ListArray = Elements ? Ctx.getAsConstantArrayType(Elements->getType()) : nullptr;
    // (A member of a temporary, `make().items`, moves into it.)
    const bool ByValue = Value->isPRValue() || (Value->isXValue() && isPartOfTemporary(Value));
    std::string Declaration =
        fmt::format("auto {}{} = {};", ByValue && !Dependent ? "" : "&&", RangeName, text(Range->getSourceRange()));
    if (List && !ListArray) return false;
    if (Dependent && !isa<InitListExpr>(Value))
      // A temporary range is held by value in each instantiation, as above
      // (a frame cannot hold a reference to it), any other is referred to:
      // `decltype(auto)` of a parenthesized expression is its type, with
      // `&` for an lvalue.
      Declaration = fmt::format("decltype(auto) {} = ({});", RangeName, text(Range->getSourceRange()));
    if (ListArray && !Dependent) {
      Declaration = fmt::format("{} = {};", declareAsWritten(Ctx, Elements->getType(), RangeName),
                                text(Range->getSourceRange()));
      First = RangeName;
      Last = fmt::format("{} + {}", RangeName, ListArray->getSize().getZExtValue());
    } else {
      std::tie(First, Last) = iteratorBounds(S, RangeName, Dependent);
    }
    // A temporary range lives in the block, as the reference the standard
    // binds it to would keep it alive; any other range is referred to.
    std::string Header = fmt::format(
        "{{ {}{} auto {} = {}; auto {} = {}; for (; {} != {}; ++{}) {{ {};", initStatement(S), Declaration, BeginName,
        First, EndName, Last, BeginName, EndName, BeginName, loopVariable(S, Dependent, "*" + BeginName));
    replaceHeader(S->getForLoc(), S->getRParenLoc(), Header);
    Main.InsertTextAfterToken(statementEnd(Ctx, S), " } }");
    return true;
  }

 public:
  // cilk_for (init; DECL : RANGE) BODY
  //   -> { init auto &&__cilkpp_range_L_C = RANGE;
  //        cilk_for (auto __cilkpp_begin_L_C = FIRST; __cilkpp_begin_L_C != LAST; ++__cilkpp_begin_L_C) {
  //          DECL = *__cilkpp_begin_L_C; BODY } }
  // The iterator is the loop variable of a cilk_for like any other, and the
  // range is bound as the standard's own rewriting binds it. With a
  // `#pragma cilk grainsize` before the loop, which must stay right before
  // the keyword, the block opens on lines of its own before the pragma.
  bool lowerParallelRangeFor(const CXXForRangeStmt *S, const KeywordUse &Keyword, const GrainPragma *Pragma,
                             StringRef FileName) {
    const Expr *Range = S->getRangeInit();
    const auto *BeginDecl = S->getBeginStmt() ? dyn_cast<VarDecl>(S->getBeginStmt()->getSingleDecl()) : nullptr;
    const bool Dependent = !BeginDecl || !BeginDecl->getInit();
    if (!Range || !S->getRParenLoc().isFileID() || !endsAtItsSemicolon(Ctx, S)) return false;
    if (!Dependent && !isParallelLoopIndexType(Ctx, BeginDecl->getType())) return false;
    const std::string Suffix =
        fmt::format("{}_{}", SM.getPresumedLineNumber(Keyword.Loc), SM.getSpellingColumnNumber(Keyword.Loc));
    const std::string RangeName = fmt::format("__cilkpp_range_{}", Suffix),
                      BeginName = fmt::format("__cilkpp_begin_{}", Suffix);
    const auto [First, Last] = iteratorBounds(S, RangeName, Dependent);
    const std::string Opener =
        fmt::format("{{ {}auto &&{} = {};", initStatement(S), RangeName, text(Range->getSourceRange()));
    std::string Header = fmt::format("{} (auto {} = {}; {} != {}; ++{}) {{ {};", Keyword.Spelling, BeginName, First,
                                     BeginName, Last, BeginName, loopVariable(S, Dependent, "*" + BeginName));
    if (Pragma) {
      const SourceLocation Hash = Pragma->Range.getBegin();
      const SourceLocation LineStart = Hash.getLocWithOffset(1 - int(SM.getSpellingColumnNumber(Hash)));
      Main.InsertTextBefore(LineStart, lineDirective(SM.getPresumedLineNumber(Keyword.Loc), FileName) + Opener + "\n" +
                                           lineDirective(SM.getPresumedLineNumber(Hash), FileName));
    } else {
      Header = Opener + " " + Header;
    }
    replaceHeader(S->getForLoc(), S->getRParenLoc(), Header);
    Main.InsertTextAfterToken(statementEnd(Ctx, S), " } }");
    return true;
  }

 private:
  // `for (init; x : r)`: the init-statement, which opens the block.
  std::string initStatement(const CXXForRangeStmt *S) const {
    const Stmt *Init = S->getInit();
    return Init ? StringRef(text(Init->getBeginLoc(), loopDeclarationBegin(S))).trim().str() + " " : "";
  }

  // Where the loop variable's declaration begins: after the '(' or the
  // init-statement, before any attribute (`[[maybe_unused]] auto &x`), which
  // the DeclStmt's range leaves out.
  SourceLocation loopDeclarationBegin(const CXXForRangeStmt *S) const {
    if (const Stmt *Init = S->getInit()) {
      const SourceLocation Semi =
          isa<DeclStmt>(Init) ? SM.getExpansionLoc(Init->getEndLoc()) : semicolonAfter(Ctx, Init->getEndLoc());
      if (Semi.isValid()) return Semi.getLocWithOffset(1);
    } else if (std::optional<Token> Paren =
                   Lexer::findNextToken(SM.getExpansionLoc(S->getForLoc()), SM, Ctx.getLangOpts());
               Paren && Paren->is(tok::l_paren)) {
      return Paren->getEndLoc();
    }
    return S->getLoopVarStmt()->getBeginLoc();
  }

  // The first and last iterators of the range held in RangeName, as the loop
  // finds them: an array's bounds, the range's begin() and end(), or else
  // RangeHelpers', which choose in a template per instantiation and
  // otherwise find begin() and end() by argument-dependent lookup from
  // namespace scope (a plain `begin(r)` here would find a member or local
  // named begin first, where the loop looks only by that lookup).
  std::pair<std::string, std::string> iteratorBounds(const CXXForRangeStmt *S, StringRef RangeName, bool Dependent) {
    if (!Dependent) {
      if (const auto *Array = Ctx.getAsConstantArrayType(S->getRangeInit()->getType()))
        return {RangeName.str(), fmt::format("{} + {}", RangeName, Array->getSize().getZExtValue())};
      const auto *BeginDecl = cast<VarDecl>(S->getBeginStmt()->getSingleDecl());
      if (isa<CXXMemberCallExpr>(BeginDecl->getInit()->IgnoreImplicit()))
        return {fmt::format("{}.begin()", RangeName), fmt::format("{}.end()", RangeName)};
    }
    UsesRangeHelpers = true;
    return {fmt::format("__cilkpp_range_begin({}, 0)", RangeName), fmt::format("__cilkpp_range_end({}, 0)", RangeName)};
  }

  // The loop variable's declaration from `*__begin`. A reference to the
  // temporary `*__begin` makes (`const auto &x` over `std::views::iota`)
  // could not live in a frame: the variable holds the value instead, which
  // is what binding the temporary to it means. In a template, where the
  // value category is known per instantiation, `auto &&x` says so as
  // `decltype(auto) x = (*__begin)`, and `const auto &x` through
  // RangeHelpers' __cilkpp_const_bound.
  std::string loopVariable(const CXXForRangeStmt *S, bool Dependent, const std::string &Value) {
    const VarDecl *V = S->getLoopVariable();
    const std::string Attributes =
        StringRef(text(loopDeclarationBegin(S), S->getLoopVarStmt()->getBeginLoc())).trim().str();
    return (Attributes.empty() ? "" : Attributes + " ") + declaredFrom(S, V, Dependent, Value);
  }

  std::string declaredFrom(const CXXForRangeStmt *S, const VarDecl *V, bool Dependent, const std::string &Value) {
    const std::string Written = StringRef(text(S->getLoopVarStmt()->getBeginLoc(), S->getColonLoc())).rtrim().str();
    const std::string Name = V->getName().str();
    if (isa<DecompositionDecl>(V) || Name.empty() || V->getLocation().isMacroID())
      return fmt::format("{} = {}", Written, Value);
    // The declarator before the name, without its `&` or `&&`.
    const std::string Before = text(S->getLoopVarStmt()->getBeginLoc(), V->getLocation());
    const StringRef Type = StringRef(Before).rtrim();
    if (!Type.ends_with("&") || Before.size() > Written.size()) return fmt::format("{} = {}", Written, Value);
    const StringRef Rest = StringRef(Written).drop_front(Before.size());
    const StringRef Unreferenced = Type.rtrim('&').rtrim();
    if (Dependent) {
      if (Type.ends_with("&&") && Unreferenced == "auto")
        return fmt::format("decltype(auto) {} = ({})", Rest, Value);
      if (!Type.ends_with("&&") && (Unreferenced == "const auto" || Unreferenced == "auto const")) {
        UsesRangeHelpers = true;
        return fmt::format("typename __cilkpp_const_bound<decltype(({}))>::type {} = {}", Value, Rest, Value);
      }
      return fmt::format("{} = {}", Written, Value);
    }
    const Expr *Init = V->getInit();
    if (const auto *Cleanups = dyn_cast_or_null<ExprWithCleanups>(Init)) Init = Cleanups->getSubExpr();
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Init); Cast && Cast->getCastKind() == CK_NoOp)
      Init = Cast->getSubExpr();
    if (!isa_and_nonnull<MaterializeTemporaryExpr>(Init) || !V->getType()->isReferenceType())
      return fmt::format("{} = {}", Written, Value);
    return fmt::format("{} {} = {}", Unreferenced, Rest, Value);
  }

  // if/switch (init; T x = e) ... -> { init; T x = e; if/switch (x) ... }
  bool lowerConditional(const Stmt *S, SourceLocation Keyword, SourceLocation LParen, SourceLocation RParen,
                        const Expr *Cond, const VarDecl *CondVar, StringRef Name) {
    if (!rewritable(S) || LParen.isInvalid()) return false;
    const SourceLocation CondBegin = CondVar ? CondVar->getBeginLoc() : Cond->getBeginLoc();
    std::string Prefix = StringRef(text(LParen.getLocWithOffset(1), CondBegin)).trim().str();
    std::string Test = text(Cond->getSourceRange());
    if (CondVar) {
      Prefix = fmt::format("{}{}{};", Prefix, Prefix.empty() ? "" : " ", text(CondVar->getSourceRange()));
      Test = CondVar->getName().str();
    }
    replaceHeader(Keyword, RParen, fmt::format("{{ {} {} ({})", Prefix, Name, Test));
    Main.InsertTextAfterToken(statementEnd(Ctx, S), " }");
    return true;
  }

  // while (T x = e) BODY -> while (true) { T x = e; if (!(x)) break; BODY }
  bool lowerWhile(const WhileStmt *S) {
    const VarDecl *CondVar = S->getConditionVariable();
    if (!rewritable(S) || S->getLParenLoc().isInvalid()) return false;
    replaceHeader(S->getWhileLoc(), S->getRParenLoc(),
                  fmt::format("while (true) {{ {}; if (!({})) break;", text(CondVar->getSourceRange()),
                              CondVar->getName()));
    Main.InsertTextAfterToken(statementEnd(Ctx, S), " }");
    return true;
  }

  // auto &[a, b] = init;  ->  auto &__cilkpp_bindings_L = init; auto &&a = __cilkpp_bindings_L.first; ...
  // (a reference per binding, into the object the frame holds; a copy per
  // binding of an array's elements).
  bool lowerBindings(const DeclStmt *S) {
    const auto *D = cast<DecompositionDecl>(S->getSingleDecl());
    if (!rewritable(S) || D->bindings().empty() || !D->getInit()) return false;
    const SourceLocation Semi = SM.getExpansionLoc(S->getEndLoc());
    std::optional<Token> RBracket =
        Lexer::findNextToken(SM.getExpansionLoc(D->bindings().back()->getLocation()), SM, Ctx.getLangOpts());
    if (!RBracket || RBracket->isNot(tok::r_square)) return false;
    std::string Specifiers = StringRef(text(S->getBeginLoc(), D->bindings().front()->getLocation())).rtrim().str();
    if (!StringRef(Specifiers).ends_with("[")) return false;
    Specifiers.pop_back();
    const SourceLocation Name = SM.getExpansionLoc(D->bindings().front()->getLocation());
    const std::string Object =
        fmt::format("__cilkpp_bindings_{}_{}", SM.getPresumedLineNumber(Name), SM.getSpellingColumnNumber(Name));
    std::optional<Decomposition> Lowered = decomposition(D, Object);
    if (!Lowered) return false;
    // A temporary bound by reference is held by value instead: the frame
    // cannot point at a temporary of the fast clone's stack.
    if (Lowered->HoldsTemporary) llvm::erase(Specifiers, '&');
    std::string Bindings;
    // `auto [a, b] = array;` copies the array's elements, which `auto object
    // = array;` would not (it decays to a pointer into the original): the
    // object is a reference, and each binding a copy of its element (not of
    // an array of arrays, whose elements would decay too).
    const auto *CopiedArray = D->getType()->getAsArrayTypeUnsafe();
    if (CopiedArray && CopiedArray->getElementType()->isArrayType()) return false;
    // A binding the program never names is no mistake (compilers do not
    // warn about one of a structured binding's names).
    const std::string Unused = StringRef(Specifiers).contains("maybe_unused") ? "" : "[[maybe_unused]] ";
    for (unsigned I = 0; I < Lowered->Accesses.size(); ++I)
      Bindings += CopiedArray ? fmt::format(" {}{} {} = {};", Unused, Specifiers, D->bindings()[I]->getName(),
                                            Lowered->Accesses[I])
                              : fmt::format(" {}auto &&{} = {};", Unused, D->bindings()[I]->getName(),
                                            Lowered->Accesses[I]);
    Main.ReplaceText(CharSourceRange::getTokenRange(SM.getExpansionLoc(S->getBeginLoc()), RBracket->getLocation()),
                     fmt::format("{} {}", CopiedArray ? "auto &&" : Specifiers, Object));
    Main.InsertTextAfterToken(Semi, Bindings);
    return true;
  }

  // const std::string &s = make();  ->  const std::string s = make();
  // (bindsOwnTemporary; in a template, where every instantiation in the file
  // does so). A reference to a base, member or element of a temporary refers
  // to a local holding the whole temporary instead:
  // const Base &b = Derived();  ->  const auto __cilkpp_temporary_L_C = Derived(); const Base &b = __cilkpp_temporary_L_C;
  bool lowerTemporaryReferences(const DeclStmt *S) {
    bool Changed = false;
    for (const Decl *D : S->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->getType()->isReferenceType() || !V->hasLocalStorage()) continue;
      if (std::optional<SourceLocation> Sigil = referenceSigil(SM, V); Sigil && bindsOwnTemporaryInEveryInstance(V)) {
        Main.RemoveText(CharSourceRange::getTokenRange(*Sigil, *Sigil));
        Changed = true;
      } else if (const MaterializeTemporaryExpr *Temporary = extendedTemporary(V); Temporary && S->isSingleDecl()) {
        Changed |= holdWholeTemporary(S, V, Temporary);
      }
    }
    return Changed;
  }

  bool holdWholeTemporary(const DeclStmt *S, const VarDecl *V, const MaterializeTemporaryExpr *Temporary) {
    const SourceRange Range = Temporary->getSourceRange();
    if (!rewritable(S) || !Range.getBegin().isFileID() || !Range.getEnd().isFileID()) return false;
    const SourceLocation Name = SM.getExpansionLoc(V->getLocation());
    const std::string Holder =
        fmt::format("__cilkpp_temporary_{}_{}", SM.getPresumedLineNumber(Name), SM.getSpellingColumnNumber(Name));
    // An rvalue reference binds to the temporary as the xvalue it was.
    const std::string Use = V->getType()->isRValueReferenceType()
                                ? fmt::format("static_cast<decltype({}) &&>({})", Holder, Holder)
                                : Holder;
    Main.InsertTextBefore(SM.getExpansionLoc(S->getBeginLoc()),
                          fmt::format("{}auto {} = {}; ", Temporary->getType().isConstQualified() ? "const " : "",
                                      Holder, text(Range)));
    Main.ReplaceText(CharSourceRange::getTokenRange(Range), Use);
    return true;
  }

  bool bindsOwnTemporaryInEveryInstance(const VarDecl *V) const {
    if (!V->getInit() || !V->getInit()->isInstantiationDependent()) return bindsOwnTemporary(Ctx, V);
    const auto *Function = dyn_cast<FunctionDecl>(V->getDeclContext());
    const std::vector<const FunctionDecl *> Instances =
        Function ? instantiationsOf(Function) : std::vector<const FunctionDecl *>();
    return !Instances.empty() && llvm::all_of(Instances, [&](const FunctionDecl *Instance) {
      return bindsOwnTemporary(Ctx, DeclarationAt<VarDecl>::find(Instance, V->getLocation()));
    });
  }

  struct Decomposition {
    std::vector<std::string> Accesses;  // the expression that reads each binding from Object
    bool HoldsTemporary = false;        // a reference bound to a temporary
    bool operator!=(const Decomposition &O) const {
      return Accesses != O.Accesses || HoldsTemporary != O.HoldsTemporary;
    }
  };

  // In a template the bindings are known per instantiation only; the
  // lowering is the text of the template, so every instantiation in the file
  // must decompose the same way (say, std::pair everywhere).
  std::optional<Decomposition> decomposition(const DecompositionDecl *D, StringRef Object) const {
    if (llvm::none_of(D->bindings(), [](const BindingDecl *B) { return !B->getBinding(); }))
      return concreteDecomposition(D, Object);
    const auto *Function = dyn_cast<FunctionDecl>(D->getDeclContext());
    if (!Function) return std::nullopt;
    std::optional<Decomposition> Common;
    for (const FunctionDecl *Instance : instantiationsOf(Function)) {
      const DecompositionDecl *Same = DeclarationAt<DecompositionDecl>::find(Instance, D->getLocation());
      std::optional<Decomposition> This = Same ? concreteDecomposition(Same, Object) : std::nullopt;
      if (!This || (Common && *This != *Common)) return std::nullopt;
      Common = std::move(This);
    }
    return Common;
  }

  // The namespace of the `get` a tuple-like binding calls: the binding
  // found it by argument-dependent lookup, which an unqualified `get<0>(x)`
  // does not do before C++20 unless some template `get` is visible. None for
  // a friend defined in its class, which only that lookup finds: a lambda
  // makes the call there, with `using ::std::get;` for a visible template
  // (the binding's <utility> or <tuple> declares it).
  static std::optional<std::string> getQualifier(const FunctionDecl *Get) {
    if (!Get || Get->getFriendObjectKind() != Decl::FOK_None || !Get->getDeclContext()->isFileContext())
      return std::nullopt;
    if (Get->isInStdNamespace()) return "::std::";
    std::string Scope;
    // (Qualified lookup sees into unnamed namespaces.)
    for (const DeclContext *DC = Get->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
        Scope = NS->getName().str() + "::" + Scope;
    return "::" + Scope;
  }

  std::optional<Decomposition> concreteDecomposition(const DecompositionDecl *D, StringRef Object) const {
    Decomposition Out;
    Out.HoldsTemporary = D->getType()->isReferenceType() && D->getInit()->IgnoreImplicit()->isPRValue();
    unsigned Index = 0;
    for (const BindingDecl *B : D->bindings()) {
      if (!B->getBinding()) return std::nullopt;
      std::string Access;
      if (const VarDecl *Holding = B->getHoldingVar()) {
        const auto *Get = Holding->getInit() ? dyn_cast<CallExpr>(Holding->getInit()->IgnoreImplicit()) : nullptr;
        if (!Get) return std::nullopt;
        if (isa<CXXMemberCallExpr>(Get))
          Access = fmt::format("{}.get<{}>()", Object, Index);
        else if (std::optional<std::string> Qualifier = getQualifier(Get->getDirectCallee()))
          Access = fmt::format("{}get<{}>({})", *Qualifier, Index, Object);
        else
          Access = fmt::format("[](auto &&__o) -> decltype(auto) {{ using ::std::get; return get<{}>("
                               "static_cast<decltype(__o)>(__o)); }}({})",
                               Index, Object);
      } else if (const auto *Member = dyn_cast_or_null<MemberExpr>(B->getBinding()->IgnoreImplicit())) {
        if (Member->getMemberDecl()->getName().empty() || B->getBinding()->refersToBitField()) return std::nullopt;
        Access = fmt::format("{}.{}", Object, Member->getMemberDecl()->getName());
      } else if (isa_and_nonnull<ArraySubscriptExpr>(B->getBinding()->IgnoreImplicit())) {
        Access = fmt::format("{}[{}]", Object, Index);
      } else {
        return std::nullopt;
      }
      Out.Accesses.push_back(std::move(Access));
      ++Index;
    }
    return Out;
  }

  // for (T i = a; U x = c; inc) BODY
  //   -> { T i = a; for (; ; inc) { U x = c; if (!(x)) break; BODY } }
  bool lowerFor(const ForStmt *S) {
    if (!rewritable(S) || S->getLParenLoc().isInvalid()) return false;
    std::string Init;
    if (const Stmt *I = S->getInit()) {
      Init = text(I->getSourceRange());
      if (!StringRef(Init).ends_with(";")) Init += ";";
    }
    const VarDecl *CondVar = S->getConditionVariable();
    const std::string Cond = CondVar || !S->getCond() ? "" : text(S->getCond()->getSourceRange());
    const std::string Inc = S->getInc() ? text(S->getInc()->getSourceRange()) : "";
    std::string Header = fmt::format("{{ {} for (; {}; {})", Init, Cond, Inc);
    if (CondVar)
      Header += fmt::format(" {{ {}; if (!({})) break;", text(CondVar->getSourceRange()), CondVar->getName());
    replaceHeader(S->getForLoc(), S->getRParenLoc(), Header);
    Main.InsertTextAfterToken(statementEnd(Ctx, S), CondVar ? " } }" : " }");
    return true;
  }

  // Replaces `keyword (...)`, keeping the lines after it where they were.
  void replaceHeader(SourceLocation Keyword, SourceLocation RParen, const std::string &Text) {
    const CharSourceRange Header = CharSourceRange::getTokenRange(SM.getExpansionLoc(Keyword), SM.getExpansionLoc(RParen));
    const std::string Old = Lexer::getSourceText(Header, SM, Ctx.getLangOpts()).str();
    // As many lines as the header had, so that the next line keeps its
    // number: Text holds the user's pieces of it (a range written over
    // several lines) with their line breaks.
    const size_t Lines = llvm::count(Old, '\n'), Kept = llvm::count(Text, '\n');
    Main.ReplaceText(Header, Text + std::string(Lines > Kept ? Lines - Kept : 0, '\n'));
  }

  // A statement written in the file: it may end in a macro's expansion (a
  // body `sync;`, `LOG(x);`), whose text ends where the expansion does, but
  // not before a `;` that a macro writes (`PUT(x) END`): the text added
  // after it would go before that `;`.
  bool rewritable(const Stmt *S) const {
    const SourceRange R = S->getSourceRange();
    return R.getBegin().isFileID() && SM.isWrittenInSameFile(R.getBegin(), SM.getExpansionLoc(R.getEnd())) &&
           endsAtItsSemicolon(Ctx, S);
  }

  std::string text(SourceRange R) const { return Lexer::getSourceText(fileRange(SM, R), SM, Ctx.getLangOpts()).str(); }
  std::string text(SourceLocation From, SourceLocation To) const {
    return Lexer::getSourceText(CharSourceRange::getCharRange(SM.getExpansionLoc(From), SM.getExpansionLoc(To)), SM,
                                Ctx.getLangOpts())
        .str();
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  Rewriter &Main;
};

// Whether a range-based for that holds no continuation point would poll at
// its back-edge once lowered: it is a loop of a cilk procedure's own code
// (declared `cilk`, or using the keywords outside lambdas and cilk_for
// bodies), not a tight one, and the fast path can keep its hidden variables
// in registers, as FrameLayout requires of any variable in scope at a poll
// point: a range referred to (not a temporary or a braced list held by
// value, nor a local array, whose address the loop takes), and pointers for
// iterators (an array's, std::array's; a class iterator's operators take its
// address, which keeps it in the frame).
bool pollsOnceLowered(const SourceManager &SM, const StatementCollector &Collector, ArrayRef<KeywordUse> Uses,
                      const CXXForRangeStmt *S) {
  const auto *BeginDecl = S->getBeginStmt() ? dyn_cast<VarDecl>(S->getBeginStmt()->getSingleDecl()) : nullptr;
  const Expr *Range = S->getRangeInit();
  if (!BeginDecl || !BeginDecl->getInit() || !Range || Range->IgnoreImplicit()->isPRValue() ||
      isa<InitListExpr, CXXStdInitializerListExpr>(Range->IgnoreImplicit()))
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Range->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
        V && V->hasLocalStorage() && !V->getType()->isReferenceType() && V->getType()->isArrayType())
      return false;
  const QualType Iterator = BeginDecl->getType();
  if (!Iterator->isPointerType() || !isNameableOutsideFunction(Iterator)) return false;
  if (isTightLoop(S)) return false;

  const unsigned At = SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
  const std::pair<const FunctionDecl *, OffsetRange> *Function = nullptr;
  for (const auto &F : Collector.Functions)
    if (F.second.contains(At) && (!Function || F.second.Begin >= Function->second.Begin)) Function = &F;
  if (!Function) return false;
  const OffsetRange Body = Function->second;
  auto InOwnCode = [&](unsigned Offset) {
    return Body.contains(Offset) && llvm::none_of(Collector.OwnBodies, [&](const OffsetRange &B) {
             return B.contains(Offset) && Body.contains(B.Begin) && Body.contains(B.End);
           });
  };
  if (!InOwnCode(At)) return false;
  for (const FunctionDecl *D : Function->first->redecls())
    for (const auto *A : D->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == "cilkpp.procedure") return true;  // what `cilk` expands to (Keywords.cpp)
  return llvm::any_of(Uses, [&](const KeywordUse &U) {
    return U.Kind != KeywordKind::Cilk && U.Kind != KeywordKind::CilkFor && InOwnCode(SM.getFileOffset(U.Loc));
  });
}

// The range-based for loops that a cilk_for keyword introduced.
class ParallelRangeLoops : public RecursiveASTVisitor<ParallelRangeLoops> {
 public:
  ParallelRangeLoops(const SourceManager &SM, ArrayRef<KeywordUse> Uses) : SM(SM), Uses(Uses) {}
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    if (!S->getForLoc().isMacroID()) return true;
    const SourceLocation At = SM.getExpansionLoc(S->getForLoc());
    for (const KeywordUse &U : Uses)
      if (U.Kind == KeywordKind::CilkFor && U.Loc == At) Found.push_back({S, &U});
    return true;
  }
  // Outer loops before the loops in their bodies.
  std::vector<std::pair<const CXXForRangeStmt *, const KeywordUse *>> Found;

 private:
  const SourceManager &SM;
  ArrayRef<KeywordUse> Uses;
};

// The main file as Main edited it, with RangeHelpers on top where the
// lowering used them and an earlier round did not write them yet.
std::string loweredMainFile(const SourceManager &SM, Rewriter &Main, const Lowering &Lower, StringRef FileName) {
  if (Lower.UsesRangeHelpers && !SM.getBufferData(SM.getMainFileID()).contains("__cilkpp_range_begin(R &r"))
    Main.InsertTextBefore(SM.getLocForStartOfFile(SM.getMainFileID()),
                          std::string(RangeHelpers) + lineDirective(1, FileName));
  const RewriteBuffer *Edited = Main.getRewriteBufferFor(SM.getMainFileID());
  return std::string(Edited->begin(), Edited->end());
}

}  // namespace

std::optional<std::string> lowerParallelRangeLoops(ASTContext &Ctx, ArrayRef<KeywordUse> Uses,
                                                   ArrayRef<GrainPragma> Pragmas, StringRef FileName) {
  const SourceManager &SM = Ctx.getSourceManager();
  ParallelRangeLoops Loops(SM, Uses);
  Loops.TraverseDecl(Ctx.getTranslationUnitDecl());
  Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
  Lowering Lower(Ctx, Main);
  bool Changed = false;
  // Inner loops first: where two loops end at the same token, the inner
  // one's closing braces must come first.
  for (auto It = Loops.Found.rbegin(); It != Loops.Found.rend(); ++It) {
    const GrainPragma *Pragma = nullptr;
    for (const GrainPragma &P : Pragmas)
      if (precedesLoop(Ctx, P, It->second->Loc)) Pragma = &P;
    Changed |= Lower.lowerParallelRangeFor(It->first, *It->second, Pragma, FileName);
  }
  if (!Changed) return std::nullopt;
  return loweredMainFile(SM, Main, Lower, FileName);
}

std::optional<std::string> lowerStatementsAroundContinuations(ASTContext &Ctx, ArrayRef<KeywordUse> Uses,
                                                              StringRef FileName, bool PollPoints) {
  const SourceManager &SM = Ctx.getSourceManager();
  StatementCollector Collector(SM, Uses);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  Rewriter Main(Ctx.getSourceManager(), Ctx.getLangOpts());
  Lowering Lower(Ctx, Main);
  bool Changed = false;
  for (const Stmt *S : Collector.Statements) {
    std::optional<SourceRange> Scope = Lower.scopeOf(S);
    if (!Scope) continue;
    const OffsetRange Whole = Collector.range(*Scope);
    // A keyword of this statement's procedure inside it: not in a lambda or
    // cilk_for body nested in it.
    const bool HoldsPoint = llvm::any_of(Uses, [&](const KeywordUse &U) {
      if (U.Kind == KeywordKind::Cilk || U.Kind == KeywordKind::CilkFor) return false;
      const unsigned At = SM.getFileOffset(U.Loc);
      return Whole.contains(At) && llvm::none_of(Collector.OwnBodies, [&](const OffsetRange &B) {
               return B.contains(At) && Whole.contains(B.Begin) && Whole.contains(B.End);
             });
    });
    const auto *RangeFor = dyn_cast<CXXForRangeStmt>(S);
    if (HoldsPoint || (PollPoints && RangeFor && pollsOnceLowered(SM, Collector, Uses, RangeFor)))
      Changed |= Lower.lower(S);
  }
  if (!Changed) return std::nullopt;
  return loweredMainFile(SM, Main, Lower, FileName);
}

}  // namespace cilkpp
