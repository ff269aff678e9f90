#include "runtime/symbols/sdt_notes.h"

#include <cctype>
#include <charconv>
#include <cstring>
#include <map>

#include "runtime/symbols/elf_file.h"

namespace dsched::symbols {
namespace {

constexpr uint32_t kNoteStapsdt = 3;  // NT_STAPSDT, the layout of sdt.h version 3

bool is_symbol_char(char c, bool first) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         (!first && (std::isdigit(static_cast<unsigned char>(c)) || c == '$' || c == '@'));
}

// A decimal or 0x number with an optional sign, consumed from the front of `text`.
std::optional<int64_t> take_number(std::string_view& text) {
  bool negative = false;
  std::string_view rest = text;
  if (!rest.empty() && (rest[0] == '-' || rest[0] == '+')) negative = rest[0] == '-', rest.remove_prefix(1);
  int base = 10;
  if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X')) base = 16, rest.remove_prefix(2);
  uint64_t magnitude = 0;
  auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), magnitude, base);
  if (error != std::errc() || end == rest.data()) return std::nullopt;
  text = rest.substr(end - rest.data());
  return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

// "%name" consumed from the front of `text`.
std::optional<std::string> take_register(std::string_view& text) {
  if (text.empty() || text[0] != '%') return std::nullopt;
  size_t end = 1;
  while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
  if (end == 1) return std::nullopt;
  std::string name(text.substr(1, end - 1));
  text.remove_prefix(end);
  return name;
}

// The displacement of a memory operand: a number, or a symbol with an optional +/- number.
bool take_displacement(std::string_view& text, SdtOperand& operand) {
  if (text.empty() || text[0] == '(') return true;
  if (is_symbol_char(text[0], true)) {
    size_t end = 1;
    while (end < text.size() && is_symbol_char(text[end], false)) ++end;
    operand.symbol = text.substr(0, end);
    text.remove_prefix(end);
    if (text.empty() || text[0] == '(') return true;
  }
  auto number = take_number(text);
  if (!number) return false;
  operand.argument.value = *number;
  return true;
}

// "(%base,%index,scale)" with each part optional but the parentheses.
bool take_address(std::string_view& text, lang::SdtArgument& operand, std::string& error) {
  if (text.empty()) return true;
  if (text[0] != '(' || text.back() != ')') return error = "expected (%register) after the displacement", false;
  std::string_view inside = text.substr(1, text.size() - 2);
  text = {};
  if (!inside.empty() && inside[0] != ',') {
    auto base = take_register(inside);
    if (!base) return error = "expected a base register", false;
    operand.base = *base;
  }
  if (inside.empty()) return true;
  if (inside[0] != ',') return error = "unexpected text after the base register", false;
  inside.remove_prefix(1);
  auto index = take_register(inside);
  if (!index) return error = "expected an index register", false;
  operand.index = *index;
  if (inside.empty()) return true;
  if (inside[0] != ',') return error = "unexpected text after the index register", false;
  inside.remove_prefix(1);
  auto scale = take_number(inside);
  if (!scale || !inside.empty() || (*scale != 1 && *scale != 2 && *scale != 4 && *scale != 8))
    return error = "the scale is not 1, 2, 4 or 8", false;
  operand.scale = static_cast<int>(*scale);
  return true;
}

struct Segment {
  uint64_t offset, vaddr, filesz;
};

std::optional<uint64_t> file_offset_of(const std::vector<Segment>& segments, uint64_t address) {
  for (const Segment& segment : segments)
    if (address >= segment.vaddr && address - segment.vaddr < segment.filesz)
      return segment.offset + (address - segment.vaddr);
  return std::nullopt;
}

uint64_t read_address(const char* bytes, size_t size) {
  uint64_t value = 0;
  if (size == 4) {
    uint32_t narrow;
    memcpy(&narrow, bytes, 4);
    value = narrow;
  } else {
    memcpy(&value, bytes, 8);
  }
  return value;
}

