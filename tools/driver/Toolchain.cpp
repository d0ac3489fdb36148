#include "Toolchain.h"

#include "HostDiagnostics.h"

#include <cstdlib>

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include "Diag.h"
#include "DriverConfig.h"
#include "Interrupts.h"

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace cilkpp::driver {

bool Runtime::exists() const {
  llvm::SmallString<256> Header(IncludeDir);
  path::append(Header, "cilkpp", "runtime.h");
  return fs::exists(Header) && fs::exists(Library);
}

const std::string &runtimeLibraryFor(const Runtime &RT, const Options &O) {
  bool Thread = false, Shared = false;
  for (const Arg &A : O.Args) {
    if (A.K != Arg::HostFlag) continue;
    llvm::StringRef Flag(A.Text);
    Shared |= Flag == "-shared";
    const bool On = Flag.consume_front("-fsanitize="), Off = !On && Flag.consume_front("-fno-sanitize=");
    if (!On && !Off) continue;
    llvm::SmallVector<llvm::StringRef, 4> Kinds;
    Flag.split(Kinds, ',');
    for (llvm::StringRef K : Kinds)
      if (K == "thread" || (Off && K == "all")) Thread = On;
  }
  if (Shared) return Thread ? RT.TsanSharedLibrary : RT.SharedLibrary;
  return Thread ? RT.TsanLibrary : RT.Library;
}

std::string driverPath(const char *Argv0) {
  // Any address inside the executable lets LLVM fall back to dladdr when
  // /proc/self/exe is unavailable.
  static int Anchor;
  return fs::getMainExecutable(Argv0, &Anchor);
}

Runtime locateRuntime(const std::string &DriverPath) {
  llvm::SmallString<256> Prefix(path::parent_path(DriverPath));
  path::append(Prefix, CILKPP_BINDIR_TO_PREFIX);
  path::remove_dots(Prefix, /*remove_dot_dot=*/true);

  auto Under = [&](llvm::StringRef Dir, llvm::StringRef Name = "") {
    llvm::SmallString<256> Path(Prefix);
    path::append(Path, Dir, Name);
    return std::string(Path);
  };
  Runtime Installed;
  Installed.IncludeDir = Under(CILKPP_INSTALL_INCLUDEDIR);
  Installed.Library = Under(CILKPP_INSTALL_LIBDIR, CILKPP_RUNTIME_LIBRARY_NAME);
  Installed.TsanLibrary = Under(CILKPP_INSTALL_LIBDIR, CILKPP_RUNTIME_TSAN_LIBRARY_NAME);
  Installed.SharedLibrary = Under(CILKPP_INSTALL_LIBDIR, CILKPP_RUNTIME_SHARED_LIBRARY_NAME);
  Installed.TsanSharedLibrary = Under(CILKPP_INSTALL_LIBDIR, CILKPP_RUNTIME_TSAN_SHARED_LIBRARY_NAME);
  Installed.Installed = true;
  if (Installed.exists()) return Installed;

  return Runtime{CILKPP_BUILD_RUNTIME_INCLUDE_DIR,        CILKPP_BUILD_RUNTIME_LIBRARY,
                 CILKPP_BUILD_RUNTIME_TSAN_LIBRARY,       CILKPP_BUILD_RUNTIME_SHARED_LIBRARY,
                 CILKPP_BUILD_RUNTIME_TSAN_SHARED_LIBRARY, false};
}

std::optional<std::vector<std::string>> hostCompiler() {
  const char *Env = std::getenv("CXX");
  llvm::StringRef Spec = Env && llvm::StringRef(Env).trim() != "" ? Env : "c++";
  llvm::SmallVector<llvm::StringRef, 4> Words;
  llvm::SplitString(Spec, Words);
  std::vector<std::string> Command(Words.begin(), Words.end());

  if (!llvm::StringRef(Command[0]).contains('/')) {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Command[0]);
    if (!Found) {
      error("host compiler '" + Command[0] + "' not found in PATH (set CXX)");
      return std::nullopt;
    }
    Command[0] = *Found;
  } else if (!fs::can_execute(Command[0])) {
    error("host compiler '" + Command[0] + "' is not executable (set CXX)");
    return std::nullopt;
  }
  return Command;
}

std::vector<std::string> translatorArgs(const Options &O, const Runtime &RT) {
  // -O too: __OPTIMIZE__ must mean the same to the translator and the host.
  std::vector<std::string> Args = {"-std=" + O.Std, "-O" + O.OptLevel, "-I" + RT.IncludeDir};
  Args.insert(Args.end(), O.PreprocessorArgs.begin(), O.PreprocessorArgs.end());
  // The translator's own warnings follow the host compiler's -Werror and -w
  // (its Clang warnings are off: the host compiler reports those).
  for (const Arg &A : O.Args)
    if (A.K == Arg::HostFlag && (A.Text == "-Werror" || A.Text == "-Wno-error" || A.Text == "-w")) Args.push_back(A.Text);
  return Args;
}

