// One-line diagnostics in the style of gcc's driver: "cilkpp: error: ...".
#pragma once

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

namespace cilkpp::driver {

inline void error(const llvm::Twine &Message) {
  llvm::errs() << "cilkpp: error: " << Message << "\n";
}

inline void warning(const llvm::Twine &Message) {
  llvm::errs() << "cilkpp: warning: " << Message << "\n";
}

}  // namespace cilkpp::driver
