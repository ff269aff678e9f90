#include "lang/library_selection.h"

#include <cctype>
#include <optional>

#include "lang/builtins/builtin.h"
#include "lang/provider.h"

namespace dsched::lang {
namespace {

bool starts_identifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool continues_identifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The library's tokens as far as declarations go: identifiers, and every other character that
// is not blank, with comments, literals, numbers and #-lines left out.
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}

  // The next token, or nullopt at the end; `is_identifier` says which kind it is.
  std::optional<std::string_view> next(bool& is_identifier) {
    while (at_ < text_.size()) {
      char c = text_[at_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++at_;
      } else if (text_.substr(at_, 2) == "/*") {
        size_t end = text_.find("*/", at_ + 2);
        at_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else if (text_.substr(at_, 2) == "//" || (c == '#' && line_start())) {
        size_t end = text_.find('\n', at_);
        at_ = end == std::string_view::npos ? text_.size() : end;
      } else if (c == '"' || c == '\'') {
        skip_literal(c);
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
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

// Words of the types the user's words lead to: a built-in variable's type and translation, and
// the argument types of the probes of a provider the words name (read-from-kernel and process
// providers have native arguments only).
void add_implied_words(std::unordered_set<std::string>& words) {
  std::vector<std::string> implied;
  for (const BuiltinVariable* variable : all_builtin_variables()) {
    if (!words.contains(std::string(variable->name()))) continue;
    implied.emplace_back(variable->type());
    if (auto translation = variable->translation()) implied.emplace_back(translation->output);
  }
  for (const Provider* provider : all_providers()) {
    if (provider->read_from_kernel() || provider->in_processes() || !words.contains(std::string(provider->name())))
      continue;
    for (const Probe& probe : provider->probes())
      for (const ProbeArg& arg : probe.args) implied.insert(implied.end(), {arg.native, arg.translated});
  }
  for (const std::string& type : implied) words.merge(words_of(type));
}

}  // namespace

std::unordered_set<std::string> words_of(std::string_view text) {
  std::unordered_set<std::string> words;
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

std::unordered_set<std::string> declared_names(std::string_view library_text) {
  std::unordered_set<std::string> names;
  Tokens tokens(library_text);
  int depth = 0;        // braces
  int nesting = 0;      // parentheses and brackets
  int enum_depth = -1;  // the depth inside an enum's braces; -1 outside one
  bool enumerator_next = false;
  std::string_view previous, tag_keyword, tag;  // struct/union/enum, then its tag
  bool previous_is_identifier = false, is_identifier = false;
  while (auto token = tokens.next(is_identifier)) {
    std::string_view t = *token;
    // A file-scope declarator: the name before ; , [ or = (typedef ... NAME; inline T NAME = v;).
    if (depth == 0 && nesting == 0 && previous_is_identifier && (t == ";" || t == "," || t == "[" || t == "="))
      names.emplace(previous);
    if (t == "(" || t == "[") ++nesting;
    if (t == ")" || t == "]") --nesting;
    if (t == "{") {
      if (!tag.empty()) names.emplace(tag);  // a definition, not a mention
      if (tag_keyword == "enum") {
        enum_depth = depth + 1;
        enumerator_next = true;
      }
      ++depth;
    } else if (t == "}") {
      if (depth == enum_depth) enum_depth = -1;
      --depth;
    } else if (depth == enum_depth && t == ",") {
      enumerator_next = true;
    } else if (depth == enum_depth && is_identifier && enumerator_next) {
      names.emplace(t);
      enumerator_next = false;
    }
    if (t == "struct" || t == "union" || t == "enum") {
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
  std::unordered_set<std::string> words;
  for (std::string_view text : user_texts) words.merge(words_of(text));
  add_implied_words(words);
  std::vector<std::unordered_set<std::string>> declared;
  for (std::string_view text : library) declared.push_back(declared_names(text));
  std::vector<bool> needed(library.size(), false);
  // A needed file's own words may need further files: until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < library.size(); ++i) {
      if (needed[i]) continue;
      for (const std::string& name : declared[i]) {
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
