#include "registry.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>

namespace dsched::probes {
namespace {

struct Description {
  std::string provider, module, function, name;
};

// "a:b:c:d"; fewer fields name the rightmost ones ("BEGIN" is a name, "f:n" function and name).
Description split_description(const std::string& text) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    size_t colon = text.find(':', start);
    fields.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  while (fields.size() < 4) fields.insert(fields.begin(), "");
  return {fields[0], fields[1], fields[2], fields[3]};
}

bool field_matches(const std::string& pattern, const std::string& value) {
  return pattern.empty() || fnmatch(pattern.c_str(), value.c_str(), 0) == 0;
}

bool has_glob(const std::string& text) {
  return text.find_first_of("*?[") != std::string::npos;
}

bool matches(const Description& d, const Probe& p) {
  return field_matches(d.provider, p.provider) && field_matches(d.module, p.module) &&
         field_matches(d.function, p.function) && field_matches(d.name, p.name);
}

}  // namespace

const char* arg_source_name(ArgSource source) {
  switch (source) {
    case ArgSource::NextTask: return "next-task";
    case ArgSource::WokenTask: return "woken-task";
    case ArgSource::QueuedTask: return "queued-task";
    case ArgSource::QueueCpu: return "queue-cpu";
    case ArgSource::QueueAtFront: return "queue-at-front";
    case ArgSource::InterruptedTask: return "interrupted-task";
    case ArgSource::PriorityTask: return "priority-task";
    case ArgSource::NewPriority: return "new-priority";
    case ArgSource::ChildTask: return "child-task";
    case ArgSource::ExitReason: return "exit-reason";
    case ArgSource::SignalTarget: return "signal-target";
    case ArgSource::SignalNumber: return "signal-number";
  }
  return "?";
}

std::string Probe::full_name() const { return provider + ":" + module + ":" + function + ":" + name; }

uint64_t parse_probe_rate(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 12) return 0;
  uint64_t number = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  std::string unit = text.substr(digits);
  if (number == 0) return 0;
  if (unit.empty() || unit == "hz") return 1000000000ull / number;
  static const std::pair<const char*, uint64_t> units[] = {
      {"ns", 1}, {"nsec", 1}, {"us", 1000}, {"usec", 1000}, {"ms", 1000000},
      {"msec", 1000000}, {"s", 1000000000}, {"sec", 1000000000}, {"m", 60000000000},
      {"min", 60000000000}, {"h", 3600000000000}, {"hour", 3600000000000},
      {"d", 86400000000000}, {"day", 86400000000000}};
  for (auto [name, factor] : units)
    if (unit == name) return number * factor;
  return 0;
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

Registry::Registry() {
  for (const ProviderTable* table :
       {&dtrace_provider(), &sched_provider(), &proc_provider(), &profile_provider()}) {
    for (const ProbeEntry& entry : table->probes) {
      Probe probe;
      probe.id = uint32_t(probes_.size() + 1);
      probe.provider = table->provider;
      probe.module = table->module;
      probe.name = entry.name;
      probe.args = entry.args;
      probe.unsupported = entry.unsupported;
      if (probe.provider == "profile") {
        size_t dash = probe.name.find('-');
        probe.period_ns = parse_probe_rate(probe.name.substr(dash + 1));
        probe.every_cpu = probe.name.starts_with("profile-");
      }
      probes_.push_back(std::move(probe));
    }
  }
}

const Probe* Registry::rate_probe(const std::string& name) {
  for (const Probe& probe : probes_)
    if (probe.provider == "profile" && probe.name == name) return &probe;
  bool every_cpu = name.starts_with("profile-");
  if (!every_cpu && !name.starts_with("tick-")) return nullptr;
  uint64_t period = parse_probe_rate(name.substr(name.find('-') + 1));
  if (period == 0) return nullptr;
  Probe probe;
  probe.id = uint32_t(probes_.size() + 1);
  probe.provider = "profile";
  probe.name = name;
  probe.period_ns = period;
  probe.every_cpu = every_cpu;
  probes_.push_back(std::move(probe));
  return &probes_.back();
}

std::vector<const Probe*> Registry::match(const std::string& text) {
  std::lock_guard lock(mutex_);
  Description d = split_description(text);
  if (!has_glob(d.name) && !d.name.empty() && field_matches(d.provider, "profile") &&
      field_matches(d.module, "") && field_matches(d.function, "")) {
    rate_probe(d.name);
  }
  std::vector<const Probe*> result;
  for (const Probe& probe : probes_)
    if (matches(d, probe)) result.push_back(&probe);
  return result;
}

std::vector<const Probe*> Registry::provider(const std::string& name) {
  std::lock_guard lock(mutex_);
  std::vector<const Probe*> result;
  for (const Probe& probe : probes_)
    if (probe.provider == name) result.push_back(&probe);
  return result;
}

std::vector<const Probe*> Registry::all() {
  std::lock_guard lock(mutex_);
  std::vector<const Probe*> result;
  for (const Probe& probe : probes_) result.push_back(&probe);
  return result;
}

}  // namespace dsched::probes
