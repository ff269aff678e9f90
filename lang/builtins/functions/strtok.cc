// strtok(s, delim): the first token of s, a run of characters not in delim after skipping the
// characters in delim; strtok(NULL, delim) continues after the previous token. When no token is
// left the value is DTrace's NULL string (`strtok(NULL, ",") == NULL`; printing it is a fault).
// As in DTrace for Linux, the text being tokenised and the position in it are kept per CPU: a
// copy of s and an offset, in a per-CPU map that outlives the firing.
#include <linux/bpf.h>

#include <bit>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/strings.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

constexpr uint64_t kDelimiterMapBytes = 256 / 8;

class Strtok : public Subroutine {
 public:
  Strtok() : Subroutine("strtok", {2, 2}) {}

  void check(Checker& c, ExprPtr& call) const override {
    c.value(call->operands[0]);
    const Type* text = call->operand(0)->type;
    if (text->is_char_sequence()) c.to_string(call->operands[0]);
    if (!is_null_constant(*call->operand(0)) && !call->operand(0)->type->is_string())
      fail(call->operand(0)->loc, ErrTag::D_PROTO_ARG,
           "strtok() argument must be a string or NULL, not " + type_name(text));
    check_string_arg(c, *call, 1);
    call->type = c.types().string_type();
  }

  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    uint64_t capacity = l.strings.capacity_of_strings();
    // The state: the offset of the next byte to read, then the text in a power-of-two area (zero
    // past the string), so that a masked offset always reads within it and never needs a branch:
    // every branch whose direction depends on data costs the verifier a state per loop iteration.
    uint64_t area = std::bit_ceil(l.strings.bytes_of_strings());
    llvm::GlobalVariable* map =
        l.maps.hook_map({"strtok_state", BPF_MAP_TYPE_PERCPU_ARRAY, 1, 4, static_cast<uint32_t>(8 + area)});
    llvm::Value* state = l.firing.per_cpu_value(map);
    llvm::Value* position = state;
    llvm::Value* text = ir.offset_ptr(state, 8);
    if (!is_null_constant(*call.operand(0))) {
      l.strings.copy(text, l.strings.from(l.exprs.eval(*call.operand(0))));
      b.CreateStore(ir.const64(0), position);
    }
    Value delimiters = l.strings.from(l.exprs.eval(*call.operand(1)));
    llvm::Value* map_bits = delimiter_map(l, delimiters);
    Value out = l.strings.fresh();
    // The scans run in bpf_loop() callbacks, which the verifier checks once: written out in the
    // program, each byte's exit was a branch it kept for later, and a few calls at a large
    // strsize passed its limit. They share their state through scratch: where the scan began and
    // where it stopped.
    enum Word : uint64_t { kBegin, kStop, kWords };
    llvm::Value* words = l.firing.scratch(kWords * 8);
    auto word = [&](llvm::Value* base, Word w) { return ir.offset_ptr(base, w * 8); };
    auto* type = llvm::StructType::get(b.getContext(), {ir.ptr(), ir.ptr(), ir.ptr(), ir.ptr()});
    llvm::Value* context = ir.entry_alloca(type);
    b.CreateLifetimeStart(context);
    for (auto [field, pointer] : {std::pair{0u, text}, {1u, map_bits}, {2u, out.v}, {3u, words}})
      b.CreateStore(pointer, b.CreateStructGEP(type, context, field));
    struct Fields {
      llvm::Value *text, *map_bits, *out, *words;
    };
    auto fields = [&](llvm::Value* c) {
      auto at = [&](unsigned f) { return b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, c, f)); };
      return Fields{at(0), at(1), at(2), at(3)};
    };
    auto byte_at = [&](llvm::Value* in_text, llvm::Value* at) {
      llvm::Value* masked = b.CreateAnd(at, ir.const64(static_cast<int64_t>(area - 1)));
      return b.CreateZExt(b.CreateLoad(ir.i8(), b.CreateInBoundsGEP(ir.i8(), in_text, masked)), ir.i64());
    };
    auto delimiter_bit = [&](llvm::Value* bits_map, llvm::Value* byte) {  // byte < 256: byte >> 3 is within the map
      llvm::Value* bits = b.CreateLoad(ir.i8(), b.CreateInBoundsGEP(ir.i8(), bits_map, b.CreateLShr(byte, 3)));
      return b.CreateAnd(b.CreateLShr(b.CreateZExt(bits, ir.i64()), b.CreateAnd(byte, 7)), 1);
    };
    // One test per byte: the NUL's bit is clear while skipping (a NUL stops it) and set while
    // copying (a NUL ends the token).
    auto set_nul_bit = [&](bool set) {
      llvm::Value* first_bits = b.CreateLoad(ir.i8(), map_bits);
      b.CreateStore(set ? b.CreateOr(first_bits, b.getInt8(1)) : b.CreateAnd(first_bits, b.getInt8(0xfe)), map_bits);
    };
    // Skip the delimiters, up to the first other byte or the NUL (the text's last byte is one,
    // and the scan meets it before a masked offset could wrap).
    b.CreateStore(b.CreateLoad(ir.i64(), position), word(words, kBegin));
    b.CreateStore(ir.const64(static_cast<int64_t>(capacity - 1)), word(words, kStop));
    set_nul_bit(false);
    l.strings.callback_loop(capacity, context, "strtok_skip", [&](llvm::Value* i, llvm::Value* c) {
      Fields f = fields(c);
      llvm::Value* at = b.CreateAdd(b.CreateLoad(ir.i64(), word(f.words, kBegin)), i);
      llvm::Value* found = b.CreateICmpEQ(delimiter_bit(f.map_bits, byte_at(f.text, at)), ir.const64(0));
      ir.when(found, [&] { b.CreateStore(at, word(f.words, kStop)); });
      return ir.widen(found);
    });
    llvm::Value* first = b.CreateLoad(ir.i64(), word(words, kStop));
    // The token runs to the next delimiter or the NUL.
    b.CreateStore(first, word(words, kBegin));
    b.CreateStore(b.CreateAdd(first, ir.const64(static_cast<int64_t>(capacity - 1))), word(words, kStop));
    set_nul_bit(true);
    l.strings.callback_loop(capacity - 1, context, "strtok_copy", [&](llvm::Value* i, llvm::Value* c) {
      Fields f = fields(c);
      llvm::Value* at = b.CreateAdd(b.CreateLoad(ir.i64(), word(f.words, kBegin)), i);
      llvm::Value* byte = byte_at(f.text, at);
      llvm::Value* ends = b.CreateICmpNE(delimiter_bit(f.map_bits, byte), ir.const64(0));
      ir.when(ends, [&] { b.CreateStore(at, word(f.words, kStop)); });
      ir.when(b.CreateNot(ends), [&] {
        b.CreateStore(b.CreateTrunc(byte, ir.i8()), b.CreateInBoundsGEP(ir.i8(), f.out, ir.bounded(i, capacity - 1)));
      });
      return ir.widen(ends);
    });
    b.CreateLifetimeEnd(context);
    llvm::Value* last = b.CreateLoad(ir.i64(), word(words, kStop));
    b.CreateStore(last, position);
    ir.when(b.CreateICmpEQ(last, first), [&] { l.strings.mark_null(out); });
    return {out.v, call.type, out.capacity};
  }

 private:
  // A bit per byte value, set for the bytes of `delimiters`, built without a branch.
  static llvm::Value* delimiter_map(Lowering& l, const Value& delimiters) {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* map_bits = l.firing.scratch(kDelimiterMapBytes);
    ir.zero_bytes(map_bits, kDelimiterMapBytes);
    l.strings.scan(delimiters.capacity, "strtok_delimiters", {delimiters.v, map_bits}, {},
                   [&](llvm::Value* i, const codegen::Strings::ScanView& v) {
                     llvm::Value* byte = l.strings.scan_byte(v, 0, i, delimiters.capacity);
                     llvm::Value* at = b.CreateInBoundsGEP(ir.i8(), v.pointers[1], b.CreateLShr(byte, 3));
                     llvm::Value* bit = b.CreateTrunc(b.CreateShl(ir.const64(1), b.CreateAnd(byte, 7)), ir.i8());
                     b.CreateStore(b.CreateOr(b.CreateLoad(ir.i8(), at), bit), at);
                     return b.CreateICmpEQ(byte, ir.const64(0));
                   });
    return map_bits;
  }
};

const Registered<Strtok> strtok_function;

}  // namespace
}  // namespace dsched::lang
