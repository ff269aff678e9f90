#include "addresses.h"

#include <algorithm>

#include "cformat.h"

namespace dsched::output {
namespace {

abi::Symbol lookup(abi::Symbolizer* symbols, bool user, uint32_t pid, uint64_t pc) {
  if (!symbols) return {};
  return user ? symbols->user(pid, pc) : symbols->kernel(pc);
}

// The frames that count: a zero ends a stack early.
std::vector<uint64_t> live_frames(const abi::Value& stack) {
  auto end = std::find(stack.frames.begin(), stack.frames.end(), uint64_t(0));
  return {stack.frames.begin(), end};
}

}  // namespace

std::string frame_text(abi::Symbolizer* symbols, bool user, uint32_t pid, uint64_t pc) {
  return abi::frame_text(lookup(symbols, user, pid, pc), pc);
}

std::string address_text(abi::Symbolizer* symbols, const abi::Value& symbol) {
  const uint64_t pc = symbol.bits;
  const abi::Symbol found = lookup(symbols, symbol.user, symbol.pid, pc);
  switch (symbol.form) {
    case abi::AddressForm::Function: return abi::function_text(found, pc);
    case abi::AddressForm::Module: return abi::module_text(found, pc);
    case abi::AddressForm::Frame: break;
  }
  return abi::frame_text(found, pc);
}

std::vector<std::string> stack_frames(abi::Symbolizer* symbols, const abi::Value& stack) {
  std::vector<std::string> out;
  for (uint64_t pc : live_frames(stack)) out.push_back(frame_text(symbols, stack.user, stack.pid, pc));
  return out;
}

std::string stack_text(abi::Symbolizer* symbols, const abi::Value& stack, int indent, const std::string& frame_format) {
  std::string out = "\n";
  for (const std::string& frame : stack_frames(symbols, stack)) {
    out.append(size_t(std::max(indent, 0)), ' ');
    out += cformat(frame_format.c_str(), frame.c_str());
    out += "\n";
  }
  return out;
}

std::string folded_stack(abi::Symbolizer* symbols, const abi::Value& stack) {
  std::vector<uint64_t> frames = live_frames(stack);
  std::string out;
  for (auto pc = frames.rbegin(); pc != frames.rend(); ++pc) {
    if (!out.empty()) out += ";";
    out += abi::function_text(lookup(symbols, stack.user, stack.pid, *pc), *pc);
  }
  return out;
}

}  // namespace dsched::output
