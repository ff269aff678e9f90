#include "elf_symbols.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "file_read.h"

namespace dsched::ctprof {
namespace {

// Shared objects worth probing are a few MB; anything far larger is not what we are after.
constexpr std::uint64_t kMaxElfBytes = std::uint64_t{256} << 20;

template <typename T>
bool get(const std::vector<std::uint8_t>& image, std::uint64_t off, T& out) {
  if (off > image.size() || image.size() - off < sizeof(T)) return false;
  std::memcpy(&out, image.data() + off, sizeof(T));
  return true;
}

}  // namespace

std::optional<ElfFile> ElfFile::open(const std::string& path, std::string& error) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!fd.ok() || fstat(fd.get(), &st) != 0) {
    error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) > kMaxElfBytes) {
    error = path + ": not a regular file of a plausible size";
    return std::nullopt;
  }
  ElfFile elf;
  elf.image_.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < elf.image_.size()) {
    const ssize_t n =
        pread(fd.get(), elf.image_.data() + got, elf.image_.size() - got, static_cast<off_t>(got));
    if (n <= 0) {
      error = path + ": short read";
      return std::nullopt;
    }
    got += static_cast<std::size_t>(n);
  }
  Elf64_Ehdr eh;
  if (!get(elf.image_, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    error = path + ": not a 64-bit little-endian ELF object";
    return std::nullopt;
  }
#if defined(__x86_64__)
  if (eh.e_machine != EM_X86_64) {
    error = path + ": ELF object of another architecture";
    return std::nullopt;
  }
#endif
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    if (!get(elf.image_, eh.e_phoff + std::uint64_t{i} * eh.e_phentsize, ph)) break;
    if (ph.p_type == PT_LOAD) elf.loads_.push_back({ph.p_vaddr, ph.p_filesz, ph.p_offset});
  }
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh, link;
    if (!get(elf.image_, eh.e_shoff + std::uint64_t{i} * eh.e_shentsize, sh)) break;
    if (sh.sh_type != SHT_DYNSYM) continue;
    if (!get(elf.image_, eh.e_shoff + std::uint64_t{sh.sh_link} * eh.e_shentsize, link)) break;
    elf.dynsym_off_ = sh.sh_offset;
    elf.dynsym_size_ = sh.sh_size;
    elf.dynstr_off_ = link.sh_offset;
    elf.dynstr_size_ = link.sh_size;
  }
  if (elf.dynsym_size_ == 0) {
    error = path + ": no dynamic symbol table";
    return std::nullopt;
  }
  return elf;
}

std::optional<std::uint64_t> ElfFile::dynamic_symbol(const std::string& name) const {
  for (std::uint64_t off = dynsym_off_; off + sizeof(Elf64_Sym) <= dynsym_off_ + dynsym_size_;
       off += sizeof(Elf64_Sym)) {
    Elf64_Sym sym;
    if (!get(image_, off, sym)) break;
    if (sym.st_name >= dynstr_size_ || sym.st_shndx == SHN_UNDEF) continue;
    const std::uint64_t name_off = dynstr_off_ + sym.st_name;
    const std::uint64_t room = std::min<std::uint64_t>(dynstr_size_ - sym.st_name, name.size() + 1);
    if (name_off + room > image_.size()) continue;
    if (room == name.size() + 1 &&
        std::memcmp(image_.data() + name_off, name.c_str(), name.size() + 1) == 0)
      return sym.st_value;
  }
  return std::nullopt;
}

std::optional<std::vector<std::uint8_t>> ElfFile::read(std::uint64_t vaddr,
                                                       std::size_t size) const {
  for (const Load& l : loads_) {
    if (vaddr < l.vaddr || vaddr - l.vaddr > l.filesz || l.filesz - (vaddr - l.vaddr) < size)
      continue;
    const std::uint64_t off = l.offset + (vaddr - l.vaddr);
    if (off > image_.size() || image_.size() - off < size) return std::nullopt;
    return std::vector<std::uint8_t>(image_.begin() + static_cast<std::ptrdiff_t>(off),
                                     image_.begin() + static_cast<std::ptrdiff_t>(off + size));
  }
  return std::nullopt;
}

}  // namespace dsched::ctprof
