// The functions of one ELF file (an executable, a shared object, the vDSO), read once with libelf
// and shared by every process that maps the file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/process_images.h"
#include "runtime/symbols/address_table.h"

namespace dsched::symbols {

class ElfSymbols {
 public:
  // The file at `path`, opened through `open_path` (the same file, or /proc/PID/map_files/... when
  // the path now names another). Without a .symtab, separate debug info is looked for by build-id
  // under `debug_root`/.build-id/ and by .gnu_debuglink; then .dynsym serves. Null when the file
  // cannot be read as ELF.
  static std::shared_ptr<const ElfSymbols> read_file(const std::string& open_path, const std::string& path,
                                                     const std::string& debug_root);
  // Every function of the file at `path` (aliases included, separate debug info looked for as
  // read_file does), by address; empty when the file cannot be read as ELF.
  static std::vector<lang::UserFunction> list_functions(const std::string& path, const std::string& debug_root);
  // An ELF image in memory (the vDSO, read from a process).
  static std::shared_ptr<const ElfSymbols> read_image(std::string image);

  struct Function {
    std::string_view name;
    uint64_t offset;  // of the address into the function
  };
  // The function holding the byte at `file_offset` of the file, if a symbol covers it.
  std::optional<Function> find(uint64_t file_offset) const;

  size_t size() const { return functions_.size(); }
  const std::string& build_id() const { return build_id_; }  // hex; empty when the file has none

 private:
  struct Segment {
    uint64_t offset, vaddr, filesz, memsz;
  };
  std::vector<Segment> segments_;  // PT_LOAD, to turn file offsets into link-time addresses
  AddressTable functions_;         // by link-time address
  std::string build_id_;

  friend class ElfReader;
};

}  // namespace dsched::symbols
