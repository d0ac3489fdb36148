#include "Emit/SerialElision.h"

using namespace clang;

namespace cilkpp {

void elideKeywords(Rewriter &Main, llvm::ArrayRef<KeywordUse> Uses, llvm::ArrayRef<GrainPragma> Pragmas) {
  for (const GrainPragma &P : Pragmas) Main.ReplaceText(P.Range, "");
  // Blanked rather than removed, so that the host compiler's columns after
  // a keyword are the user's.
  for (const KeywordUse &U : Uses) {
    CharSourceRange Keyword = CharSourceRange::getTokenRange(U.Loc, U.End);
    const unsigned Length = Main.getRangeSize(Keyword);
    std::string Blank(Length, ' ');
    if (U.Kind == KeywordKind::CilkFor) Blank.replace(0, 3, "for");
    Main.ReplaceText(Keyword, Blank);
  }
}

}  // namespace cilkpp
