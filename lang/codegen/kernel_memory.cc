// Reads of kernel memory: members, elements and dereferences of kernel (BTF) types, with plain
// loads where the verifier knows the pointer's type and bpf_probe_read_kernel elsewhere; and the
// one kind of memory a pointer may write, the clause's scratch.
#include <linux/bpf.h>

#include <bit>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"
#include "lang/codegen/variables.h"
#include "lang/diagnostics.h"

namespace dsched::codegen {
namespace {

using lang::ExprKind;
using lang::Type;

// A kernel object named by an expression: its address, and whether the verifier knows it as a
// BTF-typed pointer.
struct KernelAddress {
  llvm::Value* address;
  bool btf;
};

KernelAddress kernel_address(Lowering& l, const lang::Expr& e) {
  auto& b = l.ir.b();
  switch (e.kind) {
    case ExprKind::Member: {
      Value base = l.exprs.eval(*e.operand(0));
      return {b.CreateAdd(base.v, l.ir.const64(static_cast<int64_t>(e.offset_bits / 8))), base.btf};
    }
    case ExprKind::Index: {
      Value base = l.exprs.eval(*e.operand(0));
      llvm::Value* index = l.exprs.eval_int(*e.operand(1));
      // Only a constant offset keeps a BTF pointer readable by plain loads.
      bool btf = base.btf && llvm::isa<llvm::ConstantInt>(index);
      return {b.CreateAdd(base.v, b.CreateMul(index, l.ir.const64(static_cast<int64_t>(e.type->size)))), btf};
    }
    case ExprKind::Unary:
      if (e.unary_op == lang::UnaryOp::Deref) {
        Value pointer = l.exprs.eval(*e.operand(0));
        return {pointer.v, pointer.btf};
      }
      break;
    default:
      break;
  }
  lang::fail(e.loc, lang::ErrTag::D_ADDROF_LVAL, "taking the address of this expression is not supported");
}

llvm::Value* extend(Lowering& l, llvm::Value* raw, const Type* type) {
  bool is_signed = type->is_integer() && type->is_signed;
  return is_signed ? l.ir.b().CreateSExt(raw, l.ir.i64()) : l.ir.b().CreateZExt(raw, l.ir.i64());
}

}  // namespace

llvm::Value* Exprs::read_slot() {
  if (read_slot_of_ != l_.ir.function()) {
    read_slot_ = l_.ir.stack_slot();
    read_slot_of_ = l_.ir.function();
  }
  return read_slot_;
}

llvm::Value* Exprs::read_kernel(llvm::Value* address, uint64_t size, const Type* type) {
  return read_memory(BPF_FUNC_probe_read_kernel, address, size, type);
}

llvm::Value* Exprs::read_user(llvm::Value* address, uint64_t size, const Type* type) {
  return read_memory(BPF_FUNC_probe_read_user, address, size, type);
}

llvm::Value* Exprs::read_memory(int helper, llvm::Value* address, uint64_t size, const Type* type) {
  Ir& ir = l_.ir;
  // One stack word per program serves every read: each is loaded right after it is made.
  llvm::Value* slot = read_slot();
  ir.b().CreateStore(ir.const64(0), slot);
  llvm::Value* result = ir.helper(helper, {slot, ir.b().getInt64(size), ir.b().CreateIntToPtr(address, ir.ptr())});
  l_.records.check_fault(ir.b().CreateICmpSLT(result, ir.const64(0)), abi::FaultKind::InvalidAddress, address);
  return extend(l_, ir.b().CreateLoad(ir.b().getIntNTy(static_cast<unsigned>(size * 8)), slot), type);
}

llvm::Value* Exprs::load_btf_field(llvm::Value* address, uint64_t size, const Type* type) {
  Ir& ir = l_.ir;
  llvm::Value* raw = ir.b().CreateLoad(ir.b().getIntNTy(static_cast<unsigned>(size * 8)),
                                       ir.b().CreateIntToPtr(address, ir.ptr()));
  return extend(l_, raw, type);
}

llvm::Value* Exprs::kernel_field(llvm::Value* address, const char* record_name, const std::vector<const char*>& path,
                                 const lang::SourceRange& loc) {
  const Type* record = l_.program.types->kernel_record(lang::TypeKind::Struct, record_name, nullptr);
  if (!record) lang::fail(loc, lang::ErrTag::D_UNKNOWN, std::string("this kernel has no struct ") + record_name);
  size_t step = 0;
  for (const char* name : path) {
    auto member = record->find_member(name);
    if (!member) lang::fail(loc, lang::ErrTag::D_UNKNOWN, std::string("this kernel's ") + record_name + " has no member " + name);
    address = l_.ir.b().CreateAdd(address, l_.ir.const64(static_cast<int64_t>(member->offset_bits / 8)));
    record = member->type;
    if (member->bitfield_bits) {  // the bytes that hold the field, shifted and masked
      uint64_t first_bit = member->offset_bits % 8;
      uint64_t bytes = std::bit_ceil((first_bit + member->bitfield_bits + 7) / 8);
      llvm::Value* word = load_btf_field(address, bytes, l_.program.types->integer(bytes, false));
      llvm::Value* shifted = l_.ir.b().CreateLShr(word, l_.ir.const64(static_cast<int64_t>(first_bit)));
      return l_.ir.b().CreateAnd(shifted, l_.ir.const64(static_cast<int64_t>((1ull << member->bitfield_bits) - 1)));
    }
    if (++step < path.size() && record->is_pointer()) {  // follow a pointer to the next record
      address = load_btf_field(address, 8, record);
      record = record->target;
    }
  }
  return load_btf_field(address, record->size, record);
}

llvm::Value* Exprs::address_of(const lang::Expr& e) { return kernel_address(l_, e).address; }

llvm::Value* Exprs::clause_scratch_at(llvm::Value* address, llvm::Value* size, uint64_t most) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  uint64_t start = l_.firing.clause_scratch_start();
  uint64_t region = l_.firing.clause_scratch_end() - start;
  llvm::Value* region_start = ir.offset_ptr(l_.firing.scratch_base(), start);
  // Addresses as numbers: the verifier refuses arithmetic between a pointer it tracks (the
  // region, or the address when it is alloca's value) and an unknown number, but a pointer
  // stored in map memory reads back as a number.
  llvm::Value* word = l_.firing.scratch(8);
  auto as_number = [&](llvm::Value* v) {
    b.CreateStore(v, word, /*isVolatile=*/true);
    return b.CreateLoad(ir.i64(), word, /*isVolatile=*/true);
  };
  llvm::Value* first = as_number(b.CreatePtrToInt(region_start, ir.i64()));
  address = as_number(address);
  // address .. address + size must lie in [first, first + region): the offset and the size, both
  // unsigned, with offset <= region - size.
  llvm::Value* offset = b.CreateSub(address, first);
  llvm::Value* fits = b.CreateAnd(b.CreateICmpULE(size, ir.const64(int64_t(region))),
                                  b.CreateICmpULE(offset, b.CreateSub(ir.const64(int64_t(region)), size)));
  l_.records.check_fault(b.CreateNot(fits), abi::FaultKind::InvalidAddress, address);
  if (region == 0) return nullptr;  // only an empty access at the very start passed
  // The verifier bounds the offset by the region and the size by `most` apart: the scratch after
  // the region is reserved so that their largest sum stays inside the map value.
  l_.firing.scratch(most);
  return b.CreateGEP(ir.i8(), region_start, ir.bounded(offset, region));
}

Value Exprs::kernel_object(const lang::Expr& e) {
  if (lang::is_d_object(e)) return l_.variables.load(e);
  KernelAddress at = kernel_address(l_, e);
  const Type* type = e.type;
  if (type->is_array() || type->is_record()) return {at.address, type, 0, true, at.btf};
  if (!type->is_scalar()) lang::fail(e.loc, lang::ErrTag::D_UNKNOWN, "reading a value of type " + lang::type_name(type) + " is not supported");
  bool bitfield = e.kind == ExprKind::Member && e.bitfield_bits;
  if (at.btf && !bitfield) return {load_btf_field(at.address, type->size, type), type, 0, false, type->is_pointer()};
  if (bitfield) {
    llvm::Value* word = read_kernel(at.address, 8, l_.program.types->integer(8, false));
    return {l_.ir.bitfield(word, e.offset_bits % 8, e.bitfield_bits, e.bitfield_signed), type};
  }
  return {read_kernel(at.address, type->size, type), type};
}

}  // namespace dsched::codegen
