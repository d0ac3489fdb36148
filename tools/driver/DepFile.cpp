#include "DepFile.h"

namespace cilkpp::driver {

std::string quoteForMake(llvm::StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#') Out += '\\';
    if (C == '$') Out += '$';
    Out += C;
  }
  return Out;
}

std::vector<std::string> readDepFileDependencies(llvm::StringRef Text) {
  std::vector<std::string> Dependencies;
  std::string Word;
  bool InTargets = true;
  auto EndWord = [&] {
    if (!Word.empty() && !InTargets) Dependencies.push_back(Word);
    Word.clear();
  };
  for (size_t I = 0; I < Text.size(); ++I) {
    const char C = Text[I];
    const char Next = I + 1 < Text.size() ? Text[I + 1] : '\0';
    if (C == '\\' && (Next == '\n' || (Next == '\r' && I + 2 < Text.size() && Text[I + 2] == '\n'))) {
      EndWord();
      I += Next == '\r' ? 2 : 1;
    } else if (C == '\\' && (Next == ' ' || Next == '#')) {
      Word += Next;
      ++I;
    } else if (C == '$' && Next == '$') {
      Word += '$';
      ++I;
    } else if (C == '\n') {
      EndWord();
      if (!InTargets) break;  // the end of the first rule
    } else if (C == ' ' || C == '\t' || C == '\r') {
      EndWord();
    } else if (C == ':' && InTargets && (Next == ' ' || Next == '\t' || Next == '\n' || Next == '\r' || Next == '\0')) {
      Word.clear();
      InTargets = false;
    } else {
      Word += C;
    }
  }
  EndWord();
  return Dependencies;
}

std::string makeDepFile(llvm::StringRef Target, const std::vector<std::string> &Dependencies, bool PhonyTargets) {
  std::string Out = Target.str() + ":";
  for (const std::string &D : Dependencies) Out += " \\\n  " + quoteForMake(D);
  Out += "\n";
  // (-MP: a header deleted since does not stop make. The first dependency
  // is the source itself.)
  if (PhonyTargets)
    for (size_t I = 1; I < Dependencies.size(); ++I) Out += "\n" + quoteForMake(Dependencies[I]) + ":\n";
  return Out;
}

}  // namespace cilkpp::driver
