#include "runtime/symbols/process_images.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "runtime/symbols/elf_symbols.h"
#include "runtime/symbols/process_maps.h"
#include "runtime/symbols/sdt_notes.h"

namespace dsched::symbols {
namespace {

// A function's bytes are read up to this size: enough for any function's instructions to be
// walked, bounded against a symbol that claims a huge size.
constexpr uint64_t kLongestFunction = 1 << 20;

}  // namespace

ProcessImages::ProcessImages(Prepare prepare, std::string proc, std::string debug_root)
    : prepare_(std::move(prepare)), proc_(std::move(proc)), debug_root_(std::move(debug_root)) {}

std::vector<lang::ProcessModule> ProcessImages::modules(long pid, std::string& error) {
  if (prepare_) {
    error = prepare_(pid);
    if (!error.empty()) return {};
  }
  const std::string dir = proc_ + "/" + std::to_string(pid);
  struct stat program {};
  if (stat((dir + "/exe").c_str(), &program) != 0) {
    error = errno == ENOENT ? "No such process" : std::strerror(errno);
    return {};
  }
  std::vector<lang::ProcessModule> modules;
  for (const Mapping& mapping : parse_maps(read_text(dir + "/maps"))) {
    if (mapping.kind != Mapping::Kind::file || !mapping.executable) continue;
    if (std::any_of(modules.begin(), modules.end(), [&](const auto& m) { return m.path == mapping.path; })) continue;
    bool is_program = mapping.device == uint64_t(program.st_dev) && mapping.inode == uint64_t(program.st_ino);
    modules.push_back({module_name(mapping), mapping.path, is_program});
  }
  std::stable_partition(modules.begin(), modules.end(), [](const auto& m) { return m.executable; });
  return modules;
}

std::vector<long> ProcessImages::processes() {
  std::vector<long> pids;
  DIR* dir = opendir(proc_.c_str());
  if (!dir) return pids;
  while (dirent* entry = readdir(dir)) {
    long pid = 0;
    std::string_view name(entry->d_name);
    auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (ec == std::errc() && end == name.data() + name.size() && pid > 0) pids.push_back(pid);
  }
  closedir(dir);
  std::sort(pids.begin(), pids.end());
  return pids;
}

const std::vector<lang::UserFunction>& ProcessImages::functions(const lang::ProcessModule& module) {
  auto [it, added] = functions_.try_emplace(module.path);
  if (added) it->second = ElfSymbols::list_functions(module.path, debug_root_);
  return it->second;
}

std::string ProcessImages::code(const lang::ProcessModule& module, const lang::UserFunction& function) {
  std::string bytes(std::min(function.size, kLongestFunction), '\0');
  int fd = open(module.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  ssize_t got = pread(fd, bytes.data(), bytes.size(), off_t(function.file_offset));
  close(fd);
  bytes.resize(got > 0 ? size_t(got) : 0);
  return bytes;
}

const std::vector<lang::SdtProbe>& ProcessImages::sdt_probes(const lang::ProcessModule& module) {
  auto [it, added] = sdt_probes_.try_emplace(module.path);
  if (added) it->second = read_sdt_probes(module.path);
  return it->second;
}

uint64_t function_address(long pid, const std::string& name, const std::string& proc, const std::string& debug_root) {
  const std::string dir = proc + "/" + std::to_string(pid);
  struct stat program {};
  if (stat((dir + "/exe").c_str(), &program) != 0) return 0;
  std::vector<Mapping> code;
  for (const Mapping& mapping : parse_maps(read_text(dir + "/maps")))
    if (mapping.kind == Mapping::Kind::file && mapping.executable) code.push_back(mapping);
  std::stable_partition(code.begin(), code.end(), [&](const Mapping& m) {
    return m.device == uint64_t(program.st_dev) && m.inode == uint64_t(program.st_ino);
  });
  std::vector<std::string> searched;
  for (const Mapping& module : code) {
    if (std::find(searched.begin(), searched.end(), module.path) != searched.end()) continue;
    searched.push_back(module.path);
    for (const lang::UserFunction& function : ElfSymbols::list_functions(module.path, debug_root)) {
      if (function.name != name || function.ifunc) continue;
      for (const Mapping& m : code)
        if (m.path == module.path && function.file_offset >= m.offset && function.file_offset - m.offset < m.end - m.start)
          return m.start + (function.file_offset - m.offset);
    }
  }
  return 0;
}

}  // namespace dsched::symbols
