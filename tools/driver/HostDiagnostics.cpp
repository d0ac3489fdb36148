#include "HostDiagnostics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace cilkpp::driver {
namespace {

// The text without its colour escapes (`ESC[...m`, `ESC[K`).
std::string withoutColours(llvm::StringRef Line) {
  std::string Out;
  for (size_t I = 0; I < Line.size(); ++I) {
    if (Line[I] == '\x1b' && I + 1 < Line.size() && Line[I + 1] == '[') {
      I += 2;
      while (I < Line.size() && !std::isalpha(static_cast<unsigned char>(Line[I]))) ++I;
      continue;
    }
    Out += Line[I];
  }
  return Out;
}

// `file:line:col: warning: text` (and error, fatal error, note).
struct Heading {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Severity, Text;
};
std::optional<Heading> headingOf(llvm::StringRef Plain) {
  static const llvm::Regex Pattern("^(.+):([0-9]+):([0-9]+): (warning|error|fatal error|note): (.*)$");
  llvm::SmallVector<llvm::StringRef, 6> Parts;
  if (!Pattern.match(Plain, &Parts)) return std::nullopt;
  Heading H{Parts[1].str(), 0, 0, Parts[4].str(), Parts[5].str()};
  Parts[2].getAsInteger(10, H.Line);
  Parts[3].getAsInteger(10, H.Column);
  return H;
}

// `file: In function 'long int __cilkpp_f_fast(cilkpp::rt::Worker*, ...)':`
// and the like (g++'s context lines), and clang's `N warnings generated.`.
bool isContext(llvm::StringRef Plain) {
  return Plain.contains(": In ") && Plain.ends_with(":") && !headingOf(Plain);
}
bool isSummary(llvm::StringRef Plain) {
  static const llvm::Regex Pattern("^[0-9]+ (warning|error)s? (and [0-9]+ errors? )?generated\\.$");
  return Pattern.match(Plain);
}

// Clones named as the user's procedures: the fast clone `T
// __cilkpp_f_fast(cilkpp::rt::Worker*, cilkpp::rt::Frame*, void*, unsigned
// int, ARGS)` (and its tail, `__cilkpp_f_fast_tail`) as `T f(ARGS)`, the resume clone `void
// {anonymous}::__cilkpp_f_resume(cilkpp::rt::Worker*, cilkpp::rt::Frame*)`,
// which has none of the user's parameters, as `f`.
// `operator()` for the `operator_Call` of generated names (Naming.h).
std::string operatorSpelling(llvm::StringRef Name) {
  static const std::map<std::string, std::string, std::less<>> Spellings = {
#define OVERLOADED_OPERATOR(Name, Spelling, Token, Unary, Binary, MemberOnly) {"operator_" #Name, "operator" Spelling},
#include "clang/Basic/OperatorKinds.def"
  };
  const auto It = Spellings.find(Name);
  return It == Spellings.end() ? Name.str() : It->second;
}

// Where the parenthesis that closes a list starting in Text is.
size_t closingParen(llvm::StringRef Text) {
  int Depth = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '(') ++Depth;
    if (Text[I] == ')' && Depth-- == 0) return I;
  }
  return llvm::StringRef::npos;
}

// Takes the fast clone's suffix off a generated name, `__cilkpp_f` of
// `__cilkpp_f_fast`, of its tail `__cilkpp_f_fast_tail`, and of its inlined
// copies `__cilkpp_f_fast_inlined_2` and `__cilkpp_f_fast_inlined_2_tail`
// (RecursionInlining.h). False, leaving Name as it is, for other names.
bool consumeFastCloneSuffix(llvm::StringRef &Name) {
  llvm::StringRef Rest = Name;
  Rest.consume_back("_tail");
  if (const size_t Copy = Rest.rfind("_inlined_"); Copy != llvm::StringRef::npos) {
    const llvm::StringRef Level = Rest.drop_front(Copy + 9);
    if (!Level.empty() && Level.find_first_not_of("0123456789") == llvm::StringRef::npos) Rest = Rest.take_front(Copy);
  }
  if (!Rest.consume_back("_fast")) return false;
  Name = Rest;
  return true;
}

