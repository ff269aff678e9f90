// The address-to-text subroutines of DTrace's networking support; each reads the address from
// memory (a kernel pointer, or what copyin() returned):
//   inet_ntoa(ipaddr_t *)          "192.168.1.1"
//   inet_ntoa6(in6_addr_t *)       "fe80::1", "::ffff:10.0.0.1" (RFC 5952: the longest run of two
//                                  or more zero groups is "::", hex digits in lower case)
//   inet_ntop(af, void *)          either, by address family (AF_INET 2, AF_INET6 10)
//   link_ntop(type, void *)        a link-layer address in hex bytes: "00:1b:21:0a:0b:0c" for
//                                  ARPHRD_ETHER (6 bytes), 20 bytes for ARPHRD_INFINIBAND
// An address family or link type the function does not know gives "".
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

void write_ipv6(Lowering& l, TextWriter& out, llvm::Value* bytes) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  // The 16-bit groups wait in scratch: eight values live across the branches below would not fit
  // in the BPF registers and stack.
  llvm::Value* group_words = l.firing.scratch(8 * 8);
  for (int k = 0; k < 8; ++k)
    b.CreateStore(b.CreateOr(b.CreateShl(byte(l, bytes, 2 * k), ir.const64(8)), byte(l, bytes, 2 * k + 1)),
                  ir.offset_ptr(group_words, 8 * k));
  auto group = [&](int k) { return b.CreateLoad(ir.i64(), ir.offset_ptr(group_words, 8 * k)); };
  // The longest run of zero groups (the first of equal ones), as [start, end). It is computed
  // without branches and kept in scratch, so the verifier sees one unknown run, not one path per
  // pattern of zero groups. Flags are 0 or 1; the values compared are small, so the sign of a
  // difference says which is larger.
  auto below = [&](llvm::Value* x, llvm::Value* y) { return b.CreateLShr(b.CreateSub(x, y), 63); };  // x < y
  auto pick = [&](llvm::Value* flag, llvm::Value* then, llvm::Value* otherwise) {
    return b.CreateXor(otherwise, b.CreateAnd(b.CreateXor(otherwise, then), b.CreateNeg(flag)));
  };
  llvm::Value *run_start = ir.const64(0), *run = ir.const64(0), *best_start = ir.const64(0), *best = ir.const64(0);
  for (int k = 0; k < 8; ++k) {
    llvm::Value* zero = below(group(k), ir.const64(1));
    run_start = pick(b.CreateAnd(zero, below(run, ir.const64(1))), ir.const64(k), run_start);
    run = b.CreateAnd(b.CreateAdd(run, ir.const64(1)), b.CreateNeg(zero));
    llvm::Value* longer = below(best, run);
    best_start = pick(longer, run_start, best_start);
    best = pick(longer, run, best);
  }
  // Only a run of two or more becomes "::"; otherwise the run is placed where no group is.
  llvm::Value* compressed = below(ir.const64(1), best);
  llvm::Value* run_bounds = l.firing.scratch(2 * 8);
  b.CreateStore(pick(compressed, best_start, ir.const64(9)), run_bounds, /*isVolatile=*/true);
  b.CreateStore(pick(compressed, b.CreateAdd(best_start, best), ir.const64(9)), ir.offset_ptr(run_bounds, 8),
                /*isVolatile=*/true);
  // ::ffff:a.b.c.d for an IPv4-mapped address.
  llvm::Value* mapped = b.CreateICmpEQ(group(5), ir.const64(0xffff));
  for (int k = 0; k < 5; ++k) mapped = b.CreateAnd(mapped, b.CreateICmpEQ(group(k), ir.const64(0)));
  ir.when(mapped, [&] {
    for (char c : std::string_view("::ffff:")) out.put(c);
    write_ipv4(l, out, bytes, 12);
  });
  ir.when(b.CreateNot(mapped), [&] {
    l.strings.loop(8, ir.new_block("ipv6.written"), [&](llvm::Value* k) {
      llvm::Value* start = b.CreateLoad(ir.i64(), run_bounds, /*isVolatile=*/true);
      llvm::Value* end = b.CreateLoad(ir.i64(), ir.offset_ptr(run_bounds, 8), /*isVolatile=*/true);
      llvm::Value* in_run = b.CreateAnd(b.CreateICmpUGE(k, start), b.CreateICmpULT(k, end));
      ir.when(b.CreateICmpEQ(k, start), [&] {
        out.put(':');
        out.put(':');
      });
      ir.when(b.CreateNot(in_run), [&] {
        out.put_when(b.CreateAnd(b.CreateICmpNE(k, ir.const64(0)), b.CreateICmpNE(k, end)), ir.const64(':'));
        out.hex(b.CreateLoad(ir.i64(), b.CreateInBoundsGEP(ir.i64(), group_words, ir.bounded(k, 8))), 4, true);
      });
    });
  });
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
    l.ir.when(b.CreateICmpEQ(family, l.ir.const64(kAfInet)),
              [&] { write_ipv4(l, out, read_address(l, *call.operand(1), 4), 0); });
    l.ir.when(b.CreateICmpEQ(family, l.ir.const64(kAfInet6)),
              [&] { write_ipv6(l, out, read_address(l, *call.operand(1), 16)); });
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
