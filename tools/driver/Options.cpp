// Command-line options of the driver.
//
// The options are llvm::cl globals, the usual LLVM way. Anything that starts
// with '-' and is not one of them lands in the cl::Sink list and goes to the
// host compiler unchanged (-Wall, -lm, -fsanitize=address, ...). Such options
// must be a single token: for `-Xlinker x` write `-Wl,x`.
//
// One pre-pass guards the Sink: llvm::cl makes every one-letter option
// groupable (-cv means -c -v), which gcc's command line is not. Unknown
// options that begin with one of our letters (-coverage, -g3, -gdwarf-4,
// -verbose...) would be split: -coverage would read as -c -o verage. So such
// options are set aside as host flags before llvm::cl sees the command line.

#include "Options.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/StringSaver.h"

#include "DepFile.h"
#include "Diag.h"
#include "DriverConfig.h"
#include "Help.h"

namespace cl = llvm::cl;

namespace cilkpp::driver {
namespace {

cl::OptionCategory Category("cilkpp options");

cl::list<std::string> InputsOpt(cl::Positional, cl::desc("<inputs>"),
                                cl::cat(Category));
cl::list<std::string> HostFlagsOpt(
    cl::Sink, cl::desc("Other options are passed to the host compiler"),
    cl::cat(Category));

cl::opt<std::string> OutputOpt("o", cl::Prefix, cl::value_desc("file"),
                               cl::desc("Write the output to <file>"),
                               cl::cat(Category));
cl::opt<bool> CompileOnlyOpt("c", cl::desc("Compile to object files, do not link"),
                             cl::cat(Category));
// Each level is its own flag (-O0 ... -Ofast) so that --help lists them and,
// as with gcc, the last one given wins.
enum OptLevel { O0, O1, O2, O3, Os, Oz, Og, Ofast };
constexpr const char *OptLevelText[] = {"0", "1", "2", "3", "s", "z", "g", "fast"};
cl::opt<OptLevel> OptLevelOpt(
    cl::desc("Optimization level (default -O0, as gcc):"), cl::init(O0),
    cl::values(clEnumValN(O1, "O", "Same as -O1"),
               clEnumValN(O0, "O0", "No optimization (the default, as gcc)"),
               clEnumValN(O1, "O1", "Optimize"),
               clEnumValN(O2, "O2", "Optimize more"),
               clEnumValN(O3, "O3", "Optimize most"),
               clEnumValN(Os, "Os", "Optimize for size"),
               clEnumValN(Oz, "Oz", "Optimize for size aggressively"),
               clEnumValN(Og, "Og", "Optimize for debugging"),
               clEnumValN(Ofast, "Ofast", "-O3 plus fast math")),
    cl::cat(Category));
cl::opt<bool> DebugOpt("g", cl::desc("Emit debug information"), cl::cat(Category));
cl::list<std::string> IncludeDirOpt("I", cl::Prefix, cl::value_desc("dir"),
                                    cl::desc("Add <dir> to the include path"),
                                    cl::cat(Category));
cl::list<std::string> SystemDirOpt("isystem", cl::Prefix, cl::value_desc("dir"),
                                   cl::desc("Add <dir> to the system include path"),
                                   cl::cat(Category));
cl::list<std::string> QuoteDirOpt("iquote", cl::Prefix, cl::value_desc("dir"),
                                  cl::desc("Add <dir> to the include path of #include \"...\""),
                                  cl::cat(Category));
cl::list<std::string> AfterDirOpt("idirafter", cl::Prefix, cl::value_desc("dir"),
                                  cl::desc("Add <dir> to the end of the include path"),
                                  cl::cat(Category));
cl::opt<std::string> SysrootOpt("sysroot", cl::value_desc("dir"),
                                cl::desc("Look for headers and libraries under <dir>"),
                                cl::cat(Category));
cl::list<std::string> DefineOpt("D", cl::Prefix, cl::value_desc("macro[=value]"),
                                cl::desc("Define a macro"), cl::cat(Category));
cl::list<std::string> UndefOpt("U", cl::Prefix, cl::value_desc("macro"),
                               cl::desc("Undefine a macro"), cl::cat(Category));
cl::list<std::string> IncludeOpt("include", cl::value_desc("file"),
                                 cl::desc("Include <file> before the input"),
                                 cl::cat(Category));
cl::list<std::string> MacrosOpt("imacros", cl::value_desc("file"),
                                cl::desc("Take the macros of <file> before the input"),
                                cl::cat(Category));
cl::opt<std::string> StdOpt(
    "std", cl::init("gnu++17"), cl::value_desc("standard"),
    cl::desc("C++ standard, C++17 or later (default gnu++17, as gcc and clang)"),
    cl::cat(Category));
cl::opt<bool> VerboseOpt("v", cl::desc("Print the commands the driver runs"),
                         cl::cat(Category));
cl::opt<bool> EmitCppOpt(
    "emit-cpp",
    cl::desc("Print the translated C++ of one .cilkpp input (to -o if given)"),
    cl::cat(Category));
cl::alias EmitCppAlias("E", cl::aliasopt(EmitCppOpt),
                       cl::desc("Same as --emit-cpp"), cl::NotHidden,
                       cl::cat(Category));
cl::opt<bool> DumpSignaturesOpt(
    "dump-signatures",
    cl::desc("Print the signature tables and function-table entries of one "
             ".cilkpp input (to -o if given)"),
    cl::cat(Category));
cl::opt<bool> SerialOpt(
    "serial",
    cl::desc("Build the serial elision: spawn and sync are dropped, no "
             "parallelism"),
    cl::cat(Category));
cl::alias SerialAlias("fcilkpp-serial", cl::aliasopt(SerialOpt),
                      cl::desc("Same as --serial"), cl::NotHidden,
                      cl::cat(Category));
cl::opt<bool> CountSpawnsOpt(
    "fcilkpp-count-spawns",
    cl::desc("Count spawns for the CILKPP_STATS report (an increment per "
             "spawn)"),
    cl::cat(Category));
cl::opt<bool> NoPollPointsOpt(
    "fno-cilkpp-poll-points",
    cl::desc("Do not poll at procedure entries and loop back-edges (where a "
             "faster worker may take a running frame over)"),
    cl::cat(Category));
cl::opt<bool> NoInlinedRecursionOpt(
    "fno-cilkpp-inlined-recursion",
    cl::desc("Do not inline copies of a procedure's fast clone into its "
             "spawns of itself (smaller code, each level a call of its own)"),
    cl::cat(Category));
cl::opt<bool> NoAlignLoopsOpt(
    "fno-cilkpp-align-loops",
    cl::desc("Leave loop alignment to the host compiler (by default, code "
             "optimized for speed is compiled with -falign-loops=64)"),
    cl::cat(Category));
cl::opt<bool> DepFileOpt(
    "MD", cl::desc("With -E or -c, write the files the translation read as a "
                   "Make rule for the output (to -MF, default: the output with "
                   "the extension .d)"),
    cl::cat(Category));
cl::opt<bool> DepFileUserOpt("MMD", cl::desc("Same as -MD (system headers included)"), cl::cat(Category));
cl::opt<bool> DepPhonyOpt("MP", cl::desc("Add an empty rule for each header of the -MD rule"), cl::cat(Category));
cl::opt<std::string> DepFilePathOpt("MF", cl::value_desc("file"),
                                    cl::desc("Write the -MD rule to <file> (implies -MD)"),
                                    cl::cat(Category));
cl::list<std::string> DepTargetOpt("MT", cl::value_desc("target"),
                                   cl::desc("Target of the -MD rule, as given; several are joined (default: the "
                                            "output; implies -MD)"),
                                   cl::cat(Category));
cl::list<std::string> DepQuotedTargetOpt("MQ", cl::value_desc("target"),
                                         cl::desc("As -MT, with the characters Make treats specially quoted"),
                                         cl::cat(Category));
cl::opt<Options::KeepTranslation> SaveTempsOpt(
    "save-temps", cl::ValueOptional, cl::init(Options::KeepTranslation::No),
    cl::desc("Keep the translated C++ as <stem>.cilkpp.cpp next to the output (=obj, the default) or in "
             "the current directory (=cwd)"),
    cl::values(clEnumValN(Options::KeepTranslation::BesideOutput, "", "next to the output"),
               clEnumValN(Options::KeepTranslation::BesideOutput, "obj", "next to the output"),
               clEnumValN(Options::KeepTranslation::InCurrentDir, "cwd", "in the current directory")),
    cl::cat(Category));

// Options whose value may be the next argument.
bool takesSeparateValue(llvm::StringRef Arg) {
  for (llvm::StringRef Name : {"-o", "-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", "-include", "-imacros",
                               "--sysroot", "-MF", "-MT", "-MQ"})
    if (Arg == Name) return true;
  return false;
}

// The host compiler's options (for its linker and assembler) that take the
// next argument as their value: `-l m` is not an input named "m".
bool hostFlagWithSeparateValue(llvm::StringRef Arg) {
  for (llvm::StringRef Name : {"-l", "-L", "-Xlinker", "-Xassembler", "-z", "-u", "-T", "-e", "--param"})
    if (Arg == Name) return true;
  return false;
}

// Options without a gcc spelling are written with two dashes (llvm::cl
// takes one or two for any option).
bool longOnly(llvm::StringRef Name) {
  return Name == "emit-cpp" || Name == "dump-signatures" || Name == "serial" || Name == "sysroot";
}

// How the user writes an option and its value, as gcc's manual does.
std::string helpSpelling(const cl::Option &O) {
  const std::string Name = (longOnly(O.ArgStr) ? "--" : "-") + O.ArgStr.str();
  if (O.ValueStr.empty()) return Name;
  const std::string Value = "<" + O.ValueStr.str() + ">";
  if (O.getFormattingFlag() == cl::Prefix || takesSeparateValue(Name)) return Name + " " + Value;
  return Name + "=" + Value;
}

void printDriverHelp() {
  std::vector<HelpEntry> Entries;
  for (auto &Entry : cl::getRegisteredOptions()) {
    const cl::Option *O = Entry.second;
    if (!llvm::is_contained(O->Categories, &Category) || O->ArgStr.empty()) continue;
    Entries.push_back({helpSpelling(*O), O->HelpStr.str()});
  }
  const auto &Levels = OptLevelOpt.getParser();
  for (unsigned I = 0; I < Levels.getNumOptions(); ++I)
    Entries.push_back({"-" + std::string(Levels.getOption(I)), Levels.getDescription(I).str()});
  // Alphabetical whatever the dashes and the case; -O before -O0.
  auto Key = [](const HelpEntry &E) { return llvm::StringRef(E.Spelling).ltrim('-').lower(); };
  llvm::stable_sort(Entries, [&](const HelpEntry &A, const HelpEntry &B) { return Key(A) < Key(B); });
  printHelp(llvm::outs(), Entries);
}

// libLLVM registers many internal options (-debug, -stats, ...) in the same
// global registry. Unregistering them leaves the driver's options as the only
// ones, so every other '-' argument reliably reaches the host compiler, and
// --help shows only what matters.
void unregisterForeignOptions() {
  llvm::SmallVector<cl::Option *, 0> Foreign;
  for (auto &Entry : cl::getRegisteredOptions()) {
    cl::Option *O = Entry.second;
    const bool Ours = llvm::is_contained(O->Categories, &Category);
    const bool Builtin = Entry.first() == "version";
    if (!Ours && !Builtin) Foreign.push_back(O);
  }
  for (cl::Option *O : Foreign) O->removeArgument();
}

void printVersion(llvm::raw_ostream &OS) {
  OS << "cilkpp version " << CILKPP_VERSION << " (LLVM " << LLVM_VERSION_STRING
     << ")\n";
}

bool isSupportedStd(llvm::StringRef Std) {
  static constexpr std::array<llvm::StringRef, 8> Versions = {
      "17", "1z", "20", "2a", "23", "2b", "26", "2c"};
  for (llvm::StringRef Dialect : {"c++", "gnu++"})
    if (Std.consume_front(Dialect)) return llvm::is_contained(Versions, Std);
  return false;
}

bool isOldStd(llvm::StringRef Std) {
  static constexpr std::array<llvm::StringRef, 6> Versions = {
      "98", "03", "0x", "11", "1y", "14"};
  for (llvm::StringRef Dialect : {"c++", "gnu++"})
    if (Std.consume_front(Dialect)) return llvm::is_contained(Versions, Std);
  return false;
}

// llvm::cl reports most errors straight to errs() as "prog: message"; the
// few that reach our stream are reshaped into the driver's one-line format.
void reportParseError(llvm::StringRef Text) {
  llvm::StringRef Line = Text.trim().split('\n').first;
  if (Line.empty()) return;
  auto [Prog, Rest] = Line.split(": ");
  error(Rest.empty() ? Prog : Rest);
}

// --args-file=<file>: each line of the file is one argument as it is, with
// no quoting or escapes (what CMake's generator expressions can write: the
// CMake rule passes the target's flags this way). A line `SHELL:a b` is split
// into words as CMake's SHELL: prefix means.
constexpr llvm::StringLiteral ArgsFilePrefix = "--args-file=";

bool expandArgsFiles(llvm::SmallVectorImpl<const char *> &Argv, llvm::StringSaver &Saver) {
  llvm::SmallVector<const char *, 64> Out;
  for (const char *A : Argv) {
    llvm::StringRef Arg(A);
    if (!Arg.starts_with(ArgsFilePrefix)) {
      Out.push_back(A);
      continue;
    }
    const llvm::StringRef Path = Arg.drop_front(ArgsFilePrefix.size());
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> File = llvm::MemoryBuffer::getFile(Path);
    if (!File) {
      error("cannot read arguments file '" + Path.str() + "': " + File.getError().message());
      return false;
    }
    llvm::SmallVector<llvm::StringRef, 32> Lines;
    (*File)->getBuffer().split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef Line : Lines) {
      Line.consume_back("\r");
      if (Line.empty()) continue;
      if (Line.consume_front("SHELL:"))
        cl::TokenizeGNUCommandLine(Line, Saver, Out);
      else
        Out.push_back(Saver.save(Line).data());
    }
  }
  Argv.assign(Out.begin(), Out.end());
  return true;
}

// The commonest usage error, an option missing its value at the end of the
// line, would otherwise get llvm::cl's wording; report it as gcc does.
bool checkTrailingOption(llvm::ArrayRef<const char *> Argv) {
  if (Argv.size() < 2 || !(takesSeparateValue(Argv.back()) || hostFlagWithSeparateValue(Argv.back()))) return true;
  error("missing argument to '" + llvm::StringRef(Argv.back()) + "'");
  return false;
}

// Whether llvm::cl would wrongly split Arg as grouped one-letter options:
// Arg is an option we do not know whose first letter is one of our
// one-letter options that takes no value glued to it (-c, -g, -v, -E).
// One-letter options that take one (-o, -I, -D, -U) read the rest as their
// value, as gcc does, so they are left alone.
// " (did you mean '-fcilkpp-serial'?)" for a flag close to one of ours.
std::string suggestedCilkppFlag(llvm::StringRef Flag) {
  std::string Best;
  unsigned BestDistance = 4;
  for (const char *Known : {"-fcilkpp-serial", "-fcilkpp-count-spawns", "-fno-cilkpp-poll-points",
                            "-fno-cilkpp-inlined-recursion"})
    if (unsigned D = Flag.edit_distance(Known); D < BestDistance) {
      BestDistance = D;
      Best = Known;
    }
  return Best.empty() ? "" : " (did you mean '" + Best + "'?)";
}

bool isMisgroupedHostFlag(llvm::StringRef Arg) {
  if (!Arg.consume_front("-")) return false;
  Arg.consume_front("-");
  llvm::StringRef Name = Arg.split('=').first;
  if (Name.size() < 2) return false;
  const auto &Registered = cl::getRegisteredOptions();
  if (Registered.count(Name)) return false;
  cl::Option *First = Registered.lookup(Name.take_front(1));
  return First && First->getFormattingFlag() != cl::Prefix;
}

// Appends the values of a cl::list, tagged with their argv positions, so that
// several lists can be merged back into command-line order.
// (Positions of the preprocessor options only order them among themselves,
// so llvm::cl's own positions do.)
template <class Fn>
void collect(const cl::list<std::string> &List,
             std::vector<std::pair<unsigned, std::vector<std::string>>> &Out,
             Fn Tokens) {
  for (unsigned I = 0; I < List.size(); ++I)
    Out.emplace_back(List.getPosition(I), Tokens(List[I]));
}

}  // namespace

