// State shared by the lexer and the parser while reading the sources of one compile.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

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
  bool library = false;   // a file of the D library
  // Words the script used as variables: they no longer read as kernel type names.
  std::unordered_set<std::string> identifiers;

  // Builds a node from operands, refusing trees deeper than kMaxExpressionDepth.
  ExprPtr node(ExprKind kind, SourceRange loc, std::vector<ExprPtr> operands = {});
};

// The value and C type of an integer constant's text ("42", "0x1f", "10UL"); nullopt when the
// text is not one. Throws CompileError at `loc` for a bad suffix or a value with no type.
std::optional<IntToken> integer_constant(std::string_view text, SourceRange loc);

// Whether `word` is an identifier that is not a keyword.
bool is_plain_identifier(const std::string& word);

// Parses one source into ctx.tree; throws CompileError.
void parse_source(const std::string& text, uint32_t file, ParseContext& ctx);

// Combines the locations of two tokens.
inline SourceRange span(const SourceRange& a, const SourceRange& b) { return {a.begin, b.end}; }

}  // namespace dsched::lang
