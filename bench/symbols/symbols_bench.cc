// symbols_bench [--stacks N] [--frames F] [--rounds R]
// Symbolizes N distinct stacks of F frames into the text DTrace prints ("module`function+0x..."):
// kernel stacks made of real /proc/kallsyms text addresses, and user stacks of a real process (a
// copy of this program, which maps libstdc++, libelf and libc) made of addresses in its mapped
// code. Reports the first round (which reads kallsyms, the maps and the ELF files) and the median
// of the rest, per stack. Needs root for kallsyms addresses.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <csignal>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "abi/symbols.h"
#include "child_process.h"
#include "runtime/symbols/process_maps.h"
#include "runtime/symbols/symbolizer.h"

using dsched::bench::Clock;
using dsched::bench::seconds_since;
using Stack = std::vector<uint64_t>;

namespace {

// Text addresses between _stext and _etext, as the kernel lists them.
std::vector<uint64_t> kernel_functions() {
  std::vector<uint64_t> functions;
  std::ifstream kallsyms("/proc/kallsyms");
  bool in_text = false;
  for (std::string address, type, name; kallsyms >> address >> type >> name;) {
    kallsyms.ignore(1 << 10, '\n');
    if (name == "_stext") in_text = true;
    if (name == "_etext") break;
    uint64_t value = std::stoull(address, nullptr, 16);
    if (in_text && value != 0 && (type == "T" || type == "t")) functions.push_back(value);
  }
  return functions;
}

// Ranges of executable file mappings of `pid`.
std::vector<std::pair<uint64_t, uint64_t>> user_code(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::pair<uint64_t, uint64_t>> code;
  for (const auto& mapping : dsched::symbols::parse_maps(text))
    if (mapping.kind == dsched::symbols::Mapping::Kind::file && mapping.executable)
      code.emplace_back(mapping.start, mapping.end);
  return code;
}

template <typename Frame>
std::vector<Stack> make_stacks(int stacks, int frames, std::mt19937_64& random, Frame frame) {
  std::vector<Stack> made(stacks);
  for (Stack& stack : made)
    for (int f = 0; f < frames; ++f) stack.push_back(frame());
  return made;
}

double thread_cpu_seconds() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) + now.tv_nsec * 1e-9;
}

struct Round {
  double wall, cpu;  // seconds
};

// Each round turns every frame of `stacks` into text; the first round is cold.
template <typename Resolve>
std::vector<Round> time_rounds(const std::vector<Stack>& stacks, int rounds, Resolve resolve, size_t* bytes) {
  std::vector<Round> timed;
  for (int r = 0; r < rounds; ++r) {
    auto start = Clock::now();
    double cpu_start = thread_cpu_seconds();
    std::string text;
    for (const Stack& stack : stacks) {
      text.clear();
      for (uint64_t address : stack) (text += dsched::abi::frame_text(resolve(address), address)) += '\n';
      *bytes += text.size();
    }
    timed.push_back({seconds_since(start), thread_cpu_seconds() - cpu_start});
  }
  return timed;
}

// Per stack: the first round, then the median of the others; wall-clock and this thread's CPU time
// (the steadier of the two on a shared machine).
void report(const char* what, const std::vector<Round>& rounds, int stacks, int frames) {
  std::vector<double> wall, cpu;
  for (size_t r = 1; r < rounds.size(); ++r) wall.push_back(rounds[r].wall), cpu.push_back(rounds[r].cpu);
  double us = 1e6 / stacks;
  std::printf("%-7s %10.2f %10.2f %10.2f %10.2f %12.0f\n", what, rounds[0].wall * us, rounds[0].cpu * us,
              dsched::bench::median(wall) * us, dsched::bench::median(cpu) * us,
              dsched::bench::median(cpu) * 1e9 / (double(stacks) * frames));
}

}  // namespace

int main(int argc, char** argv) {
  int stacks = 10000, frames = 20, rounds = 5;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--idle")) {
      std::puts("ready");
      std::fflush(stdout);
      return pause();
    }
    if (!std::strcmp(argv[i], "--stacks") && i + 1 < argc) stacks = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) frames = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::max(2, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: symbols_bench [--stacks N] [--frames F] [--rounds R]\n");
      return 2;
    }
  }
  std::mt19937_64 random(13);
  size_t bytes = 0;
  std::printf("%d distinct stacks of %d frames, %d rounds; us per stack (first round: reads the symbols)\n",
              stacks, frames, rounds);
  std::printf("%-7s %10s %10s %10s %10s %12s\n", "", "first", "first cpu", "then", "then cpu", "cpu ns/frame");

  std::vector<uint64_t> functions = kernel_functions();
  if (functions.empty()) {
    std::fprintf(stderr, "symbols_bench: /proc/kallsyms shows no addresses (run as root)\n");
    return 1;
  }
  std::uniform_int_distribution<size_t> pick_function(0, functions.size() - 1);
  std::uniform_int_distribution<uint64_t> pick_offset(0, 0x7f);
  auto kernel_stacks =
      make_stacks(stacks, frames, random, [&] { return functions[pick_function(random)] + pick_offset(random); });
  {
    dsched::symbols::Symbolizer symbolizer([](const std::string& w) { std::fprintf(stderr, "warning: %s\n", w.c_str()); });
    auto seconds = time_rounds(kernel_stacks, rounds, [&](uint64_t a) { return symbolizer.kernel(a); }, &bytes);
    report("kernel", seconds, stacks, frames);
  }

  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 1;
  dsched::bench::ChildProcess target({std::string(self, size_t(n)), "--idle"});
  if (target.wait_for("ready", 10) < 0) {
    std::fprintf(stderr, "symbols_bench: the target process did not start\n");
    return 1;
  }
  std::vector<std::pair<uint64_t, uint64_t>> code = user_code(target.pid());
  std::uniform_int_distribution<size_t> pick_mapping(0, code.size() - 1);
  auto user_stacks = make_stacks(stacks, frames, random, [&] {
    auto [start, end] = code[pick_mapping(random)];
    return std::uniform_int_distribution<uint64_t>(start, end - 1)(random);
  });
  {
    dsched::symbols::Symbolizer symbolizer([](const std::string& w) { std::fprintf(stderr, "warning: %s\n", w.c_str()); });
    symbolizer.remember_process(target.pid());
    target.signal(SIGKILL);  // resolved from the kept mappings, as after the process exits
    auto seconds =
        time_rounds(user_stacks, rounds, [&](uint64_t a) { return symbolizer.user(target.pid(), a); }, &bytes);
    report("user", seconds, stacks, frames);
  }
  target.finish(5);
  std::printf("(%zu code mappings in the user process; %zu bytes of text made)\n", code.size(), bytes);
  return 0;
}