// A self-contained member's clone, a static member of a local class in the
// member (Support/SelfContainedMembers.h), as g++ names it: Before is
// `...static member function 'static long int Tree::m(int) const::`, Clone
// `__cilkpp_m_fast(cilkpp::rt::Worker*, ..., const Tree*, int)...`. Named as
// the member: `...member function 'long int Tree::m(int) const`. Only a fast
// clone's arguments tell a static member (no object) from another.
std::optional<std::string> selfContainedClone(llvm::StringRef Before, llvm::StringRef Clone) {
  static constexpr llvm::StringLiteral StaticHead = "static member function ";
  const size_t Head = Before.find(StaticHead);
  const size_t Paren = Clone.find('(');
  if (Head == llvm::StringRef::npos || Paren == llvm::StringRef::npos || !Before.ends_with("::")) return std::nullopt;
  llvm::StringRef Member = Before.drop_front(Head + StaticHead.size()).drop_back(2);
  // (g++ quotes with ‘’ in a UTF-8 locale.)
  const llvm::StringRef Quote = Member.starts_with("'") ? "'" : "\xE2\x80\x98";
  if (!Member.consume_front(Quote)) return std::nullopt;
  const llvm::StringRef CloneName = Clone.take_front(Paren);
  bool Static = false;
  if (llvm::StringRef Base = CloneName; consumeFastCloneSuffix(Base)) {
    // The member's class: its qualified name up to the last `::`.
    const llvm::StringRef Name = Member.take_front(Member.find('(')).rsplit(' ').second;
    const llvm::StringRef Class = Name.take_front(Name.rfind("::"));
    llvm::StringRef Arguments = Clone.drop_front(Paren + 1);
    Arguments.consume_front("cilkpp::rt::Worker*, cilkpp::rt::Frame*, void*, unsigned int");
    Arguments.consume_front(", ");
    Arguments.consume_front("const ");
    Static = !Arguments.starts_with((Class + "*").str());
  } else {
    Member.consume_front("static ");
    Member.consume_front("void ");
  }
  if (!Static) Member.consume_front("static ");
  return Before.take_front(Head).str() + (Static ? StaticHead.str() : "member function ") + Quote.str() + Member.str();
}

std::string userNames(llvm::StringRef Line) {
  static constexpr llvm::StringLiteral Prefix = "__cilkpp_", Hidden = "(cilkpp::rt::Worker*, cilkpp::rt::Frame*";
  std::string Out;
  while (true) {
    const size_t At = Line.find(Prefix);
    if (At == llvm::StringRef::npos) break;
    llvm::StringRef Rest = Line.substr(At + Prefix.size());
    const size_t NameEnd = Rest.find_first_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    llvm::StringRef Name = Rest.take_front(NameEnd);
    Rest = Rest.drop_front(Name.size());
    llvm::StringRef Before = Line.take_front(At);
    if (Name.ends_with("_clones") && Rest.starts_with("::" + Prefix.str())) {
      if (std::optional<std::string> Member = selfContainedClone(Before, Rest.drop_front(2))) {
        Out += *Member;
        Line = Rest.drop_front(Rest.find('(') + 1);
        Line = Line.drop_front(std::min(Line.size(), closingParen(Line) + 1));
        continue;
      }
    }
    if (consumeFastCloneSuffix(Name)) {
      Name.consume_back("_internal");
      Name.consume_back("_rvalue");
      // (Template arguments stay: `f<int>(...)`.)
      const size_t Paren = Rest.starts_with("<") ? Rest.find('(') : 0;
      if (Paren != llvm::StringRef::npos && Rest.substr(Paren).starts_with(Hidden)) {
        llvm::StringRef Arguments = Rest.substr(Paren + Hidden.size());
        Arguments.consume_front(", void*, unsigned int");
        Arguments.consume_front(", ");
        // A member's clone is static and takes the object first (a pointer
        // to const for a const member).
        std::string Head = Before.str();
        bool Const = false;
        if (const size_t Scope = Before.rfind(' '); Before.ends_with("::")) {
          const llvm::StringRef Class = Before.drop_front(Scope + 1).drop_back(2);
          Const = Arguments.consume_front("const " + Class.str() + "*");
          if (Const || Arguments.consume_front(Class.str() + "*")) {
            Arguments.consume_front(", ");
            const size_t Static = Head.find("static member function ");
            if (Static != std::string::npos) Head.replace(Static, 7, "");
            if (const size_t Keyword = Head.find("static "); Keyword != std::string::npos) Head.erase(Keyword, 7);
          }
        }
        Out += Head + operatorSpelling(Name) + Rest.take_front(Paren).str() + "(";
        Line = Arguments;
        if (const size_t Close = closingParen(Arguments); Const && Close != llvm::StringRef::npos) {
          Out += Arguments.take_front(Close + 1).str() + " const";
          Line = Arguments.drop_front(Close + 1);
        }
        continue;
      }
      // Named alone (clang's `'__cilkpp_f_fast'`).
      Out += Before.str() + operatorSpelling(Name);
      Line = Rest;
      continue;
    } else if (Name.consume_back("_resume") && Rest.starts_with(Hidden)) {
      // `void {anonymous}::` before it goes too.
      Before.consume_back("{anonymous}::");
      Before.consume_back("void ");
      Out += Before.str() + operatorSpelling(Name);
      Line = Rest.drop_front(Rest.find(')') + 1);
      continue;
    }
    Out += Before.str() + Prefix.str() + Name.str();
    Line = Rest;
  }
  return Out + Line.str();
}
// The line as g++ quotes it and counts its columns: tabs expanded to the
// next multiple of 8 (-ftabstop).
std::string withTabsExpanded(llvm::StringRef Line) {
  std::string Out;
  for (const char C : Line) {
    if (C != '\t') {
      Out += C;
      continue;
    }
    do Out += ' ';
    while (Out.size() % 8 != 0);
  }
  return Out;
}

