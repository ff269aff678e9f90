// A typed run-time value as printf(), printa() and trace() receive it from the BPF side.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dsched::abi {

// What a symbolic address prints as: a frame ("mod`func+0x10", stack(), uaddr(), %a), its
// function ("mod`func", sym(), func(), usym(), ufunc()) or its module (mod(), umod()).
enum class AddressForm : uint8_t { Frame, Function, Module };

// How a stack or a symbolic address sits in a record or a key: `frames` 64-bit program counters,
// led by the process id word for user-space addresses (which mean nothing without the process).
struct AddressLayout {
  bool user = false;
  uint32_t frames = 1;
  AddressForm form = AddressForm::Frame;
  uint32_t byte_size() const { return 8 * frames + (user ? 8 : 0); }
};

struct Value {
  // Stack: stack()/ustack(); Symbol: one address printed as `form` (sym(), umod()...); Bytes: a
  // traced struct or array, its bytes in `text`, NULs included.
  enum class Kind { Integer, String, Float, Stack, Symbol, Bytes };
  Kind kind = Kind::Integer;
  uint64_t bits = 0;        // integers: the value sign- or zero-extended to 64 bits
  unsigned size = 8;        // integers: the D size in bytes (1, 2, 4, 8); recorded strings: the
                            // bytes recorded (strsize)
  bool is_signed = true;    // integers
  std::string text;         // strings (without the NUL padding)
  long double real = 0;     // floats
  std::vector<uint64_t> frames;  // stacks: program counters, a 0 ends the stack early; symbols: one
  bool user = false;             // stacks and symbols: user-space addresses of process `pid`
  uint32_t pid = 0;
  AddressForm form = AddressForm::Frame;  // symbols

  static Value integer(int64_t v, unsigned size = 8, bool is_signed = true);
  static Value string(std::string s);
  static Value bytes(std::string b);
  static Value floating(long double v);
  static Value stack(std::vector<uint64_t> pcs);
  // A stack or symbol laid out as `layout` says, from its bytes (layout.byte_size() of them).
  static Value addresses(Kind kind, const AddressLayout& layout, const char* bytes);

  // The integer as its D type sees it: sign- or zero-extended from `size` bytes.
  int64_t as_signed() const;
  // The integer's bits at its D size, zero-extended (what %u, %x and %o print).
  uint64_t as_unsigned() const;
};

}  // namespace dsched::abi
