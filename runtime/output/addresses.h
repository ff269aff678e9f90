// Stacks and symbolic addresses as DTrace prints them (dt_print_stack, dt_print_sym and their
// user-space twins), and as folded flame-graph lines. Without a symbolizer, addresses print as hex.
#pragma once

#include <string>
#include <vector>

#include "abi/symbols.h"
#include "abi/value.h"

namespace dsched::output {

// DTrace's default stackindent: the spaces before each frame of a traced stack or a stack key.
constexpr int kStackIndent = 14;

// One program counter of a stack, or a symbol value, in its printed form.
std::string frame_text(abi::Symbolizer* symbols, bool user, uint32_t pid, uint64_t pc);
std::string address_text(abi::Symbolizer* symbols, const abi::Value& symbol);

// The frames of a stack value, leaf first, up to the first zero.
std::vector<std::string> stack_frames(abi::Symbolizer* symbols, const abi::Value& stack);

// A stack as trace, a key or %k prints it: "\n", then each frame after `indent` spaces, formatted
// with `frame_format` (a printf format with one %s), then "\n".
std::string stack_text(abi::Symbolizer* symbols, const abi::Value& stack, int indent,
                       const std::string& frame_format = "%s");

// A stack's frames root first, each as its function ("mod`func", no offset, so samples in one
// function merge), joined by ';': one segment of a folded line.
std::string folded_stack(abi::Symbolizer* symbols, const abi::Value& stack);

}  // namespace dsched::output