// The rewriting of one host compiler's output.
class Cleaner {
 public:
  std::string run(llvm::StringRef Output) {
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    Output.split(Lines, '\n');
    const bool EndsInNewline = Output.ends_with("\n");
    if (EndsInNewline) Lines.pop_back();
    for (llvm::StringRef Line : Lines) line(Line, withoutColours(Line));
    if (!PendingContext.empty()) Out += PendingContext + "\n";  // (no diagnostic came after it)
    if (!EndsInNewline && !Out.empty()) Out.pop_back();
    return Out;
  }

 private:
  void line(llvm::StringRef Line, const std::string &Plain) {
    const bool AfterHeadingLine = std::exchange(AfterHeading, false);
    const bool AfterOldSourceLine = std::exchange(AfterOldSource, false);
    if (isContext(Plain)) return context(Line, Plain);
    if (isSummary(Plain)) return summary();
    if (std::optional<Heading> H = headingOf(Plain)) return heading(Line, *H);
    // (`file:9:26:   required from here` belongs to the context above it.)
    if (!PendingContext.empty()) {
      PendingContext += '\n';
      PendingContext += Line;
      return;
    }
    if (AfterHeadingLine && !Skipping && oldLayoutSource(Line, Plain)) return;
    if (AfterOldSourceLine && !Skipping && oldLayoutMarks(Line, Plain)) return;
    const bool IsSnippet = llvm::StringRef(Plain).starts_with(" ");
    if (!IsSnippet) Skipping = false;
    if (Skipping) return;
    if (IsSnippet && !snippet(Plain)) return;
    Out += Line.str() + "\n";
  }

