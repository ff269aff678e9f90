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
using dsched::lang::SdtArgument;
using dsched::lang::SdtProbe;
using dsched::symbols::read_sdt_probes;
using dsched::symbols::SdtOperand;
using Kind = SdtArgument::Kind;

namespace {

SdtOperand parsed_operand(std::string_view text) {
  std::string error;
  auto operand = parse_sdt_operand(text, error);
  INFO(text, ": ", error);
  REQUIRE(operand);
  CHECK(error.empty());
  return *operand;
}

SdtArgument parsed(std::string_view text) { return parsed_operand(text).argument; }

std::string refusal(std::string_view text) {
  std::string error;
  auto operand = parse_sdt_operand(text, error);
  INFO(text);
  CHECK_FALSE(operand);
  return error;
}

std::map<std::string, SdtProbe> program_probes() {
  std::map<std::string, SdtProbe> probes;
  for (SdtProbe& probe : read_sdt_probes(USDT_PROGRAM)) probes.emplace(probe.name, std::move(probe));
  return probes;
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
  SdtArgument edi = parsed("-4@%edi");
  CHECK(edi.kind == Kind::Register);
  CHECK(edi.size == 4);
  CHECK(edi.is_signed);
  CHECK(edi.base == "edi");
  SdtArgument r8 = parsed("8@%r8");
  CHECK(r8.kind == Kind::Register);
  CHECK(r8.size == 8);
  CHECK_FALSE(r8.is_signed);
  CHECK(r8.base == "r8");
  CHECK(parsed("1@%dl").size == 1);
  CHECK(parsed("2@%cx").text == "2@%cx");
}

TEST_CASE("constants") {
  SdtArgument five = parsed("4@$5");
  CHECK(five.kind == Kind::Constant);
  CHECK(five.value == 5);
  CHECK(parsed("-8@$-12").value == -12);
  CHECK(parsed("8@$0x10").value == 16);
}

TEST_CASE("memory relative to registers") {
  SdtArgument frame = parsed("8@-16(%rbp)");
  CHECK(frame.kind == Kind::Memory);
  CHECK(frame.base == "rbp");
  CHECK(frame.index.empty());
  CHECK(frame.value == -16);
  SdtArgument plain = parsed("-4@(%rax)");
  CHECK(plain.base == "rax");
  CHECK(plain.value == 0);
  SdtArgument indexed = parsed("8@24(%rax,%rdx,8)");
  CHECK(indexed.base == "rax");
  CHECK(indexed.index == "rdx");
  CHECK(indexed.scale == 8);
  CHECK(indexed.value == 24);
  SdtArgument no_base = parsed("4@(,%rcx,4)");
  CHECK(no_base.base.empty());
  CHECK(no_base.index == "rcx");
  SdtOperand symbol = parsed_operand("-8@counter+8(%rip)");
  CHECK(symbol.symbol == "counter");
  CHECK(symbol.argument.value == 8);
  CHECK(symbol.argument.base == "rip");
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

TEST_CASE("the probes of a program with sys/sdt.h probes") {
  auto probes = program_probes();
  REQUIRE(probes.size() == 7);
  for (const auto& [name, probe] : probes) {
    INFO(name);
    CHECK(probe.provider == "myprov");
    CHECK(probe.unsupported.empty());
    CHECK(byte_at(USDT_PROGRAM, probe.file_offset) == 0x90);  // each probe is a nop
    for (const SdtArgument& arg : probe.args) CHECK(arg.unreadable.empty());
  }

  const SdtProbe& ints = probes.at("int__args");
  REQUIRE(ints.args.size() == 5);
  const std::pair<int, bool> sizes[] = {{1, true}, {2, false}, {4, true}, {8, true}, {4, true}};
  for (size_t i = 0; i < 5; ++i) {
    CHECK(ints.args[i].size == sizes[i].first);
    CHECK(ints.args[i].is_signed == sizes[i].second);
  }
  CHECK(ints.args[4].kind == Kind::Constant);
  CHECK(ints.args[4].value == 5);
  CHECK(ints.args[4].text == "-4@$5");

  const SdtProbe& frame = probes.at("frame");
  REQUIRE(frame.args.size() == 2);
  CHECK(frame.args[0].kind == Kind::Memory);
  CHECK(frame.args[0].base == "rbp");
  CHECK(frame.args[1].size == 8);

  const SdtProbe& indexed = probes.at("indexed");
  REQUIRE(indexed.args.size() == 1);
  CHECK(indexed.args[0].index == "rdx");
  CHECK(indexed.args[0].scale == 4);

  // counter(%rip) is made relative to the probe's own address, which %rip holds when it fires.
  dsched::symbols::OpenElf elf(USDT_PROGRAM);
  REQUIRE(elf.get());
  GElf_Shdr text, data;
  REQUIRE(dsched::symbols::find_section(elf.get(), 0, ".text", text));
  REQUIRE(dsched::symbols::find_section(elf.get(), 0, ".data", data));
  const SdtProbe& global = probes.at("global");
  REQUIRE(global.args.size() == 1);
  CHECK(global.args[0].base == "rip");
  uint64_t counter = text.sh_addr + (global.file_offset - text.sh_offset) + global.args[0].value;
  CHECK(counter >= data.sh_addr);
  CHECK(counter + 8 <= data.sh_addr + data.sh_size);

  for (const auto& [name, probe] : probes) CHECK((probe.semaphore_offset != 0) == (name == "gated"));
  GElf_Shdr semaphores;
  REQUIRE(dsched::symbols::find_section(elf.get(), 0, ".probes", semaphores));
  CHECK(probes.at("gated").semaphore_offset == semaphores.sh_offset);
}

TEST_CASE("operands that cannot be read say why; the others of the probe are read") {
  std::map<std::string, SdtProbe> probes;
  for (SdtProbe& probe : read_sdt_probes(SDT_FORMS)) probes.emplace(probe.name, std::move(probe));
  REQUIRE(probes.size() == 2);

  // Registers are checked where they are used (%xmm0 and %ah are no words of pt_regs).
  const SdtProbe& readable = probes.at("readable");
  REQUIRE(readable.args.size() == 3);
  for (const SdtArgument& arg : readable.args) CHECK(arg.unreadable.empty());
  CHECK(readable.args[0].base == "rip");
  CHECK(readable.args[1].base == "xmm0");
  CHECK(readable.args[2].base == "ah");

  const SdtProbe& unreadable = probes.at("unreadable");
  REQUIRE(unreadable.args.size() == 5);
  CHECK(unreadable.args[0].unreadable == "no symbol nosuch in the file");
  CHECK(unreadable.args[1].unreadable == "relative to %rip without a symbol");
  CHECK(unreadable.args[2].unreadable == "an absolute address in a position-independent file");
  CHECK(unreadable.args[3].unreadable == "a constant that is not a number");
  CHECK(unreadable.args[4].unreadable == "the size is not 1, 2, 4 or 8");
  CHECK(unreadable.args[4].text == "3@%eax");
}

TEST_CASE("a file without notes, and one that is not ELF, have none") {
  CHECK(read_sdt_probes("/proc/self/exe").empty());
  CHECK(read_sdt_probes("/etc/hostname").empty());
  CHECK(read_sdt_probes("/nonexistent").empty());
}
