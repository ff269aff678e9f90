// Helpers for parsing the text of /proc, sysfs and cgroup files.
#pragma once

#include <charconv>
#include <string_view>

namespace dsched::ctprof {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

// The whole of `s` (spaces around it aside) as a number.
template <typename T>
bool to_int(std::string_view s, T& out) {
  s = trim(s);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// Calls fn(key, value) for each "key<sep>value" line, the key trimmed; lines without `sep` are
// skipped.
template <typename Fn>
void for_each_line(std::string_view text, char sep, Fn&& fn) {
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const auto line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    const auto at = line.find(sep);
    if (at != std::string_view::npos) fn(trim(line.substr(0, at)), line.substr(at + 1));
  }
}

}  // namespace dsched::ctprof
