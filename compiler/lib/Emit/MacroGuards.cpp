#include "Emit/MacroGuards.h"

#include "CodeGen/SourceText.h"
#include "Dialect/Keywords.h"
#include "Dialect/MacroHistory.h"
#include "Support/SourceRanges.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <vector>

using namespace clang;

namespace cilkpp {
namespace {

// [Begin, End): main-file offsets, End just past the declaration's last
// token (and the ';' after it, where the translation may insert too).
struct Region {
  unsigned Begin, End;
};

void collectRegions(ASTContext &Ctx, const DeclContext *DC, std::vector<Region> &Regions) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D : DC->decls()) {
    if (D->isImplicit()) continue;
    if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D)) {
      collectRegions(Ctx, cast<DeclContext>(D), Regions);
      continue;
    }
    const CharSourceRange Range = fileRange(SM, D->getSourceRange());
    if (Range.isInvalid() || !SM.isWrittenInMainFile(Range.getBegin()) || !SM.isWrittenInMainFile(Range.getEnd()))
      continue;
    SourceLocation Last = Range.getEnd();
    if (const SourceLocation Semicolon = semicolonAfter(Ctx, Last); Semicolon.isValid()) Last = Semicolon;
    const unsigned End =
        SM.getFileOffset(Last) + Lexer::MeasureTokenLength(Last, SM, Ctx.getLangOpts());
    Regions.push_back({SM.getFileOffset(Range.getBegin()), End});
  }
}

// The identifiers of the runtime's headers: every file under the directory
// that holds the runtime.h the translation includes.
llvm::StringSet<> runtimeHeaderNames(Preprocessor &PP) {
  llvm::StringSet<> Names;
  const std::string Directory = runtimeHeaderDirectory(PP);
  if (Directory.empty()) return Names;
  std::error_code Error;
  for (llvm::sys::fs::recursive_directory_iterator It(Directory, Error), End;
       It != End && !Error; It.increment(Error)) {
    if (llvm::sys::path::extension(It->path()) != ".h") continue;
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Header = llvm::MemoryBuffer::getFile(It->path()))
      for (const auto &Name : namesIn(PP.getLangOpts(), (*Header)->getBuffer())) Names.insert(Name.getKey());
  }
  return Names;
}

}  // namespace

std::string runtimeHeaderDirectory(Preprocessor &PP) {
  ConstSearchDirIterator FoundIn = nullptr;
  const OptionalFileEntryRef Runtime = PP.getHeaderSearchInfo().LookupFile(
      "cilkpp/runtime.h", SourceLocation(), /*isAngled=*/true, /*FromDir=*/nullptr, &FoundIn, /*Includers=*/{},
      nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  return Runtime ? llvm::sys::path::parent_path(Runtime->getName()).str() : "";
}

std::string runtimeInclude(Preprocessor &PP, const MacroHistory &Macros) {
  const MacroHistory::Guard Guard = Macros.hidesCommandLineMacros(PP.getSourceManager(), runtimeHeaderNames(PP));
  return Guard.Before + "#include <cilkpp/runtime.h>\n" + Guard.After;
}

void guardTranslatedDeclarations(ASTContext &Ctx, Rewriter &Main, const MacroHistory &Macros, llvm::StringRef FileName) {
  if (Macros.Events.empty()) return;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Region> Regions;
  collectRegions(Ctx, Ctx.getTranslationUnitDecl(), Regions);
  // (`struct S { ... } s;` is a class and a variable over the same text.)
  llvm::sort(Regions, [](const Region &A, const Region &B) { return A.Begin < B.Begin; });
  std::vector<Region> Merged;
  for (const Region &R : Regions) {
    if (!Merged.empty() && R.Begin < Merged.back().End) Merged.back().End = std::max(Merged.back().End, R.End);
    else Merged.push_back(R);
  }
  const SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  const unsigned FileSize = SM.getBufferData(SM.getMainFileID()).size();
  for (const Region &R : Merged) {
    const SourceLocation Begin = Start.getLocWithOffset(R.Begin), End = Start.getLocWithOffset(R.End);
    // (One character further, where there is one: the text inserted right
    // after the last token is the translation's too.)
    const CharSourceRange Written =
        CharSourceRange::getCharRange(Begin, Start.getLocWithOffset(std::min(R.End + 1, FileSize)));
    const std::string Text = Main.getRewrittenText(Written);
    if (Text == Lexer::getSourceText(Written, SM, Ctx.getLangOpts())) continue;
    const MacroHistory::Guard Guard = Macros.hidesUnusedMacros(Ctx.getLangOpts(), R.Begin, R.End, Text);
    if (Guard.Before.empty()) continue;
    Main.InsertTextBefore(Begin, "\n" + Guard.Before + lineDirective(SM.getPresumedLineNumber(Begin), FileName) +
                                     std::string(SM.getSpellingColumnNumber(Begin) - 1, ' '));
    Main.InsertTextAfter(End, "\n" + Guard.After + lineDirective(SM.getPresumedLineNumber(End), FileName) +
                                  std::string(SM.getSpellingColumnNumber(End) - 1, ' '));
  }
}

void undefineBeforeKeywordDefinitions(const SourceManager &SM, Rewriter &Main, const MacroHistory &Macros,
                                      llvm::StringRef FileName) {
  const FileID File = SM.getMainFileID();
  for (llvm::StringRef Spelling : hostKeywordSpellings()) {
    auto Events = Macros.Events.find(Spelling);
    if (Events == Macros.Events.end()) continue;
    for (const MacroEvent &E : Events->second) {
      if (!E.Definition) continue;
      // (Not the translation's own, nor one from the command line; a
      // header's is recorded at its #include, which gets the #undef.)
      const SourceLocation At = E.Definition->getDefinitionLoc();
      if (At.isInvalid() || SM.isWrittenInBuiltinFile(At) || SM.isWrittenInCommandLineFile(At)) continue;
      const unsigned Line = SM.getLineNumber(File, E.Offset);
      Main.InsertTextBefore(SM.translateLineCol(File, Line, 1),
                            "#undef " + Spelling.str() + "\n" + lineDirective(Line, FileName));
    }
  }
}

}  // namespace cilkpp
