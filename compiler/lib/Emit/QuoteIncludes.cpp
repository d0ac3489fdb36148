#include "Emit/QuoteIncludes.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace cilkpp {

void QuoteIncludeRecorder::InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool IsAngled,
                                              CharSourceRange FilenameRange, OptionalFileEntryRef File, StringRef,
                                              StringRef, const Module *, bool, SrcMgr::CharacteristicKind) {
  // (`#include MACRO` has no header name to replace.)
  if (IsAngled || !File || !SM.isWrittenInMainFile(HashLoc) || FilenameRange.getBegin().isMacroID()) return;
  llvm::SmallString<256> Path(File->getName());
  if (llvm::sys::fs::make_absolute(Path)) return;
  llvm::sys::path::remove_dots(Path);  // (not `..`, which may follow a symlink)
  // A header name has no escapes: a path with a quote or a newline cannot be
  // spelled in one.
  if (Path.str().find_first_of("\"\n") != llvm::StringRef::npos) return;
  Found.push_back({FilenameRange, std::string(Path)});
}

void pinQuoteIncludes(Rewriter &Main, llvm::ArrayRef<QuoteInclude> Includes) {
  for (const QuoteInclude &I : Includes) Main.ReplaceText(I.Spelling, "\"" + I.Path + "\"");
}

}  // namespace cilkpp
