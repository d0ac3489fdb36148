#include "Dialect/MacroHistory.h"

#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"

#include <fmt/format.h>

#include <algorithm>

using namespace clang;

namespace cilkpp {

void MacroHistoryRecorder::record(const Token &Name, const MacroInfo *Definition) {
  if (!RuntimeHeaders.empty() &&
      SM.getFilename(SM.getSpellingLoc(Name.getLocation())).starts_with(RuntimeHeaders + "/"))
    return;
  // Where the main file is when the macro changes: the #include of the
  // header that changes it, or 0 for the command line's and the
  // predefined ones.
  SourceLocation At = SM.getExpansionLoc(Name.getLocation());
  while (At.isValid() && SM.getFileID(At) != SM.getMainFileID()) At = SM.getIncludeLoc(SM.getFileID(At));
  History.Events[Name.getIdentifierInfo()->getName()].push_back(
      {At.isValid() ? SM.getFileOffset(At) : 0, Definition});
}

void MacroHistoryRecorder::recordUse(const Token &Name) {
  // (Only uses written in the main file, or in a macro expanded there: the
  // translation rewrites nothing else.)
  const SourceLocation At = SM.getExpansionLoc(Name.getLocation());
  if (SM.getFileID(At) == SM.getMainFileID())
    History.Uses[Name.getIdentifierInfo()->getName()].push_back(SM.getFileOffset(At));
}

void MacroHistoryRecorder::recordDirective(SourceLocation At) {
  if (At.isFileID() && SM.getFileID(At) == SM.getMainFileID()) History.Directives.push_back(SM.getFileOffset(At));
}

void MacroHistoryRecorder::MacroExpands(const Token &Name, const MacroDefinition &, SourceRange, const MacroArgs *) {
  recordUse(Name);
}

void MacroHistoryRecorder::Defined(const Token &Name, const MacroDefinition &, SourceRange) { recordUse(Name); }

void MacroHistoryRecorder::Ifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &) {
  recordDirective(Loc);
  recordUse(Name);
}

void MacroHistoryRecorder::Ifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &) {
  recordDirective(Loc);
  recordUse(Name);
}

void MacroHistoryRecorder::Elifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &) {
  recordDirective(Loc);
  recordUse(Name);
}

void MacroHistoryRecorder::Elifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &) {
  recordDirective(Loc);
  recordUse(Name);
}

void MacroHistoryRecorder::Elifdef(SourceLocation Loc, SourceRange, SourceLocation) { recordDirective(Loc); }

void MacroHistoryRecorder::Elifndef(SourceLocation Loc, SourceRange, SourceLocation) { recordDirective(Loc); }

void MacroHistoryRecorder::If(SourceLocation Loc, SourceRange, ConditionValueKind) { recordDirective(Loc); }

void MacroHistoryRecorder::Elif(SourceLocation Loc, SourceRange, ConditionValueKind, SourceLocation) {
  recordDirective(Loc);
}

void MacroHistoryRecorder::Else(SourceLocation Loc, SourceLocation) { recordDirective(Loc); }

void MacroHistoryRecorder::Endif(SourceLocation Loc, SourceLocation) { recordDirective(Loc); }

void MacroHistoryRecorder::InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool, CharSourceRange,
                                              OptionalFileEntryRef, StringRef, StringRef, const Module *, bool,
                                              SrcMgr::CharacteristicKind) {
  recordDirective(HashLoc);
}

void MacroHistoryRecorder::PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Introducer) {
  // (Not _Pragma("..."), which is an operator inside the text, kept with it.)
  if (Introducer == PIK_HashPragma) recordDirective(Loc);
}

void MacroHistoryRecorder::MacroDefined(const Token &Name, const MacroDirective *MD) {
  recordDirective(MD->getLocation());
  record(Name, MD->getMacroInfo());
}

void MacroHistoryRecorder::MacroUndefined(const Token &Name, const MacroDefinition &, const MacroDirective *) {
  recordDirective(Name.getLocation());
  record(Name, nullptr);
}

llvm::ArrayRef<unsigned> MacroHistory::directivesWithin(unsigned Begin, unsigned End) const {
  const auto First = std::lower_bound(Directives.begin(), Directives.end(), Begin);
  const auto Last = std::lower_bound(First, Directives.end(), End);
  return llvm::ArrayRef<unsigned>(Directives).slice(First - Directives.begin(), Last - First);
}

