// The D lexer. D's tokens depend on where they appear: between clauses a probe description such
// as "sched:::on-cpu" or "profile-997hz" is one token; inside predicates and bodies the usual C
// tokens apply, and a "/" closes a predicate only when the clause body follows it.
#pragma once
#include <cstdint>
#include <string>

#include "parser.hh"

namespace dsched::lang {

class Lexer {
 public:
  Lexer(const std::string& text, uint32_t file, ParseContext& ctx);

  Parser::symbol_type next();
  // "syntax error near "}"" for the token the parser stopped at.
  std::string describe_current_token() const;

 private:
  enum class Mode { Top, Declaration, Predicate, Body };

  Parser::symbol_type top_token();
  Parser::symbol_type code_token();
  Parser::symbol_type identifier(std::string word, const char* start, SourceRange loc);
  Parser::symbol_type number(const char* start, SourceRange loc);
  Parser::symbol_type string_literal(SourceRange start);
  Parser::symbol_type char_literal(SourceRange start);
  Parser::symbol_type punctuation(int token, SourceRange loc);
  bool skip_space_and_comments();  // false at end of input
  bool predicate_ends_here() const;
  bool follows_member_access(const char* p) const;  // after "." or "->": a member's name
  std::string_view previous_word(const char* p) const;  // "" when a word does not end there
  bool follows_tag_keyword(const char* p) const;     // after struct, union or enum: a tag
  bool begins_declaration_type(const char* p) const;
  bool names_kernel_type(const std::string& word, const char* start);
  bool declares_kernel_type(const std::string& word);
  int escape(const char** cursor, SourceRange at);
  SourceRange range(const char* begin, const char* end);
  SourceRange extend(SourceRange start);  // the current token from `start` to the cursor
  SourcePos position(const char* at) const;

  const std::string& text_;
  const char* cursor_;
  const char* limit_;
  uint32_t file_;
  ParseContext& ctx_;
  Mode mode_ = Mode::Top;
  int brace_depth_ = 0;
  int nesting_ = 0;  // open ( and [ in code
  const char* token_begin_ = nullptr;
  const char* token_end_ = nullptr;
  bool at_end_ = false;
};

}  // namespace dsched::lang
