#include "Inputs.h"

#include <cctype>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include "Diag.h"
#include "Interrupts.h"

namespace cilkpp::driver {

std::optional<InputKind> classifyInput(llvm::StringRef Path) {
  // A versioned shared library (libz.so.1.2) too.
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  while (!Name.empty() && llvm::all_of(llvm::sys::path::extension(Name).drop_front(), llvm::isDigit) &&
         llvm::sys::path::extension(Name).size() > 1)
    Name = llvm::sys::path::stem(Name);
  if (Name != llvm::sys::path::filename(Path) && llvm::sys::path::extension(Name) == ".so") return InputKind::Link;
  // Case matters: .C is C++ (as for gcc), .c is C that c++ compiles as C++.
  return llvm::StringSwitch<std::optional<InputKind>>(llvm::sys::path::extension(Path))
      .Case(".cilkpp", InputKind::Cilkpp)
      .Cases(".cpp", ".cc", ".cxx", ".C", ".c", InputKind::Source)
      .Cases(".o", ".a", ".so", InputKind::Link)
      .Default(std::nullopt);
}

static std::error_code readable(const std::string &Path) {
  int FD;
  if (std::error_code EC = llvm::sys::fs::openFileForRead(Path, FD)) return EC;
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  return {};
}

bool checkInputs(const std::vector<std::string> &Inputs) {
  bool Ok = true;
  for (const std::string &In : Inputs) {
    if (In == "-") {
      error("reading a source from standard input ('-') is not supported: name a file");
      Ok = false;
    } else if (llvm::sys::fs::is_directory(In)) {
      error("'" + In + "': is a directory");
      Ok = false;
    } else if (!classifyInput(In)) {
      error("'" + In +
            "': unrecognized file type (expected .cilkpp, .cpp, .cc, .cxx, .C, "
            ".c, .o, .a, .so or .so.N)");
      Ok = false;
    } else if (!llvm::sys::fs::exists(In)) {
      error("'" + In + "': no such file or directory");
      Ok = false;
    } else if (std::error_code EC = readable(In)) {
      std::string Reason = EC.message();
      if (!Reason.empty()) Reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(Reason[0])));
      error("'" + In + "': " + Reason);
      Ok = false;
    }
  }
  return Ok;
}

TempFiles::~TempFiles() {
  for (const std::string &P : Paths) {
    llvm::sys::fs::remove(P);
    llvm::sys::DontRemoveFileOnSignal(P);
  }
  if (!Directory.empty()) {
    llvm::sys::fs::remove(Directory);
    removeDirectoryOnInterrupt("");
  }
}

std::string TempFiles::prefixMapFlag() const {
  return Directory.empty() ? std::string() : "-ffile-prefix-map=" + Directory + "=.";
}

std::optional<std::string> TempFiles::create(llvm::StringRef Stem,
                                             llvm::StringRef Suffix) {
  if (Directory.empty()) {
    llvm::SmallString<128> Made;
    if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("cilkpp", Made)) {
      error("cannot create a temporary directory: " + EC.message());
      return std::nullopt;
    }
    Directory = std::string(Made);
    removeDirectoryOnInterrupt(Directory);
  }
  llvm::SmallString<128> Path;
  for (unsigned N = 0;; ++N) {
    Path = Directory;
    llvm::sys::path::append(Path, (N ? Stem + "-" + llvm::Twine(N) : llvm::Twine(Stem)) + "." + Suffix);
    int FD;
    std::error_code EC = llvm::sys::fs::openFileForWrite(Path, FD, llvm::sys::fs::CD_CreateNew);
    if (!EC) {
      llvm::sys::Process::SafelyCloseFileDescriptor(FD);
      break;
    }
    if (EC != std::errc::file_exists) {
      error("cannot create a temporary file: " + EC.message());
      return std::nullopt;
    }
  }
  Paths.emplace_back(Path.str());
  llvm::sys::RemoveFileOnSignal(Path);
  return Paths.back();
}

bool writeFile(llvm::StringRef Path, llvm::StringRef Contents) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (!EC) {
    OS << Contents;
    OS.close();
    EC = OS.error();
  }
  if (EC) {
    error("cannot write '" + Path + "': " + EC.message());
    OS.clear_error();
    return false;
  }
  return true;
}

}  // namespace cilkpp::driver
