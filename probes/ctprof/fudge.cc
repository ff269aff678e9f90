#include "fudge.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace dsched::ctprof {
namespace {

using TypeSet = std::set<std::pair<std::string, std::string>>;

std::map<std::string, TypeSet> types_by_key(const Snapshot& snap, const GroupKeys& keys) {
  std::map<std::string, TypeSet> out;
  for (const auto& t : snap.threads)
    out[keys.key(t)].emplace(normalize_name(t.pcomm), normalize_name(t.comm));
  return out;
}

std::vector<std::string> residual(const TypeSet& mine, const TypeSet& theirs) {
  std::vector<std::string> out;
  for (const auto& type : mine)
    if (!theirs.count(type)) out.push_back(type.first + ":" + type.second);
  return out;
}

std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= path.size(); ++i)
    if (i == path.size() || path[i] == '/') {
      out.push_back(path.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

std::string join_segments(const std::vector<std::string>& segs, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? "/" : "") + segs[i];
  return out;
}

// The renamed parts of a pair: both paths without their common trailing segments.
std::pair<std::string, std::string> roots(const std::string& b, const std::string& c) {
  const auto bs = segments(b), cs = segments(c);
  std::size_t common = 0;
  while (common < bs.size() && common < cs.size() &&
         bs[bs.size() - 1 - common] == cs[cs.size() - 1 - common])
    ++common;
  std::string br = join_segments(bs, bs.size() - common),
              cr = join_segments(cs, cs.size() - common);
  return {br.empty() ? b : br, cr.empty() ? c : cr};
}

// "rest" when `path` is `root` + "rest" at a '/' boundary (or equal: "").
std::optional<std::string> below(const std::string& path, const std::string& root) {
  if (!path.starts_with(root)) return std::nullopt;
  std::string tail = path.substr(root.size());
  if (!tail.empty() && tail.front() != '/') return std::nullopt;
  return tail;
}

}  // namespace

Fudge fudge_cgroups(const Snapshot& baseline, const Snapshot& candidate, const GroupKeys& keys) {
  Fudge out;
  auto types_b = types_by_key(baseline, keys), types_c = types_by_key(candidate, keys);
  std::set<std::string> only_b, only_c;
  for (const auto& [k, types] : types_b)
    if (!types_c.count(k)) only_b.insert(k);
  for (const auto& [k, types] : types_c)
    if (!types_b.count(k)) only_c.insert(k);

  for (const auto& ccg : only_c) {
    const TypeSet& set_c = types_c[ccg];
    if (set_c.size() < kFudgeMinTypes) continue;
    const std::string* best = nullptr;
    double best_jaccard = 0;
    std::size_t best_overlap = 0;
    for (const auto& bcg : only_b) {
      const TypeSet& set_b = types_b[bcg];
      std::size_t overlap = 0;
      for (const auto& type : set_c) overlap += set_b.count(type);
      if (overlap < kFudgeMinTypes) continue;
      const double jaccard = double(overlap) / double(set_b.size() + set_c.size() - overlap);
      if (jaccard >= kFudgeMinJaccard && jaccard > best_jaccard) {
        best = &bcg;
        best_jaccard = jaccard;
        best_overlap = overlap;
      }
    }
    if (!best) continue;
    out.candidate_to_baseline[ccg] = *best;
    FudgedPair pair{*best, ccg, best_overlap, best_jaccard, {}, {}, 0, {}, {}};
    std::tie(pair.baseline_root, pair.candidate_root) = roots(*best, ccg);
    out.pairs.push_back(std::move(pair));
  }

  // Residuals against every counterpart, so a type missing from all of them is listed once.
  for (auto& pair : out.pairs) {
    TypeSet counterpart_c, counterpart_b;
    for (const auto& other : out.pairs) {
      const TypeSet& c = types_c[other.candidate];
      const TypeSet& b = types_b[other.baseline];
      if (other.baseline == pair.baseline) counterpart_c.insert(c.begin(), c.end());
      if (other.candidate == pair.candidate) counterpart_b.insert(b.begin(), b.end());
    }
    pair.baseline_only = residual(types_b[pair.baseline], counterpart_c);
    pair.candidate_only = residual(types_c[pair.candidate], counterpart_b);
  }

  // Children of renamed cgroups: same path below the two roots.
  std::set<std::string> joined_b;
  for (const auto& [c, b] : out.candidate_to_baseline) joined_b.insert(b);
  for (auto& pair : out.pairs)
    for (const auto& bcg : only_b) {
      if (joined_b.count(bcg)) continue;
      const auto tail = below(bcg, pair.baseline_root);
      if (!tail) continue;
      const std::string ccg = pair.candidate_root + *tail;
      if (!only_c.count(ccg) || out.candidate_to_baseline.count(ccg)) continue;
      out.candidate_to_baseline[ccg] = bcg;
      joined_b.insert(bcg);
      ++pair.cascaded_children;
    }
  return out;
}

}  // namespace dsched::ctprof
