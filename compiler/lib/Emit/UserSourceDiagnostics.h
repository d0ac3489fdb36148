// Diagnostics at the user's text. Rounds of translation after the first
// parse a rewritten file whose `#line` directives keep the user's line
// numbers, but whose lines hold the rewriting (a range-for as the block and
// loop it stands for); a diagnostic on such a line quotes the user's line
// instead, at the column where the token it points at is written there.
// And a diagnostic that every instantiation of a template repeats comes once.
#pragma once

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <string>

namespace cilkpp {

class UserSourceDiagnostics : public clang::DiagnosticConsumer {
 public:
  // UserText: the file as the user wrote it, named UserPath.
  UserSourceDiagnostics(std::string UserPath, std::string UserText);
  ~UserSourceDiagnostics() override;

  void BeginSourceFile(const clang::LangOptions &LangOpts, const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override;

 private:
  // Loc moved onto the user's line, or an invalid location where Loc's line
  // is the user's own (or is not in the translated file).
  clang::SourceLocation onUserLine(clang::SourceManager &SM, clang::SourceLocation Loc);

  std::string UserPath, UserText;
  // Diagnostics printed (message and place), and whether the last one not a
  // note repeated one of them (its notes are left out with it).
  llvm::StringSet<> Printed;
  bool Repeated = false;
  clang::LangOptions LangOpts;
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
  // The user's text as a file of the current round's SourceManager.
  const clang::SourceManager *LoadedInto = nullptr;
  clang::FileID UserFile;
};

}  // namespace cilkpp
