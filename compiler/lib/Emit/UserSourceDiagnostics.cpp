#include "Emit/UserSourceDiagnostics.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace cilkpp {

UserSourceDiagnostics::UserSourceDiagnostics(std::string UserPath, std::string UserText)
    : UserPath(std::move(UserPath)), UserText(std::move(UserText)) {}

UserSourceDiagnostics::~UserSourceDiagnostics() = default;

void UserSourceDiagnostics::BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) {
  LangOpts = LO;
  // (The options come with the round's DiagnosticsEngine.)
  if (!Printer && PP)
    Printer = std::make_unique<TextDiagnosticPrinter>(llvm::errs(), &PP->getDiagnostics().getDiagnosticOptions());
  if (Printer) Printer->BeginSourceFile(LO, PP);
}

void UserSourceDiagnostics::EndSourceFile() {
  if (Printer) Printer->EndSourceFile();
}

static StringRef lineAt(StringRef Text, unsigned Line) {
  for (unsigned I = 1; I < Line && !Text.empty(); ++I) Text = Text.split('\n').second;
  return Text.split('\n').first;
}

// The columns (1-based) where Token stands in Line as a whole token.
static std::vector<unsigned> occurrences(StringRef Line, StringRef Token) {
  std::vector<unsigned> Found;
  if (Token.empty()) return Found;
  const bool Word = isAsciiIdentifierContinue(Token.front());
  for (size_t At = Line.find(Token); At != StringRef::npos; At = Line.find(Token, At + 1)) {
    const bool Before = At > 0 && isAsciiIdentifierContinue(Line[At - 1]);
    const bool After = At + Token.size() < Line.size() && isAsciiIdentifierContinue(Line[At + Token.size()]);
    if (!Word || (!Before && !After)) Found.push_back(At + 1);
  }
  return Found;
}

SourceLocation UserSourceDiagnostics::onUserLine(SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid() || !Loc.isFileID() || SM.getFileID(Loc) != SM.getMainFileID()) return {};
  const PresumedLoc Presumed = SM.getPresumedLoc(Loc);
  if (Presumed.isInvalid() || StringRef(Presumed.getFilename()) != UserPath) return {};
  bool Invalid = false;
  const StringRef Buffer = SM.getBufferData(SM.getMainFileID(), &Invalid);
  if (Invalid) return {};
  const unsigned Offset = SM.getFileOffset(Loc);
  const size_t Begin = Buffer.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  const size_t LineBegin = Begin == StringRef::npos ? 0 : Begin + 1;
  const StringRef Written = Buffer.substr(LineBegin).split('\n').first;
  const StringRef User = lineAt(UserText, Presumed.getLine());
  if (Written == User) return {};
  // The user's column: where it still has the rewritten line's text before
  // it, the same (the first column that differs starts what was rewritten,
  // a loop's `for`, say); else where the token it points at stands on the
  // user's line, the nearest such place; else the line's first character.
  const unsigned Column = Offset - LineBegin + 1;
  unsigned UserColumn = 0;
  size_t Same = 0;
  while (Same < Written.size() && Same < User.size() && Written[Same] == User[Same]) ++Same;
  if (Column <= Same + 1) {
    UserColumn = Column;
  } else {
    const StringRef Token =
        Buffer.substr(Offset, Lexer::MeasureTokenLength(Loc, SM, LangOpts));
    for (unsigned At : occurrences(User, Token))
      if (!UserColumn || (At > Column ? At - Column : Column - At) < (UserColumn > Column ? UserColumn - Column
                                                                                           : Column - UserColumn))
        UserColumn = At;
    if (!UserColumn) UserColumn = User.find_first_not_of(" \t") == StringRef::npos ? 1 : User.find_first_not_of(" \t") + 1;
  }
  if (LoadedInto != &SM) {
    UserFile = SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy(UserText, UserPath));
    LoadedInto = &SM;
  }
  return SM.translateLineCol(UserFile, Presumed.getLine(), UserColumn);
}

void UserSourceDiagnostics::HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
  // Each instantiation of a template is translated on its own, with the
  // same diagnostics at the same places: once is enough, notes included.
  if (Level != DiagnosticsEngine::Note) {
    llvm::SmallString<128> Key;
    Info.FormatDiagnostic(Key);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const PresumedLoc At = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (At.isValid()) Key += (llvm::Twine("\n") + At.getFilename() + ":" + llvm::Twine(At.getLine()) + ":" +
                                llvm::Twine(At.getColumn()))
                                   .str();
    }
    Repeated = !Printed.insert(Key).second;
  }
  if (Repeated) return;
  SourceLocation Moved;
  if (Info.hasSourceManager()) Moved = onUserLine(Info.getSourceManager(), Info.getLocation());
  if (Moved.isInvalid() || !Printer) {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Printer) Printer->HandleDiagnostic(Level, Info);
    return;
  }
  // (Counted here, printed here: the printer would count it too.)
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  llvm::SmallString<128> Message;
  Info.FormatDiagnostic(Message);
  // The ranges and fix-its are in the rewritten text: left out.
  TextDiagnostic Text(llvm::errs(), LangOpts, &Info.getDiags()->getDiagnosticOptions());
  Text.emitDiagnostic(FullSourceLoc(Moved, Info.getSourceManager()), Level, Message, {}, {});
  llvm::errs().flush();
}

}  // namespace cilkpp