// What a note's operands refer to in its file: segments, symbols, the .stapsdt.base section.
class NoteReader {
 public:
  explicit NoteReader(Elf* elf) : elf_(elf) {
    GElf_Ehdr header;
    if (gelf_getehdr(elf, &header)) position_independent_ = header.e_type == ET_DYN;
    address_size_ = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) == 0)
      for (size_t i = 0; i < count; ++i) {
        GElf_Phdr program;
        if (gelf_getphdr(elf, static_cast<int>(i), &program) && program.p_type == PT_LOAD)
          segments_.push_back({program.p_offset, program.p_vaddr, program.p_filesz});
      }
    GElf_Shdr base;
    if (find_section(elf, 0, ".stapsdt.base", base)) stapsdt_base_ = base.sh_addr;
  }

  void read(std::vector<lang::SdtProbe>& probes) {
    for_each_note(elf_, "stapsdt", kNoteStapsdt, [&](const char* desc, size_t size) {
      if (auto probe = read_note(desc, size)) probes.push_back(std::move(*probe));
      return true;
    });
  }

 private:
  // pc, .stapsdt.base's link-time address, semaphore; then provider, name and operands.
  std::optional<lang::SdtProbe> read_note(const char* desc, size_t size) {
    size_t strings = 3 * address_size_;
    if (size <= strings) return std::nullopt;
    uint64_t pc = read_address(desc, address_size_);
    uint64_t base = read_address(desc + address_size_, address_size_);
    uint64_t semaphore = read_address(desc + 2 * address_size_, address_size_);
    std::string_view text(desc + strings, size - strings);
    lang::SdtProbe probe;
    std::string arguments;
    for (std::string* part : {&probe.provider, &probe.name, &arguments}) {
      size_t end = text.find('\0');
      if (end == std::string_view::npos) return std::nullopt;
      *part = text.substr(0, end);
      text.remove_prefix(end + 1);
    }
    // A prelinked file moved after the notes were written: .stapsdt.base says by how much.
    if (stapsdt_base_ && base) {
      pc += *stapsdt_base_ - base;
      if (semaphore) semaphore += *stapsdt_base_ - base;
    }
    if (auto offset = file_offset_of(segments_, pc)) {
      probe.file_offset = *offset;
    } else {
      probe.unsupported = "its site is in no loaded segment of the file";
    }
    if (semaphore) {
      if (auto offset = file_offset_of(segments_, semaphore)) {
        probe.semaphore_offset = *offset;
      } else if (probe.unsupported.empty()) {
        probe.unsupported = "its semaphore is not stored in the file";
      }
    }
    read_operands(arguments, pc, probe.args);
    return probe;
  }

  void read_operands(std::string_view text, uint64_t site, std::vector<lang::SdtArgument>& args) {
    for (;;) {
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text[0]))) text.remove_prefix(1);
      if (text.empty()) return;
      size_t end = 0;
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
      std::string_view written = text.substr(0, end);
      text.remove_prefix(end);
      std::string error;
      auto operand = parse_sdt_operand(written, error);
      if (operand) resolve(*operand, site, error);
      lang::SdtArgument& arg = args.emplace_back(operand ? operand->argument : lang::SdtArgument{});
      arg.text = written;
      arg.unreadable = error;
    }
  }

  // Turns a symbol or an absolute address into what the probe can read when it fires; the reason
  // in `error` when it cannot.
  void resolve(SdtOperand& operand, uint64_t site, std::string& error) {
    lang::SdtArgument& arg = operand.argument;
    if (arg.kind != lang::SdtArgument::Kind::Memory) return;
    bool rip_relative = arg.base == "rip";
    if (rip_relative && !arg.index.empty()) {
      error = "%rip with an index register";
    } else if (operand.symbol.empty()) {
      if (rip_relative) error = "relative to %rip without a symbol";
      if (arg.base.empty() && position_independent_) error = "an absolute address in a position-independent file";
    } else if (auto address = symbol_address(operand.symbol); !address) {
      error = "no symbol " + operand.symbol + " in the file";
    } else if (rip_relative) {
      arg.value += static_cast<int64_t>(*address - site);
    } else if (arg.base.empty() && !position_independent_) {
      arg.value += static_cast<int64_t>(*address);
    } else {
      error = "a symbol's address outside of %rip-relative addressing";
    }
  }

  std::optional<uint64_t> symbol_address(const std::string& name) {
    if (!symbols_read_) read_symbols();
    auto found = symbols_.find(name);
    return found == symbols_.end() ? std::nullopt : std::optional(found->second);
  }

  // Data and function symbols of .symtab and .dynsym, read only when an operand names one.
  void read_symbols() {
    symbols_read_ = true;
    for (uint32_t type : {SHT_SYMTAB, SHT_DYNSYM}) {
      GElf_Shdr header;
      Elf_Scn* section = find_section(elf_, type, {}, header);
      Elf_Data* data = section ? elf_getdata(section, nullptr) : nullptr;
      if (!data || header.sh_entsize == 0) continue;
      for (size_t i = 0, count = header.sh_size / header.sh_entsize; i < count; ++i) {
        GElf_Sym symbol;
        if (!gelf_getsym(data, static_cast<int>(i), &symbol) || symbol.st_shndx == SHN_UNDEF) continue;
        if (const char* name = elf_strptr(elf_, header.sh_link, symbol.st_name); name && *name)
          symbols_.emplace(name, symbol.st_value);
      }
    }
  }

  Elf* elf_;
  bool position_independent_ = false;
  size_t address_size_ = 8;
  std::vector<Segment> segments_;
  std::optional<uint64_t> stapsdt_base_;
  bool symbols_read_ = false;
  std::map<std::string, uint64_t> symbols_;
};

}  // namespace

