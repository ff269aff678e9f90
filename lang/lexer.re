// D lexer (re2c). See lexer.h for the modes. All reads are bounded by the input's end, so NUL
// bytes and binary input are ordinary (invalid) characters rather than terminators.
#include "lexer.h"

#include <cctype>
#include <cstring>
#include <optional>
#include <set>

#include "btf_types.h"
#include "builtins/builtin.h"
#include "diagnostics.h"

namespace dsched::lang {
namespace {

using Token = Parser::token::token_kind_type;

// The keyword an identifier spells, if any. Every identifier the lexer cuts is followed by a
// character that cannot continue it (or by the text's terminating NUL), so the longest match
// below ends exactly where the identifier does and never reads past that character.
std::optional<Token> keyword(const char* cursor) {
  /*!local:re2c
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = "cursor";
    re2c:yyfill:enable = 0;

    "self" { return Token::SELF; }
    "if" { return Token::IF; }
    "else" { return Token::ELSE; }
    "this" { return Token::THIS; }
    "inline" { return Token::INLINE; }
    "translator" { return Token::TRANSLATOR; }
    "xlate" { return Token::XLATE; }
    "sizeof" { return Token::SIZEOF; }
    "offsetof" { return Token::OFFSETOF; }
    "stringof" { return Token::STRINGOF; }
    "typedef" { return Token::TYPEDEF; }
    "struct" { return Token::STRUCT; }
    "union" { return Token::UNION; }
    "enum" { return Token::ENUM; }
    "void" { return Token::VOID; }
    "char" { return Token::CHAR; }
    "short" { return Token::SHORT; }
    "int" { return Token::INT; }
    "long" { return Token::LONG; }
    "signed" { return Token::SIGNED; }
    "unsigned" { return Token::UNSIGNED; }
    "float" { return Token::FLOAT; }
    "double" { return Token::DOUBLE; }
    "string" { return Token::STRING; }
    "const" { return Token::CONST; }
    "volatile" { return Token::VOLATILE; }
    "extern" { return Token::EXTERN; }
    "static" { return Token::STATIC; }
    [a-zA-Z0-9_]+ { return std::nullopt; }
    * { return std::nullopt; }
  */
}

// Words D's grammar reserves without using them (C's statements, and DTrace's own).
bool is_reserved_word(const std::string& word) {
  static const std::set<std::string> reserved = {
      "auto",    "break",  "case",     "continue", "counter", "default", "do",       "for",    "goto",
      "import",  "probe",  "provider", "register", "restrict", "return", "switch",   "userland", "while"};
  return reserved.count(word) > 0;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Keywords that begin a declaration between clauses.
bool starts_declaration(Token token) {
  switch (token) {
    case Token::XLATE: case Token::SIZEOF: case Token::OFFSETOF: case Token::STRINGOF:
    case Token::IF: case Token::ELSE:
      return false;
    default:
      return true;
  }
}

bool is_identifier(const std::string& word) {
  if (word.empty() || !(std::isalpha((unsigned char)word[0]) || word[0] == '_')) return false;
  for (char c : word)
    if (!(std::isalnum((unsigned char)c) || c == '_')) return false;
  return true;
}

// Directives cpp (-C) would have handled: its conditionals and macros.
bool is_cpp_directive(const std::string& name) {
  static const std::set<std::string> kCpp{"include", "define", "undef", "if", "ifdef", "ifndef", "elif", "else",
                                          "endif",   "warning"};
  return kCpp.contains(name);
}

bool is_probe_char(char c) {
  return c != '\0' && (std::isalnum((unsigned char)c) || std::strchr("_.$*?![]:-+\\`", c) != nullptr);
}

constexpr int kMaxNesting = 256;

}  // namespace

Lexer::Lexer(const std::string& text, uint32_t file, ParseContext& ctx)
    : text_(text), cursor_(text.data()), limit_(text.data() + text.size()), file_(file),
      ctx_(ctx) {}

SourcePos Lexer::position(const char* at) const { return SourcePos{file_, uint32_t(at - text_.data())}; }

SourceRange Lexer::range(const char* begin, const char* end) {
  token_begin_ = begin;
  token_end_ = end;
  SourceRange r;
  r.begin = position(begin);
  r.end = position(end);
  return r;
}

SourceRange Lexer::extend(SourceRange start) {
  token_begin_ = text_.data() + start.begin.offset;
  token_end_ = cursor_;
  start.end = position(cursor_);
  return start;
}

std::string Lexer::describe_current_token() const {
  if (at_end_ || !token_begin_) return "syntax error near end of input";
  std::string token(token_begin_, token_end_);
  return "syntax error near \"" + printable(token) + "\"";
}

bool Lexer::skip_space_and_comments() {
  for (;;) {
    while (cursor_ < limit_ && is_space(*cursor_)) ++cursor_;
    if (cursor_ >= limit_) return false;
    if (limit_ - cursor_ >= 2 && cursor_[0] == '/' && cursor_[1] == '*') {
      const char* start = cursor_;
      const char* close = static_cast<const char*>(memmem(cursor_ + 2, limit_ - cursor_ - 2, "*/", 2));
      if (!close) fail(range(start, start + 2), ErrTag::D_SYNTAX, "unterminated comment");
      // Comments do not nest: an opening inside one is refused rather than silently ignored.
      if (const void* nested = memmem(cursor_ + 2, close - cursor_ - 2 + 1, "/*", 2)) {
        const char* at = static_cast<const char*>(nested);
        fail(range(at, at + 2), ErrTag::D_SYNTAX, "/* encountered inside a comment");
      }
      cursor_ = close + 2;
      continue;
    }
    if (limit_ - cursor_ >= 2 && cursor_[0] == '/' && cursor_[1] == '/') {
      while (cursor_ < limit_ && *cursor_ != '\n') ++cursor_;
      continue;
    }
    return true;
  }
}

Parser::symbol_type Lexer::next() {
  return mode_ == Mode::Top ? top_token() : code_token();
}

Parser::symbol_type Lexer::top_token() {
  for (;;) {
    if (!skip_space_and_comments()) {
      at_end_ = true;
      return Parser::make_END_OF_INPUT(range(limit_, limit_));
    }
    const char* start = cursor_;
    char c = *cursor_;
    if (c == '#') {
      const char* eol = static_cast<const char*>(std::memchr(cursor_, '\n', limit_ - cursor_));
      cursor_ = eol ? eol : limit_;
      std::string line(start, cursor_);
      SourceRange loc = range(start, cursor_);
      // A null directive (a line with only #) is ignored, as C's preprocessor ignores it.
      if (line.find_first_not_of(" \t\f\v\r", 1) == std::string::npos) continue;
      // An interpreter line (#!/usr/sbin/dtrace -s), as DTrace's lexer discards one on any line.
      if (line.starts_with("#!")) continue;
      if (line.starts_with("#pragma")) return Parser::make_PRAGMA(line.substr(7), loc);
      // As in DTrace, #error and #ident mean what #pragma error and #pragma ident do.
      std::string directive = line.substr(1, line.find_first_of(" \t", 1) - 1);
      if (directive == "error" || directive == "ident") return Parser::make_PRAGMA(" " + line.substr(1), loc);
      // Well-formed line markers were taken out before the lexer (frontend.cc).
      if (directive == "line" || directive.empty() || std::isdigit(static_cast<unsigned char>(directive[0])))
        fail(loc, ErrTag::D_PRAGMA_MALFORM, "malformed #line <line> [ [\"file\"] state ]");
      if (is_cpp_directive(directive))
        fail(loc, ErrTag::D_PRAGCTL_INVAL, "preprocessor directive " + printable(line, 30) +
                      " needs the C preprocessor: run with -C");
      fail(loc, ErrTag::D_PRAGCTL_INVAL, "invalid control directive: #" + printable(directive, 30));
    }
    switch (c) {
      case ',': ++cursor_; return punctuation(',', range(start, cursor_));
      case ';': ++cursor_; return punctuation(';', range(start, cursor_));
      case '/':
        ++cursor_;
        mode_ = Mode::Predicate;
        nesting_ = 0;
        return Parser::make_PRED_BEGIN(range(start, cursor_));
      case '{':
        ++cursor_;
        mode_ = Mode::Body;
        brace_depth_ = 1;
        return punctuation('{', range(start, cursor_));
      default: break;
    }
    if (!is_probe_char(c)) {
      ++cursor_;
      SourceRange loc = range(start, cursor_);
      if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
        fail(loc, ErrTag::D_SYNTAX, "invalid character " + printable(std::string(1, c)));
      return Parser::symbol_type(int((unsigned char)c), loc);
    }
    while (cursor_ < limit_ && is_probe_char(*cursor_)) ++cursor_;
    std::string word(start, cursor_);
    SourceRange loc = range(start, cursor_);
    if (word == "provider") {  // a provider declaration, parsed as declarations are
      mode_ = Mode::Declaration;
      brace_depth_ = 0;
      nesting_ = 0;
      return Parser::make_PROVIDER(loc);
    }
    if (is_identifier(word)) {
      std::optional<Token> token = keyword(word.c_str());
      bool kernel_type = !token && !ctx_.typedef_names.count(word) && declares_kernel_type(word);
      if ((token && starts_declaration(*token)) || ctx_.typedef_names.count(word) || kernel_type) {
        mode_ = Mode::Declaration;
        brace_depth_ = 0;
        nesting_ = 0;
        if (kernel_type) return Parser::make_TYPENAME(std::move(word), loc);
        return identifier(std::move(word), start, loc);
      }
    }
    return Parser::make_PROBEDESC(word, loc);
  }
}

bool Lexer::follows_member_access(const char* p) const {
  while (p > text_.data() && is_space(p[-1])) --p;
  return p > text_.data() && (p[-1] == '.' || (p[-1] == '>' && p - 1 > text_.data() && p[-2] == '-'));
}

bool Lexer::predicate_ends_here() const {
  // A "/" at nesting level 0 closes the predicate when a body, the end, or ";" follows.
  const char* p = cursor_;
  for (;;) {
    while (p < limit_ && is_space(*p)) ++p;
    if (p >= limit_) return true;
    if (limit_ - p >= 2 && p[0] == '/' && p[1] == '*') {
      const char* close = static_cast<const char*>(memmem(p + 2, limit_ - p - 2, "*/", 2));
      if (!close) return true;
      p = close + 2;
      continue;
    }
    return *p == '{' || *p == ';';
  }
}

std::string_view Lexer::previous_word(const char* p) const {
  while (p > text_.data() && is_space(p[-1])) --p;
  const char* end = p;
  while (p > text_.data() && (std::isalnum((unsigned char)p[-1]) || p[-1] == '_')) --p;
  return std::string_view(p, size_t(end - p));
}

bool Lexer::follows_tag_keyword(const char* p) const {
  std::string_view previous = previous_word(p);
  return previous == "struct" || previous == "union" || previous == "enum";
}

// Where a declaration's type may begin: after ";", "{", "(", ",", "<" (a translator's input) or
// a qualifier or storage class. After a type comes the declarator's name; after "=" an inline's
// value, which is code.
bool Lexer::begins_declaration_type(const char* p) const {
  std::string_view previous = previous_word(p);
  static const std::set<std::string_view> kBeforeType{"const",  "volatile", "restrict", "extern", "static",
                                                       "register", "typedef", "inline", "self",  "this"};
  if (!previous.empty()) return kBeforeType.contains(previous);
  while (p > text_.data() && is_space(p[-1])) --p;
  return p == text_.data() || std::strchr(";{(,<}", p[-1]);
}

// A word that names a kernel typedef reads as a type name where C could read one, as DTrace's
// lexer decides: not after "->", "." or a tag keyword, not once the script has used the word as a
// variable, and not where what follows (=, ++, --, [, ; or a "," outside parentheses) makes it one.
// In code a type name can only be cast to, measured or translated to, `(T)`, `(T *)`, `xlate<T>`,
// so only there, and where a declaration's type begins, is the kernel's list of typedefs read.
bool Lexer::names_kernel_type(const std::string& word, const char* start) {
  if (ctx_.library || ctx_.identifiers.contains(word) || follows_member_access(start) || follows_tag_keyword(start))
    return false;
  const char* p = cursor_;
  while (p < limit_ && is_space(*p)) ++p;
  auto at = [&](size_t i) { return p + i < limit_ ? p[i] : '\0'; };
  bool variable = at(0) == '[' || at(0) == ';' || (at(0) == ',' && nesting_ == 0) || (at(0) == '=' && at(1) != '=') ||
                  ((at(0) == '+' || at(0) == '-') && at(1) == at(0));
  if (variable) {
    ctx_.identifiers.insert(word);
    return false;
  }
  if (!(mode_ == Mode::Declaration && begins_declaration_type(start))) {
    const char* before = start;
    while (before > text_.data() && is_space(before[-1])) --before;
    bool opens = before > text_.data() && (before[-1] == '(' || before[-1] == '<');
    if (!opens || !(at(0) == ')' || at(0) == '*' || at(0) == '>') || find_builtin_variable(word)) return false;
  }
  const BtfTypes* btf = ctx_.types.btf(nullptr);
  return btf && btf->has_typedef(word);
}

// At the top level, a kernel typedef's name followed by a declarator starts a declaration
// (`loff_t last;`), where a probe description would be followed by "{", "/" or ",".
bool Lexer::declares_kernel_type(const std::string& word) {
  const char* p = cursor_;
  while (p < limit_ && is_space(*p)) ++p;
  if (p == limit_ || !(*p == '*' || *p == '_' || std::isalpha((unsigned char)*p))) return false;
  const BtfTypes* btf = ctx_.library ? nullptr : ctx_.types.btf(nullptr);
  return btf && btf->has_typedef(word);
}

Parser::symbol_type Lexer::identifier(std::string word, const char* start, SourceRange loc) {
  if (std::optional<Token> token = keyword(word.c_str())) return Parser::symbol_type(*token, loc);
  if (ctx_.typedef_names.count(word) || (mode_ != Mode::Top && names_kernel_type(word, start)))
    return Parser::make_TYPENAME(std::move(word), loc);
  return Parser::make_IDENT(std::move(word), loc);
}

Parser::symbol_type Lexer::punctuation(int token, SourceRange loc) {
  return Parser::symbol_type(token, loc);
}

Parser::symbol_type Lexer::code_token() {
  if (!skip_space_and_comments()) {
    at_end_ = true;
    return Parser::make_END_OF_INPUT(range(limit_, limit_));
  }
  const char* start = cursor_;
  const char* marker = nullptr;
  auto loc = [&] { return range(start, cursor_); };
  /*!re2c
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = "cursor_";
    re2c:define:YYLIMIT = "limit_";
    re2c:yyfill:enable = 0;
    re2c:eof = 0;
    re2c:define:YYMARKER = "marker";

    ident = [a-zA-Z_][a-zA-Z0-9_]*;
    integer = ([1-9][0-9]* | "0" [0-7]* | "0" [xX] [0-9a-fA-F]+) [uUlL]*;

    $ { at_end_ = true; return Parser::make_END_OF_INPUT(range(limit_, limit_)); }
    ident {
      std::string word(start, cursor_);
      if (word == "probe" && mode_ == Mode::Declaration && !follows_member_access(start))  // in a provider
        return Parser::make_PROBE(loc());
      // D reserves these for statements it does not have; after -> or . they name a member.
      if (is_reserved_word(word) && !follows_member_access(start))
        fail(loc(), ErrTag::D_SYNTAX, "syntax error near \"" + word + "\": " + word + " is a reserved word");
      return identifier(std::move(word), start, loc());
    }
    ident? "`" ident {  // a kernel symbol, with or without its module: `max_pfn, vmlinux`max_pfn
      const char* quote = static_cast<const char*>(memchr(start, '`', size_t(cursor_ - start)));
      return Parser::make_IDENT(std::string(quote, cursor_), loc());
    }
    integer { return number(start, loc()); }
    [0-9] [a-zA-Z0-9_]* { fail(loc(), ErrTag::D_INT_DIGIT, "invalid integer constant " + printable(std::string(start, cursor_))); }
    [0-9]+ "." [0-9]* { fail(loc(), ErrTag::D_SYNTAX, "floating-point constants are not supported"); }
    "@" ident { return Parser::make_AGG(std::string(start + 1, cursor_), loc()); }
    "@" { return Parser::make_AGG("", loc()); }
    "$" "$"? ([0-9]+ | ident) | "$#" { return Parser::make_MACRO(std::string(start, cursor_), loc()); }
    ["] { return string_literal(loc()); }
    ['] { return char_literal(loc()); }
    "->" { return Parser::make_ARROW(loc()); }
    "..." { return Parser::make_ELLIPSIS(loc()); }
    "++" { return Parser::make_INC(loc()); }
    "--" { return Parser::make_DEC(loc()); }
    "<<=" { return Parser::make_SHL_ASSIGN(loc()); }
    ">>=" { return Parser::make_SHR_ASSIGN(loc()); }
    "<<" { return Parser::make_SHL(loc()); }
    ">>" { return Parser::make_SHR(loc()); }
    "<=" { return Parser::make_LE(loc()); }
    ">=" { return Parser::make_GE(loc()); }
    "==" { return Parser::make_EQ(loc()); }
    "!=" { return Parser::make_NE(loc()); }
    "&&" { return Parser::make_LAND(loc()); }
    "||" { return Parser::make_LOR(loc()); }
    "^^" { return Parser::make_LXOR(loc()); }
    "*=" { return Parser::make_MUL_ASSIGN(loc()); }
    "/=" { return Parser::make_DIV_ASSIGN(loc()); }
    "%=" { return Parser::make_MOD_ASSIGN(loc()); }
    "+=" { return Parser::make_ADD_ASSIGN(loc()); }
    "-=" { return Parser::make_SUB_ASSIGN(loc()); }
    "&=" { return Parser::make_AND_ASSIGN(loc()); }
    "^=" { return Parser::make_XOR_ASSIGN(loc()); }
    "|=" { return Parser::make_OR_ASSIGN(loc()); }
    [([] {
      if (++nesting_ > kMaxNesting) fail(loc(), ErrTag::D_UNKNOWN, "expression nested too deeply");
      return punctuation(*start, loc());
    }
    [)\]] {
      if (nesting_ > 0) --nesting_;
      return punctuation(*start, loc());
    }
    "/" {
      if (mode_ == Mode::Predicate && nesting_ == 0 && predicate_ends_here()) {
        mode_ = Mode::Top;
        return Parser::make_PRED_END(loc());
      }
      return punctuation('/', loc());
    }
    "{" {
      if (++brace_depth_ > kMaxNesting) fail(loc(), ErrTag::D_UNKNOWN, "braces nested too deeply");
      return punctuation('{', loc());
    }
    "}" {
      if (--brace_depth_ <= 0 && mode_ == Mode::Body) mode_ = Mode::Top;
      return punctuation('}', loc());
    }
    ";" {
      if (mode_ == Mode::Declaration && brace_depth_ <= 0) mode_ = Mode::Top;
      return punctuation(';', loc());
    }
    [-+*%<>=!~&|^?:,.] { return punctuation(*start, loc()); }
    "#" { fail(loc(), ErrTag::D_SYNTAX, "preprocessor directives are only allowed between clauses"); }
    * { fail(loc(), ErrTag::D_SYNTAX, "invalid character " + printable(std::string(start, cursor_))); }
  */
}

Parser::symbol_type Lexer::number(const char* start, SourceRange loc) {
  std::optional<IntToken> token = integer_constant(std::string_view(start, cursor_ - start), loc);
  if (!token) fail(loc, ErrTag::D_INT_DIGIT, "invalid integer constant " + printable(std::string(start, cursor_)));
  return Parser::make_INTEGER(*token, loc);
}

int Lexer::escape(const char** cursor, SourceRange at) {
  const char* p = *cursor;  // just after the backslash
  if (p >= limit_) fail(at, ErrTag::D_SYNTAX, "unterminated escape sequence");
  char c = *p++;
  int value;
  switch (c) {
    case 'n': value = '\n'; break;
    case 't': value = '\t'; break;
    case 'r': value = '\r'; break;
    case 'a': value = '\a'; break;
    case 'b': value = '\b'; break;
    case 'f': value = '\f'; break;
    case 'v': value = '\v'; break;
    case '\\': case '\'': case '"': case '?': value = c; break;
    case 'x': {
      value = 0;
      int digits = 0;
      while (p < limit_ && std::isxdigit((unsigned char)*p) && digits < 2) {
        value = value * 16 + (std::isdigit((unsigned char)*p) ? *p - '0' : std::tolower(*p) - 'a' + 10);
        ++p;
        ++digits;
      }
      break;  // \x without digits is 0, as DTrace reads it
    }
    default:
      if (c >= '0' && c <= '7') {
        value = c - '0';
        for (int i = 0; i < 2 && p < limit_ && *p >= '0' && *p <= '7'; ++i) value = value * 8 + (*p++ - '0');
        value &= 0xff;  // \400 is a char, as in DTrace
        break;
      }
      // DTrace keeps an escape it does not know as written: the backslash, then the character.
      value = '\\';
      --p;
  }
  *cursor = p;
  return value;
}

Parser::symbol_type Lexer::string_literal(SourceRange start) {
  std::string value;
  const char* p = cursor_;
  for (;;) {
    if (p >= limit_ || *p == '\n') fail(start, ErrTag::D_STR_NL, "unterminated string");
    char c = *p++;
    if (c == '"') break;
    if (c == '\\') {
      SourceRange at = range(p - 1, p);
      value.push_back(char(escape(&p, at)));
    } else {
      value.push_back(c);
    }
  }
  cursor_ = p;
  return Parser::make_STRING_LITERAL(value, extend(start));
}

Parser::symbol_type Lexer::char_literal(SourceRange start) {
  const char* p = cursor_;
  std::vector<int> chars;
  for (;;) {
    if (p >= limit_ || *p == '\n') fail(start, ErrTag::D_CHR_NL, "unterminated character constant");
    char c = *p++;
    if (c == '\'') break;
    chars.push_back(c == '\\' ? escape(&p, range(p - 1, p)) : (unsigned char)c);
  }
  cursor_ = p;
  SourceRange loc = extend(start);
  if (chars.empty()) fail(loc, ErrTag::D_CHR_NULL, "empty character constant");
  if (chars.size() > sizeof(uint64_t))
    fail(loc, ErrTag::D_CHR_OFLOW, "character constant is too long: at most 8 characters");
  IntToken token;
  if (chars.size() == 1) {
    token.value = uint64_t(int64_t(int8_t(chars[0])));
  } else {
    // A multi-character constant packs its bytes, the first the most significant, as C compilers do.
    for (char c : chars) token.value = token.value << 8 | uint8_t(c);
  }
  // An int, as in C; one of more than four characters needs a long.
  token.size = chars.size() > 4 ? 8 : 4;
  return Parser::make_INTEGER(token, loc);
}

void parse_source(const std::string& text, uint32_t file, ParseContext& ctx) {
  Lexer lexer(text, file, ctx);
  Parser parser(lexer, ctx);
  parser.parse();
}

std::optional<IntToken> integer_constant(std::string_view text, SourceRange loc) {
  size_t i = 0;
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    i = 2;
  } else if (!text.empty() && text[0] == '0') {
    base = 8;
  } else if (text.empty() || !std::isdigit((unsigned char)text[0])) {
    return std::nullopt;
  }
  auto digit_value = [base](char c) {
    int digit = std::isdigit((unsigned char)c) ? c - '0' : std::isxdigit((unsigned char)c) ? std::tolower(c) - 'a' + 10 : 99;
    return digit < base ? digit : -1;
  };
  unsigned __int128 value = 0;
  bool overflow = false;
  for (; i < text.size() && digit_value(text[i]) >= 0; ++i) {
    value = value * base + digit_value(text[i]);
    if (value > UINT64_MAX) overflow = true;
  }
  std::string suffix(text.substr(i));
  if (suffix.find_first_not_of("uUlL") != std::string::npos) return std::nullopt;
  int u = 0, l = 0;
  for (char c : suffix) (c == 'u' || c == 'U') ? ++u : ++l;
  const std::string spelled(text);
  // As DTrace's lexer reads them: an optional u first, then at most two l.
  const bool u_first = !u || suffix[0] == 'u' || suffix[0] == 'U';
  if (u > 1 || l > 2 || !u_first) fail(loc, ErrTag::D_SYNTAX, "invalid integer suffix " + suffix);
  if (overflow) fail(loc, ErrTag::D_INT_OFLOW, "integer constant " + spelled + " is too large");
  uint64_t v = uint64_t(value);
  IntToken token;
  token.value = v;
  bool fits_int = v <= INT32_MAX, fits_uint = v <= UINT32_MAX, fits_long = v <= INT64_MAX;
  // As in C, a decimal constant without u is signed: past LLONG_MAX it has no type.
  if (base == 10 && !u && !fits_long)
    fail(loc, ErrTag::D_INT_OFLOW, "integer constant " + spelled + " is too large for long long");
  if (u) {
    token.is_signed = false;
    token.size = (l == 0 && fits_uint) ? 4 : 8;
  } else if (l) {
    token.is_signed = fits_long;
    token.size = 8;
  } else if (fits_int) {
    token.size = 4;
  } else if (base != 10 && fits_uint) {
    token.size = 4;
    token.is_signed = false;
  } else {
    token.size = 8;
    token.is_signed = fits_long;
  }
  return token;
}

bool is_plain_identifier(const std::string& word) { return is_identifier(word) && !keyword(word.c_str()); }

}  // namespace dsched::lang
