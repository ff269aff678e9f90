// The D syntax tree. The parser builds it; sema resolves it in place, so that after a successful
// compile every Expr has `type` set and only the "typed" node kinds below remain.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "types.h"

namespace dsched::lang {

// A place in a source: line and column are worked out from the text when a message needs them.
struct SourcePos {
  uint32_t file = 0;    // index into the compile's source list
  uint32_t offset = 0;  // byte offset in that source
};
struct SourceRange {
  SourcePos begin, end;
};

enum class ExprKind {
  // Typed nodes (what sema leaves behind).
  IntLiteral,
  StringLiteral,
  Variable,    // a D variable: global scalar, global associative array, self->, this->
  Builtin,     // a built-in variable: timestamp, pid, curthread, arg0...
  ProbeArg,    // the native value of args[N] (id = N): for each probe P of the clause,
               // P->args[N].source says which value it is; a translated argument's input
  Unary,
  IncDec,
  Binary,
  Assign,
  Ternary,
  Cast,
  Member,      // s.m and p->m on D structs or kernel (BTF) types
  Index,       // array or pointer indexing (a single subscript after sema)
  Call,        // actions and subroutines
  AggRef,      // @name as an argument of printa(), normalize(), clear()...
  Xlate,       // xlate<T>(x); typed: a translated struct by value, operands = its members'
               // values in declaration order (an IntLiteral 0 where the translator has none)
  // Parse-only nodes, replaced by sema.
  Ident,
  MacroVar,    // $1, $$1, $pid, $target...
  SizeofType,
  SizeofExpr,
  Offsetof,
};

enum class VarScope { Global, ThreadLocal, ClauseLocal };

// Built-ins are descriptors (builtins/builtin.h); the tree points at them.
class Function;
class AggregatingFunction;
class BuiltinVariable;

enum class UnaryOp { Neg, Plus, Not, BitNot, Deref, AddressOf };
enum class BinaryOp {
  Mul, Div, Mod, Add, Sub, Shl, Shr, Lt, Le, Gt, Ge, Eq, Ne, BitAnd, BitXor, BitOr,
  LogAnd, LogXor, LogOr, Comma,
};
const char* unary_op_text(UnaryOp op);
const char* binary_op_text(BinaryOp op);
bool is_comparison(BinaryOp op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct TypeName;
using TypeNamePtr = std::shared_ptr<TypeName>;

struct Expr {
  ExprKind kind;
  SourceRange loc;
  const Type* type = nullptr;  // set by sema

  // Operands, by kind:
  //   Unary/Cast/SizeofExpr/Xlate/IncDec: [operand]   Binary/Assign: [lhs, rhs]
  //   Ternary: [cond, then, else]   Member: [base]   Index: [base, subscripts...]
  //   Call: [args...]   Variable: [keys...] (associative arrays)
  std::vector<ExprPtr> operands;

  uint64_t value = 0;      // IntLiteral (two's complement bits of a signed value)
  std::string text;        // StringLiteral value; Ident/MacroVar/Variable/Member/AggRef/Call name
  union {
    UnaryOp unary_op;
    BinaryOp binary_op;    // Binary; Assign: the compound operator when `compound`
    VarScope scope;
  };
  const Function* function = nullptr;        // Call, once checked
  const BuiltinVariable* variable = nullptr;  // Builtin
  bool compound = false;   // Assign: `op=`
  bool increment = false;  // IncDec: ++ rather than --
  bool prefix = false;     // IncDec: ++x rather than x++
  bool arrow = false;      // Member: p->m rather than s.m
  bool string_macro = false;  // MacroVar: $$name
  bool translator_input = false;  // a translator's input, substituted where its body names it
  int id = -1;             // Variable: index in its scope's table; AggRef: aggregation id;
                           // ProbeArg: argument index
  uint64_t offset_bits = 0;    // Member: offset of the member in the (pointed-to) record
  uint32_t bitfield_bits = 0;  // Member: bit-field width, 0 when not a bit-field
  bool bitfield_signed = false;  // Member: a bit-field of a signed type (read sign-extended);
                                 // its `type` is the promoted one (int when int holds it, as in C)
  TypeNamePtr type_name;   // Cast/SizeofType/Offsetof/Xlate before sema
  uint32_t depth = 1;      // height of this subtree as parsed (bounded by the parser)

  explicit Expr(ExprKind k, SourceRange l = {}) : kind(k), loc(l), binary_op(BinaryOp::Add) {}
  Expr* operand(size_t i) const { return operands[i].get(); }

  // A compile allocates and frees thousands of nodes; a free list of node-sized blocks serves
  // them in a few instructions instead of a trip through malloc.
  static void* operator new(size_t size);
  static void operator delete(void* node, size_t size);
};

// Whether a typed expression names memory of a D variable: a struct or array held in one, or a
// member or element of it (rather than kernel memory).
bool is_d_object(const Expr& e);
// The pointer through which a checked location is reached when it is not a D variable or a part
// of one (*p, p[i], p->m, p->a[i]); null otherwise.
const Expr* stored_through(const Expr& e);
// Whether a checked expression is C's null pointer constant: 0 or NULL.
inline bool is_null_constant(const Expr& e) {
  return e.kind == ExprKind::IntLiteral && e.value == 0 && e.type && e.type->is_scalar();
}

ExprPtr make_expr(ExprKind kind, SourceRange loc);
ExprPtr make_int(uint64_t value, const Type* type, SourceRange loc);
// Deep copy; used to expand inlines and translator members at each use. `replace` may give a node
// to use instead of the copy of a subtree (null: copy it).
ExprPtr clone(const Expr& expr, const std::function<ExprPtr(const Expr&)>& replace = {});

// ---- Declarations (parse form; sema turns them into Types) ----

struct Declarator;
struct EnumSpec;
struct RecordSpec;

enum class Storage { None, Typedef, Inline, Extern, Static, Self, This };

struct DeclSpec {
  enum class Base { None, Void, Char, Int, Float, Double, String, Record, Enum, Named };
  Storage storage = Storage::None;
  Base base = Base::None;
  int signed_count = 0, unsigned_count = 0, short_count = 0, long_count = 0;
  std::string name;  // Named: the typedef name
  std::shared_ptr<RecordSpec> record;
  std::shared_ptr<EnumSpec> enumeration;
  SourceRange loc;
};

struct ArraySuffix {
  std::shared_ptr<Expr> size;            // [N]; null for [] and for associative arrays
  std::vector<TypeNamePtr> key_types;    // [int, string]: an associative array declaration
  bool function = false;                 // (parameters): a function's prototype
  std::vector<TypeNamePtr> parameters;   // its parameter types
  SourceRange loc;
};

struct Declarator {
  std::string name;                      // empty in a type name (abstract declarator)
  int pointer_depth = 0;                 // stars before the name
  std::vector<ArraySuffix> suffixes;     // after the name, left to right
  std::shared_ptr<Declarator> inner;     // ( declarator ): applies to the type built outside it
  SourceRange loc;
};

struct TypeName {
  DeclSpec spec;
  Declarator declarator;
  SourceRange loc;
};

struct FieldDecl {
  DeclSpec spec;
  Declarator declarator;           // no name: an unnamed bit-field (padding)
  std::shared_ptr<Expr> bit_width;  // `name : width`; null when not a bit-field
};
struct RecordSpec {
  TypeKind kind = TypeKind::Struct;
  std::string tag;
  bool has_body = false;
  std::vector<FieldDecl> fields;
  SourceRange loc;
};
struct Enumerator {
  std::string name;
  std::shared_ptr<Expr> value;  // null: previous + 1
  SourceRange loc;
};
struct EnumSpec {
  std::string tag;
  bool has_body = false;
  std::vector<Enumerator> enumerators;
  SourceRange loc;
};

struct InitDeclarator {
  Declarator declarator;
  ExprPtr init;  // inline declarations only
};

// ---- Statements ----

// If statements are checked in place and then lowered into predicated clauses (conditionals.cc):
// the code generator never sees one.
enum class StmtKind { Expr, Aggregate, If };

struct Stmt {
  StmtKind kind;
  SourceRange loc;
  ExprPtr expr;                  // Expr statements; If: the condition
  std::vector<std::unique_ptr<Stmt>> then_body, else_body;  // If

  // Aggregate: @name[keys] = func(args)
  std::string agg_name;          // "" for @
  int agg_id = -1;               // set by sema
  std::vector<ExprPtr> keys;
  std::string func_text;         // as written, checked by sema
  const AggregatingFunction* aggregating = nullptr;  // set by sema
  std::vector<ExprPtr> args;     // the value argument (if any), then the constant parameters
  ExprPtr increment;             // quantize/lquantize/llquantize's optional increment (else null)
  SourceRange func_loc;

  explicit Stmt(StmtKind k, SourceRange l) : kind(k), loc(l) {}
};
using StmtPtr = std::unique_ptr<Stmt>;
// Deep copy, as written (before sema).
StmtPtr clone(const Stmt& stmt);

// ---- Top-level items ----

struct ProbeDescText {
  std::string text;
  SourceRange loc;
};

struct ClauseSyntax {
  std::vector<ProbeDescText> descriptions;
  ExprPtr predicate;
  std::vector<StmtPtr> body;
  SourceRange loc;
};

struct PragmaSyntax {
  std::string text;  // everything after "#pragma"
  SourceRange loc;
};

struct DeclarationSyntax {
  DeclSpec spec;
  std::vector<InitDeclarator> declarators;
  SourceRange loc;
  bool from_library = false;  // the D library's: a #pragma of the script may not change it
};

struct TranslatorMemberSyntax {
  std::string name;
  ExprPtr value;
  SourceRange loc;
};
struct TranslatorSyntax {
  TypeNamePtr output;
  TypeNamePtr input;
  std::string input_name;
  std::vector<TranslatorMemberSyntax> members;
  SourceRange loc;
  bool from_library = false;  // the D library's: its members are checked where a script reads them
};

// provider p { probe a(int x) : (char *x); }; declares a user-space provider's interface, as
// dtrace -h and -G read it. A script may declare one; it enables nothing.
struct ProbeParameterSyntax {
  TypeNamePtr type;
  std::string name;  // "" when not named
  SourceRange loc;
};
struct ProviderProbeSyntax {
  std::string name;  // as written: __ still stands for -
  std::vector<ProbeParameterSyntax> native;
  std::optional<std::vector<ProbeParameterSyntax>> translated;  // after ':', when given
  SourceRange loc;
};
struct ProviderSyntax {
  std::string name;
  std::vector<ProviderProbeSyntax> probes;
  SourceRange loc;
};

using TopItem = std::variant<ClauseSyntax, PragmaSyntax, DeclarationSyntax, TranslatorSyntax, ProviderSyntax>;

struct ParseTree {
  std::vector<TopItem> items;
  std::optional<SourcePos> script_end;  // a user's script (not the library): where its text ends
};

}  // namespace dsched::lang
