// Input files: what kind each one is, and the temporary files made from them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"

namespace cilkpp::driver {

enum class InputKind {
  Cilkpp,  // .cilkpp: translated, then compiled
  Source,  // .cpp .cc .cxx .C .c: compiled as is
  Link,    // .o .a .so: handed to the linker
};

// nullopt for an extension the driver does not know.
std::optional<InputKind> classifyInput(llvm::StringRef Path);

// Checks that every input exists and has a known kind; prints one error per
// bad input and returns false if there was any.
bool checkInputs(const std::vector<std::string> &Inputs);

// Temporary files made by the driver. They are removed when this object is
// destroyed, and also if the driver is killed by a signal meanwhile.
class TempFiles {
 public:
  TempFiles() = default;
  TempFiles(const TempFiles &) = delete;
  TempFiles &operator=(const TempFiles &) = delete;
  ~TempFiles();

  // Creates an empty file <Stem>.<Suffix> (<Stem>-N.<Suffix> for the N-th
  // of a name) in a directory of its own under <tmpdir>, made at the first
  // call: the file's name, which compilers write into objects, is the same
  // from one run to the next (the directory is mapped away:
  // prefixMapFlag). Prints an error and returns nullopt on failure.
  std::optional<std::string> create(llvm::StringRef Stem, llvm::StringRef Suffix);

  // The host compiler flag that names the directory "." in debug
  // information and __FILE__, or "" before the first create.
  std::string prefixMapFlag() const;

 private:
  std::string Directory;
  std::vector<std::string> Paths;
};

// Writes `Contents` to `Path` ("-" is stdout). Prints an error on failure.
bool writeFile(llvm::StringRef Path, llvm::StringRef Contents);

}  // namespace cilkpp::driver