std::vector<std::string> hostBaseCommand(const Options &O, const Runtime &RT,
                                         llvm::ArrayRef<std::string> Host) {
  std::vector<std::string> Cmd(Host.begin(), Host.end());
  Cmd.push_back("-std=" + O.Std);
  Cmd.push_back("-O" + O.OptLevel);
  // Where a hot inner loop starts decides whether it straddles a 64-byte
  // fetch block, and the translation moves every loop of a procedure (the
  // frame's set-up, poll and spawn branches come before and around it): one
  // build of the same kernel ran 1.4 times slower than the other for that
  // alone (docs/performance.md, "Loop alignment"). Aligned loops run at
  // their best in the serial elision and in parallel code alike. The user's
  // own -falign-loops comes later and wins.
  if (O.AlignLoops && llvm::is_contained({"1", "2", "3", "fast"}, O.OptLevel)) Cmd.push_back("-falign-loops=64");
  if (O.Debug) Cmd.push_back("-g");
  // A system directory: what the host compiler would say about the
  // runtime's inline code (an uninitialized local the translation saves in
  // its frame, seen through init_field after inlining) names the runtime,
  // not the user's code.
  Cmd.push_back("-isystem");
  Cmd.push_back(RT.IncludeDir);
  Cmd.insert(Cmd.end(), O.PreprocessorArgs.begin(), O.PreprocessorArgs.end());
  return Cmd;
}

std::string shellQuote(llvm::StringRef S) {
  auto Safe = [](char C) {
    return llvm::isAlnum(C) || llvm::StringRef("@%_+=:,./-").contains(C);
  };
  if (!S.empty() && llvm::all_of(S, Safe)) return std::string(S);
  std::string Quoted = "'";
  for (char C : S) {
    if (C == '\'')
      Quoted += "'\\''";
    else
      Quoted += C;
  }
  return Quoted + "'";
}

std::string shellJoin(llvm::ArrayRef<std::string> Argv) {
  std::string Line;
  for (const std::string &A : Argv) {
    if (!Line.empty()) Line += ' ';
    Line += shellQuote(A);
  }
  return Line;
}

// Whether the user chose the host compiler's diagnostic colours.
static bool choosesColours(llvm::ArrayRef<std::string> Argv) {
  return llvm::any_of(Argv, [](llvm::StringRef A) {
    return A.starts_with("-fdiagnostics-color") || A.starts_with("-fno-diagnostics-color") ||
           A == "-fcolor-diagnostics" || A == "-fno-color-diagnostics";
  });
}

int runCommand(llvm::ArrayRef<std::string> Command, bool Verbose, bool CleanDiagnostics) {
  std::vector<std::string> Argv(Command.begin(), Command.end());
  // Its diagnostics go through a file, which the host compiler would not
  // colour for a terminal.
  if (CleanDiagnostics && llvm::sys::Process::StandardErrHasColors() && !choosesColours(Argv))
    Argv.push_back("-fdiagnostics-color=always");
  if (Verbose) llvm::errs() << shellJoin(Argv) << "\n";
  llvm::errs().flush();

  llvm::SmallString<128> DiagnosticsPath;
  if (CleanDiagnostics && llvm::sys::fs::createTemporaryFile("cilkpp-host", "txt", DiagnosticsPath))
    CleanDiagnostics = false;
  if (CleanDiagnostics) llvm::sys::RemoveFileOnSignal(DiagnosticsPath);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt, std::nullopt};
  if (CleanDiagnostics) Redirects[2] = DiagnosticsPath.str();
  llvm::SmallVector<llvm::StringRef, 32> Args(Argv.begin(), Argv.end());
  std::string ErrMsg;
  bool ExecutionFailed = false;
  int Status = -1;
  const llvm::sys::ProcessInfo Child = llvm::sys::ExecuteNoWait(Args[0], Args, /*Env=*/std::nullopt, Redirects,
                                                                /*MemoryLimit=*/0, &ErrMsg, &ExecutionFailed);
  if (!ExecutionFailed && Child.Pid) {
    forwardInterruptsTo(Child.Pid);
    Status = llvm::sys::Wait(Child, /*SecondsToWait=*/std::nullopt, &ErrMsg).ReturnCode;
    forwardInterruptsTo(0);
  }
  if (CleanDiagnostics) {
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Output = llvm::MemoryBuffer::getFile(DiagnosticsPath))
      llvm::errs() << cleanHostDiagnostics((*Output)->getBuffer());
    llvm::errs().flush();
    llvm::sys::fs::remove(DiagnosticsPath);
    llvm::sys::DontRemoveFileOnSignal(DiagnosticsPath);
  }
  if (ExecutionFailed) {
    error("cannot run '" + Argv[0] + "': " + ErrMsg);
    return 1;
  }
  if (Status < 0) {  // -2: killed by a signal; ErrMsg names it
    error("'" + Argv[0] + "' terminated: " + ErrMsg);
    return 1;
  }
  return Status;
}

}  // namespace cilkpp::driver
