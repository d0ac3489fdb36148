// A table of strings printed with aligned columns, or written as CSV.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace cilkpp::sim {

struct TextTable {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes; // printed under the table

  void print(std::ostream &out) const;
  // RFC 4180 CSV, header first; notes are not written.
  void writeCsv(std::ostream &out) const;
};

} // namespace cilkpp::sim