  // The function the next diagnostics are in. A resume clone's names none
  // of the user's parameters: the fast clone's just before it is the same
  // procedure's.
  void context(llvm::StringRef Line, llvm::StringRef Plain) {
    if (std::optional<std::string> Outlined = outlinedBodyContext(Plain)) {
      PendingContext = *Outlined;
      return;
    }
    const std::string User = userNames(Line);
    // (The fast clone's tail, the part after the leading base cases, and its
    // inlined copies are the fast clone too.)
    llvm::StringRef Clone = cloneName(Plain);
    if (consumeFastCloneSuffix(Clone)) {
      LastFast = User;
      LastFastName = procedurePart(Clone);
    } else if (Clone.consume_back("_resume") && !LastFast.empty() &&
               llvm::StringRef(procedurePart(Clone)).starts_with(LastFastName)) {
      PendingContext = LastFast;
      return;
    }
    PendingContext = User;
  }
  // A body the translator moved out of its function into one of its own
  // (translation.md, "Outlined bodies"), or that one's clones, named for
  // what it was.
  static std::optional<std::string> outlinedBodyContext(llvm::StringRef Plain) {
    static const llvm::Regex Pattern("^(.*): In function '[^']*__cilkpp_(lambda|loop_body|handler)_[0-9]+[_a-z0-9]*\\(");
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    // (g++ quotes with U+2018/U+2019 in a UTF-8 locale.)
    std::string Ascii;
    for (llvm::StringRef Rest = Plain; !Rest.empty();) {
      if (Rest.consume_front("\u2018") || Rest.consume_front("\u2019")) {
        Ascii += '\'';
        continue;
      }
      Ascii += Rest.front();
      Rest = Rest.drop_front();
    }
    if (!Pattern.match(Ascii, &Parts)) return std::nullopt;
    const llvm::StringRef What = Parts[2] == "lambda"      ? "lambda function"
                                 : Parts[2] == "loop_body" ? "'cilk_for' body"
                                                           : "'catch' handler";
    return fmt::format("{}: In {}:", Parts[1], What);
  }
  // The generated function the context line names: the one whose
  // parameters begin with the worker.
  static llvm::StringRef cloneName(llvm::StringRef Plain) {
    const size_t End = Plain.find("(cilkpp::rt::Worker*");
    const size_t Begin = End == llvm::StringRef::npos ? End : Plain.take_front(End).rfind("__cilkpp_");
    if (End == llvm::StringRef::npos || Begin == llvm::StringRef::npos) return "";
    return Plain.slice(Begin, End);
  }
  // A fast clone's name without its suffixes, as a resume clone's begins.
  static std::string procedurePart(llvm::StringRef Name) {
    Name.consume_back("_internal");
    Name.consume_back("_rvalue");
    return Name.str();
  }

  // `-Wnarrowing` of a text ending in ` [-Wnarrowing]`, else the text.
  static std::string optionOf(llvm::StringRef Text) {
    Text = Text.rtrim();
    const size_t Open = Text.rfind(" [-W");
    return Open != llvm::StringRef::npos && Text.ends_with("]") ? Text.drop_front(Open + 2).drop_back().str()
                                                                 : Text.str();
  }

  // clang's count, of what is left.
  void summary() {
    std::string Summary;
    if (Warnings) Summary = fmt::format("{} warning{}", Warnings, Warnings == 1 ? "" : "s");
    if (Errors) Summary += fmt::format("{}{} error{}", Warnings ? " and " : "", Errors, Errors == 1 ? "" : "s");
    if (!Summary.empty()) Out += Summary + " generated.\n";
    Warnings = Errors = 0;
  }

