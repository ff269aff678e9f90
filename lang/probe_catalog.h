// The probes of every provider, numbered, and the matching of probe descriptions
// ("sched:::on-cpu", "BEGIN", "profile-997hz", "sched:::*") against them.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "lang/provider.h"

namespace dsched::lang {

class ProbeCatalog {
 public:
  // The probes of all registered providers.
  ProbeCatalog();

  // Probes matching a description, in id order. A description naming a probe exactly that a
  // provider makes on demand (profile-N) adds that probe first.
  std::vector<const Probe*> match(const std::string& description);
  // Every probe of a provider (dsched -l -P name); empty when there is no such provider.
  std::vector<const Probe*> provider(const std::string& name) const;
  std::vector<const Probe*> all() const;

 private:
  void add(Probe probe);
  std::deque<Probe> probes_;  // a deque: pointers stay valid as probes are added
};

}  // namespace dsched::lang
