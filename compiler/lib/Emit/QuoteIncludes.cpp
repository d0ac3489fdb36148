#include "Emit/QuoteIncludes.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace cilkpp {

static bool absolute(llvm::SmallString<256> &Path) {
  if (llvm::sys::fs::make_absolute(Path)) return false;
  llvm::sys::path::remove_dots(Path);  // (not `..`, which may follow a symlink)
  return true;
}

void QuoteIncludeRecorder::InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool IsAngled,
                                              CharSourceRange FilenameRange, OptionalFileEntryRef File,
                                              StringRef SearchPath, StringRef, const Module *, bool,
                                              SrcMgr::CharacteristicKind) {
  // (`#include MACRO` has no header name to replace.)
  if (IsAngled || !File || !SM.isWrittenInMainFile(HashLoc) || FilenameRange.getBegin().isMacroID()) return;
  // Only a header found next to the .cilkpp file: one found through the
  // include path (-iquote, -I, -isystem) is found there again, and stays a
  // system header where it was one (warnings in it are not the user's).
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  llvm::SmallString<256> Where(SearchPath), Beside(Main ? Main->getDir().getName() : "");
  if (!Main || !absolute(Where) || !absolute(Beside) || Where != Beside) return;
  llvm::SmallString<256> Path(File->getName());
  if (!absolute(Path)) return;
  // A header name has no escapes: a path with a quote or a newline cannot be
  // spelled in one.
  if (Path.str().find_first_of("\"\n") != llvm::StringRef::npos) return;
  Found.push_back({FilenameRange, std::string(Path)});
}

void pinQuoteIncludes(Rewriter &Main, llvm::ArrayRef<QuoteInclude> Includes) {
  for (const QuoteInclude &I : Includes) Main.ReplaceText(I.Spelling, "\"" + I.Path + "\"");
}

}  // namespace cilkpp
