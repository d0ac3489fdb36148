// The driver's command line, parsed with llvm::cl.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cilkpp::driver {

// One element of the command line that keeps its position relative to the
// others: inputs and options meant for the host compiler. Their order matters
// to the linker (`a.o -lm` vs `-lm a.o`), so the driver replays it.
struct Arg {
  enum Kind { Input, HostFlag };
  Kind K;
  std::string Text;
};

struct Options {
  // Inputs and pass-through host-compiler flags, in command-line order.
  std::vector<Arg> Args;
  std::string Output;      // -o; empty: the default name
  bool CompileOnly = false;  // -c
  bool EmitCpp = false;      // -E / --emit-cpp
  bool DumpSignatures = false;  // --dump-signatures
  bool Serial = false;       // --serial / -fcilkpp-serial
  bool CountSpawns = false;  // -fcilkpp-count-spawns
  bool PollPoints = true;    // -fno-cilkpp-poll-points turns them off
  bool InlinedRecursion = true;  // -fno-cilkpp-inlined-recursion turns it off
  bool AlignLoops = true;    // -fno-cilkpp-align-loops turns it off
  // --save-temps or -save-temps=obj keep the translated C++ next to the
  // output, -save-temps=cwd in the current directory (gcc's spellings).
  enum class KeepTranslation { No, BesideOutput, InCurrentDir };
  KeepTranslation SaveTemps = KeepTranslation::No;
  bool Verbose = false;      // -v
  bool Debug = false;        // -g
  // -MD / -MF file / -MT target (either of the last two implies -MD): with
  // -E, also write the translation's dependencies as a Make rule (DepFile.h).
  bool DepFile = false;
  bool DepPhonyTargets = false;  // -MP
  std::string DepFilePath;
  std::string DepTarget;  // as written into the rule (-MT as given, -MQ quoted); empty: the output
  std::string OptLevel;      // the text after -O: "0", "2", "s", ...
  std::string Std;           // the text after -std=
  // -I, -isystem, -D, -U, -include, in command-line order, as argv tokens.
  // Both the translator and the host compiler get these.
  std::vector<std::string> PreprocessorArgs;

  std::vector<std::string> inputs() const;
};

// Parses argv. Prints a one-line error and returns nullopt on bad usage;
// --help and --version print and exit(0) from inside the parser.
std::optional<Options> parseOptions(int Argc, const char *const *Argv);

}  // namespace cilkpp::driver
