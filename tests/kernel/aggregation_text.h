// Reading back what dsched printed: quantize/lquantize histograms (each under its key line, as
// DTrace prints them) and plain rows of whitespace-separated fields (count()/sum() aggregations,
// printa lines).
#pragma once

#include <cstdint>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace dsched::test {

struct Bucket {
  int64_t value = 0;  // the bucket's lower bound; for "< N" the largest value below N
  uint64_t count = 0;
};

struct Histogram {
  std::string key;  // the key line, trimmed; empty for an aggregation without keys
  std::vector<Bucket> buckets;

  uint64_t total() const {
    uint64_t sum = 0;
    for (const Bucket& bucket : buckets) sum += bucket.count;
    return sum;
  }
  uint64_t count_at_least(int64_t value) const {
    uint64_t sum = 0;
    for (const Bucket& bucket : buckets)
      if (bucket.value >= value) sum += bucket.count;
    return sum;
  }
  // The lowest bound of the highest bucket with a count; min() when all are empty.
  int64_t highest_nonempty() const {
    int64_t highest = std::numeric_limits<int64_t>::min();
    for (const Bucket& bucket : buckets)
      if (bucket.count) highest = std::max(highest, bucket.value);
    return highest;
  }
};

inline std::string trimmed(const std::string& text) {
  size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of `text` that start with `prefix`.
inline std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : lines_of(text))
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  return found;
}

inline std::vector<Histogram> parse_histograms(const std::string& text) {
  static const std::regex header(R"(^\s+value\s+-+ Distribution -+ count\s*$)");
  static const std::regex row(R"(^\s*(<|>=)?\s*(-?\d+) \|[@ ]*\s+(\d+)\s*$)");
  std::vector<Histogram> histograms;
  std::vector<std::string> lines = lines_of(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!std::regex_match(lines[i], header)) continue;
    Histogram histogram;
    if (i > 0) histogram.key = trimmed(lines[i - 1]);
    std::smatch match;
    for (++i; i < lines.size() && std::regex_match(lines[i], match, row); ++i) {
      int64_t bound = std::stoll(match[2]);
      histogram.buckets.push_back({match[1] == "<" ? bound - 1 : bound, std::stoull(match[3])});
    }
    --i;
    histograms.push_back(std::move(histogram));
  }
  return histograms;
}

// The histogram under `key`, or null.
inline const Histogram* find_histogram(const std::vector<Histogram>& histograms, const std::string& key) {
  for (const Histogram& histogram : histograms)
    if (histogram.key == key) return &histogram;
  return nullptr;
}

// Every non-blank line, split on whitespace.
inline std::vector<std::vector<std::string>> parse_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : lines_of(text)) {
    std::istringstream in(line);
    std::vector<std::string> fields;
    for (std::string field; in >> field;) fields.push_back(field);
    if (!fields.empty()) rows.push_back(std::move(fields));
  }
  return rows;
}

// The rows whose first field is `tag`, without it.
inline std::vector<std::vector<std::string>> rows_tagged(const std::string& text, const std::string& tag) {
  std::vector<std::vector<std::string>> tagged;
  for (auto& fields : parse_rows(text))
    if (fields[0] == tag) tagged.emplace_back(fields.begin() + 1, fields.end());
  return tagged;
}

}  // namespace dsched::test
