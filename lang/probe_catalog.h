// The probes of every provider, numbered, and the matching of probe descriptions
// ("sched:::on-cpu", "BEGIN", "profile-997hz", "sched:::*") against them.
#pragma once

#include <deque>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "lang/provider.h"

namespace dsched::lang {

class ProbeCatalog {
 public:
  // The probes of the fixed providers; those read from the kernel join when first needed.
  // `processes` serves the providers whose probes live in processes (pid, USDT); without it
  // descriptions naming such probes match nothing.
  explicit ProbeCatalog(ProcessImages* processes = nullptr);

  // Probes matching a description, in id order. A description naming a probe exactly that a
  // provider makes on demand (profile-N) adds that probe first. When a provider cannot serve a
  // description that is its own (pid99999: no such process), `error` says why.
  std::vector<const Probe*> match(const std::string& description, std::string* error = nullptr);
  // Every probe of a provider (dsched -l -P name); empty when there is no such provider.
  std::vector<const Probe*> provider(const std::string& name);
  std::vector<const Probe*> all();

 private:
  const Probe* add(Probe probe);
  // The probes providers in processes make for `fields`; nullopt when none of them claims it.
  std::optional<std::vector<const Probe*>> match_in_processes(const DescriptionFields& fields, std::string* error);
  ProcessImages* processes_;
  // Adds the probes of every provider read from the kernel, once, in the providers' order.
  // Reads the probes of a provider whose probes come from the running kernel, once.
  void read_kernel_provider(const Provider& provider);
  void read_kernel_providers();
  std::set<const Provider*> kernel_providers_read_;
  std::deque<Probe> probes_;  // a deque: pointers stay valid as probes are added
  // Probes by name, in id order: a description naming its probe exactly (the usual case, and
  // every made probe) is matched without looking at every probe, so matching is linear.
  std::unordered_map<std::string, std::vector<const Probe*>> by_name_;
};

}  // namespace dsched::lang
