#include "lang/library_selection.h"

#include <optional>

#include "lang/builtins/builtin.h"
#include "lang/provider.h"

namespace dsched::lang {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool starts_identifier(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool continues_identifier(char c) { return starts_identifier(c) || is_digit(c); }

// The library's tokens as far as declarations go: identifiers, and every other character that
// is not blank, with comments, literals, numbers and #-lines left out.
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}

  // The next token, or nullopt at the end; `is_identifier` says which kind it is.
  std::optional<std::string_view> next(bool& is_identifier) {
    while (at_ < text_.size()) {
      char c = text_[at_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++at_;
      } else if (c == '/' && text_.substr(at_, 2) == "/*") {
        size_t end = text_.find("*/", at_ + 2);
        at_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else if ((c == '/' && text_.substr(at_, 2) == "//") || (c == '#' && line_start())) {
        size_t end = text_.find('\n', at_);
        at_ = end == std::string_view::npos ? text_.size() : end;
      } else if (c == '"' || c == '\'') {
        skip_literal(c);
      } else if (is_digit(c)) {
        while (at_ < text_.size() && (continues_identifier(text_[at_]) || text_[at_] == '.')) ++at_;
      } else {
        size_t start = at_++;
        is_identifier = starts_identifier(c);
        if (is_identifier)
          while (at_ < text_.size() && continues_identifier(text_[at_])) ++at_;
        else if (std::string_view("=!<>").find(c) != std::string_view::npos && at_ < text_.size() && text_[at_] == '=')
          ++at_;  // a comparison, not an assignment
        return text_.substr(start, at_ - start);
      }
    }
    return std::nullopt;
  }

 private:
  bool line_start() const {
    size_t newline = text_.rfind('\n', at_);
    size_t from = newline == std::string_view::npos ? 0 : newline + 1;
    return text_.substr(from, at_ - from).find_first_not_of(" \t") == std::string_view::npos;
  }
  void skip_literal(char quote) {
    for (++at_; at_ < text_.size() && text_[at_] != quote; ++at_)
      if (text_[at_] == '\\') ++at_;
    ++at_;
  }

  std::string_view text_;
  size_t at_ = 0;
};

// The types the user's words lead to: a built-in variable's type and translation, and
// the argument types of the probes of a provider the words name (read-from-kernel and process
// providers have native arguments only).
std::vector<std::string> implied_types(const Words& words) {
  std::vector<std::string> implied;
  for (const BuiltinVariable* variable : all_builtin_variables()) {
    if (!words.contains(variable->name())) continue;
    implied.emplace_back(variable->type());
    if (auto translation = variable->translation()) implied.emplace_back(translation->output);
  }
  for (const Provider* provider : all_providers()) {
    if (provider->read_from_kernel() || provider->in_processes() || !words.contains(provider->name())) continue;
    for (const Probe& probe : provider->probes())
      for (const ProbeArg& arg : probe.args) implied.insert(implied.end(), {arg.native, arg.translated});
  }
  return implied;
}

}  // namespace

Words words_of(std::string_view text) {
  Words words;
  for (size_t i = 0; i < text.size();) {
    if (!starts_identifier(text[i]) || (i > 0 && continues_identifier(text[i - 1]))) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && continues_identifier(text[i])) ++i;
    words.emplace(text.substr(start, i - start));
  }
  return words;
}

Words declared_names(std::string_view library_text) {
  Words names;
  Tokens tokens(library_text);
  int depth = 0;        // braces
  int nesting = 0;      // parentheses and brackets
  int enum_depth = -1;  // the depth inside an enum's braces; -1 outside one
  bool enumerator_next = false;
  std::string_view previous, tag_keyword, tag;  // struct/union/enum, then its tag
  bool previous_is_identifier = false, is_identifier = false;
  while (auto token = tokens.next(is_identifier)) {
    std::string_view t = *token;
    char mark = !is_identifier && t.size() == 1 ? t[0] : 0;  // a one-character token
    // A file-scope declarator: the name before ; , [ or = (typedef ... NAME; inline T NAME = v;).
    if (depth == 0 && nesting == 0 && previous_is_identifier &&
        (mark == ';' || mark == ',' || mark == '[' || mark == '='))
      names.emplace(previous);
    if (mark == '(' || mark == '[') ++nesting;
    if (mark == ')' || mark == ']') --nesting;
    if (mark == '{') {
      if (!tag.empty()) names.emplace(tag);  // a definition, not a mention
      if (tag_keyword == "enum") {
        enum_depth = depth + 1;
        enumerator_next = true;
      }
      ++depth;
    } else if (mark == '}') {
      if (depth == enum_depth) enum_depth = -1;
      --depth;
    } else if (depth == enum_depth && mark == ',') {
      enumerator_next = true;
    } else if (depth == enum_depth && is_identifier && enumerator_next) {
      names.emplace(t);
      enumerator_next = false;
    }
    if (is_identifier && (t == "struct" || t == "union" || t == "enum")) {
      tag_keyword = t;
      tag = {};
    } else if (is_identifier && !tag_keyword.empty() && previous == tag_keyword) {
      tag = t;
    } else {
      tag_keyword = tag = {};
    }
    previous = t;
    previous_is_identifier = is_identifier;
  }
  return names;
}

std::vector<bool> needed_library_files(std::span<const std::string_view> library,
                                       std::span<const std::string_view> user_texts) {
  Words words;
  for (std::string_view text : user_texts) words.merge(words_of(text));
  const std::vector<std::string> implied = implied_types(words);  // the words below view them
  for (const std::string& type : implied) words.merge(words_of(type));
  std::vector<Words> declared;
  for (std::string_view text : library) declared.push_back(declared_names(text));
  std::vector<bool> needed(library.size(), false);
  // A needed file's own words may need further files: until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < library.size(); ++i) {
      if (needed[i]) continue;
      for (std::string_view name : declared[i]) {
        if (!words.contains(name)) continue;
        needed[i] = changed = true;
        words.merge(words_of(library[i]));
        break;
      }
    }
  }
  return needed;
}

}  // namespace dsched::lang
