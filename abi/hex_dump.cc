#include "abi/hex_dump.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace dsched::abi {

std::string hex_dump(std::string_view bytes) {
  constexpr int kMargin = 5;
  if (bytes.empty()) return "";
  std::string out = "\n" + std::string(kMargin + 6, ' ');
  for (char digit : std::string_view("0123456789abcdef")) (out += "  ") += digit;
  out += "  0123456789abcdef\n";
  char cell[16];
  for (size_t row = 0; row < bytes.size(); row += 16) {
    std::snprintf(cell, sizeof cell, "%*s%5zx:", kMargin, "", row);
    out += cell;
    std::string_view line = bytes.substr(row, 16);
    for (unsigned char c : line) {
      std::snprintf(cell, sizeof cell, " %02x", c);
      out += cell;
    }
    out.append(3 * (16 - line.size()), ' ');
    out += "  ";
    for (char c : line) out += (c < ' ' || c > '~') ? '.' : c;
    out += '\n';
  }
  return out;
}

std::string traced_bytes(std::string_view bytes, bool quiet, int width) {
  // Printable means isprint or isspace, and also backspace and bell, which a terminal shows.
  auto printable = [](unsigned char c) { return std::isprint(c) || std::isspace(c) || c == '\b' || c == '\a'; };
  size_t text = 0;
  while (text < bytes.size() && printable(static_cast<unsigned char>(bytes[text]))) ++text;
  bool string_like = text == bytes.size() ||
                     (text > 0 && bytes.find_first_not_of('\0', text) == std::string_view::npos);
  if (bytes.empty() || !string_like) return hex_dump(bytes);
  std::string s(bytes.substr(0, text));
  if (quiet) return s;
  return "  " + s + std::string(std::max(0, width - int(s.size())), ' ');
}

}  // namespace dsched::abi