  void heading(llvm::StringRef Line, const Heading &H) {
    if (H.Severity != "note") {
      const std::string Text = userNames(H.Text);
      Skipping = !Seen.insert(fmt::format("{}:{}\n{}\n{}", H.File, H.Line, H.Severity, Text)).second;
      // The same diagnostic on another clone's text of the line, naming the
      // frame (`__frame->d` for `d`): the one on the user's text came first.
      const std::string Kind = fmt::format("{}:{}\n{}\n{}", H.File, H.Line, H.Severity, optionOf(Text));
      const bool NamesGenerated = llvm::StringRef(Text).contains("__frame") ||
                                  llvm::StringRef(Text).contains("__cilkpp_") ||
                                  llvm::StringRef(Text).contains("cilkpp::rt::");
      if (!Skipping && NamesGenerated && SeenKinds.contains(Kind)) Skipping = true;
      SeenKinds.insert(Kind);
      if (!Skipping) (H.Severity == "warning" ? Warnings : Errors) += 1;
    }
    if (Skipping) {
      PendingContext.clear();
      return;
    }
    if (!PendingContext.empty() && withoutColours(PendingContext) != withoutColours(PrintedContext)) {
      Out += PendingContext + "\n";
      PrintedContext = PendingContext;
    }
    PendingContext.clear();
    std::string Text = userNames(Line);
    Current = userLine(H.File, H.Line);
    CurrentColumn = H.Column;
    // A column past the end of the user's line is one in generated text:
    // the statement's first column instead. (g++ counts a tab to the next
    // tab stop, clang++ as one byte.)
    const size_t Width = Current ? std::max(Current->size(), withTabsExpanded(*Current).size()) : 0;
    Marks.clear();
    if (Current && H.Column > Width + 1) {
      const size_t First = Current->find_first_not_of(" \t");
      CurrentColumn = First == std::string::npos ? 1 : unsigned(First + 1);
      // Better, the one place on the line of the name the diagnostic quotes
      // (`unused variable 'u3'`), marked as the host compiler would.
      if (std::optional<std::pair<size_t, size_t>> Named = quotedNameOnLine(H.Text, *Current)) {
        CurrentColumn = unsigned(Named->first + 1);
        if (Current->find('\t') == std::string::npos)
          Marks = fmt::format("      | {}^{}", std::string(Named->first, ' '), std::string(Named->second - 1, '~'));
      }
      const std::string Old = fmt::format(":{}:{}:", H.Line, H.Column);
      if (const size_t At = Text.find(Old); At != std::string::npos)
        Text.replace(At, Old.size(), fmt::format(":{}:{}:", H.Line, CurrentColumn));
    }
    QuotesUser = true;
    MarksUser = H.Column <= (Current ? Width + 1 : H.Column);
    AfterHeading = true;
    Out += Text + "\n";
  }

  // Before clang 16 (Debian 12's clang++ is 14) a snippet is the source line
  // as it is, then a line of marks, without the `N | ` gutter: the line
  // after a diagnostic on a .cilkpp line that has no gutter is that source
  // line, replaced by the user's where it quotes the translation's. True
  // when handled.
  bool oldLayoutSource(llvm::StringRef Line, llvm::StringRef Plain) {
    static const llvm::Regex Gutter("^ *[0-9]+ \\| ");
    if (!Current || Gutter.match(Plain)) return false;
    QuotesUser = Plain == *Current || Plain == withTabsExpanded(*Current);
    Out += (QuotesUser ? Line.str() : *Current) + "\n";
    AfterOldSource = true;
    return true;
  }
  // Its marks, kept where they mark the user's text.
  bool oldLayoutMarks(llvm::StringRef Line, llvm::StringRef Plain) {
    static const llvm::Regex MarksOnly("^ *[\\^~][\\^~ ]*$");
    if (!MarksOnly.match(Plain)) return false;
    if (!Marks.empty()) {
      // (Built for the gutter layout: `      | ` before them.)
      Out += llvm::StringRef(Marks).drop_front(8).str() + "\n";
      Marks.clear();
    } else if (QuotesUser && MarksUser) {
      Out += Line.str() + "\n";
    }
    return true;
  }

  // A snippet line after a diagnostic on a .cilkpp line: the source line is
  // the user's (clang quotes the translation's), and marks under it are kept
  // only where they mark the user's text. False to leave the line out.
  bool snippet(llvm::StringRef Plain) {
    if (!Current) return true;
    static const llvm::Regex Source("^ *[0-9]+ \\| (.*)$"), MarksLine("^ *\\| ");
    llvm::SmallVector<llvm::StringRef, 2> Parts;
    if (Source.match(Plain, &Parts)) {
      QuotesUser = Parts[1] == *Current || Parts[1] == withTabsExpanded(*Current);
      if (!QuotesUser) {
        Out += fmt::format("{:>5} | {}\n", LineNumber, *Current);
        return false;
      }
      return true;
    }
    if (MarksLine.match(Plain)) {
      if (!Marks.empty()) {
        Out += Marks + "\n";
        Marks.clear();
        return false;
      }
      return QuotesUser && MarksUser;
    }
    return true;
  }

