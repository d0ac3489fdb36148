#include "CodeGen/LoopLowering.h"

#include "CodeGen/SourceText.h"
#include "Support/References.h"

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <vector>

using namespace clang;

namespace cilkpp {
namespace {

// Replaces Range with Text, or inserts Text after the token at
// Range.getBegin() when AfterToken is set.
struct TextEdit {
  CharSourceRange Range;
  std::string Text;
  bool AfterToken = false;
};

const char *testName(LoopTest T) {
  switch (T) {
    case LoopTest::Less: return "less";
    case LoopTest::LessEqual: return "less_equal";
    case LoopTest::Greater: return "greater";
    case LoopTest::GreaterEqual: return "greater_equal";
    case LoopTest::NotEqual: return "not_equal";
  }
  return "less";
}

std::string stepText(const ParallelLoop &Loop, const RenderFn &Render) {
  if (!Loop.Step) return Loop.StepNegated ? "-1" : "1";
  std::string Step = fmt::format("static_cast<::std::int64_t>({})", Render(Loop.Step->getSourceRange()));
  return Loop.StepNegated ? fmt::format("-{}", Step) : Step;
}

// The loop's header as the user wrote it, in a plain `for` that never runs
// (`if (::cilkpp::rt::never())`: a condition the compiler cannot see
// through, as clang++ warns about nothing in code it knows is dead), with
// an empty body, placed on the header's own line and columns. The host
// compiler checks it as it checks the serial loop's (-Wsign-compare,
// -Wtype-limits, conversions), at the same places; the same warnings on
// the lowered loop's text come later and the driver drops them as repeats.
std::string headerToCheck(const SourceManager &SM, const ParallelLoop &Loop, const RenderFn &Render, unsigned Line,
                          StringRef FileName) {
  const unsigned KeywordColumn = SM.getPresumedColumnNumber(Loop.KeywordLoc);
  const SourceLocation Open = SM.getExpansionLoc(Loop.Loop->getLParenLoc());
  // `for` padded so that the parenthesis stays where it was.
  const unsigned Gap = SM.getPresumedLineNumber(Open) == Line && SM.getPresumedColumnNumber(Open) > KeywordColumn + 3
                           ? SM.getPresumedColumnNumber(Open) - KeywordColumn - 3
                           : 1;
  const std::string Indent(KeywordColumn - 1, ' ');
  return fmt::format("if (::cilkpp::rt::never())\n{}{}for{}{} {{}}\n{}{}", lineDirective(Line, FileName), Indent,
                     std::string(Gap, ' '),
                     Render(SourceRange(Loop.Loop->getLParenLoc(), Loop.Loop->getRParenLoc())),
                     lineDirective(Line, FileName), Indent);
}

}  // namespace

CharSourceRange loopHeaderRange(const SourceManager &SM, const ParallelLoop &Loop) {
  return CharSourceRange::getTokenRange(Loop.KeywordLoc, SM.getExpansionLoc(Loop.Loop->getRParenLoc()));
}

namespace {

std::vector<TextEdit> lowerParallelLoop(ASTContext &Ctx, const ParallelLoop &Loop, const RenderFn &Render,
                                        StringRef FileName) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<TextEdit> Edits;
  const Stmt *Body = Loop.Loop->getBody();
  const bool CompoundBody = isa<CompoundStmt>(Body);

  // The declared type as written ("int ", "auto ", "std::size_t "), so the
  // first value converts exactly as the serial loop's initialisation does.
  CharSourceRange TypeRange = CharSourceRange::getCharRange(SM.getExpansionLoc(Loop.Init->getBeginLoc()),
                                                            SM.getExpansionLoc(Loop.Var->getLocation()));
  std::string Type = Lexer::getSourceText(TypeRange, SM, Ctx.getLangOpts()).str();
  const unsigned Line = SM.getPresumedLineNumber(Loop.KeywordLoc);
  CharSourceRange Header = loopHeaderRange(SM, Loop);
  // Keep the lines after the header where they were.
  const unsigned HeaderLines =
      SM.getSpellingLineNumber(Header.getEnd()) - SM.getSpellingLineNumber(Loop.KeywordLoc);
  // The body's variable has the type as written too, so that messages about
  // the body name it; a deduced one is the first value's.
  const bool Deduced = Loop.Var->getType()->getContainedDeducedType() != nullptr;
  // Named after the variable: a nested loop's would hide the outer one's
  // (-Wshadow).
  const std::string First = "__cilkpp_first_" + Loop.Var->getName().str();
  const std::string VarType =
      Deduced ? "decltype(" + First + ") " : std::string(StringRef(Type).rtrim()) + " ";
  std::string Text = fmt::format(
      "{{ {}{}{} = {}; ::cilkpp::rt::parallel_for({}, {}, {}, ::cilkpp::rt::LoopTest::{}, "
      "{}u, {}, [&]({}{}{}){}{}",
      headerToCheck(SM, Loop, Render, Line, FileName), Type, First, Render(Loop.Var->getInit()->getSourceRange()), First,
      Render(Loop.Bound->getSourceRange()),
      stepText(Loop, Render), testName(Loop.Test), Loop.Grain, cStringLiteral(fmt::format("{}:{}", FileName, Line)),
      // (A loop's variable need not appear in its body: the serial loop uses
      // it in its header.)
      namesVariable(Body, Loop.Var) ? "" : "[[maybe_unused]] ", VarType, Loop.Var->getName(), CompoundBody ? "" : " {",
      std::string(HeaderLines, '\n'));
  Edits.push_back({Header, Text});

  SourceLocation BodyEnd = statementEnd(Ctx, Body);
  Edits.push_back({CharSourceRange::getTokenRange(BodyEnd, BodyEnd), CompoundBody ? "); }" : " }); }", true});

  for (const ContinueStmt *C : Loop.Continues) {
    SourceLocation Loc = SM.getExpansionLoc(C->getContinueLoc());
    Edits.push_back({CharSourceRange::getTokenRange(Loc, Loc), "return"});
  }
  if (Loop.GrainPragma.isValid()) Edits.push_back({Loop.GrainPragma, ""});
  return Edits;
}

}  // namespace

void lowerParallelLoops(ASTContext &Ctx, Rewriter &R, ArrayRef<const ParallelLoop *> Loops, const RenderFn &Render,
                        StringRef FileName) {
  std::vector<const ParallelLoop *> Innermost(Loops.begin(), Loops.end());
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Innermost, [&](const ParallelLoop *A, const ParallelLoop *B) {
    return SM.isBeforeInTranslationUnit(B->KeywordLoc, A->KeywordLoc);
  });
  for (const ParallelLoop *Loop : Innermost)
    for (const TextEdit &E : lowerParallelLoop(Ctx, *Loop, Render, FileName)) {
      if (E.AfterToken)
        R.InsertTextAfterToken(E.Range.getBegin(), E.Text);
      else
        R.ReplaceText(E.Range, E.Text);
    }
}

}  // namespace cilkpp
