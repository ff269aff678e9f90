// An ELF file opened with libelf, and the section lookups its readers share (function symbols,
// SDT notes).
#pragma once

#include <gelf.h>
#include <libelf.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace dsched::symbols {

// An open ELF handle and the descriptor or memory under it; get() is null when the file or image
// is not ELF.
class OpenElf {
 public:
  explicit OpenElf(const std::string& path);
  explicit OpenElf(std::string& image);
  ~OpenElf();
  OpenElf(const OpenElf&) = delete;
  OpenElf& operator=(const OpenElf&) = delete;
  Elf* get() const { return elf_; }

 private:
  void check_kind();
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

std::string section_name(Elf* elf, const GElf_Shdr& header);
// The section of `type` (or, when `name` is given, named `name`), with its header, or null.
Elf_Scn* find_section(Elf* elf, uint32_t type, std::string_view name, GElf_Shdr& header);
// Calls `visit` with the descriptor of each note of `owner` and `type` in the file's note sections,
// in file order, until it returns false.
void for_each_note(Elf* elf, std::string_view owner, uint32_t type,
                   const std::function<bool(const char* desc, size_t size)>& visit);

}  // namespace dsched::symbols