  // Where the first name the text quotes (`'u3'`, `‘u3’`) stands on Line,
  // and its length, when it stands there once.
  // Only on a line of plain ASCII without tabs, where g++ and clang++ count
  // columns alike; not a type's keyword (`'int'` of a comparison's types);
  // not in a literal or a comment.
  static std::optional<std::pair<size_t, size_t>> quotedNameOnLine(llvm::StringRef Text, llvm::StringRef Line) {
    static const llvm::Regex Quoted("('|\u2018)([A-Za-z_][A-Za-z0-9_]*)('|\u2019)");
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    if (!Quoted.match(Text, &Parts)) return std::nullopt;
    if (llvm::any_of(Line, [](char C) { return C == '\t' || static_cast<unsigned char>(C) >= 0x80; })) return std::nullopt;
    const llvm::StringRef Name = Parts[2];
    static const llvm::StringSet<> TypeKeywords = {"bool",     "char",   "char8_t", "char16_t", "char32_t", "wchar_t",
                                                   "short",    "int",    "long",    "signed",   "unsigned", "float",
                                                   "double",   "void",   "auto",    "const",    "volatile", "decltype"};
    if (TypeKeywords.contains(Name)) return std::nullopt;
    // The line's code: literals and a comment blanked out.
    std::string Code = Line.str();
    for (size_t I = 0; I < Code.size(); ++I) {
      if (Code.compare(I, 2, "//") == 0 || Code.compare(I, 2, "/*") == 0) {
        Code.resize(I);  // (the rest of the line, to be safe)
        break;
      }
      if (Code[I] != '"' && Code[I] != '\'') continue;
      const char Quote = Code[I];
      for (++I; I < Code.size() && Code[I] != Quote; ++I) {
        if (Code[I] == '\\' && I + 1 < Code.size()) Code[I++] = ' ';
        Code[I] = ' ';
      }
    }
    auto IsWordChar = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
    const llvm::StringRef Searched = Code;
    std::optional<std::pair<size_t, size_t>> Found;
    for (size_t At = Searched.find(Name); At != llvm::StringRef::npos; At = Searched.find(Name, At + 1)) {
      const size_t End = At + Name.size();
      if ((At > 0 && IsWordChar(Searched[At - 1])) || (End < Searched.size() && IsWordChar(Searched[End]))) continue;
      if (Found) return std::nullopt;  // (more than once: which one?)
      Found = std::make_pair(At, Name.size());
    }
    return Found;
  }

  // Line N of File when File is a .cilkpp source that can be read.
  const std::string *userLine(const std::string &File, unsigned N) {
    LineNumber = N;
    if (!llvm::StringRef(File).ends_with(".cilkpp") || N == 0) return nullptr;
    auto [It, New] = Files.try_emplace(File);
    if (New)
      if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(File)) {
        llvm::SmallVector<llvm::StringRef, 128> Lines;
        (*Text)->getBuffer().split(Lines, '\n');
        for (llvm::StringRef L : Lines) It->second.push_back(L.rtrim("\r").str());
      }
    return N <= It->second.size() ? &It->second[N - 1] : nullptr;
  }

  std::string Out;
  llvm::StringSet<> Seen;  // place, severity and text of each diagnostic printed
  llvm::StringSet<> SeenKinds;  // place, severity and warning option of each
  std::string PendingContext, PrintedContext, LastFast, LastFastName;
  bool Skipping = false;  // inside a repeated diagnostic: its notes and snippet
  unsigned Warnings = 0, Errors = 0;
  // The user's line the last diagnostic is on, its column there, whether the
  // snippet printed quotes it as it is, and whether the column is in it.
  const std::string *Current = nullptr;
  unsigned CurrentColumn = 0, LineNumber = 0;
  // The marks under a name found on the user's line in place of the host's
  // (quotedNameOnLine), or empty.
  std::string Marks;
  bool QuotesUser = true, MarksUser = true;
  // The line before was a diagnostic's heading, or a source line of the
  // layout without a gutter (oldLayoutSource).
  bool AfterHeading = false, AfterOldSource = false;
  std::map<std::string, std::vector<std::string>> Files;
};

}  // namespace

std::string cleanHostDiagnostics(llvm::StringRef Output) { return Cleaner().run(Output); }

}  // namespace cilkpp::driver
