#include "runtime/privileges.h"

#include <fstream>
#include <sstream>

namespace dsched {
namespace {

// Capability numbers of <linux/capability.h>.
constexpr int kCapSysAdmin = 21;
constexpr int kCapPerfmon = 38;
constexpr int kCapBpf = 39;

// The CapEff mask of a /proc/PID/status text; nullopt when it has none.
std::optional<unsigned long long> effective_capabilities(const std::string& status) {
  std::istringstream in(status);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("CapEff:")) return std::stoull(line.substr(7), nullptr, 16);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> missing_privileges(const std::string& status) {
  std::optional<unsigned long long> caps = effective_capabilities(status);
  if (!caps) return std::nullopt;  // cannot tell: let the kernel decide
  auto has = [&](int cap) { return (*caps >> cap) & 1; };
  // CAP_SYS_ADMIN alone allows BPF and perf events on kernels before 5.8 and still does.
  if (has(kCapSysAdmin) || (has(kCapBpf) && has(kCapPerfmon))) return std::nullopt;
  std::string missing;
  if (!has(kCapBpf)) missing = "CAP_BPF";
  if (!has(kCapPerfmon)) missing += std::string(missing.empty() ? "" : " and ") + "CAP_PERFMON";
  return "tracing needs root, or the capabilities CAP_BPF and CAP_PERFMON (this process lacks " + missing + ")";
}

std::optional<std::string> missing_privileges() {
  std::ifstream in("/proc/self/status");
  std::ostringstream text;
  text << in.rdbuf();
  return missing_privileges(text.str());
}

std::optional<std::string> missing_kernel_object(const std::string& log) {
  // libbpf: "failed to find kernel BTF type ID of '__probe_sched_waking'" (tp_btf), or for a
  // missing kernel BTF altogether "failed to find valid kernel BTF".
  if (log.find("failed to find valid kernel BTF") != std::string::npos ||
      log.find("vmlinux BTF is not found") != std::string::npos)
    return "the kernel has no BTF (/sys/kernel/btf/vmlinux): build it with CONFIG_DEBUG_INFO_BTF=y";
  const std::string marker = "failed to find kernel BTF type ID of '";
  size_t at = log.find(marker);
  if (at == std::string::npos) return std::nullopt;
  size_t start = at + marker.size();
  std::string name = log.substr(start, log.find('\'', start) - start);
  // Every program dsched attaches by BTF is a tracepoint's (tp_btf/NAME).
  if (name.starts_with("btf_trace_")) name = name.substr(10);
  return "the kernel has no tracepoint " + name;
}

std::optional<std::string> forbidden_helper(const std::string& log) {
  // Kernel lockdown (integrity or confidentiality) takes bpf_probe_write_user() away from every
  // program, which the verifier reports as a helper this program type cannot use.
  if (log.find("cannot use helper bpf_probe_write_user") != std::string::npos)
    return "this kernel does not let BPF programs write to user memory (copyout(), copyoutstr()); "
           "kernel lockdown forbids it";
  return std::nullopt;
}

}  // namespace dsched
