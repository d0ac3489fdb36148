// Keeps the user's macros out of the names the translation writes.
//
// The translated code names the runtime (`::cilkpp::rt::Frame`, a frame's
// `entry`, a worker's `push`) where the user's own macros are in effect, and
// a program may well `#define entry ...` or `#define Worker ...` for its own
// purposes. Around each namespace-scope declaration whose text the
// translation changed, each macro that the new text names and the user's
// text of that declaration does not use is hidden (#pragma push_macro,
// #undef, #pragma pop_macro): the new text's uses of that name are then the
// translation's own. (Text moved to the end of the file gets the same from
// MacroHistory::macrosAsAt.)
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace clang {
class Preprocessor;
}

namespace cilkpp {

class MacroHistory;

void guardTranslatedDeclarations(clang::ASTContext &Ctx, clang::Rewriter &Main, const MacroHistory &Macros,
                                 llvm::StringRef FileName);

// The directory that holds the cilkpp/runtime.h the translation includes
// (its other headers are there too); empty when there is none.
std::string runtimeHeaderDirectory(clang::Preprocessor &PP);

// The translated file's `#include <cilkpp/runtime.h>`. A macro defined
// before the file's first line (`-DT=float`, `-Dcount=100`, a -include'd
// header) would reach the runtime headers' own names (a template's `T`); each
// that they name is hidden around the #include.
std::string runtimeInclude(clang::Preprocessor &PP, const MacroHistory &Macros);

// The host compiler sees the translation's definitions of OpenCilk's
// spellings first (hostKeywordDefines), so a program's own (a portable
// program's fallback, `#define cilk_sync`) would redefine one with a
// warning, or an error under -Werror, where the translation's preprocessor
// took it as the program's macro: an `#undef` goes before each, and a #line
// keeps the lines.
void undefineBeforeKeywordDefinitions(const clang::SourceManager &SM, clang::Rewriter &Main,
                                      const MacroHistory &Macros, llvm::StringRef FileName);

}  // namespace cilkpp
