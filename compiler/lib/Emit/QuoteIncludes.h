// The main file's `#include "..."` directives, pinned to the headers the
// translator read.
//
// The host compiler sees the translation in another directory (a temporary
// one, or a build directory), where `#include "h.h"` would search that
// directory first and could find another h.h, or none. The translation
// names each header found beside the .cilkpp file by the absolute path the
// translator resolved instead; the others are found through the include
// path again. The same goes for `#include HEADER` (a macro naming such a
// header) and `__has_include("h.h")`.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cilkpp {

struct QuoteInclude {
  clang::CharSourceRange Spelling;  // `"h.h"` in the directive
  std::string Path;                 // the header found, absolute
};

// Records the quoted includes written in the main file.
class QuoteIncludeRecorder : public clang::PPCallbacks {
 public:
  QuoteIncludeRecorder(const clang::SourceManager &SM, std::vector<QuoteInclude> &Found) : SM(SM), Found(Found) {}

  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &IncludeTok, llvm::StringRef FileName,
                          bool IsAngled, clang::CharSourceRange FilenameRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef SearchPath, llvm::StringRef RelativePath, const clang::Module *SuggestedModule,
                          bool ModuleImported, clang::SrcMgr::CharacteristicKind FileType) override;
  void HasInclude(clang::SourceLocation Loc, llvm::StringRef FileName, bool IsAngled, clang::OptionalFileEntryRef File,
                  clang::SrcMgr::CharacteristicKind FileType) override;

 private:
  // The absolute path of File where it lies beside the .cilkpp file.
  std::optional<std::string> besideMainFile(clang::FileEntryRef File, llvm::StringRef SearchPath) const;

  const clang::SourceManager &SM;
  std::vector<QuoteInclude> &Found;
};

// Rewrites each recorded directive's header name to its absolute path.
void pinQuoteIncludes(clang::Rewriter &Main, llvm::ArrayRef<QuoteInclude> Includes);

}  // namespace cilkpp
