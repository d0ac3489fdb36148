#include "Dialect/MacroHistory.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {

void MacroHistoryRecorder::record(const Token &Name, const MacroInfo *Definition) {
  // Where the main file is when the macro changes: the #include of the
  // header that changes it, or 0 for the command line's and the
  // predefined ones.
  SourceLocation At = SM.getExpansionLoc(Name.getLocation());
  while (At.isValid() && SM.getFileID(At) != SM.getMainFileID()) At = SM.getIncludeLoc(SM.getFileID(At));
  History.Events[Name.getIdentifierInfo()->getName()].push_back(
      {At.isValid() ? SM.getFileOffset(At) : 0, Definition});
}

void MacroHistoryRecorder::MacroDefined(const Token &Name, const MacroDirective *MD) {
  record(Name, MD->getMacroInfo());
}

void MacroHistoryRecorder::MacroUndefined(const Token &Name, const MacroDefinition &, const MacroDirective *) {
  record(Name, nullptr);
}

namespace {

const MacroInfo *meaningAt(const std::vector<MacroEvent> &Events, unsigned Offset) {
  const MacroInfo *Meaning = nullptr;
  for (const MacroEvent &E : Events)
    if (E.Offset <= Offset) Meaning = E.Definition;
  return Meaning;
}

}  // namespace

std::string MacroHistory::macrosAsAt(const SourceManager &SM, const LangOptions &LO, unsigned Offset,
                                     const std::string &Text) const {
  // (The names in the text: a conservative scan, strings and comments
  // included, which can only add a harmless push and pop.)
  llvm::StringSet<> Names;
  for (size_t I = 0; I < Text.size();) {
    if (!isAsciiIdentifierStart(Text[I]) || (I > 0 && isAsciiIdentifierContinue(Text[I - 1]))) {
      ++I;
      continue;
    }
    size_t End = I;
    while (End < Text.size() && isAsciiIdentifierContinue(Text[End])) ++End;
    Names.insert(llvm::StringRef(Text).substr(I, End - I));
    I = End;
  }
  std::string Before, After;
  for (const auto &Entry : Events) {
    if (!Names.contains(Entry.getKey())) continue;
    const MacroInfo *Then = meaningAt(Entry.getValue(), Offset);
    const MacroInfo *Now = Entry.getValue().back().Definition;
    if (Then == Now) continue;
    const std::string Name = Entry.getKey().str();
    Before += fmt::format("#pragma push_macro(\"{0}\")\n#undef {0}\n", Name);
    if (Then)
      Before += "#define " +
                Lexer::getSourceText(CharSourceRange::getTokenRange(Then->getDefinitionLoc(), Then->getDefinitionEndLoc()),
                                     SM, LO)
                    .str() +
                "\n";
    After += fmt::format("#pragma pop_macro(\"{}\")\n", Name);
  }
  if (Before.empty()) return Text;
  return "\n" + Before + Text + "\n" + After;
}

}  // namespace cilkpp
