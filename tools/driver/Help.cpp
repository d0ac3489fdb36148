#include "Help.h"

#include <algorithm>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace cilkpp::driver {
namespace {

constexpr size_t DescriptionColumn = 26;
constexpr size_t LineWidth = 80;

// The description wrapped at word boundaries, each line after the first
// indented to its column.
void printDescription(llvm::raw_ostream &OS, llvm::StringRef Text, size_t Column) {
  llvm::SmallVector<llvm::StringRef, 16> Words;
  Text.split(Words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Word : Words) {
    if (Column > DescriptionColumn && Column + 1 + Word.size() > LineWidth) {
      OS << "\n" << std::string(DescriptionColumn, ' ');
      Column = DescriptionColumn;
    } else if (Column > DescriptionColumn) {
      OS << ' ';
      ++Column;
    }
    OS << Word;
    Column += Word.size();
  }
  OS << "\n";
}

void printEntry(llvm::raw_ostream &OS, const HelpEntry &E) {
  OS << "  " << E.Spelling;
  size_t Column = 2 + E.Spelling.size();
  if (Column + 2 > DescriptionColumn) {
    OS << "\n";
    Column = 0;
  }
  OS << std::string(DescriptionColumn - Column, ' ');
  printDescription(OS, E.Description, DescriptionColumn);
}

}  // namespace

void printHelp(llvm::raw_ostream &OS, const std::vector<HelpEntry> &Entries) {
  OS << "OVERVIEW: cilkpp translates Cilk-like C++ (.cilkpp) and builds it with the\n"
        "host C++ compiler ($CXX, default c++)\n\n"
        "USAGE: cilkpp [options] <inputs>\n\n"
        "INPUTS: .cilkpp files are translated, then compiled; .cpp .cc .cxx .C and .c are\n"
        "compiled as C++; .o .a and .so files are linked.\n\n"
        "OPTIONS:\n";
  for (const HelpEntry &E : Entries) printEntry(OS, E);
  printEntry(OS, {"@<file>", "Read more arguments from <file> (shell-like quoting, as gcc)"});
  printEntry(OS, {"--args-file=<file>", "Read more arguments from <file>, one per line, as written"});
  printEntry(OS, {"--help", "Print this help"});
  printEntry(OS, {"--version", "Print the version of cilkpp and of the LLVM it uses"});
  OS << "\nEvery other option (-Wall, -fsanitize=address, -L<dir>, -lm, -pthread, ...)\n"
        "goes to the host compiler unchanged.\n";
}

}  // namespace cilkpp::driver
