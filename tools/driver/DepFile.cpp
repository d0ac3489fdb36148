#include "DepFile.h"

namespace cilkpp::driver {
namespace {

std::string escapeForMake(llvm::StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#') Out += '\\';
    if (C == '$') Out += '$';
    Out += C;
  }
  return Out;
}

}  // namespace

std::string makeDepFile(llvm::StringRef Target, const std::vector<std::string> &Dependencies, bool PhonyTargets) {
  std::string Out = escapeForMake(Target) + ":";
  for (const std::string &D : Dependencies) Out += " \\\n  " + escapeForMake(D);
  Out += "\n";
  // (-MP: a header deleted since does not stop make. The first dependency
  // is the source itself.)
  if (PhonyTargets)
    for (size_t I = 1; I < Dependencies.size(); ++I) Out += "\n" + escapeForMake(Dependencies[I]) + ":\n";
  return Out;
}

}  // namespace cilkpp::driver
