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

std::optional<std::string> QuoteIncludeRecorder::besideMainFile(FileEntryRef File, StringRef SearchPath) const {
  // Only a header found next to the .cilkpp file: one found through the
  // include path (-iquote, -I, -isystem) is found there again, and stays a
  // system header where it was one (warnings in it are not the user's).
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  llvm::SmallString<256> Where(SearchPath), Beside(Main ? Main->getDir().getName() : "");
  if (!Main || !absolute(Where) || !absolute(Beside) || Where != Beside) return std::nullopt;
  llvm::SmallString<256> Path(File.getName());
  if (!absolute(Path)) return std::nullopt;
  // A header name has no escapes: a path with a quote or a newline cannot be
  // spelled in one.
  if (Path.str().find_first_of("\"\n") != llvm::StringRef::npos) return std::nullopt;
  return std::string(Path);
}

void QuoteIncludeRecorder::InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool IsAngled,
                                              CharSourceRange FilenameRange, OptionalFileEntryRef File,
                                              StringRef SearchPath, StringRef, const Module *, bool,
                                              SrcMgr::CharacteristicKind) {
  if (IsAngled || !File || !SM.isWrittenInMainFile(HashLoc)) return;
  // (`#include HEADER`: the macro's name is replaced.)
  const CharSourceRange Spelling = SM.getExpansionRange(FilenameRange);
  if (!SM.isWrittenInMainFile(Spelling.getBegin())) return;
  if (std::optional<std::string> Path = besideMainFile(*File, SearchPath)) Found.push_back({Spelling, *Path});
}

void QuoteIncludeRecorder::HasInclude(SourceLocation Loc, StringRef, bool IsAngled, OptionalFileEntryRef File,
                                      SrcMgr::CharacteristicKind) {
  // (A header name written in the file, not one a macro gives.)
  if (IsAngled || !File || !Loc.isFileID() || !SM.isWrittenInMainFile(Loc)) return;
  if (std::optional<std::string> Path = besideMainFile(*File, File->getDir().getName()))
    Found.push_back({CharSourceRange::getTokenRange(Loc, Loc), *Path});
}

void pinQuoteIncludes(Rewriter &Main, llvm::ArrayRef<QuoteInclude> Includes) {
  for (const QuoteInclude &I : Includes) Main.ReplaceText(I.Spelling, "\"" + I.Path + "\"");
}

}  // namespace cilkpp
