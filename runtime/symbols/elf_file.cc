#include "runtime/symbols/elf_file.h"

#include <fcntl.h>
#include <unistd.h>

namespace dsched::symbols {
namespace {

void init_libelf() {
  static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
  (void)ready;
}

}  // namespace

OpenElf::OpenElf(const std::string& path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  init_libelf();
  if (fd_ >= 0) elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
  check_kind();
}

OpenElf::OpenElf(std::string& image) {
  init_libelf();
  elf_ = elf_memory(image.data(), image.size());
  check_kind();
}

OpenElf::~OpenElf() {
  if (elf_) elf_end(elf_);
  if (fd_ >= 0) close(fd_);
}

void OpenElf::check_kind() {
  if (elf_ && elf_kind(elf_) != ELF_K_ELF) elf_end(elf_), elf_ = nullptr;
}

std::string section_name(Elf* elf, const GElf_Shdr& header) {
  size_t names = 0;
  if (elf_getshdrstrndx(elf, &names) != 0) return {};
  const char* name = elf_strptr(elf, names, header.sh_name);
  return name ? name : "";
}

Elf_Scn* find_section(Elf* elf, uint32_t type, std::string_view name, GElf_Shdr& header) {
  for (Elf_Scn* section = nullptr; (section = elf_nextscn(elf, section));) {
    if (!gelf_getshdr(section, &header)) continue;
    if (name.empty() ? header.sh_type == type : section_name(elf, header) == name) return section;
  }
  return nullptr;
}

void for_each_note(Elf* elf, std::string_view owner, uint32_t type,
                   const std::function<bool(const char* desc, size_t size)>& visit) {
  for (Elf_Scn* section = nullptr; (section = elf_nextscn(elf, section));) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || header.sh_type != SHT_NOTE) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    GElf_Nhdr note;
    size_t name_at = 0, desc_at = 0;
    for (size_t at = 0; data && (at = gelf_getnote(data, at, &note, &name_at, &desc_at)) > 0;) {
      const char* bytes = static_cast<const char*>(data->d_buf);
      // The name's size counts its terminating NUL.
      if (note.n_type == type && note.n_namesz == owner.size() + 1 &&
          std::string_view(bytes + name_at, owner.size()) == owner && !visit(bytes + desc_at, note.n_descsz))
        return;
    }
  }
}

}  // namespace dsched::symbols
