// Providers are plug-ins (one file or folder each under probes/): a provider names its probes and
// their argument types, and gives the code generator the hook that fires each probe (where it
// attaches, whose task is the context, how args[] and argN bind, the state it keeps). The compiler
// sees providers only through this interface.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/process_images.h"
#include "lang/stability.h"

namespace dsched::codegen {
class Hook;
}

namespace dsched::lang {

class Provider;

struct ProbeArg {
  std::string native;      // C type of the value the hook produces: "struct task_struct *", "int"
  std::string translated;  // D type of args[N] when a translator turns the native value into it
                           // ("lwpsinfo_t *"); empty: args[N] is the native value
};

// Where a probe in a process (pid, USDT) attaches: a uprobe on a file, for one process.
struct UserSite {
  long pid = 0;
  std::string path;
  uint64_t file_offset = 0;
  bool is_return = false;         // a uretprobe: fires as the function returns
  uint64_t semaphore_offset = 0;  // USDT: the is-enabled counter's file offset; 0: none
  std::vector<SdtArgument> args;  // USDT: where each argument is
};

struct Probe {
  uint32_t id = 0;  // 1-based, numbered by the catalog
  std::string provider, module, function, name;
  std::vector<ProbeArg> args;
  std::string unsupported;  // non-empty: why this kernel cannot offer the probe
  const Provider* owner = nullptr;
  std::optional<UserSite> user_site;

  std::string full_name() const;  // "sched:vmlinux::on-cpu"
};

// A probe description split in its four fields, each a pattern: empty matches anything, a glob
// (*, ?, [...]) goes through fnmatch, other text must be equal.
struct DescriptionFields {
  std::string provider, module, function, name;
};
bool field_matches(const std::string& pattern, const std::string& value);
// "a:b:c:d"; fewer fields name the rightmost ones ("BEGIN" is a name, "f:n" function and name).
DescriptionFields split_fields(const std::string& text);
bool is_glob(const std::string& pattern);

// The attributes of a probe description as DTrace computes them: the provider's own for the
// provider field (DTrace's Unstable ones when that field is empty or a pattern), then the weakest
// with each other field that is given and is no pattern.
Attributes description_attributes(const DescriptionFields& description, const ProviderStability& stability);

class Provider {
 public:
  virtual ~Provider() = default;
  virtual std::string_view name() const = 0;
  // The probes `dsched -l` lists, in order.
  virtual std::vector<Probe> probes() const = 0;
  // A probe that a description names exactly but that is not listed (profile-N at any rate).
  virtual std::optional<Probe> probe_named(std::string_view name) const { return std::nullopt; }
  // As DTrace's statically defined (SDT) providers declare theirs; others override.
  virtual ProviderStability stability() const {
    return {kEvolvingIsa, kPrivateUnknown, kPrivateUnknown, kEvolvingIsa, kEvolvingIsa};
  }
  // The hook that fires `probe` (one of this provider's, and supported).
  virtual const codegen::Hook& hook(const Probe& probe) const = 0;
  // Providers whose probes are read from the running kernel (hundreds of them) are listed only
  // when a description could name one of them or a listing asks; they come after the fixed
  // providers, whose ids thus do not depend on whether they were read.
  virtual bool read_from_kernel() const { return false; }
  // False when no probe of this provider can have this exact name (cheap: decides whether a
  // description without a provider needs the provider read).
  virtual bool could_name(std::string_view name) const { return true; }
  // Providers whose probes live in processes (pid1234, myprov1234): the probes a description
  // names, made from the files of the processes it names. Empty with `error` set when the
  // description is this provider's but cannot be served (no such process, no such module...);
  // empty without an error when the description is not this provider's.
  virtual bool in_processes() const { return false; }
  virtual std::vector<Probe> process_probes(const DescriptionFields& description, ProcessImages& images,
                                            std::string& error) const {
    return {};
  }
};

// Every provider, by name; a provider's file adds it with RegisteredProvider<T>.
std::vector<const Provider*> all_providers();
void register_provider(const Provider& provider);

template <typename P>
struct RegisteredProvider {
  P provider;
  RegisteredProvider() { register_provider(provider); }
};

// A USDT probe's name as DTrace spells it: each "__" of its C identifier is a "-" (method__entry
// is method-entry), in a provider's declaration as in a program's notes.
std::string dashed_probe_name(const std::string& name);

}  // namespace dsched::lang
