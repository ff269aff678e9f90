#include "probes/user/user_probes.h"

#include <charconv>

namespace dsched::probes {

std::optional<long> process_of(std::string_view field, std::string_view prefix) {
  if (!field.starts_with(prefix) || field.size() == prefix.size()) return std::nullopt;
  std::string_view digits = field.substr(prefix.size());
  long pid = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
  if (ec != std::errc() || end != digits.data() + digits.size() || pid <= 0) return std::nullopt;
  return pid;
}

bool module_matches(const std::string& pattern, const lang::ProcessModule& module) {
  if (pattern == "a.out") return module.executable;
  if (lang::field_matches(pattern, module.name)) return true;
  if (lang::is_glob(pattern)) return false;
  // A shared object named without its version ("libc.so") or without its suffix ("libc").
  if (pattern.find('.') == std::string::npos) return module.name.starts_with(pattern + ".so");
  return pattern.ends_with(".so") && module.name.starts_with(pattern + ".");
}

std::string grab_error(long pid, const std::string& reason) {
  return "failed to grab pid " + std::to_string(pid) + ": " + reason;
}

std::vector<std::string> UprobeHook::sections(const lang::Probe& probe) const {
  return {probe.user_site->is_return ? "uretprobe" : "uprobe"};
}

void UprobeHook::place(const lang::Probe& probe, abi::AttachPoint& point) const {
  const lang::UserSite& site = *probe.user_site;
  point.binary = site.path;
  point.offset = site.file_offset;
  point.pid = site.pid;
  point.retprobe = site.is_return;
  point.semaphore_offset = site.semaphore_offset;
}

}  // namespace dsched::probes
