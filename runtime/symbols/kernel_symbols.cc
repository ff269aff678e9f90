#include "runtime/symbols/kernel_symbols.h"

#include <charconv>
#include <limits>
#include <unordered_map>

#include "runtime/symbols/text_lines.h"

namespace dsched::symbols {
namespace {

constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();
// How far the last function of a module /proc/modules does not list ([bpf] programs, ftrace
// trampolines) may reach: its size is not published, and an address far past it is not its.
constexpr uint64_t kUnlistedModuleReach = 64 * 1024;

struct KallsymsLine {
  uint64_t address = 0;
  char type = 0;
  std::string_view name, module;  // module empty for the kernel image
};

// Fields are separated by one space; the module, when there is one, follows a tab in brackets.
bool parse_line(std::string_view line, KallsymsLine& out) {
  size_t space = line.find(' ');
  if (space == std::string_view::npos || space + 3 > line.size() || line[space + 2] != ' ') return false;
  if (std::from_chars(line.data(), line.data() + space, out.address, 16).ec != std::errc()) return false;
  out.type = line[space + 1];
  std::string_view rest = line.substr(space + 3);
  size_t tab = rest.find('\t');
  out.name = rest.substr(0, tab);
  out.module = {};
  if (tab != std::string_view::npos) {
    std::string_view module = rest.substr(tab + 1);
    if (module.size() >= 2 && module.front() == '[' && module.back() == ']')
      out.module = module.substr(1, module.size() - 2);
  }
  return true;
}

// Module name -> one past its last byte, from /proc/modules ("name size refs deps state 0xaddr").
std::unordered_map<std::string_view, uint64_t> module_ends(std::string_view modules) {
  std::unordered_map<std::string_view, uint64_t> ends;
  for_each_line(modules, [&](std::string_view line) {
    std::vector<std::string_view> fields;
    for (size_t at = 0; at < line.size();) {
      size_t end = line.find(' ', at);
      if (end == std::string_view::npos) end = line.size();
      fields.push_back(line.substr(at, end - at));
      at = end + 1;
    }
    uint64_t size = 0, base = 0;
    if (fields.size() < 6 || fields[5].substr(0, 2) != "0x") return;
    std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), size);
    std::from_chars(fields[5].data() + 2, fields[5].data() + fields[5].size(), base, 16);
    if (base != 0) ends[fields[0]] = base + size;
  });
  return ends;
}

bool is_text(char type) { return type == 't' || type == 'T'; }
bool is_weak(char type) { return type == 'w' || type == 'W'; }

}  // namespace

KernelSymbols::KernelSymbols(std::string_view kallsyms, std::string_view modules) {
  // The kernel image's text runs from _stext to _etext; what kallsyms lists past _etext (init text,
  // freed after boot) is not code a stack can return into.
  uint64_t text_start = 0, text_end = kNoLimit;
  std::vector<KallsymsLine> lines;
  for_each_line(kallsyms, [&](std::string_view text) {
    KallsymsLine line;
    if (!parse_line(text, line)) return;
    if (line.address != 0) addresses_hidden_ = false;
    if (line.module.empty() && line.name == "_stext") text_start = line.address;
    if (line.module.empty() && line.name == "_etext") text_end = line.address;
    if (is_text(line.type) || is_weak(line.type)) lines.push_back(line);
  });
  if (addresses_hidden_) return;

  auto ends = module_ends(modules);
  std::unordered_map<std::string_view, uint32_t> module_index;
  modules_.push_back("vmlinux");
  for (const KallsymsLine& line : lines) {
    uint64_t limit = kNoLimit;
    uint32_t module = 0;
    if (line.module.empty()) {
      // Weak symbols carry no section; only those inside the kernel's text are functions.
      if (line.address >= text_end || (is_weak(line.type) && line.address < text_start)) continue;
      limit = text_end;
    } else {
      if (is_weak(line.type)) continue;
      auto [it, added] = module_index.try_emplace(line.module, static_cast<uint32_t>(modules_.size()));
      if (added) modules_.emplace_back(line.module);
      module = it->second;
      auto end = ends.find(line.module);
      limit = end != ends.end() ? end->second : line.address + kUnlistedModuleReach;
    }
    // The name with the fewest leading underscores; among those, global before local before weak.
    uint32_t rank = (is_weak(line.type) ? 2 : line.type == 'T' ? 0 : 1) + 4 * alias_rank(line.name);
    table_.add_open(line.address, limit, line.name, module, rank);
  }
  table_.seal();
}

abi::Symbol KernelSymbols::find(uint64_t address) const {
  const AddressTable::Range* range = table_.find(address);
  if (!range) return {};
  return {modules_[range->module], std::string(table_.name(*range)), range->start};
}

}  // namespace dsched::symbols
