#include "aggregate.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <vector>

namespace dsched::ctprof {
namespace {

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}

AggValue fold(const Snapshot& snap, const std::vector<const ThreadRecord*>& threads,
              std::size_t id) {
  const auto& def = metric(id);
  std::uint64_t acc = 0;
  std::int64_t lo = 0, hi = 0;
  bool any = false;
  std::unordered_map<std::uint64_t, std::size_t> votes;
  for (const ThreadRecord* t : threads) {
    if (!t->has.test(id)) continue;
    const std::uint64_t v = t->value[id];
    const auto s = static_cast<std::int64_t>(v);
    switch (def.agg) {
      case Agg::Sum: acc = saturating_add(acc, v); break;
      case Agg::Max: acc = any ? std::max(acc, v) : v; break;
      case Agg::MinNonZero:
        if (v != 0) acc = acc == 0 ? v : std::min(acc, v);
        break;
      case Agg::Earliest: acc = any ? std::min(acc, v) : v; break;
      case Agg::Range:
        if (def.is_signed) {
          lo = any ? std::min(lo, s) : s;
          hi = any ? std::max(hi, s) : s;
        } else {
          lo = any ? std::min<std::int64_t>(lo, v) : v;
          hi = any ? std::max<std::int64_t>(hi, v) : v;
        }
        break;
      case Agg::Mode: ++votes[v]; break;
      case Agg::Derived: break;
    }
    any = true;
  }
  if (!any) return {};
  if (def.agg == Agg::Range) return {AggValue::Range, 0, lo, hi, {}};
  if (def.agg == Agg::Mode) {
    // Most frequent value; ties go to the alphabetically first so output is deterministic.
    const std::string* best = nullptr;
    std::size_t best_votes = 0;
    for (const auto& [index, n] : votes) {
      const std::string& text = snap.text(index);
      if (n > best_votes || (n == best_votes && text < *best)) {
        best = &text;
        best_votes = n;
      }
    }
    return {AggValue::Text, 0, 0, 0, *best};
  }
  return AggValue::of(static_cast<long double>(acc));
}

const long double* scalar(const Group& g, std::size_t id) {
  const AggValue& v = g.values[id];
  return v.kind == AggValue::Scalar ? &v.scalar : nullptr;
}

// numerator / denominator, or no value when an input is missing or the denominator is zero.
AggValue quotient(const long double* num, const long double* den) {
  if (!num || !den || *den == 0) return {};
  return AggValue::of(*num / *den);
}

}  // namespace

void derive(Group& g) {
  for (std::size_t b = 0; b < 8; ++b)
    g.values[kFirstAvgDelay + b] =
        quotient(scalar(g, delay_metric(b, kDelayTotal)), scalar(g, delay_metric(b, kDelayCount)));
  // Thrashing events are also swapin events, so only the larger of the two counts.
  const std::size_t summed[] = {0, 1, 3, 5, 6, 7};  // cpu blkio freepages compact wpcopy irq
  long double total = 0;
  bool complete = true;
  for (std::size_t b : summed) {
    const long double* v = scalar(g, delay_metric(b, kDelayTotal));
    complete &= v != nullptr;
    if (v) total += *v;
  }
  const long double* swapin = scalar(g, delay_metric(2, kDelayTotal));
  const long double* thrashing = scalar(g, delay_metric(4, kDelayTotal));
  g.values[kTotalOffcpuDelayNs] = complete && swapin && thrashing
                                      ? AggValue::of(total + std::max(*swapin, *thrashing))
                                      : AggValue{};

  g.values[kAvgWaitNs] = quotient(scalar(g, kWaitSum), scalar(g, kWaitCount));
  g.values[kAvgIowaitNs] = quotient(scalar(g, kIowaitSum), scalar(g, kIowaitCount));
  const long double* allocated = scalar(g, kAllocatedBytes);
  const long double* freed = scalar(g, kDeallocatedBytes);
  g.values[kLiveHeapEstimate] = allocated && freed ? AggValue::of(*allocated - *freed) : AggValue{};
  g.values[kAffineSuccessRatio] =
      quotient(scalar(g, kNrWakeupsAffine), scalar(g, kNrWakeupsAffineAttempts));
  const long double* run = scalar(g, kRunTimeNs);
  const long double* wait = scalar(g, kWaitTimeNs);
  const long double run_plus_wait = run && wait ? *run + *wait : 0;
  g.values[kCpuEfficiency] = quotient(run, run && wait ? &run_plus_wait : nullptr);
  g.values[kAvgSliceNs] = quotient(run, scalar(g, kTimeslices));
  const long double* vol = scalar(g, kVoluntaryCsw);
  const long double* nonvol = scalar(g, kNonvoluntaryCsw);
  const long double all_csw = vol && nonvol ? *vol + *nonvol : 0;
  g.values[kInvoluntaryCswRatio] = quotient(nonvol, vol && nonvol ? &all_csw : nullptr);
  g.values[kDiskIoFraction] = quotient(scalar(g, kReadBytes), scalar(g, kRchar));
}

std::map<std::string, Group> group_threads(const Snapshot& snap, const KeyFn& key_of) {
  std::map<std::string, std::vector<const ThreadRecord*>> members;
  for (const auto& t : snap.threads) members[key_of(t)].push_back(&t);
  std::map<std::string, Group> groups;
  const long double ns_per_tick = 1e9L / snap.host.clock_ticks_per_s;
  for (const auto& [key, threads] : members) {
    Group g;
    g.key = key;
    g.threads = threads.size();
    for (std::size_t id = 0; id < kStoredMetricCount; ++id) g.values[id] = fold(snap, threads, id);
    derive(g);
    if (const long double* start = scalar(g, kStartTimeTicks))
      g.alive_ns = std::max(0.0L, snap.host.uptime_ns - *start * ns_per_tick);
    groups.emplace(key, std::move(g));
  }
  return groups;
}

std::optional<long double> rank_value(const AggValue& v) {
  if (v.kind == AggValue::Scalar) return v.scalar;
  if (v.kind == AggValue::Range) return (static_cast<long double>(v.lo) + v.hi) / 2;
  return std::nullopt;
}

}  // namespace dsched::ctprof
