// cilkpp: the compiler driver.
//
//   cilkpp [options] inputs... [-o out]
//
// Each .cilkpp input is translated to C++ in-process (cilkpp::translate);
// then the host C++ compiler compiles everything and links the runtime.

#include <optional>
#include <string>
#include <vector>

#include "cilkpp/compiler/Translate.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"

#include "DepFile.h"
#include "Diag.h"
#include "DriverConfig.h"
#include "Inputs.h"
#include "Interrupts.h"
#include "Options.h"
#include "Toolchain.h"

namespace path = llvm::sys::path;
using namespace cilkpp::driver;

namespace {

class Driver {
 public:
  Driver(const Options &O, std::string Self)
      : O(O), Self(std::move(Self)), RT(locateRuntime(this->Self)) {}

  int run();

 private:
  int emitCpp(const std::string &Input);
  int compileOnly(const std::vector<Arg> &Args);
  int compileAndLink(const std::vector<Arg> &Args);

  // Translates `Input` into `OutPath` ("-" is stdout). False on errors, which
  // translate() or writeFile() have already reported.
  // Dependencies, when given, receives the files the translation read.
  bool translateTo(const std::string &Input, const std::string &OutPath,
                   std::vector<std::string> *Dependencies = nullptr);
  bool writeTranslatedDepFile(llvm::StringRef Translation, llvm::StringRef Target, llvm::StringRef DepPath,
                              llvm::StringRef HostDepPath, std::vector<std::string> Dependencies);
  // Where the translation of `Input` goes: a temporary file, or with
  // --save-temps <dir of output>/<stem>.cilkpp.cpp (-save-temps=cwd: ./<stem>.cilkpp.cpp).
  std::optional<std::string> translationPath(const std::string &Input,
                                             llvm::StringRef OutputPath);

