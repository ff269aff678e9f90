#include "abi/hex_dump.h"

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

}  // namespace dsched::abi
