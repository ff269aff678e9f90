#include "lang/probe_catalog.h"

#include <fnmatch.h>

#include <algorithm>

namespace dsched::lang {
namespace {

// One field of a description. Whether it is a glob is decided once, not once per probe it is
// tried against.
struct FieldPattern {
  std::string text;
  bool glob = false;

  explicit FieldPattern(std::string field) : text(std::move(field)), glob(is_glob(text)) {}
  bool matches(const std::string& value) const {
    if (text.empty()) return true;
    return glob ? fnmatch(text.c_str(), value.c_str(), 0) == 0 : text == value;
  }
};

struct Description {
  FieldPattern provider, module, function, name;

  bool matches(const Probe& p) const {
    return provider.matches(p.provider) && module.matches(p.module) && function.matches(p.function) &&
           name.matches(p.name);
  }
};

Description split_description(const DescriptionFields& f) {
  return {FieldPattern(f.provider), FieldPattern(f.module), FieldPattern(f.function), FieldPattern(f.name)};
}

std::vector<const Provider*>& providers() {
  static std::vector<const Provider*> registered;
  return registered;
}

}  // namespace

DescriptionFields split_fields(const std::string& text) {
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

bool is_glob(const std::string& pattern) { return pattern.find_first_of("*?[") != std::string::npos; }
bool field_matches(const std::string& pattern, const std::string& value) { return FieldPattern(pattern).matches(value); }

Attributes description_attributes(const DescriptionFields& description, const ProviderStability& stability) {
  auto given = [](const std::string& field) { return !field.empty() && !is_glob(field); };
  const ProviderStability& fields = given(description.provider) ? stability : kAnyProviderStability;
  Attributes attributes = fields.provider;
  if (given(description.module)) attributes = weakest(attributes, fields.module);
  if (given(description.function)) attributes = weakest(attributes, fields.function);
  if (given(description.name)) attributes = weakest(attributes, fields.name);
  return attributes;
}

std::string Probe::full_name() const { return provider + ":" + module + ":" + function + ":" + name; }

// Sorted by name, so probe ids do not depend on link order (dtrace's BEGIN, END, ERROR come first).
std::vector<const Provider*> all_providers() { return providers(); }
void register_provider(const Provider& provider) {
  auto& list = providers();
  auto at = std::find_if(list.begin(), list.end(), [&](const Provider* p) { return p->name() > provider.name(); });
  list.insert(at, &provider);
}

ProbeCatalog::ProbeCatalog(ProcessImages* processes) : processes_(processes) {
  for (const Provider* provider : providers())
    if (!provider->read_from_kernel())
      for (Probe& probe : provider->probes()) add(std::move(probe));
}

void ProbeCatalog::read_kernel_provider(const Provider& provider) {
  if (!kernel_providers_read_.insert(&provider).second) return;
  for (Probe& probe : provider.probes()) add(std::move(probe));
}

void ProbeCatalog::read_kernel_providers() {
  for (const Provider* provider : providers())
    if (provider->read_from_kernel()) read_kernel_provider(*provider);
}

const Probe* ProbeCatalog::add(Probe probe) {
  probe.id = uint32_t(probes_.size() + 1);
  probes_.push_back(std::move(probe));
  by_name_[probes_.back().name].push_back(&probes_.back());
  return &probes_.back();
}

std::optional<std::vector<const Probe*>> ProbeCatalog::match_in_processes(const DescriptionFields& fields,
                                                                         std::string* error) {
  for (const Provider* provider : providers()) {
    if (!provider->in_processes()) continue;
    std::string why;
    std::vector<Probe> made = processes_ ? provider->process_probes(fields, *processes_, why) : std::vector<Probe>{};
    if (made.empty() && why.empty()) continue;
    if (error) *error = why;
    std::vector<const Probe*> result;
    for (Probe& probe : made) {
      // A probe made for an earlier description keeps its id.
      const Probe* known = nullptr;
      for (const Probe* p : by_name_[probe.name])
        if (p->owner == provider && p->full_name() == probe.full_name()) known = p;
      result.push_back(known ? known : add(std::move(probe)));
    }
    std::sort(result.begin(), result.end(), [](const Probe* a, const Probe* b) { return a->id < b->id; });
    return result;
  }
  return std::nullopt;
}

std::vector<const Probe*> ProbeCatalog::match(const std::string& text, std::string* error) {
  DescriptionFields fields = split_fields(text);
  if (auto in_processes = match_in_processes(fields, error)) return *in_processes;
  Description d = split_description(fields);
  for (const Provider* provider : providers()) {
    if (!provider->read_from_kernel() || !d.provider.matches(std::string(provider->name()))) continue;
    if (d.name.text.empty() || d.name.glob || provider->could_name(d.name.text)) read_kernel_provider(*provider);
  }
  if (!d.name.text.empty() && !d.name.glob) {
    for (const Provider* provider : providers()) {
      if (!d.provider.matches(std::string(provider->name()))) continue;
      std::optional<Probe> made = provider->probe_named(d.name.text);
      if (!made || !d.matches(*made)) continue;
      const auto& named = by_name_[made->name];
      if (std::none_of(named.begin(), named.end(), [&](const Probe* p) { return p->owner == provider; }))
        add(std::move(*made));
    }
  }
  std::vector<const Probe*> result;
  if (!d.name.text.empty() && !d.name.glob) {
    if (auto it = by_name_.find(d.name.text); it != by_name_.end())
      for (const Probe* probe : it->second)
        if (d.matches(*probe)) result.push_back(probe);
    return result;
  }
  for (const Probe& probe : probes_)
    if (d.matches(probe)) result.push_back(&probe);
  return result;
}

std::vector<const Probe*> ProbeCatalog::provider(const std::string& name) {
  for (const Provider* provider : providers())
    if (provider->read_from_kernel() && provider->name() == name) read_kernel_provider(*provider);
  std::vector<const Probe*> result;
  for (const Probe& probe : probes_)
    if (probe.provider == name) result.push_back(&probe);
  return result;
}

std::vector<const Probe*> ProbeCatalog::all() {
  read_kernel_providers();
  std::vector<const Probe*> result;
  for (const Probe& probe : probes_) result.push_back(&probe);
  return result;
}

}  // namespace dsched::lang
