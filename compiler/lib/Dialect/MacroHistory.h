// What each macro meant where in the main file. The clones of a template's
// instantiations go to the end of the file, after the rest of the user's
// code: a macro defined, redefined or #undef'd after the template (a helper
// `#undef IDX` once the template is written, a `#define count 42` further
// down) would change what the moved text means there. MacroHistory records
// every definition and #undef (a header's at its #include in the main
// file), and macrosAsAt wraps text moved to the end so that it sees each
// macro it names as it was where the text came from.
#pragma once

#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringMap.h"

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

  // Text moved from Offset to the end of the file, bracketed with
  // `#pragma push_macro`, the macro as it was at Offset, and `#pragma
  // pop_macro` for each macro it names whose meaning changed in between.
  std::string macrosAsAt(const clang::SourceManager &SM, const clang::LangOptions &LO, unsigned Offset,
                         const std::string &Text) const;
};

class MacroHistoryRecorder : public clang::PPCallbacks {
 public:
  MacroHistoryRecorder(const clang::SourceManager &SM, MacroHistory &History) : SM(SM), History(History) {}
  void MacroDefined(const clang::Token &Name, const clang::MacroDirective *MD) override;
  void MacroUndefined(const clang::Token &Name, const clang::MacroDefinition &, const clang::MacroDirective *) override;

 private:
  void record(const clang::Token &Name, const clang::MacroInfo *Definition);
  const clang::SourceManager &SM;
  MacroHistory &History;
};

}  // namespace cilkpp
