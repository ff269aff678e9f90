#include "runtime/symbols/symbolizer.h"

#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "probes/ctprof/file_read.h"

namespace dsched::symbols {
namespace {

// A process's mappings are read again when an address falls outside all of them (a library
// loaded since), at most this often, so that garbage addresses cost no more than a lookup.
constexpr auto kRereadInterval = std::chrono::seconds(1);
// A running target's mappings are read again at most this often while it starts (loading its
// libraries), and once a second after that.
constexpr auto kStartRefreshInterval = std::chrono::milliseconds(50);
constexpr auto kStarting = std::chrono::seconds(2);
constexpr uint64_t kVdsoDevice = ~uint64_t{0};

// Every 64-bit process maps the same vDSO image, so ours stands in for one we cannot read.
std::string own_vdso(size_t size) {
  auto image = reinterpret_cast<const char*>(getauxval(AT_SYSINFO_EHDR));
  std::string maps = read_text("/proc/self/maps");
  for (const Mapping& mapping : parse_maps(maps))
    if (image && mapping.kind == Mapping::Kind::vdso && mapping.end - mapping.start == size)
      return std::string(image, size);
  return {};
}

}  // namespace

Symbolizer::Symbolizer(Warn warn, SymbolSources sources) : warn_(std::move(warn)), sources_(std::move(sources)) {
  if (!warn_) warn_ = [](const std::string& text) { std::fprintf(stderr, "dsched: warning: %s\n", text.c_str()); };
}

abi::Symbol Symbolizer::kernel(uint64_t address) {
  if (!kernel_) {
    std::string kallsyms = read_text(sources_.kallsyms);
    kernel_.emplace(kallsyms, read_text(sources_.modules));
    if (kallsyms.empty())
      warn_("cannot read " + sources_.kallsyms + ": kernel addresses print as numbers");
    else if (kernel_->addresses_hidden())
      warn_("the kernel hides its symbol addresses (kernel.kptr_restrict): kernel addresses print as numbers");
  }
  return kernel_->find(address);
}

void Symbolizer::remember_process(uint32_t pid) {
  auto [it, added] = processes_.try_emplace(pid);
  if (added || executable(pid) != it->second.executable) read_mappings(pid, it->second);
}

void Symbolizer::refresh_process(uint32_t pid) {
  auto [it, added] = processes_.try_emplace(pid);
  const auto now = std::chrono::steady_clock::now();
  const Process& kept = it->second;
  auto interval = now - kept.first_read_at < kStarting ? kStartRefreshInterval : kRereadInterval;
  if (added || now - kept.read_at >= interval) read_mappings(pid, it->second);
}

Symbolizer::Process& Symbolizer::process(uint32_t pid) {
  auto [it, added] = processes_.try_emplace(pid);
  if (added) read_mappings(pid, it->second);
  return it->second;
}

std::pair<uint64_t, uint64_t> Symbolizer::executable(uint32_t pid) const {
  struct stat st {};
  if (stat((sources_.proc + "/" + std::to_string(pid) + "/exe").c_str(), &st) != 0) return {0, 0};
  return {uint64_t(st.st_dev), uint64_t(st.st_ino)};
}

void Symbolizer::read_mappings(uint32_t pid, Process& process) {
  process.read_at = std::chrono::steady_clock::now();
  if (process.first_read_at == std::chrono::steady_clock::time_point()) process.first_read_at = process.read_at;
  process.executable = executable(pid);
  std::string text = read_text(sources_.proc + "/" + std::to_string(pid) + "/maps");
  if (text.empty()) return;  // gone: what was read before stays
  std::vector<KeptMapping> mappings;
  for (Mapping& mapping : parse_maps(text)) {
    KeptMapping kept;
    kept.module = module_name(mapping);
    kept.mapping = std::move(mapping);
    // The vDSO is in the process's memory only, so it is read while the process is there.
    if (kept.mapping.kind == Mapping::Kind::vdso) {
      kept.symbols = vdso_symbols(pid, kept.mapping);
      kept.symbols_looked_up = true;
    }
    mappings.push_back(std::move(kept));
  }
  process.mappings = std::move(mappings);
}

Symbolizer::KeptMapping* Symbolizer::find_mapping(Process& process, uint64_t address) {
  auto after = std::upper_bound(process.mappings.begin(), process.mappings.end(), address,
                                [](uint64_t a, const KeptMapping& kept) { return a < kept.mapping.start; });
  if (after == process.mappings.begin() || address >= (after - 1)->mapping.end) return nullptr;
  return &*(after - 1);
}

abi::Symbol Symbolizer::user(uint32_t pid, uint64_t address) {
  Process& kept_process = process(pid);
  KeptMapping* kept = find_mapping(kept_process, address);
  // A miss re-reads the mappings at most once a second, or at once when the process has exec'd
  // another program since they were read.
  if (!kept && (std::chrono::steady_clock::now() - kept_process.read_at >= kRereadInterval ||
                executable(pid) != kept_process.executable)) {
    read_mappings(pid, kept_process);
    kept = find_mapping(kept_process, address);
  }
  if (!kept || kept->mapping.kind == Mapping::Kind::anonymous) return {};
  abi::Symbol symbol;
  symbol.module = kept->module;
  if (const ElfSymbols* symbols = file_symbols(pid, *kept)) {
    if (auto function = symbols->find(address - kept->mapping.start + kept->mapping.offset)) {
      symbol.function = function->name;
      symbol.start = address - function->offset;
    }
  }
  return symbol;
}

// The mapped file's symbols, read once per file. A path that names another file now (replaced
// since, deleted, in another mount namespace, or numbered differently through an overlay file
// system) is read through /proc/PID/map_files, the mapped file itself, while the process lives.
const ElfSymbols* Symbolizer::file_symbols(uint32_t pid, KeptMapping& kept) {
  if (kept.symbols_looked_up) return kept.symbols.get();
  kept.symbols_looked_up = true;
  const Mapping& mapping = kept.mapping;
  FileKey key{mapping.device, mapping.inode};
  auto cached = files_.find(key);
  if (cached == files_.end()) {
    char range[64];
    std::snprintf(range, sizeof range, "/%" PRIx64 "-%" PRIx64, mapping.start, mapping.end);
    std::string through_proc = sources_.proc + "/" + std::to_string(pid) + "/map_files" + range;
    struct stat status;
    std::string open_path;
    if (mapping.kind == Mapping::Kind::file && stat(mapping.path.c_str(), &status) == 0 &&
        status.st_ino == mapping.inode && status.st_dev == mapping.device)
      open_path = mapping.path;
    else if (access(through_proc.c_str(), R_OK) == 0)
      open_path = through_proc;
    // Not readable now (the process has gone too) is not cached: another process may map the file.
    if (open_path.empty()) return nullptr;
    cached = files_.emplace(key, ElfSymbols::read_file(open_path, mapping.path, sources_.debug_root)).first;
  }
  kept.symbols = cached->second;
  return kept.symbols.get();
}

std::shared_ptr<const ElfSymbols> Symbolizer::vdso_symbols(uint32_t pid, const Mapping& mapping) {
  size_t size = mapping.end - mapping.start;
  std::string image(size, '\0');
  ctprof::Fd memory(open((sources_.proc + "/" + std::to_string(pid) + "/mem").c_str(), O_RDONLY | O_CLOEXEC));
  if (!memory.ok() || pread(memory.get(), image.data(), size, static_cast<off_t>(mapping.start)) != ssize_t(size))
    image = own_vdso(size);
  if (image.empty()) return nullptr;
  FileKey key{kVdsoDevice, std::hash<std::string>{}(image)};
  auto cached = files_.find(key);
  if (cached == files_.end()) cached = files_.emplace(key, ElfSymbols::read_image(std::move(image))).first;
  return cached->second;
}

}  // namespace dsched::symbols
