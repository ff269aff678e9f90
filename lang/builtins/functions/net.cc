// The address-to-text subroutines of DTrace's networking support; each reads the address from
// memory (a kernel pointer, or what copyin() returned):
//   inet_ntoa(ipaddr_t *)          "192.168.1.1"
//   inet_ntoa6(in6_addr_t *)       "fe80::1", "10.0.0.1" for ::ffff:10.0.0.1 (see write_ipv6)
//   inet_ntop(af, void *)          either, by address family (AF_INET 2, AF_INET6 10); another
//                                  family is an illegal operation
//   link_ntop(type, void *)        a link-layer address in hex bytes: "00:1b:21:0a:0b:0c" for
//                                  ARPHRD_ETHER (6 bytes), 20 bytes for ARPHRD_INFINIBAND
// A link type the function does not know gives "".
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"
#include "lang/codegen/strings.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

constexpr int64_t kAfInet = 2, kAfInet6 = 10;
constexpr int64_t kArphrdEther = 1, kArphrdInfiniband = 32;
constexpr uint64_t kLongestAddress = 20;  // an InfiniBand hardware address

// Builds text at a running position in a fresh string.
class TextWriter {
 public:
  // The position lives in scratch, read and written as volatile: the verifier then sees one
  // position of unknown value after each branch instead of one state per length written so far,
  // which lets a program format several IPv6 addresses.
  TextWriter(Lowering& l) : l_(l), out_(l.strings.fresh()), position_(l.firing.scratch(8)) {
    l.ir.b().CreateStore(l.ir.const64(0), position_, /*isVolatile=*/true);
  }
  const Value& text() const { return out_; }

  void put(llvm::Value* ch) {
    auto& b = l_.ir.b();
    llvm::Value* at = b.CreateLoad(l_.ir.i64(), position_, /*isVolatile=*/true);
    uint64_t last = out_.capacity - 1;  // the NUL stays
    l_.ir.when(b.CreateICmpULT(at, l_.ir.const64(static_cast<int64_t>(last))), [&] {
      b.CreateStore(b.CreateTrunc(ch, l_.ir.i8()), b.CreateInBoundsGEP(l_.ir.i8(), out_.v, l_.ir.bounded(at, last)));
    });
    b.CreateStore(b.CreateAdd(at, l_.ir.const64(1)), position_, /*isVolatile=*/true);
  }
  void put(char ch) { put(l_.ir.const64(ch)); }
  void put_when(llvm::Value* condition, llvm::Value* ch) {
    l_.ir.when(condition, [&] { put(ch); });
  }

  // A byte in decimal, without leading zeros.
  void decimal(llvm::Value* v) {
    auto& b = l_.ir.b();
    auto digit = [&](llvm::Value* d) { return b.CreateAdd(d, l_.ir.const64('0')); };
    put_when(b.CreateICmpUGE(v, l_.ir.const64(100)), digit(b.CreateUDiv(v, l_.ir.const64(100))));
    put_when(b.CreateICmpUGE(v, l_.ir.const64(10)),
             digit(b.CreateURem(b.CreateUDiv(v, l_.ir.const64(10)), l_.ir.const64(10))));
    put(digit(b.CreateURem(v, l_.ir.const64(10))));
  }
  // `digits` hex digits of v, the leading zeros left out when `trim`.
  void hex(llvm::Value* v, int digits, bool trim) {
    auto& b = l_.ir.b();
    for (int i = digits - 1; i >= 0; --i) {
      llvm::Value* d = b.CreateAnd(b.CreateLShr(v, l_.ir.const64(4 * i)), l_.ir.const64(0xf));
      llvm::Value* ch = b.CreateAdd(
          d, b.CreateSelect(b.CreateICmpULT(d, l_.ir.const64(10)), l_.ir.const64('0'), l_.ir.const64('a' - 10)));
      if (trim && i > 0)
        put_when(b.CreateICmpUGE(v, l_.ir.const64(int64_t(1) << (4 * i))), ch);
      else
        put(ch);
    }
  }

 private:
  Lowering& l_;
  Value out_;
  llvm::Value* position_;
};