std::vector<std::string> Options::inputs() const {
  std::vector<std::string> Result;
  for (const Arg &A : Args)
    if (A.K == Arg::Input) Result.push_back(A.Text);
  return Result;
}

std::optional<Options> parseOptions(int Argc, const char *const *Argv) {
  unregisterForeignOptions();
  cl::SetVersionPrinter(printVersion);

  // Expand @response-files first (as gcc does), so that the pre-pass below
  // sees their contents too. The strings must outlive the option values.
  static llvm::BumpPtrAllocator Alloc;
  llvm::SmallVector<const char *, 64> Expanded(Argv, Argv + Argc);
  llvm::StringSaver Saver(Alloc);
  if (!expandArgsFiles(Expanded, Saver)) return std::nullopt;
  if (llvm::Error E = cl::ExpansionContext(Alloc, cl::TokenizeGNUCommandLine)
                          .expandResponseFiles(Expanded)) {
    error(llvm::toString(std::move(E)));
    return std::nullopt;
  }
  // llvm::cl's own --help would print our options with its spelling.
  for (unsigned I = 1; I < Expanded.size() && llvm::StringRef(Expanded[I]) != "--"; ++I)
    if (llvm::StringRef(Expanded[I]) == "--help" || llvm::StringRef(Expanded[I]) == "-help") {
      printDriverHelp();
      std::exit(0);
    }
  if (!checkTrailingOption(Expanded))
    return std::nullopt;

  // Set aside what llvm::cl would misparse (see the top of this file), noting
  // argv positions so the host flags can be put back in order.
  llvm::SmallVector<const char *, 64> ForCl = {Expanded[0]};
  std::vector<unsigned> OriginalPosition = {0};
  std::vector<std::pair<unsigned, Arg>> Diverted;
  bool SawDashDash = false;
  for (unsigned I = 1; I < Expanded.size(); ++I) {
    llvm::StringRef A = Expanded[I];
    if (!SawDashDash && isMisgroupedHostFlag(A)) {
      Diverted.push_back({I, Arg{Arg::HostFlag, std::string(A)}});
      continue;
    }
    if (!SawDashDash && hostFlagWithSeparateValue(A) && I + 1 < Expanded.size()) {
      Diverted.push_back({I, Arg{Arg::HostFlag, std::string(A)}});
      ++I;
      Diverted.push_back({I, Arg{Arg::HostFlag, std::string(Expanded[I])}});
      continue;
    }
    SawDashDash |= A == "--";
    // gcc reads `-o=x` as the file "=x"; llvm::cl would drop the '='.
    if (!SawDashDash && A.size() > 2 && A[2] == '=' && takesSeparateValue(A.take_front(2))) {
      ForCl.push_back(Saver.save(A.take_front(2)).data());
      ForCl.push_back(Saver.save(A.drop_front(2)).data());
      OriginalPosition.push_back(I);
      OriginalPosition.push_back(I);
      continue;
    }
    ForCl.push_back(Expanded[I]);
    OriginalPosition.push_back(I);
    if (!SawDashDash && takesSeparateValue(A) && I + 1 < Expanded.size()) {
      ++I;  // the value, whatever it looks like (-o -gfoo names a file)
      ForCl.push_back(Expanded[I]);
      OriginalPosition.push_back(I);
    }
  }

  std::string Errors;
  llvm::raw_string_ostream ErrorStream(Errors);
  if (!cl::ParseCommandLineOptions(
          ForCl.size(), ForCl.data(),
          "cilkpp: translates Cilk-like C++ (.cilkpp) and builds it with the "
          "host C++ compiler ($CXX, default c++)\n",
          &ErrorStream)) {
    reportParseError(ErrorStream.str());
    return std::nullopt;
  }

  Options O;
  if (OutputOpt.getNumOccurrences() && OutputOpt.empty()) {
    error("missing filename after '-o'");
    return std::nullopt;
  }
  O.Output = OutputOpt;
  O.CompileOnly = CompileOnlyOpt;
  O.EmitCpp = EmitCppOpt;
  O.DumpSignatures = DumpSignaturesOpt;
  O.Serial = SerialOpt;
  O.CountSpawns = CountSpawnsOpt;
  O.PollPoints = !NoPollPointsOpt;
  O.InlinedRecursion = !NoInlinedRecursionOpt;
  O.AlignLoops = !NoAlignLoopsOpt;
  O.SaveTemps = SaveTempsOpt;
  O.DepFile = DepFileOpt || DepFileUserOpt || !DepFilePathOpt.empty() || !DepTargetOpt.empty() ||
              !DepQuotedTargetOpt.empty();
  O.DepPhonyTargets = DepPhonyOpt;
  O.DepFilePath = DepFilePathOpt;
  // -MT and -MQ in command-line order, as gcc joins them.
  std::vector<std::pair<unsigned, std::vector<std::string>>> Targets;
  collect(DepTargetOpt, Targets, [](const std::string &V) { return std::vector<std::string>{V}; });
  collect(DepQuotedTargetOpt, Targets, [](const std::string &V) { return std::vector<std::string>{quoteForMake(V)}; });
  llvm::stable_sort(Targets, llvm::less_first());
  for (auto &[Pos, T] : Targets) O.DepTarget += (O.DepTarget.empty() ? "" : " ") + T.front();
  O.Verbose = VerboseOpt;
  O.Debug = DebugOpt;

  O.OptLevel = OptLevelText[OptLevelOpt];

  O.Std = StdOpt;
  if (isOldStd(O.Std)) {
    error("'-std=" + O.Std + "' is not supported: cilkpp needs C++17 or later");
    return std::nullopt;
  }
  if (!isSupportedStd(O.Std)) {
    error("invalid value '" + O.Std + "' in '-std=" + O.Std +
          "' (expected c++17, c++20, c++23 or a gnu++ variant)");
    return std::nullopt;
  }

  // A misspelt cilkpp flag would reach the host compiler, whose answer
  // ("did you mean '-fcilkplus'?") misleads.
  for (const std::string &Flag : HostFlagsOpt)
    if (llvm::StringRef(Flag).starts_with("-fcilkpp-") || llvm::StringRef(Flag).starts_with("-fno-cilkpp-")) {
      error("unknown cilkpp option '" + Flag + "'" + suggestedCilkppFlag(Flag));
      return std::nullopt;
    }

  // Inputs and host flags, in command-line order.
  std::vector<std::pair<unsigned, Arg>> Ordered = std::move(Diverted);
  for (unsigned I = 0; I < InputsOpt.size(); ++I)
    Ordered.push_back({OriginalPosition[InputsOpt.getPosition(I)],
                       Arg{Arg::Input, InputsOpt[I]}});
  for (unsigned I = 0; I < HostFlagsOpt.size(); ++I)
    Ordered.push_back({OriginalPosition[HostFlagsOpt.getPosition(I)],
                       Arg{Arg::HostFlag, HostFlagsOpt[I]}});
  llvm::stable_sort(Ordered, llvm::less_first());
  for (auto &[Pos, A] : Ordered) O.Args.push_back(std::move(A));

  // Preprocessor flags, in command-line order: -D X -U X differs from -U X -D X.
  using Tokens = std::vector<std::string>;
  std::vector<std::pair<unsigned, Tokens>> PP;
  collect(IncludeDirOpt, PP, [](const std::string &V) { return Tokens{"-I" + V}; });
  collect(SystemDirOpt, PP,
          [](const std::string &V) { return Tokens{"-isystem", V}; });
  collect(QuoteDirOpt, PP, [](const std::string &V) { return Tokens{"-iquote", V}; });
  collect(AfterDirOpt, PP, [](const std::string &V) { return Tokens{"-idirafter", V}; });
  collect(MacrosOpt, PP, [](const std::string &V) { return Tokens{"-imacros", V}; });
  collect(DefineOpt, PP, [](const std::string &V) { return Tokens{"-D" + V}; });
  collect(UndefOpt, PP, [](const std::string &V) { return Tokens{"-U" + V}; });
  collect(IncludeOpt, PP,
          [](const std::string &V) { return Tokens{"-include", V}; });
  llvm::stable_sort(PP, llvm::less_first());
  for (auto &[Pos, T] : PP)
    O.PreprocessorArgs.insert(O.PreprocessorArgs.end(), T.begin(), T.end());
  if (SysrootOpt.getNumOccurrences()) O.PreprocessorArgs.push_back("--sysroot=" + SysrootOpt);

  return O;
}

}  // namespace cilkpp::driver
