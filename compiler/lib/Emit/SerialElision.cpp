#include "Emit/SerialElision.h"

using namespace clang;

namespace cilkpp {

std::string blankedKeyword(llvm::StringRef Spelled, bool KeepFor) {
  std::string Blank;
  for (char C : Spelled) Blank += C == '\n' || C == '\r' ? C : ' ';
  if (KeepFor) {
    // (`for` is three characters of one line: after a split, on the last.)
    const size_t Line = Blank.find_last_of('\n');
    const size_t At = Line == std::string::npos ? 0 : Line + 1;
    if (Blank.size() - At >= 3) Blank.replace(At, 3, "for");
    else Blank.insert(At, "for");
  }
  return Blank;
}

void elideKeywords(Rewriter &Main, llvm::ArrayRef<KeywordUse> Uses, llvm::ArrayRef<GrainPragma> Pragmas) {
  for (const GrainPragma &P : Pragmas) Main.ReplaceText(P.Range, "");
  // Blanked rather than removed, so that the host compiler's columns after
  // a keyword are the user's.
  for (const KeywordUse &U : Uses) {
    CharSourceRange Keyword = CharSourceRange::getTokenRange(U.Loc, U.End);
    // OpenCilk's spellings of sync stay, for the host's macro to make
    // `static_cast<void>(0)` of: a blank would leave an empty statement,
    // and `if (c) cilk_sync;` would warn (-Wempty-body) where the parallel
    // build does not.
    if (U.Kind == KeywordKind::Sync && U.Spelling != "sync") continue;
    Main.ReplaceText(Keyword, blankedKeyword(Main.getRewrittenText(Keyword), U.Kind == KeywordKind::CilkFor));
  }
}

}  // namespace cilkpp