// The `size` bytes at the address argument, in scratch; a bad address is a fault.
llvm::Value* read_address(Lowering& l, const Expr& argument, uint64_t size) {
  codegen::Ir& ir = l.ir;
  llvm::Value* bytes = l.firing.scratch(kLongestAddress);
  llvm::Value* address = l.exprs.eval_int(argument);
  llvm::Value* result = ir.helper(BPF_FUNC_probe_read_kernel, {bytes, ir.const64(static_cast<int64_t>(size)),
                                                               ir.b().CreateIntToPtr(address, ir.ptr())});
  l.records.check_fault(ir.b().CreateICmpSLT(result, ir.const64(0)), abi::FaultKind::InvalidAddress, address);
  return bytes;
}

llvm::Value* byte(Lowering& l, llvm::Value* bytes, int i) {
  return l.ir.b().CreateZExt(l.ir.b().CreateLoad(l.ir.i8(), l.ir.offset_ptr(bytes, i)), l.ir.i64());
}

void write_ipv4(Lowering& l, TextWriter& out, llvm::Value* bytes, int first) {
  for (int i = 0; i < 4; ++i) {
    if (i) out.put('.');
    out.decimal(byte(l, bytes, first + i));
  }
}

// An IPv6 address as DTrace for Linux writes it: 16-bit groups in lower-case hex without leading
// zeros, the first of the longest runs of two or more zero groups written "::". An IPv4-mapped
// (::ffff:a.b.c.d) or -compatible address (::a.b.c.d, other than :: and ::1) is written as the
// IPv4 address alone, by inet_ntoa6() and inet_ntop() alike.
// Everything up to the writing is computed without branches and kept in scratch: the verifier
// then follows one path, not one per pattern of zero groups.
void write_ipv6(Lowering& l, TextWriter& out, llvm::Value* bytes) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  auto c = [&](int64_t v) { return ir.const64(v); };
  auto at = [&](int i) { return byte(l, bytes, i); };
  // Flags are 0 or 1; the values compared are small, so the sign of a difference says which is larger.
  auto below = [&](llvm::Value* x, llvm::Value* y) { return b.CreateLShr(b.CreateSub(x, y), 63); };  // x < y
  auto pick = [&](llvm::Value* flag, llvm::Value* then, llvm::Value* otherwise) {
    return b.CreateXor(otherwise, b.CreateAnd(b.CreateXor(otherwise, then), b.CreateNeg(flag)));
  };
  // The 16-bit groups wait in scratch, for the writing loop to index.
  llvm::Value* group_words = l.firing.scratch(8 * 8);
  // The run of zero groups ending at group k is `current` long; the longest so far ends at `last`.
  llvm::Value *current = c(0), *longest = c(0), *last = c(0);
  for (int k = 0; k < 8; ++k) {
    llvm::Value* group = b.CreateOr(b.CreateShl(at(2 * k), c(8)), at(2 * k + 1));
    b.CreateStore(group, ir.offset_ptr(group_words, 8 * k));
    current = b.CreateAnd(b.CreateAdd(current, c(1)), b.CreateNeg(below(group, c(1))));
    llvm::Value* longer = below(longest, current);
    longest = pick(longer, current, longest);
    last = pick(longer, c(k), last);
  }
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d other than :: and ::1 (compatible).
  llvm::Value* high = at(0);
  for (int i = 1; i < 10; ++i) high = b.CreateOr(high, at(i));
  llvm::Value* zero_high = below(high, c(1));
  llvm::Value* mapped =
      b.CreateAnd(zero_high, below(b.CreateOr(b.CreateXor(at(10), c(0xff)), b.CreateXor(at(11), c(0xff))), c(1)));
  llvm::Value* compatible = b.CreateAnd(
      b.CreateAnd(zero_high, below(b.CreateOr(at(10), at(11)), c(1))),
      b.CreateXor(b.CreateAnd(below(b.CreateOr(b.CreateOr(at(12), at(13)), at(14)), c(1)), below(at(15), c(2))), c(1)));
  llvm::Value* embedded = b.CreateOr(mapped, compatible);
  // Without a run of two, no group is in it (group 99 starts and ends it).
  llvm::Value* run = below(c(1), longest);
  llvm::Value* words = l.firing.scratch(2 * 8);
  enum Word { kRunStart, kRunEnd };
  auto word = [&](Word w) { return ir.offset_ptr(words, 8 * w); };
  b.CreateStore(pick(run, b.CreateSub(b.CreateAdd(last, c(1)), longest), c(99)), word(kRunStart), /*isVolatile=*/true);
  b.CreateStore(pick(run, last, c(99)), word(kRunEnd), /*isVolatile=*/true);
  ir.when(b.CreateNot(ir.truth(embedded)), [&] {
    l.strings.loop(8, ir.new_block("ipv6.written"), [&](llvm::Value* k) {
      auto load = [&](Word w) { return b.CreateLoad(ir.i64(), word(w), /*isVolatile=*/true); };
      ir.when(b.CreateICmpEQ(k, load(kRunStart)), [&] {
        out.put(':');
        out.put(':');
      });
      llvm::Value* in_run = b.CreateAnd(b.CreateICmpSGE(k, load(kRunStart)), b.CreateICmpSLE(k, load(kRunEnd)));
      ir.when(b.CreateNot(in_run), [&] {
        llvm::Value* after_run = b.CreateICmpEQ(k, b.CreateAdd(load(kRunEnd), c(1)));
        out.put_when(b.CreateAnd(b.CreateICmpNE(k, c(0)), b.CreateNot(after_run)), c(':'));
        out.hex(b.CreateLoad(ir.i64(), b.CreateInBoundsGEP(ir.i64(), group_words, ir.bounded(k, 8))), 4, true);
      });
    });
  });
  ir.when(ir.truth(embedded), [&] { write_ipv4(l, out, bytes, 12); });
}