  const Options &O;
  std::string Self;  // this executable, for -v
  Runtime RT;
  TempFiles Temps;
  llvm::StringSet<> KeptTranslations;  // -save-temps
};

int Driver::run() {
  // (Before the inputs: `-x c++` would make "c++" an input.)
  for (const Arg &A : O.Args) {
    if (A.K != Arg::HostFlag) continue;
    if (A.Text == "-M" || A.Text == "-MM" || A.Text == "-MG") {
      error("'" + A.Text + "' is not supported: use -MD or -MMD (with -E or -c)");
      return 1;
    }
    if (A.Text == "-fno-exceptions") {
      error("'-fno-exceptions' is not supported: the runtime's headers, which translated code includes, use exceptions");
      return 1;
    }
    if (llvm::StringRef(A.Text).starts_with("-x")) {
      error("'" + A.Text + "' is not supported: cilkpp tells languages by extension (.cilkpp, .cpp, .c, ...)");
      return 1;
    }
  }
  std::vector<std::string> Inputs = O.inputs();
  if (Inputs.empty()) {
    if (O.Verbose && !O.EmitCpp) {  // like gcc -v: just say who we are
      llvm::errs() << "cilkpp version " << CILKPP_VERSION << "\n";
      return 0;
    }
    error("no input files");
    return 1;
  }
  if (!checkInputs(Inputs)) return 1;
  for (const std::string &In : Inputs)
    if (!O.Output.empty() && llvm::sys::fs::equivalent(In, O.Output)) {
      error("input file '" + In + "' is the same as the output file");
      return 1;
    }

  if (O.EmitCpp || O.DumpSignatures) {
    if (Inputs.size() != 1 || classifyInput(Inputs[0]) != InputKind::Cilkpp) {
      error(std::string(O.DumpSignatures ? "--dump-signatures" : "-E/--emit-cpp") +
            " needs exactly one .cilkpp input");
      return 1;
    }
    if (O.DumpSignatures && O.Serial) {
      error("--dump-signatures describes parallel frames; the serial elision (--serial) has none");
      return 1;
    }
    return emitCpp(Inputs[0]);
  }
  if (O.DepFile && !O.CompileOnly) {
    error("-MD, -MMD, -MF and -MT need -E or -c");
    return 1;
  }

  if (!RT.exists()) {
    error("cannot find the cilkpp runtime (expected " + RT.IncludeDir +
          "/cilkpp/runtime.h and " + RT.Library + ")");
    return 1;
  }
  return O.CompileOnly ? compileOnly(O.Args) : compileAndLink(O.Args);
}

int Driver::emitCpp(const std::string &Input) {
  const std::string Output = O.Output.empty() ? "-" : O.Output;
  if (!O.DepFile) return translateTo(Input, Output) ? 0 : 1;
  if (O.DumpSignatures) {
    error("-MD, -MF and -MT describe a translation, not --dump-signatures");
    return 1;
  }
  if (Output == "-" && (O.DepFilePath.empty() || O.DepTarget.empty())) {
    error("-MD with the translation on stdout needs -MF and -MT");
    return 1;
  }
  std::string DepPath = O.DepFilePath;
  if (DepPath.empty()) {
    llvm::SmallString<256> Replaced(Output);
    path::replace_extension(Replaced, "d");
    DepPath = std::string(Replaced);
  }
  std::vector<std::string> Dependencies;
  if (!translateTo(Input, Output, &Dependencies)) return 1;
  return writeFile(DepPath, makeDepFile(O.DepTarget.empty() ? quoteForMake(Output) : O.DepTarget, Dependencies,
                                        O.DepPhonyTargets))
             ? 0
             : 1;
}

bool Driver::translateTo(const std::string &Input, const std::string &OutPath,
                         std::vector<std::string> *Dependencies) {
  cilkpp::TranslateOptions TO;
  TO.Dependencies = Dependencies;
  TO.InputPath = Input;
  TO.ParseArgs = translatorArgs(O, RT);
  TO.Serial = O.Serial;
  TO.CountSpawns = O.CountSpawns;
  TO.PollPoints = O.PollPoints;
  TO.InlinedRecursion = O.InlinedRecursion;
  TO.DumpSignatures = O.DumpSignatures;
  if (O.Verbose) {
    // Translation runs in-process; print the driver command that redoes it.
    std::vector<std::string> Equivalent = {Self, "-E", "-std=" + O.Std};
    Equivalent.insert(Equivalent.end(), O.PreprocessorArgs.begin(),
                      O.PreprocessorArgs.end());
    if (O.Serial) Equivalent.push_back("--serial");
    if (O.CountSpawns) Equivalent.push_back("-fcilkpp-count-spawns");
    if (!O.PollPoints) Equivalent.push_back("-fno-cilkpp-poll-points");
    if (!O.InlinedRecursion) Equivalent.push_back("-fno-cilkpp-inlined-recursion");
    Equivalent.insert(Equivalent.end(), {Input, "-o", OutPath});
    llvm::errs() << shellJoin(Equivalent) << "\n";
  }
  std::optional<std::string> Cpp = cilkpp::translate(TO);
  return Cpp && writeFile(OutPath, *Cpp);
}

std::optional<std::string> Driver::translationPath(const std::string &Input,
                                                   llvm::StringRef OutputPath) {
  llvm::StringRef Stem = path::stem(Input);
  if (O.SaveTemps == Options::KeepTranslation::No) return Temps.create(Stem, "cpp");
  llvm::StringRef Dir = O.SaveTemps == Options::KeepTranslation::InCurrentDir ? "" : path::parent_path(OutputPath);
  // (Two inputs of one name from different directories: a.cilkpp.cpp and
  // a-1.cilkpp.cpp.)
  for (unsigned Suffix = 0;; ++Suffix) {
    llvm::SmallString<256> Kept(Dir);
    path::append(Kept, Suffix ? llvm::Twine(Stem) + "-" + llvm::Twine(Suffix) + ".cilkpp.cpp" : Stem + ".cilkpp.cpp");
    if (KeptTranslations.insert(Kept).second) return std::string(Kept);
  }
}

// -c: one host compiler run and one object per source input, like gcc.
int Driver::compileOnly(const std::vector<Arg> &Args) {
  std::vector<std::string> Sources, HostFlags;
  for (const Arg &A : Args) {
    if (A.K == Arg::HostFlag)
      HostFlags.push_back(A.Text);
    else if (classifyInput(A.Text) == InputKind::Link)
      warning("'" + A.Text + "': linker input unused because -c was given");
    else
      Sources.push_back(A.Text);
  }
  if (Sources.size() > 1 && !O.Output.empty()) {
    error("cannot specify -o with -c and multiple input files");
    return 1;
  }
  if (Sources.empty()) {
    error("no source input files to compile");
    return 1;
  }
  if (O.DepFile && Sources.size() > 1 && (!O.DepFilePath.empty() || !O.DepTarget.empty())) {
    error("cannot specify -MF or -MT with -c and multiple input files");
    return 1;
  }

  std::optional<std::vector<std::string>> Host = hostCompiler();
  if (!Host) return 1;

  // Translate everything first so that all translation errors are reported
  // before any compiler runs.
  struct Job {
    std::string Source, Object;
    std::string DepTarget, DepPath;  // with -MD
    bool Translated = false;
    // With -MD, what the translation read; the host compiler's rule adds
    // what the compile of the translation read (the runtime's headers, the
    // host's own system headers).
    std::vector<std::string> Dependencies;
    std::string HostDepPath;
  };
  std::vector<Job> Jobs;
  bool Ok = true;
  for (const std::string &In : Sources) {
    std::string Object =
        O.Output.empty() ? (path::stem(In) + ".o").str() : O.Output;
    Job J;
    J.Source = In;
    J.Object = Object;
    if (O.DepFile) {
      J.DepTarget = O.DepTarget.empty() ? quoteForMake(Object) : O.DepTarget;
      J.DepPath = O.DepFilePath;
      if (J.DepPath.empty()) {
        llvm::SmallString<256> Replaced(Object);
        path::replace_extension(Replaced, "d");
        J.DepPath = std::string(Replaced);
      }
    }
    if (classifyInput(In) == InputKind::Cilkpp) {
      std::optional<std::string> Cpp = translationPath(In, Object);
      if (!Cpp) return 1;
      // The object depends on what the translation read and on what its
      // compile read, but not on the temporary translation itself.
      const bool Translated = translateTo(In, *Cpp, O.DepFile ? &J.Dependencies : nullptr);
      if (Translated && O.DepFile) {
        std::optional<std::string> HostDeps = Temps.create(path::stem(In), "d");
        if (!HostDeps) return 1;
        J.HostDepPath = *HostDeps;
      }
      Ok = Translated && Ok;
      J.Source = *Cpp;
      J.Translated = true;
    }
    Jobs.push_back(std::move(J));
  }
  if (!Ok) return 1;

  std::vector<std::string> Base = hostBaseCommand(O, RT, *Host);
  Base.insert(Base.end(), HostFlags.begin(), HostFlags.end());
  // Objects do not name the temporary directory (reproducible builds).
  if (const std::string Map = Temps.prefixMapFlag(); !Map.empty()) Base.push_back(Map);
  for (const Job &J : Jobs) {
    std::vector<std::string> Cmd = Base;
    Cmd.insert(Cmd.end(), {"-c", J.Source, "-o", J.Object});
    // A C++ source's rule comes from the host compiler, as without cilkpp.
    if (!J.DepPath.empty() && !J.Translated) {
      Cmd.insert(Cmd.end(), {"-MD", "-MF", J.DepPath, "-MT", J.DepTarget});
      if (O.DepPhonyTargets) Cmd.push_back("-MP");
    }
    if (!J.HostDepPath.empty()) Cmd.insert(Cmd.end(), {"-MD", "-MF", J.HostDepPath, "-MT", J.DepTarget});
    if (int Status = runCommand(Cmd, O.Verbose, J.Translated)) return Status;
    if (!J.HostDepPath.empty() && !writeTranslatedDepFile(J.Source, J.DepTarget, J.DepPath, J.HostDepPath,
                                                          J.Dependencies))
      return 1;
  }
  return 0;
}

// The rule for an object compiled from a translation: the translator's
// dependencies, then those of the host compile but the translation.
bool Driver::writeTranslatedDepFile(llvm::StringRef Translation, llvm::StringRef Target, llvm::StringRef DepPath,
                                    llvm::StringRef HostDepPath, std::vector<std::string> Dependencies) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Host = llvm::MemoryBuffer::getFile(HostDepPath);
  if (!Host) {
    error("cannot read '" + HostDepPath + "': " + Host.getError().message());
    return false;
  }
  llvm::StringSet<> Seen;
  for (const std::string &D : Dependencies) Seen.insert(D);
  for (std::string &D : readDepFileDependencies((*Host)->getBuffer()))
    if (D != Translation && Seen.insert(D).second) Dependencies.push_back(std::move(D));
  return writeFile(DepPath, makeDepFile(Target, Dependencies, O.DepPhonyTargets));
}

