#include "abi/value.h"

#include <cstring>

namespace dsched::abi {

namespace {

uint64_t size_mask(unsigned size) { return size >= 8 ? ~uint64_t(0) : (uint64_t(1) << (size * 8)) - 1; }

}  // namespace

Value Value::integer(int64_t v, unsigned size, bool is_signed) {
  Value out;
  out.kind = Kind::Integer;
  out.size = size;
  out.is_signed = is_signed;
  out.bits = uint64_t(v);
  out.bits = uint64_t(out.as_signed());
  return out;
}

Value Value::string(std::string s) {
  Value out;
  out.kind = Kind::String;
  out.text = std::move(s);
  return out;
}

Value Value::bytes(std::string b) {
  Value out;
  out.kind = Kind::Bytes;
  out.size = static_cast<unsigned>(b.size());
  out.text = std::move(b);
  return out;
}

Value Value::floating(long double v) {
  Value out;
  out.kind = Kind::Float;
  out.real = v;
  return out;
}

Value Value::stack(std::vector<uint64_t> pcs) {
  Value out;
  out.kind = Kind::Stack;
  out.frames = std::move(pcs);
  return out;
}

Value Value::addresses(Kind kind, const AddressLayout& layout, const char* bytes) {
  Value out;
  out.kind = kind;
  out.user = layout.user;
  out.form = layout.form;
  if (layout.user) {
    uint64_t pid;
    std::memcpy(&pid, bytes, sizeof pid);
    out.pid = static_cast<uint32_t>(pid);
    bytes += sizeof pid;
  }
  out.frames.resize(layout.frames);
  std::memcpy(out.frames.data(), bytes, 8 * size_t(layout.frames));
  if (kind == Kind::Symbol) out.bits = out.frames[0];
  return out;
}

int64_t Value::as_signed() const {
  const uint64_t mask = size_mask(size);
  uint64_t v = bits & mask;
  if (is_signed && size < 8 && (v >> (size * 8 - 1)) != 0) v |= ~mask;
  return int64_t(v);
}

uint64_t Value::as_unsigned() const { return bits & size_mask(size); }

}  // namespace dsched::abi
