#include "Emit/SerialElision.h"

using namespace clang;

namespace cilkpp {

void elideKeywords(Rewriter &Main, llvm::ArrayRef<KeywordUse> Uses, llvm::ArrayRef<GrainPragma> Pragmas) {
  for (const GrainPragma &P : Pragmas) Main.ReplaceText(P.Range, "");
  for (const KeywordUse &U : Uses) {
    CharSourceRange Keyword = CharSourceRange::getTokenRange(U.Loc, U.End);
    switch (U.Kind) {
      case KeywordKind::Cilk:
      case KeywordKind::Spawn:
      case KeywordKind::Sync:
      case KeywordKind::CilkScope:
      case KeywordKind::Reducer: Main.ReplaceText(Keyword, ""); break;
      case KeywordKind::CilkFor: Main.ReplaceText(Keyword, "for"); break;
    }
  }
}

}  // namespace cilkpp
