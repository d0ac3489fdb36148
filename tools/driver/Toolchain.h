// The host toolchain: where the runtime is, which compiler to run, the
// command lines the driver builds, and running them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include "Options.h"

namespace cilkpp::driver {

// Headers and static library that translated programs build against.
struct Runtime {
  std::string IncludeDir;  // holds cilkpp/runtime.h
  std::string Library;     // libcilkpp_rt.a
  std::string TsanLibrary; // libcilkpp_rt_tsan.a, for -fsanitize=thread
  // The shared ones, which shared libraries (-shared) link, so that a process
  // whose .cilkpp code sits in several shared objects has one scheduler.
  std::string SharedLibrary;
  std::string TsanSharedLibrary;
  bool Installed = false;  // found through the install layout

  // Whether both are really there (a build tree may have been cleaned).
  bool exists() const;
};

// The runtime library a program built with the user's host flags links:
// the ThreadSanitizer one when they sanitize threads (`-fsanitize=thread`,
// not cancelled by a later `-fno-sanitize=`), the shared one for -shared.
const std::string &runtimeLibraryFor(const Runtime &RT, const Options &O);

// Uses the install layout next to the running executable when it is complete
// (P/bin/cilkpp, P/include/cilkpp/runtime.h, P/lib/libcilkpp_rt.a), else the
// build-tree paths configured at build time.
Runtime locateRuntime(const std::string &DriverPath);

// The path of the running driver executable.
std::string driverPath(const char *Argv0);

// The host compiler command prefix: $CXX split on whitespace ("ccache g++"
// works), default "c++"; the first word resolved through PATH. Prints an
// error and returns nullopt if it cannot be found.
std::optional<std::vector<std::string>> hostCompiler();

// Flags for the translator: what shapes parsing, as the host compiler sees it.
std::vector<std::string> translatorArgs(const Options &O, const Runtime &RT);

// `Host` plus the flags every host compiler invocation gets:
// -std, -O, -g, the runtime include dir and the user's -I/-D/... flags.
std::vector<std::string> hostBaseCommand(const Options &O, const Runtime &RT,
                                         llvm::ArrayRef<std::string> Host);

// Quotes `S` for a POSIX shell if it needs it.
std::string shellQuote(llvm::StringRef S);
std::string shellJoin(llvm::ArrayRef<std::string> Argv);

// Runs Argv (Argv[0] a program path) and waits. With `Verbose` the command is
// first printed to stderr. With `CleanDiagnostics` (a host compiler run on
// translated code) its diagnostics pass through cleanHostDiagnostics.
// Returns the exit status to report: the program's own, or 1 if it could not
// run or died from a signal.
int runCommand(llvm::ArrayRef<std::string> Argv, bool Verbose, bool CleanDiagnostics = false);

}  // namespace cilkpp::driver
