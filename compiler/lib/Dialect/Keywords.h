// Dialect lexing: the cilkpp keywords and how they reach Clang's parser.
//
// Each keyword is a predefined macro whose expansion is plain C++ (the serial
// elision), so Clang parses a real C++ program. The macros are enabled only
// while the preprocessor lexes the main .cilkpp file, never in the headers it
// includes, and every expansion is recorded so later passes can tie the
// keyword back to the AST node it introduced.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class MacroInfo;
class Preprocessor;
class Token;
class DiagnosticsEngine;
}  // namespace clang

namespace cilkpp {

enum class KeywordKind { Cilk, Spawn, Sync, CilkFor, CilkScope, Reducer };

struct KeywordUse {
  KeywordKind Kind;
  clang::SourceLocation Loc;  // file location of the keyword in the main file
  clang::SourceLocation End;  // its last token: the ')' of 'cilk_reducer(I, R)'
  llvm::StringRef Spelling;   // as written: "spawn" or "cilk_spawn", ...
};

// The #define lines that turn the keywords into their serial elision, and
// (in a parallel build) OpenCilk's `__cilk`, which portable programs test
// before they include <cilk/cilk.h>.
std::string keywordPredefines(bool Serial);

// That `#define __cilk ...` line, for the host compiler too.
std::string openCilkPredefine();

// The same for OpenCilk's spellings (`cilk_spawn`, `_Cilk_for`, ...), for
// the host compiler, which reads the file's `#ifdef cilk_spawn` and the
// headers again: they must see what the translation saw (KeywordRecorder).
// (With `__cilk` unless Serial, they are tested once after, which makes them
// used for -Wunused-macros.)
std::string hostKeywordDefines(bool Serial);

// The spellings hostKeywordDefines defines.
std::vector<llvm::StringRef> hostKeywordSpellings();

// Records keyword uses in the main file and keeps the keyword macros disabled
// outside it, but for OpenCilk's spellings of spawn, sync, for and scope
// (headers do not name their own things so): headers are not translated, and
// those run as their serial elision there (HeaderUses; the translation
// defines them so: headerKeywordDefines). Right after '.', '->' and '::'
// no word is a keyword (`std::cin.sync()`), nor is `sync` right before '('.
class KeywordRecorder : public clang::PPCallbacks {
 public:
  KeywordRecorder(clang::Preprocessor &PP, std::vector<KeywordUse> &Uses, std::vector<KeywordUse> &HeaderUses);

  void LexedFileChanged(clang::FileID FID, LexedFileChangeReason Reason,
                        clang::SrcMgr::CharacteristicKind FileType, clang::FileID PrevFID,
                        clang::SourceLocation Loc) override;
  void MacroExpands(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD,
                    clang::SourceRange Range, const clang::MacroArgs *Args) override;

 private:
  void setKeywordsEnabled(bool Enabled);
  clang::MacroInfo *predefinedMacro(llvm::StringRef Spelling) const;
  void afterToken(const clang::Token &Tok);
  void trackNesting(const clang::Token &Tok);
  void hideForOneToken(llvm::StringRef Spelling);
  // The keyword spelling that the main file's text uses as a name right
  // after Tok: a sync spelling called (`sync()`), one before '::'
  // (`cilk::reducer_opadd`), one after `namespace`.
  std::optional<llvm::StringRef> nameAfter(const clang::Token &Tok) const;

  clang::Preprocessor &PP;
  std::vector<KeywordUse> &Uses;
  std::vector<KeywordUse> &HeaderUses;
  // Function-like macro calls in the main file: a keyword in their arguments
  // is inside a macro too.
  std::vector<clang::SourceRange> MacroCalls;
  // The keyword macros disabled for the one token after a member access or
  // before a call.
  std::vector<clang::MacroInfo *> HiddenForOneToken;
  // The kind of the last token lexed: what a sync keyword follows.
  clang::tok::TokenKind Previous = clang::tok::unknown;
  // Whether that token ends an operand's context although statements may
  // follow its kind elsewhere: the ':' of `k ? 1 : sync`, a ';' inside
  // parentheses (`for (; sync;)`).
  bool PreviousOpensOperand = false;
  // Per brace level (a lambda's body in an argument starts statements
  // again): open parentheses, and '?' still waiting for their ':'.
  struct Nesting {
    unsigned Parens = 0;
    unsigned Questions = 0;
  };
  std::vector<Nesting> Levels{Nesting{}};
};


}  // namespace cilkpp
