#include "runtime/symbols/elf_symbols.h"

#include <algorithm>
#include <cstring>

#include "runtime/symbols/elf_file.h"

namespace dsched::symbols {
namespace {

constexpr uint32_t kNoteGnuBuildId = 3;  // NT_GNU_BUILD_ID

std::string hex(const unsigned char* bytes, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < size; ++i) text += {digits[bytes[i] >> 4], digits[bytes[i] & 15]};
  return text;
}

std::string read_build_id(Elf* elf) {
  std::string id;
  for_each_note(elf, "GNU", kNoteGnuBuildId, [&](const char* desc, size_t size) {
    id = hex(reinterpret_cast<const unsigned char*>(desc), size);
    return false;
  });
  return id;
}

// The file name .gnu_debuglink points to, or empty.
std::string read_debuglink(Elf* elf) {
  GElf_Shdr header;
  Elf_Scn* section = find_section(elf, 0, ".gnu_debuglink", header);
  Elf_Data* data = section ? elf_getdata(section, nullptr) : nullptr;
  if (!data || data->d_size == 0) return {};
  const char* text = static_cast<const char*>(data->d_buf);
  return std::string(text, strnlen(text, data->d_size));
}

bool has_symtab(Elf* elf) {
  GElf_Shdr header;
  return find_section(elf, SHT_SYMTAB, {}, header) && header.sh_size > 0;
}

std::string directory_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

class ElfReader {
 public:
  // `path` empty: an image in memory, which has no debug files.
  static std::shared_ptr<const ElfSymbols> read(Elf* main, const std::string& path, const std::string& debug_root) {
    auto symbols = std::make_shared<ElfSymbols>();
    if (!read_segments(main, *symbols)) return nullptr;
    symbols->build_id_ = read_build_id(main);
    if (has_symtab(main) || path.empty()) {
      read_functions(main, *symbols);
    } else if (auto debug = open_debug_file(main, path, debug_root, symbols->build_id_)) {
      read_functions(debug->get(), *symbols);
    } else {
      read_functions(main, *symbols);
    }
    symbols->functions_.seal();
    return symbols;
  }

 private:
  static bool read_segments(Elf* elf, ElfSymbols& symbols) {
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0) return false;
    for (size_t i = 0; i < count; ++i) {
      GElf_Phdr header;
      if (gelf_getphdr(elf, static_cast<int>(i), &header) && header.p_type == PT_LOAD)
        symbols.segments_.push_back({header.p_offset, header.p_vaddr, header.p_filesz, header.p_memsz});
    }
    return true;
  }

  // The separate debug file with a .symtab for `main`: by build-id first, then by debuglink in the
  // places GDB looks (next to the file, in its .debug/, under the debug root).
  static std::unique_ptr<OpenElf> open_debug_file(Elf* main, const std::string& path, const std::string& debug_root,
                                                  const std::string& build_id) {
    std::vector<std::string> candidates;
    if (build_id.size() > 2)
      candidates.push_back(debug_root + "/.build-id/" + build_id.substr(0, 2) + "/" +
                           build_id.substr(2) + ".debug");
    if (std::string link = read_debuglink(main); !link.empty()) {
      std::string directory = directory_of(path);
      for (std::string place : {directory + "/", directory + "/.debug/", debug_root + directory + "/"})
        if (place + link != path) candidates.push_back(place + link);
    }
    for (const std::string& candidate : candidates) {
      auto debug = std::make_unique<OpenElf>(candidate);
      if (!debug->get() || !has_symtab(debug->get())) continue;
      std::string debug_id = read_build_id(debug->get());
      if (build_id.empty() || debug_id.empty() || debug_id == build_id) return debug;
    }
    return nullptr;
  }

