// Just enough ELF reading to locate a dynamic symbol of a shared object and read the bytes it
// points at from the file (64-bit little-endian objects of this machine's architecture).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dsched::ctprof {

class ElfFile {
 public:
  // Opens `path`; on failure returns nullopt and sets `error`.
  static std::optional<ElfFile> open(const std::string& path, std::string& error);

  // Value (link-time address) of the dynamic symbol `name`, or nullopt.
  std::optional<std::uint64_t> dynamic_symbol(const std::string& name) const;
  // `size` bytes of the file image at link-time address `vaddr`, or nullopt when the address is
  // not backed by file data.
  std::optional<std::vector<std::uint8_t>> read(std::uint64_t vaddr, std::size_t size) const;

 private:
  struct Load {
    std::uint64_t vaddr, filesz, offset;
  };
  std::vector<std::uint8_t> image_;  // the whole file
  std::vector<Load> loads_;
  std::uint64_t dynsym_off_ = 0, dynsym_size_ = 0, dynstr_off_ = 0, dynstr_size_ = 0;
};

}  // namespace dsched::ctprof
