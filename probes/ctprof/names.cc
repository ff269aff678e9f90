#include "names.h"

namespace dsched::ctprof {
namespace {

bool is_separator(char c) {
  switch (c) {
    case '.': case '-': case '_': case '/': case ':': case '@': case '+': case '[': case ']':
    case ' ':
      return true;
  }
  return false;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

template <typename Pred>
std::size_t run_length(std::string_view s, std::size_t from, Pred p) {
  std::size_t i = from;
  while (i < s.size() && p(s[i])) ++i;
  return i - from;
}

void append_token(std::string_view tok, std::string& out) {
  const std::size_t digits = run_length(tok, 0, is_digit);
  if (digits == tok.size()) {
    out += "{N}";
    return;
  }
  const bool all_hex = run_length(tok, 0, is_hex) == tok.size();
  const bool has_digit = tok.find_first_of("0123456789") != std::string_view::npos;
  if (all_hex && has_digit && tok.size() >= 2) {
    out += "{H}";
    return;
  }
  const std::size_t letters = run_length(tok, 0, is_letter);
  if (letters > 0 && letters + run_length(tok, letters, is_digit) == tok.size() &&
      letters < tok.size()) {
    out.append(tok.substr(0, letters));
    out += "{N}";
    return;
  }
  if (digits > 0 && digits + run_length(tok, digits, is_letter) == tok.size()) {
    out += "{N}";
    out.append(tok.substr(digits));
    return;
  }
  out.append(tok);
}

}  // namespace

std::string normalize_name(std::string_view name) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && !is_separator(name[i])) continue;
    if (i > start) append_token(name.substr(start, i - start), out);
    if (i < name.size()) out += name[i];
    start = i + 1;
  }
  return out;
}

std::optional<GroupBy> find_group_by(std::string_view name) {
  for (GroupBy g : {GroupBy::All, GroupBy::Pcomm, GroupBy::Comm, GroupBy::CommExact,
                    GroupBy::Cgroup})
    if (group_by_name(g) == name) return g;
  return std::nullopt;
}

std::string_view group_by_name(GroupBy g) {
  switch (g) {
    case GroupBy::All: return "all";
    case GroupBy::Pcomm: return "pcomm";
    case GroupBy::Comm: return "comm";
    case GroupBy::CommExact: return "comm-exact";
    case GroupBy::Cgroup: return "cgroup";
  }
  return "?";
}

std::string_view GroupKeys::raw(const ThreadRecord& t) const {
  switch (mode_) {
    case GroupBy::All: return "all";
    case GroupBy::Pcomm: return t.pcomm;
    case GroupBy::Comm:
    case GroupBy::CommExact: return t.comm;
    case GroupBy::Cgroup: return t.cgroup;
  }
  return {};
}

void GroupKeys::add(const Snapshot& snap) {
  if (mode_ != GroupBy::Pcomm && mode_ != GroupBy::Comm) return;
  for (const auto& t : snap.threads) ++pattern_threads_[normalize_name(raw(t))];
}

std::string GroupKeys::key(const ThreadRecord& t) const {
  if (mode_ != GroupBy::Pcomm && mode_ != GroupBy::Comm) return std::string(raw(t));
  std::string pattern = normalize_name(raw(t));
  auto it = pattern_threads_.find(pattern);
  return it != pattern_threads_.end() && it->second >= 2 ? pattern : std::string(raw(t));
}

}  // namespace dsched::ctprof