class AddressFunction : public Subroutine {
 public:
  // `selector` is whether the first argument chooses the kind of address (inet_ntop, link_ntop).
  AddressFunction(std::string_view name, bool selector)
      : Subroutine(name, {selector ? 2 : 1, selector ? 2 : 1}), selector_(selector) {}

  void check(Checker& c, ExprPtr& call) const override {
    if (selector_) check_integer_arg(c, *call, 0, "the address type");
    c.pointer(call->operands[selector_ ? 1 : 0], call->text + "() address");
    call->type = c.types().string_type();
  }

 private:
  bool selector_;
};

class InetNtoa : public AddressFunction {
 public:
  InetNtoa(std::string_view name, int64_t family) : AddressFunction(name, false), family_(family) {}
  Value lower(Lowering& l, const Expr& call) const override {
    TextWriter out(l);
    if (family_ == kAfInet)
      write_ipv4(l, out, read_address(l, *call.operand(0), 4), 0);
    else
      write_ipv6(l, out, read_address(l, *call.operand(0), 16));
    return out.text();
  }

 private:
  int64_t family_;
};

class InetNtop : public AddressFunction {
 public:
  InetNtop() : AddressFunction("inet_ntop", true) {}
  Value lower(Lowering& l, const Expr& call) const override {
    auto& b = l.ir.b();
    TextWriter out(l);
    llvm::Value* family = l.exprs.eval_int(*call.operand(0));
    llvm::Value* v4 = b.CreateICmpEQ(family, l.ir.const64(kAfInet));
    llvm::Value* v6 = b.CreateICmpEQ(family, l.ir.const64(kAfInet6));
    l.records.check_fault(b.CreateNot(b.CreateOr(v4, v6)), abi::FaultKind::IllegalOperation);
    l.ir.when(v4, [&] { write_ipv4(l, out, read_address(l, *call.operand(1), 4), 0); });
    l.ir.when(v6, [&] { write_ipv6(l, out, read_address(l, *call.operand(1), 16)); });
    return out.text();
  }
};

class LinkNtop : public AddressFunction {
 public:
  LinkNtop() : AddressFunction("link_ntop", true) {}
  Value lower(Lowering& l, const Expr& call) const override {
    auto& b = l.ir.b();
    TextWriter out(l);
    llvm::Value* type = l.exprs.eval_int(*call.operand(0));
    for (auto [link, size] : {std::pair{kArphrdEther, 6}, std::pair{kArphrdInfiniband, 20}}) {
      l.ir.when(b.CreateICmpEQ(type, l.ir.const64(link)), [&, size = size] {
        llvm::Value* bytes = read_address(l, *call.operand(1), size);
        for (int i = 0; i < size; ++i) {
          if (i) out.put(':');
          out.hex(byte(l, bytes, i), 2, false);
        }
      });
    }
    return out.text();
  }
};

const Registered<InetNtoa> inet_ntoa_function("inet_ntoa", kAfInet);
const Registered<InetNtoa> inet_ntoa6_function("inet_ntoa6", kAfInet6);
const Registered<InetNtop> inet_ntop_function;
const Registered<LinkNtop> link_ntop_function;

}  // namespace
}  // namespace dsched::lang
