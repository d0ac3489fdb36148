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

std::string makeDepFile(llvm::StringRef Target, const std::vector<std::string> &Dependencies) {
  std::string Out = escapeForMake(Target) + ":";
  for (const std::string &D : Dependencies) Out += " \\\n  " + escapeForMake(D);
  return Out + "\n";
}

}  // namespace cilkpp::driver