  // .symtab when the file has one, else .dynsym: each defined function, as (name, address, size,
  // rank among aliases, whether the symbol is an IFUNC resolver).
  template <typename Visit>
  static void for_each_function(Elf* elf, Visit&& visit) {
    GElf_Shdr header;
    Elf_Scn* section = find_section(elf, SHT_SYMTAB, {}, header);
    if (!section || header.sh_size == 0) section = find_section(elf, SHT_DYNSYM, {}, header);
    Elf_Data* data = section ? elf_getdata(section, nullptr) : nullptr;
    if (!data || header.sh_entsize == 0) return;
    for (size_t i = 0, count = header.sh_size / header.sh_entsize; i < count; ++i) {
      GElf_Sym symbol;
      if (!gelf_getsym(data, static_cast<int>(i), &symbol)) continue;
      int type = GELF_ST_TYPE(symbol.st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || symbol.st_shndx == SHN_UNDEF || symbol.st_value == 0)
        continue;
      const char* text = elf_strptr(elf, header.sh_link, symbol.st_name);
      if (!text || !*text) continue;
      // A .symtab names versioned definitions "pthread_create@@GLIBC_2.34"; the function is the name.
      std::string_view name(text);
      name = name.substr(0, name.find('@'));
      int binding = GELF_ST_BIND(symbol.st_info);
      uint32_t rank = (binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 1 : 2) + 4 * alias_rank(name);
      visit(name, symbol.st_value, symbol.st_size, rank, type == STT_GNU_IFUNC);
    }
  }

  // As DTrace's libproc, an address is named by a function only within the function's size: one
  // of size 0 (_init, hand-written stubs) names nothing, so what follows it (.plt) prints as an
  // address rather than as _init+0x40.
  static void read_functions(Elf* elf, ElfSymbols& symbols) {
    for_each_function(elf, [&](std::string_view name, uint64_t address, uint64_t size, uint32_t rank, bool) {
      if (size > 0) symbols.functions_.add_sized(address, size, name, 0, rank);
    });
  }

  // Every function of the file, aliases included, preferred names first at each address.
 public:
  static std::vector<lang::UserFunction> list_functions(Elf* main, const std::string& path,
                                                        const std::string& debug_root) {
    ElfSymbols layout;
    std::vector<lang::UserFunction> functions;
    if (!read_segments(main, layout)) return functions;
    std::vector<std::pair<uint32_t, lang::UserFunction>> ranked;
    auto collect = [&](std::string_view name, uint64_t address, uint64_t size, uint32_t rank, bool ifunc) {
      for (const ElfSymbols::Segment& segment : layout.segments_)
        if (address >= segment.vaddr && address - segment.vaddr < segment.filesz)
          ranked.push_back(
              {rank, {std::string(name), address, segment.offset + (address - segment.vaddr), size, ifunc}});
    };
    std::unique_ptr<OpenElf> debug = has_symtab(main) ? nullptr : open_debug_file(main, path, debug_root, read_build_id(main));
    for_each_function(debug ? debug->get() : main, collect);
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return a.second.address != b.second.address ? a.second.address < b.second.address : a.first < b.first;
    });
    for (auto& [rank, function] : ranked) functions.push_back(std::move(function));
    return functions;
  }
};

std::shared_ptr<const ElfSymbols> ElfSymbols::read_file(const std::string& open_path, const std::string& path,
                                                        const std::string& debug_root) {
  OpenElf elf(open_path);
  return elf.get() ? ElfReader::read(elf.get(), path, debug_root) : nullptr;
}

std::vector<lang::UserFunction> ElfSymbols::list_functions(const std::string& path, const std::string& debug_root) {
  OpenElf elf(path);
  return elf.get() ? ElfReader::list_functions(elf.get(), path, debug_root) : std::vector<lang::UserFunction>{};
}

std::shared_ptr<const ElfSymbols> ElfSymbols::read_image(std::string image) {
  OpenElf elf(image);
  return elf.get() ? ElfReader::read(elf.get(), {}, {}) : nullptr;
}

std::optional<ElfSymbols::Function> ElfSymbols::find(uint64_t file_offset) const {
  for (const Segment& segment : segments_) {
    if (file_offset < segment.offset || file_offset - segment.offset >= segment.filesz) continue;
    uint64_t vaddr = segment.vaddr + (file_offset - segment.offset);
    const AddressTable::Range* range = functions_.find(vaddr);
    if (!range) return std::nullopt;
    return Function{functions_.name(*range), vaddr - range->start};
  }
  return std::nullopt;
}

}  // namespace dsched::symbols