std::optional<SdtOperand> parse_sdt_operand(std::string_view text, std::string& error) {
  SdtOperand operand;
  lang::SdtArgument& arg = operand.argument;
  arg.text = text;
  size_t at = text.find('@');
  if (at == std::string_view::npos) return error = "no size (expected SIZE@OPERAND)", std::nullopt;
  std::string_view size_text = text.substr(0, at);
  if (!size_text.empty() && size_text[0] == '-') arg.is_signed = true, size_text.remove_prefix(1);
  int size = 0;
  auto [end, failed] = std::from_chars(size_text.data(), size_text.data() + size_text.size(), size);
  if (failed != std::errc() || end != size_text.data() + size_text.size() ||
      (size != 1 && size != 2 && size != 4 && size != 8))
    return error = "the size is not 1, 2, 4 or 8", std::nullopt;
  arg.size = size;
  std::string_view rest = text.substr(at + 1);
  if (rest.empty()) return error = "no operand after the size", std::nullopt;
  if (rest[0] == '%') {
    auto name = take_register(rest);
    if (!name || !rest.empty()) return error = "not a register", std::nullopt;
    arg.kind = lang::SdtArgument::Kind::Register;
    arg.base = *name;
    return operand;
  }
  if (rest[0] == '$') {
    rest.remove_prefix(1);
    auto value = take_number(rest);
    if (!value || !rest.empty()) return error = "a constant that is not a number", std::nullopt;
    arg.value = *value;
    return operand;
  }
  arg.kind = lang::SdtArgument::Kind::Memory;
  if (!take_displacement(rest, operand)) return error = "not a displacement", std::nullopt;
  if (!take_address(rest, arg, error)) return std::nullopt;
  return operand;
}

std::vector<lang::SdtProbe> read_sdt_probes(const std::string& path) {
  std::vector<lang::SdtProbe> probes;
  OpenElf elf(path);
  if (elf.get()) NoteReader(elf.get()).read(probes);
  return probes;
}

}  // namespace dsched::symbols
