// Where the instructions of a user function start: DTrace places offset probes (pid1234:a.out:main:1c)
// only at instruction boundaries, and a pattern over a function's names ("*") covers each of them.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace dsched::probes {

// The offsets from the start of `code` (x86-64 machine code) at which an instruction starts, in
// order, up to the first bytes that do not decode.
std::vector<uint64_t> instruction_offsets(std::string_view code, uint64_t address);

}  // namespace dsched::probes
