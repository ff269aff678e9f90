// DTrace's hex dump of bytes (tracemem(), and trace() of a string with the rawbytes option): a
// heading of the 16 column offsets, then per 16 bytes the offset, the bytes in hex and as text
// ('.' when not printable). Empty for no bytes.
#pragma once

#include <string>
#include <string_view>

namespace dsched::abi {

std::string hex_dump(std::string_view bytes);

// How DTrace prints bytes that may hold a string (trace() of a struct or array, a string key of
// an aggregation): as a string when they read as one (printable characters, then only NULs or
// nothing), "  %-<width>s" unless quiet; otherwise (an empty string too) the hex dump.
std::string traced_bytes(std::string_view bytes, bool quiet, int width = 33);

}  // namespace dsched::abi
