#include "TextTable.h"

#include <algorithm>

namespace cilkpp::sim {

namespace {
// Display width: count UTF-8 code points, not bytes (the sigma column).
std::size_t width(const std::string &s) {
  return std::count_if(s.begin(), s.end(),
                       [](char c) { return (c & 0xC0) != 0x80; });
}

std::string csvField(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
} // namespace

void TextTable::print(std::ostream &out) const {
  std::vector<std::size_t> widths(header.size(), 0);
  auto grow = [&](const std::vector<std::string> &row) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], width(row[i]));
  };
  grow(header);
  for (const auto &row : rows)
    grow(row);
  auto line = [&](const std::vector<std::string> &row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      // First column left-aligned (labels), the rest right-aligned.
      std::string pad(widths[i] - width(row[i]), ' ');
      out << (i ? "  " : "") << (i ? pad + row[i] : row[i] + pad);
    }
    out << '\n';
  };
  if (!title.empty())
    out << title << '\n';
  line(header);
  for (const auto &row : rows)
    line(row);
  for (const auto &note : notes)
    out << note << '\n';
}

void TextTable::writeCsv(std::ostream &out) const {
  auto line = [&](const std::vector<std::string> &row) {
    for (std::size_t i = 0; i < row.size(); ++i)
      out << (i ? "," : "") << csvField(row[i]);
    out << '\n';
  };
  line(header);
  for (const auto &row : rows)
    line(row);
}

} // namespace cilkpp::sim
