// What each macro meant where in the main file. The clones of a template's
// instantiations go to the end of the file, after the rest of the user's
// code: a macro defined, redefined or #undef'd after the template (a helper
// `#undef IDX` once the template is written, a `#define count 42` further
// down) would change what the moved text means there. MacroHistory records
// every definition and #undef (a header's at its #include in the main
// file), and macrosAsAt wraps text moved to the end so that it sees each
// macro it names as it was where the text came from.
//
// The translation also writes names of its own (the runtime's `Frame`, a
// frame's `entry`) where a user's macro of that name may be defined. It
// records where the main file uses each macro (expands it, or tests it with
// #ifdef or defined()), so that text it generates can be kept from a macro
// that the user's code around it does not use (hidesUnusedMacros).
#pragma once

#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace cilkpp {

struct MacroEvent {
  unsigned Offset;  // in the main file
  const clang::MacroInfo *Definition;  // nullptr: #undef
};

class MacroHistory {
 public:
  // Per name, in the order the preprocessor saw them.
  llvm::StringMap<std::vector<MacroEvent>> Events;
  // Per name, the main file's offsets where it is used.
  llvm::StringMap<std::vector<unsigned>> Uses;
  // The main file's offsets of its directives (#if and the rest of its
  // group, #define, #undef, #include, #pragma), in order: a statement the
  // translation replaces as a whole would drop one written inside it.
  std::vector<unsigned> Directives;

  // The main file's offsets of the directives in [Begin, End).
  llvm::ArrayRef<unsigned> directivesWithin(unsigned Begin, unsigned End) const;

  // Whether the main file uses, defines or #undefs Name in [Begin, End].
  bool touchedWithin(llvm::StringRef Name, unsigned Begin, unsigned End) const;

  // Text moved from Offset to the end of the file, bracketed with
  // `#pragma push_macro`, the macro as it was at Offset, and `#pragma
  // pop_macro` for each macro it names whose meaning changed in between.
  // A macro the user's text of [Begin, End] (the text moved) does not touch
  // is undefined there instead: the names in Text that it matches are the
  // translation's own.
  std::string macrosAsAt(const clang::SourceManager &SM, const clang::LangOptions &LO, unsigned Offset,
                         unsigned Begin, unsigned End, const std::string &Text) const;

  // The directives that hide, around the translation Text of the main
  // file's [Begin, End], each macro Text names that is defined at Begin and
  // that the user's text there does not touch (push_macro and #undef in
  // Before, pop_macro in After; both empty when there is none).
  struct Guard {
    std::string Before, After;
  };
  Guard hidesUnusedMacros(const clang::LangOptions &LO, unsigned Begin, unsigned End, const std::string &Text) const;

  // The same for text that holds nothing the user wrote, only what the
  // translation prints from the AST (a frame's declaration): every macro
  // the file defines that the text names is hidden there.
  Guard hidesEveryMacro(const clang::LangOptions &LO, const std::string &Text) const;

  // The same, before the file's first line, for the macros of Names that
  // are defined there by the command line (-D) or a -include'd header of the
  // program's (not the compiler's or the translation's predefined ones, nor
  // a system header's).
  Guard hidesCommandLineMacros(const clang::SourceManager &SM, const llvm::StringSet<> &Names) const;
};

// The identifiers in Text (not those in its strings and comments).
llvm::StringSet<> namesIn(const clang::LangOptions &LO, llvm::StringRef Text);

class MacroHistoryRecorder : public clang::PPCallbacks {
 public:
  // RuntimeHeaders: the directory of the runtime's cilkpp/runtime.h, whose
  // macros (a program may include it) are the translation's, not the
  // program's: they are not recorded.
  MacroHistoryRecorder(const clang::SourceManager &SM, MacroHistory &History, std::string RuntimeHeaders)
      : SM(SM), History(History), RuntimeHeaders(std::move(RuntimeHeaders)) {}
  void MacroDefined(const clang::Token &Name, const clang::MacroDirective *MD) override;
  void MacroUndefined(const clang::Token &Name, const clang::MacroDefinition &, const clang::MacroDirective *) override;
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &, clang::SourceRange,
                    const clang::MacroArgs *) override;
  void Defined(const clang::Token &Name, const clang::MacroDefinition &, clang::SourceRange) override;
  void Ifdef(clang::SourceLocation, const clang::Token &Name, const clang::MacroDefinition &) override;
  void Ifndef(clang::SourceLocation, const clang::Token &Name, const clang::MacroDefinition &) override;
  using clang::PPCallbacks::Elifdef;
  using clang::PPCallbacks::Elifndef;
  void Elifdef(clang::SourceLocation, const clang::Token &Name, const clang::MacroDefinition &) override;
  void Elifndef(clang::SourceLocation, const clang::Token &Name, const clang::MacroDefinition &) override;
  void Elifdef(clang::SourceLocation, clang::SourceRange, clang::SourceLocation) override;
  void Elifndef(clang::SourceLocation, clang::SourceRange, clang::SourceLocation) override;
  void If(clang::SourceLocation, clang::SourceRange, ConditionValueKind) override;
  void Elif(clang::SourceLocation, clang::SourceRange, ConditionValueKind, clang::SourceLocation) override;
  void Else(clang::SourceLocation, clang::SourceLocation) override;
  void Endif(clang::SourceLocation, clang::SourceLocation) override;
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &, llvm::StringRef, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef, llvm::StringRef, llvm::StringRef,
                          const clang::Module *, bool, clang::SrcMgr::CharacteristicKind) override;
  void PragmaDirective(clang::SourceLocation, clang::PragmaIntroducerKind) override;

 private:
  void record(const clang::Token &Name, const clang::MacroInfo *Definition);
  void recordUse(const clang::Token &Name);
  void recordDirective(clang::SourceLocation At);
  const clang::SourceManager &SM;
  MacroHistory &History;
  std::string RuntimeHeaders;
};

}  // namespace cilkpp
