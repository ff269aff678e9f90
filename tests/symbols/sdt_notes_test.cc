// SDT notes: the operand forms x86-64 compilers write, and the notes of a program built with
// <sys/sdt.h> probes (tests/kernel/usdt_program.c): names, file offsets, semaphore, operands.
#include <fcntl.h>
#include <unistd.h>

#include <map>
#include <string>

#include <doctest/doctest.h>

#include "runtime/symbols/elf_file.h"
#include "runtime/symbols/sdt_notes.h"

using dsched::symbols::parse_sdt_operand;
using dsched::symbols::read_sdt_notes;
using dsched::symbols::SdtNote;
using dsched::symbols::SdtOperand;
using Kind = SdtOperand::Kind;

namespace {

SdtOperand parsed(std::string_view text) {
  std::string error;
  auto operand = parse_sdt_operand(text, error);
  INFO(text, ": ", error);
  REQUIRE(operand);
  CHECK(error.empty());
  return *operand;
}

std::string refusal(std::string_view text) {
  std::string error;
  auto operand = parse_sdt_operand(text, error);
  INFO(text);
  CHECK_FALSE(operand);
  return error;
}

std::map<std::string, SdtNote> program_notes() {
  std::map<std::string, SdtNote> notes;
  for (SdtNote& note : read_sdt_notes(USDT_PROGRAM)) notes.emplace(note.name, std::move(note));
  return notes;
}

unsigned char byte_at(const char* path, uint64_t offset) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  unsigned char byte = 0;
  CHECK(pread(fd, &byte, 1, static_cast<off_t>(offset)) == 1);
  close(fd);
  return byte;
}

}  // namespace

TEST_CASE("registers with sizes and signs") {
  SdtOperand edi = parsed("-4@%edi");
  CHECK(edi.kind == Kind::kRegister);
  CHECK(edi.size == 4);
  CHECK(edi.is_signed);
  CHECK(edi.base == "edi");
  SdtOperand r8 = parsed("8@%r8");
  CHECK(r8.kind == Kind::kRegister);
  CHECK(r8.size == 8);
  CHECK_FALSE(r8.is_signed);
  CHECK(r8.base == "r8");
  CHECK(parsed("1@%dl").size == 1);
  CHECK(parsed("2@%cx").text == "2@%cx");
}

TEST_CASE("constants") {
  SdtOperand five = parsed("4@$5");
  CHECK(five.kind == Kind::kConstant);
  CHECK(five.value == 5);
  CHECK(parsed("-8@$-12").value == -12);
  CHECK(parsed("8@$0x10").value == 16);
}

TEST_CASE("memory relative to registers") {
  SdtOperand frame = parsed("8@-16(%rbp)");
  CHECK(frame.kind == Kind::kMemory);
  CHECK(frame.base == "rbp");
  CHECK(frame.index.empty());
  CHECK(frame.value == -16);
  SdtOperand plain = parsed("-4@(%rax)");
  CHECK(plain.base == "rax");
  CHECK(plain.value == 0);
  SdtOperand indexed = parsed("8@24(%rax,%rdx,8)");
  CHECK(indexed.base == "rax");
  CHECK(indexed.index == "rdx");
  CHECK(indexed.scale == 8);
  CHECK(indexed.value == 24);
  SdtOperand no_base = parsed("4@(,%rcx,4)");
  CHECK(no_base.base.empty());
  CHECK(no_base.index == "rcx");
  SdtOperand symbol = parsed("-8@counter+8(%rip)");
  CHECK(symbol.symbol == "counter");
  CHECK(symbol.value == 8);
  CHECK(symbol.base == "rip");
}

TEST_CASE("what is not an operand is refused with the reason") {
  CHECK(refusal("%edi") == "no size (expected SIZE@OPERAND)");
  CHECK(refusal("3@%edi") == "the size is not 1, 2, 4 or 8");
  CHECK(refusal("4@") == "no operand after the size");
  CHECK(refusal("4@$counter") == "a constant that is not a number");
  CHECK(refusal("4@8(%rax,%rdx,3)") == "the scale is not 1, 2, 4 or 8");
  CHECK(refusal("4@8(rax)") == "expected a base register");
  CHECK(refusal("4@8%rax") == "expected (%register) after the displacement");
}

TEST_CASE("the notes of a program with sys/sdt.h probes") {
  auto notes = program_notes();
  REQUIRE(notes.size() == 6);
  for (const auto& [name, note] : notes) {
    INFO(name);
    CHECK(note.provider == "myprov");
    CHECK(note.unsupported.empty());
    CHECK(byte_at(USDT_PROGRAM, note.file_offset) == 0x90);  // each probe is a nop
  }

  const SdtNote& ints = notes.at("int__args");
  REQUIRE(ints.operands.size() == 5);
  const std::pair<unsigned, bool> sizes[] = {{1, true}, {2, false}, {4, true}, {8, true}, {4, true}};
  for (size_t i = 0; i < 5; ++i) {
    CHECK(ints.operands[i].size == sizes[i].first);
    CHECK(ints.operands[i].is_signed == sizes[i].second);
  }
  CHECK(ints.operands[4].kind == Kind::kConstant);
  CHECK(ints.operands[4].value == 5);

  const SdtNote& frame = notes.at("frame");
  REQUIRE(frame.operands.size() == 2);
  CHECK(frame.operands[0].kind == Kind::kMemory);
  CHECK(frame.operands[0].base == "rbp");
  CHECK(frame.operands[1].size == 8);

  const SdtNote& indexed = notes.at("indexed");
  REQUIRE(indexed.operands.size() == 1);
  CHECK(indexed.operands[0].index == "rdx");
  CHECK(indexed.operands[0].scale == 4);

  // counter(%rip) is rewritten relative to the probe's own address, which %rip holds when it fires.
  const SdtNote& global = notes.at("global");
  REQUIRE(global.operands.size() == 1);
  CHECK(global.operands[0].base == "rip");
  CHECK(global.operands[0].symbol.empty());
  dsched::symbols::OpenElf elf(USDT_PROGRAM);
  REQUIRE(elf.get());
  GElf_Shdr data;
  REQUIRE(dsched::symbols::find_section(elf.get(), 0, ".data", data));
  uint64_t counter = global.address + global.operands[0].value;
  CHECK(counter >= data.sh_addr);
  CHECK(counter < data.sh_addr + data.sh_size);

  for (const auto& [name, note] : notes) CHECK((note.semaphore_offset != 0) == (name == "gated"));
  GElf_Shdr probes;
  REQUIRE(dsched::symbols::find_section(elf.get(), 0, ".probes", probes));
  CHECK(notes.at("gated").semaphore_offset == probes.sh_offset);
}

TEST_CASE("a file without notes, and one that is not ELF, have none") {
  CHECK(read_sdt_notes("/proc/self/exe").empty());
  CHECK(read_sdt_notes("/etc/hostname").empty());
  CHECK(read_sdt_notes("/nonexistent").empty());
}