// One host compiler run that compiles all sources and links the program.
int Driver::compileAndLink(const std::vector<Arg> &Args) {
  std::optional<std::vector<std::string>> Host = hostCompiler();
  if (!Host) return 1;

  std::vector<std::string> Cmd = hostBaseCommand(O, RT, *Host);
  // A shared library compiled here, from sources no one compiled for it:
  // position-independent, unless the command says otherwise (the runtime's
  // headers name symbols that non-PIC code cannot reach from a library).
  if (llvm::any_of(Args, [](const Arg &A) { return A.K == Arg::HostFlag && A.Text == "-shared"; }) &&
      llvm::none_of(Args, [](const Arg &A) {
        return A.K == Arg::HostFlag && llvm::is_contained({"-fPIC", "-fpic", "-fno-PIC", "-fno-pic", "-fPIE", "-fpie",
                                                            "-fno-PIE", "-fno-pie"},
                                                           A.Text);
      }))
    Cmd.push_back("-fPIC");
  // Inputs and host flags keep their relative order, which the linker needs
  // (`x.o -lm`); translated inputs are replaced by their C++.
  const std::string Output = O.Output.empty() ? "a.out" : O.Output;
  bool Ok = true;
  for (const Arg &A : Args) {
    if (A.K == Arg::Input && classifyInput(A.Text) == InputKind::Cilkpp) {
      std::optional<std::string> Cpp = translationPath(A.Text, Output);
      if (!Cpp) return 1;
      Ok = translateTo(A.Text, *Cpp) && Ok;
      Cmd.push_back(*Cpp);
    } else {
      Cmd.push_back(A.Text);
    }
  }
  if (!Ok) return 1;
  if (const std::string Map = Temps.prefixMapFlag(); !Map.empty()) Cmd.push_back(Map);

  if (!O.Output.empty()) Cmd.insert(Cmd.end(), {"-o", O.Output});
  // The runtime goes after the user's objects and libraries that use it.
  const std::string &Library = runtimeLibraryFor(RT, O);
  if (!llvm::sys::fs::exists(Library)) {
    error("cannot find the cilkpp runtime library " + Library);
    return 1;
  }
  Cmd.insert(Cmd.end(), {Library, "-pthread"});
  // A shared runtime is found where it is when the program runs.
  if (llvm::StringRef(Library).contains(".so"))
    Cmd.push_back("-Wl,-rpath," + std::string(llvm::sys::path::parent_path(Library)));
  return runCommand(Cmd, O.Verbose, /*CleanDiagnostics=*/true);
}

}  // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  // In place of LLVM's handlers for interruptions (Interrupts.h).
  handleInterrupts();
  // A crash is most likely the translator's; LLVM's default message would
  // send the report to the LLVM project.
  llvm::setBugReportMsg(
      "PLEASE report this cilkpp crash with the stack dump below and the "
      "input file (rerun with -v to see the steps).\n");
  std::optional<Options> O = parseOptions(argc, argv);
  if (!O) return 1;
  // Driver's destructor removes the temporary files before we exit.
  return Driver(*O, driverPath(argv[0])).run();
}
