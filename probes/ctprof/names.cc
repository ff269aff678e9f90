#include "names.h"

#include <algorithm>
#include <vector>

namespace dsched::ctprof {
namespace {

bool is_separator(char c) {
  switch (c) {
    case '.':
    case '-':
    case '_':
    case '/':
    case ':':
    case '@':
    case '+':
    case '[':
    case ']':
    case ' ':
    case '\t': return true;
  }
  return false;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

template <typename Pred>
std::size_t run_length(std::string_view s, std::size_t from, Pred p) {
  std::size_t i = from;
  while (i < s.size() && p(s[i])) ++i;
  return i - from;
}

bool is_lower_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }

std::string classify_token(std::string_view tok) {
  const std::size_t digits = run_length(tok, 0, is_digit);
  if (digits == tok.size()) return "{N}";
  const bool has_digit = tok.find_first_of("0123456789") != std::string_view::npos;
  if (run_length(tok, 0, is_lower_hex) == tok.size() && has_digit && tok.size() >= 2) return "{H}";
  const std::size_t letters = run_length(tok, 0, is_letter);
  if (letters > 0 && letters < tok.size() &&
      letters + run_length(tok, letters, is_digit) == tok.size())
    return std::string(tok.substr(0, letters)) + "{N}";
  if (digits > 0 && digits + run_length(tok, digits, is_letter) == tok.size())
    return "{N}" + std::string(tok.substr(digits));
  return std::string(tok);
}

// A name cut into tokens and the separators between them: pieces alternate, is_token says which.
struct Pieces {
  std::vector<std::string_view> text;
  std::vector<bool> is_token;
};

Pieces split(std::string_view name) {
  Pieces p;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && !is_separator(name[i])) continue;
    if (i > start) {
      p.text.push_back(name.substr(start, i - start));
      p.is_token.push_back(true);
    }
    if (i < name.size()) {
      p.text.push_back(name.substr(i, 1));
      p.is_token.push_back(false);
    }
    start = i + 1;
  }
  return p;
}

// Layer 1: "name@<instance>.service" with an opaque instance (no '.', '_' or '-') -> "@{I}".
std::string systemd_template(std::string_view path) {
  std::string out;
  std::size_t pos = 0;
  while (pos < path.size()) {
    const auto at = path.find('@', pos);
    if (at == std::string_view::npos) break;
    const auto end = std::min(path.find('/', at), path.size());
    const std::string_view segment = path.substr(at + 1, end - at - 1);
    out.append(path.substr(pos, at + 1 - pos));
    if (segment.ends_with(".service")) {
      const auto instance = segment.substr(0, segment.size() - 8);
      const bool opaque =
          !instance.empty() && instance.find_first_of("._-") == std::string_view::npos;
      out += opaque ? std::string("{I}.service") : std::string(segment);
      pos = end;
    } else {
      pos = at + 1;
    }
  }
  out.append(path.substr(std::min(pos, path.size())));
  return out;
}

}  // namespace

std::string normalize_name(std::string_view name) {
  const Pieces p = split(name);
  std::string out;
  for (std::size_t i = 0; i < p.text.size(); ++i)
    out += p.is_token[i] ? classify_token(p.text[i]) : std::string(p.text[i]);
  return out;
}

std::optional<GroupBy> find_group_by(std::string_view name) {
  for (GroupBy g :
       {GroupBy::All, GroupBy::Pcomm, GroupBy::Comm, GroupBy::CommExact, GroupBy::Cgroup})
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

void CgroupNormalizer::add(const std::string& path) {
  key_of_.try_emplace(path);
  finished_ = false;
}

std::string CgroupNormalizer::key(const std::string& path) const {
  auto it = key_of_.find(path);
  return it != key_of_.end() && finished_ ? it->second : path;
}

void CgroupNormalizer::finish() {
  struct Member {
    std::string* key;
    std::string layer1;
  };
  std::unordered_map<std::string, std::vector<Member>> by_skeleton;
  for (auto& [path, key] : key_of_) {
    std::string layer1 = systemd_template(path);
    by_skeleton[normalize_name(layer1)].push_back({&key, std::move(layer1)});
  }
  for (auto& [skeleton, members] : by_skeleton) {
    if (members.size() == 1) {
      *members.front().key = skeleton;
      continue;
    }
    // Same skeleton: same token count and separators. Constant positions go back to literal.
    std::vector<Pieces> pieces;
    for (const auto& m : members) pieces.push_back(split(m.layer1));
    std::string key;
    const Pieces& first = pieces.front();
    for (std::size_t i = 0; i < first.text.size(); ++i) {
      const bool constant = std::all_of(pieces.begin(), pieces.end(), [&](const Pieces& p) {
        return p.text[i] == first.text[i];
      });
      key += !first.is_token[i] || constant ? std::string(first.text[i])
                                            : classify_token(first.text[i]);
    }
    for (auto& m : members) *m.key = key;
  }
  finished_ = true;
}

}  // namespace dsched::ctprof
