// State shared by the lexer and the parser while reading the sources of one compile.
#pragma once
#include <cstdint>
#include <unordered_set>
#include <string>

#include "ast.h"

namespace dsched::lang {

// Deeper expressions are refused, so that every later recursive walk stays shallow.
constexpr uint32_t kMaxExpressionDepth = 400;

struct IntToken {
  uint64_t value = 0;
  uint8_t size = 4;
  bool is_signed = true;
};

struct ParseContext {
  TypeUniverse& types;
  std::unordered_set<std::string>& typedef_names;  // the lexer's C "typedef name" feedback
  ParseTree& tree;
  bool from_file = true;  // a script file, not a -n/-P/-m/-f text

  // Builds a node from operands, refusing trees deeper than kMaxExpressionDepth.
  ExprPtr node(ExprKind kind, SourceRange loc, std::vector<ExprPtr> operands = {});
};

// Parses one source into ctx.tree; throws CompileError.
void parse_source(const std::string& text, uint32_t file, ParseContext& ctx);

// Combines the locations of two tokens.
inline SourceRange span(const SourceRange& a, const SourceRange& b) { return {a.begin, b.end}; }

}  // namespace dsched::lang
