// A typed run-time value as printf(), printa() and trace() receive it from the BPF side.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dsched::abi {

struct Value {
  enum class Kind { Integer, String, Float, Stack };
  Kind kind = Kind::Integer;
  uint64_t bits = 0;        // integers: the value sign- or zero-extended to 64 bits
  unsigned size = 8;        // integers: the D size in bytes (1, 2, 4, 8); recorded strings: the
                            // bytes recorded (strsize)
  bool is_signed = true;    // integers
  std::string text;         // strings (without the NUL padding)
  long double real = 0;     // floats
  std::vector<uint64_t> frames;  // stacks: program counters, a 0 ends the stack early

  static Value integer(int64_t v, unsigned size = 8, bool is_signed = true);
  static Value string(std::string s);
  static Value floating(long double v);
  static Value stack(std::vector<uint64_t> pcs);

  // The integer as its D type sees it: sign- or zero-extended from `size` bytes.
  int64_t as_signed() const;
  // The integer's bits at its D size, zero-extended (what %u, %x and %o print).
  uint64_t as_unsigned() const;
};

}  // namespace dsched::abi
