#include "Dialect/Keywords.h"

#include "Support/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace clang;

namespace cilkpp {
namespace {

struct KeywordSpelling {
  const char *Spelling;
  KeywordKind Kind;
  const char *Expansion;  // the serial elision
  const char *Parameters = "";
  bool InHeaders = false;  // expands in headers too
};

// `sync` expands to an expression statement the AST can point at, one that
// cannot continue the expression before it (`f(x) (void)0` would read as a
// call, where a missing ';' should be reported as one); `spawn` expands to
// nothing, so the spawned call is an ordinary call in the AST.
constexpr KeywordSpelling Keywords[] = {
    {"cilk", KeywordKind::Cilk, "__attribute__((__annotate__(\"cilkpp.procedure\")))"},
    {"spawn", KeywordKind::Spawn, ""},
    {"cilk_spawn", KeywordKind::Spawn, "", "", true},
    {"sync", KeywordKind::Sync, "static_cast<void>(0)"},
    {"cilk_sync", KeywordKind::Sync, "static_cast<void>(0)", "", true},
    {"cilk_for", KeywordKind::CilkFor, "for", "", true},
    {"cilk_scope", KeywordKind::CilkScope, "", "", true},
    // What OpenCilk's <cilk/cilk.h> defines those as, and Cilk Plus code
    // writes directly.
    {"_Cilk_spawn", KeywordKind::Spawn, "", "", true},
    {"_Cilk_sync", KeywordKind::Sync, "static_cast<void>(0)", "", true},
    {"_Cilk_for", KeywordKind::CilkFor, "for", "", true},
    {"_Cilk_scope", KeywordKind::CilkScope, "", "", true},
    // OpenCilk's hyperobject qualifier: 'long cilk_reducer(zero, add) sum;'.
    {"cilk_reducer", KeywordKind::Reducer, "", "(Identity, Reduce)"},
};

std::optional<KeywordKind> lookup(StringRef Name) {
  for (const KeywordSpelling &K : Keywords)
    if (Name == K.Spelling) return K.Kind;
  return std::nullopt;
}

bool isMemberAccess(const Token &Tok) { return Tok.isOneOf(tok::period, tok::arrow, tok::coloncolon); }

// `sync` is a statement, never followed by '(': `sync()` calls a function of
// that name (POSIX's, from <unistd.h>).
bool isSyncSpelling(StringRef Name) { return lookup(Name) == KeywordKind::Sync; }

// Whether a token of this kind makes what follows it an operand (`f(sync)`,
// `x = sync`, `return sync`) or a declared name (`bool sync;`): a sync there
// is reported as such before the parse rejects it in terms of its expansion.
// (After a name, a literal or ')' it more likely follows a statement whose
// ';' is missing, which the parse reports.)
bool makesOperandOrName(tok::TokenKind Kind) {
  if (tok::getPunctuatorSpelling(Kind))
    return !llvm::is_contained({tok::semi, tok::l_brace, tok::r_brace, tok::r_paren, tok::r_square, tok::colon}, Kind);
  return llvm::is_contained({tok::kw_return, tok::kw_throw, tok::kw_co_return, tok::kw_bool, tok::kw_char,
                             tok::kw_wchar_t, tok::kw_char8_t, tok::kw_char16_t, tok::kw_char32_t, tok::kw_short,
                             tok::kw_int, tok::kw_long, tok::kw_signed, tok::kw_unsigned, tok::kw_float,
                             tok::kw_double, tok::kw_void, tok::kw_auto, tok::kw_const, tok::kw_volatile},
                            Kind);
}

// A macro's arguments expand while the preprocessor is inside the macro call,
// where the token watcher does not see them; so a keyword's name right after
// '.', '->' or '::' in them (`assert(o.sync)`), or a sync spelling before '('
// (`assert(sync() == 0)`) is marked to stay a name.
void keepNamesInArguments(const MacroArgs &Args) {
  if (Args.getNumMacroArguments() == 0) return;
  const Token *Tok = Args.getUnexpArgument(0);
  bool AfterAccess = false;
  for (unsigned Ends = 0; Ends < Args.getNumMacroArguments(); ++Tok) {
    if (Tok->is(tok::eof)) {
      ++Ends;
      AfterAccess = false;
      continue;
    }
    // (`p->template spawn<T>()`: still a member's name.)
    if (Tok->is(tok::kw_template) && AfterAccess) continue;
    if (const IdentifierInfo *II = Tok->getIdentifierInfo();
        II && ((AfterAccess && lookup(II->getName())) || (isSyncSpelling(II->getName()) && Tok[1].is(tok::l_paren))))
      // The argument's tokens are the preprocessor's own, writable storage;
      // MacroArgs only hands them out as const.
      const_cast<Token *>(Tok)->setFlag(Token::DisableExpand);
    AfterAccess = isMemberAccess(*Tok);
  }
}

}  // namespace

std::string keywordPredefines(bool Serial) {
  std::string Text = "#define __cilkpp__ 1\n";
  if (!Serial) Text += openCilkPredefine();
  for (const KeywordSpelling &K : Keywords)
    Text += std::string("#define ") + K.Spelling + K.Parameters + " " + K.Expansion + "\n";
  return Text;
}

std::string openCilkPredefine() { return "#define __cilk 200\n"; }

std::vector<StringRef> hostKeywordSpellings() {
  std::vector<StringRef> Spellings;
  for (const KeywordSpelling &K : Keywords)
    if (K.InHeaders) Spellings.push_back(K.Spelling);
  return Spellings;
}

std::string hostKeywordDefines(bool Serial) {
  std::string Text;
  std::vector<std::string> Tested;
  if (!Serial) Tested.push_back("defined(__cilk)");
  for (const KeywordSpelling &K : Keywords) {
    if (!K.InHeaders) continue;
    Text += std::string("#define ") + K.Spelling + (*K.Expansion ? " " : "") + K.Expansion + "\n";
    Tested.push_back(std::string("defined(") + K.Spelling + ")");
  }
  // Tested once, all of them (`&&` evaluates each), so that -Wunused-macros
  // does not report the translation's macros in a program that uses none.
  return Text + "#if " + llvm::join(Tested, " && ") + "\n#endif\n";
}

KeywordRecorder::KeywordRecorder(Preprocessor &PP, std::vector<KeywordUse> &Uses, std::vector<KeywordUse> &HeaderUses)
    : PP(PP), Uses(Uses), HeaderUses(HeaderUses) {
  PP.setTokenWatcher([this](const Token &Tok) { afterToken(Tok); });
}

void KeywordRecorder::afterToken(const Token &Tok) {
  // (The parser's annotations of tokens already lexed come in between.)
  if (Tok.isAnnotation()) return;
  // (`p->template spawn<T>()`: still a member's name.)
  if (Tok.is(tok::kw_template) && !HiddenForOneToken.empty()) return;
  Previous = Tok.getKind();
  trackNesting(Tok);
  for (MacroInfo *MI : HiddenForOneToken) MI->EnableMacro();
  HiddenForOneToken.clear();
  // After '.', '->' or '::' a word names a member or a namespace's entity,
  // never a keyword: `std::cin.sync()`, `opts->spawn`, POSIX `::sync()`.
  if (isMemberAccess(Tok)) {
    for (const KeywordSpelling &K : Keywords) hideForOneToken(K.Spelling);
    return;
  }
  if (std::optional<StringRef> Name = nameAfter(Tok)) hideForOneToken(*Name);
}

void KeywordRecorder::trackNesting(const Token &Tok) {
  Nesting &Level = Levels.back();
  PreviousOpensOperand = false;
  switch (Tok.getKind()) {
  case tok::l_brace: Levels.emplace_back(); break;
  case tok::r_brace:
    if (Levels.size() > 1) Levels.pop_back();
    break;
  case tok::l_paren: ++Level.Parens; break;
  case tok::r_paren:
    if (Level.Parens) --Level.Parens;
    break;
  case tok::question: ++Level.Questions; break;
  case tok::colon:
    // (`case k ? 1 : 2:` -- the first ':' closes the '?', the second is the label's.)
    if (Level.Questions) {
      --Level.Questions;
      PreviousOpensOperand = true;
    }
    break;
  case tok::semi:
    Level.Questions = 0;
    PreviousOpensOperand = Level.Parens > 0;
    break;
  default: break;
  }
}

void KeywordRecorder::hideForOneToken(StringRef Spelling) {
  MacroInfo *MI = predefinedMacro(Spelling);
  if (!MI || !MI->isEnabled()) return;
  MI->DisableMacro();
  HiddenForOneToken.push_back(MI);
}

std::optional<StringRef> KeywordRecorder::nameAfter(const Token &Tok) const {
  const SourceManager &SM = PP.getSourceManager();
  const SourceLocation Loc = Tok.getLocation();
  if (!Loc.isFileID() || !SM.isWrittenInMainFile(Loc)) return std::nullopt;
  const auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  const StringRef Buffer = SM.getBufferData(FID);
  const size_t Next = Buffer.find_first_not_of(" \t\r\n", Offset + Tok.getLength());
  // (Most tokens are followed by nothing that could start a keyword.)
  if (Next == StringRef::npos || !StringRef("sc_").contains(Buffer[Next])) return std::nullopt;
  Lexer Raw(SM.getLocForStartOfFile(FID), PP.getLangOpts(), Buffer.begin(), Buffer.begin() + Next, Buffer.end());
  Token Word, After;
  Raw.LexFromRawLexer(Word);
  if (Word.isNot(tok::raw_identifier) || !lookup(Word.getRawIdentifier())) return std::nullopt;
  // `namespace cilk {`, `using namespace cilk;`: OpenCilk's own namespace,
  // which programs extend with shims of its reducers.
  if (Tok.is(tok::kw_namespace)) return Word.getRawIdentifier();
  Raw.LexFromRawLexer(After);
  // `cilk::reducer_opadd<long>`: a namespace's or class's name.
  if (After.is(tok::coloncolon)) return Word.getRawIdentifier();
  // `sync()`: POSIX's sync.
  if (After.is(tok::l_paren) && isSyncSpelling(Word.getRawIdentifier())) return Word.getRawIdentifier();
  return std::nullopt;
}

MacroInfo *KeywordRecorder::predefinedMacro(StringRef Spelling) const {
  MacroInfo *MI = PP.getMacroInfo(PP.getIdentifierInfo(Spelling));
  // (Not once the user has #undef'd or redefined it.)
  return MI && PP.getSourceManager().isWrittenInBuiltinFile(MI->getDefinitionLoc()) ? MI : nullptr;
}

void KeywordRecorder::setKeywordsEnabled(bool Enabled) {
  for (const KeywordSpelling &K : Keywords) {
    MacroInfo *MI = predefinedMacro(K.Spelling);
    if (!MI) continue;
    const bool Enable = Enabled || K.InHeaders;
    if (Enable && !MI->isEnabled()) MI->EnableMacro();
    if (!Enable && MI->isEnabled()) MI->DisableMacro();
  }
}

void KeywordRecorder::LexedFileChanged(FileID FID, LexedFileChangeReason Reason, SrcMgr::CharacteristicKind,
                                       FileID, SourceLocation) {
  const SourceManager &SM = PP.getSourceManager();
  if (Reason == LexedFileChangeReason::EnterFile && FID != SM.getMainFileID())
    if (const OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
        File && llvm::sys::path::extension(File->getName()) == ".cilkpp")
      diag::report(PP.getDiagnostics(), SM.getExpansionLoc(SM.getIncludeLoc(FID)), diag::IncludedCilkppFile)
          << llvm::sys::path::filename(File->getName());
  // The predefines buffer defines the macros; from then on they expand only
  // while the main file is being lexed.
  if (FID == SM.getMainFileID())
    setKeywordsEnabled(true);
  else if (SM.getBufferName(SM.getLocForStartOfFile(FID)) != "<built-in>")
    setKeywordsEnabled(false);
}

void KeywordRecorder::MacroExpands(const Token &MacroNameTok, const MacroDefinition &MD, SourceRange Range,
                                   const MacroArgs *Args) {
  const IdentifierInfo *II = MacroNameTok.getIdentifierInfo();
  if (!II) return;
  const SourceManager &SM = PP.getSourceManager();
  // A program's own definition of a keyword's name (`#define cilk_spawn`
  // where OpenCilk is not found) is its own macro.
  std::optional<KeywordKind> Kind = lookup(II->getName());
  if (Kind && !SM.isWrittenInBuiltinFile(MD.getMacroInfo()->getDefinitionLoc())) Kind.reset();
  if (!Kind) {
    // Its arguments expand after this call, from the file's own tokens.
    if (Args && Range.getBegin().isFileID() && Range.getEnd().isFileID() && SM.isWrittenInMainFile(Range.getBegin())) {
      MacroCalls.push_back(Range);
      keepNamesInArguments(*Args);
    }
    return;
  }
  SourceLocation Loc = MacroNameTok.getLocation();
  // In a header, through a header's macro or not, a keyword is its serial
  // elision.
  if (!SM.isWrittenInMainFile(SM.getExpansionLoc(Loc))) {
    HeaderUses.push_back({*Kind, SM.getExpansionLoc(Loc), SM.getExpansionLoc(Loc), II->getName()});
    return;
  }
  // Keywords come in file order: a call that ended before this one never
  // holds a later one either.
  llvm::erase_if(MacroCalls, [&](SourceRange Call) { return SM.isBeforeInTranslationUnit(Call.getEnd(), Loc); });
  const auto Holds = [&](SourceRange Call) { return !SM.isBeforeInTranslationUnit(Loc, Call.getBegin()); };
  if (Loc.isMacroID() || llvm::any_of(MacroCalls, Holds)) {
    // A keyword written inside another macro's body or argument.
    diag::report(PP.getDiagnostics(), SM.getExpansionLoc(Loc), diag::KeywordInMacro)
        << II->getName();
    return;
  }
  if (*Kind == KeywordKind::Sync && (PreviousOpensOperand || makesOperandOrName(Previous)))
    diag::report(PP.getDiagnostics(), Loc, diag::SyncNotStatement) << II->getName();
  Uses.push_back({*Kind, Loc, Args ? Range.getEnd() : Loc, II->getName()});
}

}  // namespace cilkpp