namespace {

const MacroInfo *meaningAt(const std::vector<MacroEvent> &Events, unsigned Offset) {
  const MacroInfo *Meaning = nullptr;
  for (const MacroEvent &E : Events)
    if (E.Offset <= Offset) Meaning = E.Definition;
  return Meaning;
}

bool within(unsigned Offset, unsigned Begin, unsigned End) { return Begin <= Offset && Offset <= End; }

// (Sorted: the output does not depend on the hash table's order.)
MacroHistory::Guard guardFor(std::vector<std::string> Hidden) {
  llvm::sort(Hidden);
  MacroHistory::Guard G;
  for (const std::string &Name : Hidden) {
    G.Before += fmt::format("#pragma push_macro(\"{0}\")\n#undef {0}\n", Name);
    G.After += fmt::format("#pragma pop_macro(\"{}\")\n", Name);
  }
  return G;
}

}  // namespace

llvm::StringSet<> namesIn(const LangOptions &LO, llvm::StringRef Text) {
  llvm::StringSet<> Names;
  Lexer Raw(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  Token Tok;
  bool More = true;
  while (More) {
    More = !Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::raw_identifier)) Names.insert(Tok.getRawIdentifier());
  }
  return Names;
}

bool MacroHistory::touchedWithin(llvm::StringRef Name, unsigned Begin, unsigned End) const {
  auto Used = Uses.find(Name);
  if (Used != Uses.end() && llvm::any_of(Used->getValue(), [&](unsigned At) { return within(At, Begin, End); }))
    return true;
  auto Changed = Events.find(Name);
  return Changed != Events.end() &&
         llvm::any_of(Changed->getValue(), [&](const MacroEvent &E) { return within(E.Offset, Begin, End); });
}

MacroHistory::Guard MacroHistory::hidesUnusedMacros(const LangOptions &LO, unsigned Begin, unsigned End,
                                                    const std::string &Text) const {
  const llvm::StringSet<> Names = namesIn(LO, Text);
  std::vector<std::string> Hidden;
  for (const auto &Entry : Events)
    if (Names.contains(Entry.getKey()) && meaningAt(Entry.getValue(), Begin) && !touchedWithin(Entry.getKey(), Begin, End))
      Hidden.push_back(Entry.getKey().str());
  return guardFor(std::move(Hidden));
}

MacroHistory::Guard MacroHistory::hidesEveryMacro(const LangOptions &LO, const std::string &Text) const {
  const llvm::StringSet<> Names = namesIn(LO, Text);
  std::vector<std::string> Hidden;
  for (const auto &Entry : Events)
    if (Names.contains(Entry.getKey())) Hidden.push_back(Entry.getKey().str());
  return guardFor(std::move(Hidden));
}

MacroHistory::Guard MacroHistory::hidesCommandLineMacros(const SourceManager &SM, const llvm::StringSet<> &Names) const {
  std::vector<std::string> Hidden;
  for (const auto &Entry : Events) {
    const MacroInfo *AtStart = meaningAt(Entry.getValue(), 0);
    if (!AtStart || !Names.contains(Entry.getKey())) continue;
    // (Nor those of system headers, -include <cstdint>: the runtime's headers
    // use their macros as macros, UINT32_MAX.)
    const SourceLocation Defined = AtStart->getDefinitionLoc();
    if ((SM.isWrittenInBuiltinFile(Defined) && !SM.isWrittenInCommandLineFile(Defined)) ||
        SM.isInSystemHeader(Defined))
      continue;
    Hidden.push_back(Entry.getKey().str());
  }
  return guardFor(std::move(Hidden));
}

std::string MacroHistory::macrosAsAt(const SourceManager &SM, const LangOptions &LO, unsigned Offset, unsigned Begin,
                                     unsigned End, const std::string &Text) const {
  const llvm::StringSet<> Names = namesIn(LO, Text);
  std::string Before, After;
  for (const auto &Entry : Events) {
    if (!Names.contains(Entry.getKey())) continue;
    const MacroInfo *Then =
        touchedWithin(Entry.getKey(), Begin, End) ? meaningAt(Entry.getValue(), Offset) : nullptr;
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
