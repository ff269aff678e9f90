// The address-to-text subroutines of DTrace's networking support; each reads the address from
// memory (a kernel pointer, or what copyin() returned):
//   inet_ntoa(ipaddr_t *)          "192.168.1.1"
//   inet_ntoa6(in6_addr_t *)       "fe80::1", "10.0.0.1" for ::ffff:10.0.0.1 (see write_ipv6)
//   inet_ntop(af, void *)          either, by address family (AF_INET 2, AF_INET6 10), with
//                                  "::ffff:10.0.0.1"; another family is an illegal operation
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
    uint64_t last = l_.program.options.strsize() - 1;  // the NUL stays
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

// An IPv6 address as DTrace writes it, byte for byte: 16-bit groups in lower-case hex without
// leading zeros, and one run of zero groups written "::". DTrace finds that run by a scan of the
// bytes: a run replaces the one kept only when it is longer, and a following group's zero high
// byte counts into it (so 2001:db8:0:0:1:0:0:1 is "2001:db8:0:0:1::1" and a lone zero group can
// become "::"). An IPv4-mapped or -compatible address ends in dotted decimal ("::ffff:10.0.0.1")
// for inet_ntop(); inet_ntoa6() gives only the dotted decimal.
// Everything up to the writing is computed without branches and kept in scratch: the verifier
// then follows one path, not one per pattern of zero bytes.
void write_ipv6(Lowering& l, TextWriter& out, llvm::Value* bytes, bool embedded_in_v6) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  auto c = [&](int64_t v) { return ir.const64(v); };
  auto at = [&](int i) { return byte(l, bytes, i); };
  // Flags are 0 or 1; the values compared are small, so the sign of a difference says which is larger.
  auto below = [&](llvm::Value* x, llvm::Value* y) { return b.CreateLShr(b.CreateSub(x, y), 63); };  // x < y
  auto pick = [&](llvm::Value* flag, llvm::Value* then, llvm::Value* otherwise) {
    return b.CreateXor(otherwise, b.CreateAnd(b.CreateXor(otherwise, then), b.CreateNeg(flag)));
  };
  auto no = [&](llvm::Value* flag) { return b.CreateXor(flag, c(1)); };
  // The 16-bit groups wait in scratch, for the writing loop to index.
  llvm::Value* group_words = l.firing.scratch(8 * 8);
  for (int k = 0; k < 8; ++k)
    b.CreateStore(b.CreateOr(b.CreateShl(at(2 * k), c(8)), at(2 * k + 1)), ir.offset_ptr(group_words, 8 * k));

  // DTrace's scan: `trying` a run that began at byte `from`; the kept run begins at byte `first`
  // (-1: none) and spans `span` bytes.
  llvm::Value *trying = c(0), *from = c(0), *first = c(-1), *span = c(1);
  for (int i = 0; i < 16; ++i) {
    llvm::Value* zero = below(at(i), c(1));
    llvm::Value* starts = i % 2 == 0 ? b.CreateAnd(zero, no(trying)) : c(0);
    llvm::Value* ends = b.CreateAnd(trying, i == 15 ? c(1) : no(zero));
    llvm::Value* keep = b.CreateAnd(ends, below(span, b.CreateSub(c(i), from)));
    first = pick(keep, from, first);
    llvm::Value* length = b.CreateSub(c(i - i % 2), from);
    if (i == 15) length = b.CreateAdd(length, b.CreateShl(zero, 1));
    span = pick(keep, length, span);
    trying = pick(starts, c(1), pick(ends, c(0), trying));
    from = pick(starts, c(i), from);
  }
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d other than :: and ::1 (compatible).
  llvm::Value* high = at(0);
  for (int i = 1; i < 10; ++i) high = b.CreateOr(high, at(i));
  llvm::Value* zero_high = below(high, c(1));
  llvm::Value* mapped =
      b.CreateAnd(zero_high, below(b.CreateOr(b.CreateXor(at(10), c(0xff)), b.CreateXor(at(11), c(0xff))), c(1)));
  llvm::Value* compatible =
      b.CreateAnd(b.CreateAnd(zero_high, below(b.CreateOr(at(10), at(11)), c(1))),
                  no(b.CreateAnd(below(b.CreateOr(b.CreateOr(at(12), at(13)), at(14)), c(1)), below(at(15), c(2)))));
  llvm::Value* embedded = b.CreateOr(mapped, compatible);
  // The groups written end at byte 14, or at 10 before an embedded IPv4 address; the run becomes
  // "::" only when its last group is among them. The group before the run never gets its ':'.
  llvm::Value* last = b.CreateSub(c(14), b.CreateShl(embedded, 2));
  llvm::Value* run_end = b.CreateSub(b.CreateAdd(first, span), c(2));
  llvm::Value* shown = b.CreateAnd(no(below(first, c(0))), no(below(last, run_end)));
  llvm::Value* words = l.firing.scratch(4 * 8);
  enum Word { kLast, kRunStart, kRunEnd, kNoColon };
  auto word = [&](Word w) { return ir.offset_ptr(words, 8 * w); };
  b.CreateStore(last, word(kLast), /*isVolatile=*/true);
  b.CreateStore(pick(shown, first, c(99)), word(kRunStart), /*isVolatile=*/true);
  b.CreateStore(pick(shown, run_end, c(99)), word(kRunEnd), /*isVolatile=*/true);
  b.CreateStore(b.CreateSub(first, c(2)), word(kNoColon), /*isVolatile=*/true);

  llvm::Value* v4_only = embedded_in_v6 ? b.getFalse() : ir.truth(embedded);
  ir.when(b.CreateNot(v4_only), [&] {
    l.strings.loop(8, ir.new_block("ipv6.written"), [&](llvm::Value* k) {
      llvm::Value* i = b.CreateShl(k, 1);
      auto load = [&](Word w) { return b.CreateLoad(ir.i64(), word(w), /*isVolatile=*/true); };
      ir.when(b.CreateICmpSLE(i, load(kLast)), [&] {
        ir.when(b.CreateICmpEQ(i, load(kRunEnd)), [&] {
          out.put(':');
          out.put(':');
        });
        llvm::Value* in_run = b.CreateAnd(b.CreateICmpSGE(i, load(kRunStart)), b.CreateICmpSLE(i, load(kRunEnd)));
        ir.when(b.CreateNot(in_run), [&] {
          out.hex(b.CreateLoad(ir.i64(), b.CreateInBoundsGEP(ir.i64(), group_words, ir.bounded(k, 8))), 4, true);
          out.put_when(b.CreateAnd(b.CreateICmpSLT(i, c(14)), b.CreateICmpNE(i, load(kNoColon))), c(':'));
        });
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
    c.scalar(call->operands[selector_ ? 1 : 0], call->text + "() address");
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
      write_ipv6(l, out, read_address(l, *call.operand(0), 16), false);
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
    l.ir.when(v6, [&] { write_ipv6(l, out, read_address(l, *call.operand(1), 16), true); });
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
