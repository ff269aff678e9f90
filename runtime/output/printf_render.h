// Rendering of D printf()/printa() formats with typed run-time values, exactly as DTrace
// renders them: each conversion is handed to the C library with the length modifier that the
// argument's D size calls for ("ll" for 64-bit integers), %d of an unsigned type prints as %u,
// %p prints hex digits without "0x", a precision of 0 is ignored, a negative '*' width
// left-justifies.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "abi/printf_spec.h"
#include "abi/symbols.h"
#include "abi/value.h"

namespace dsched::output {

using abi::Value;

struct RenderContext {
  // Names the addresses of %a, %A and %k; without it they print as "0x<hex>".
  abi::Symbolizer* symbols = nullptr;
  int stack_indent = 14;  // stackindent: spaces before each frame of a traced stack or a stack key
  // Aggregations keyed by stacks print as folded flame-graph lines ("a;b;c 12", -x foldstacks).
  bool folded_stacks = false;
  bool rawbytes = false;  // trace() of a string prints its recorded bytes as a hex dump
  bool zoom_histograms = false;  // aggzoom: a histogram's largest bar fills 95% of its width
  size_t string_capacity = 257;  // strsize + 1: the bytes of a string key that does not read as text
};

// Renders a '%@' conversion of printa(); receives the conversion and its resolved width and
// precision.
using AggregationRenderer = std::function<std::string(const printf_spec::Conversion&, int width, int precision)>;

// Renders `format`, taking '*' widths and precisions and then the values of the conversions
// from `args` in order. Throws std::invalid_argument when `args` do not fit the format (the
// front end's checks rule that out for compiled scripts).
std::string render_format(const printf_spec::Format& format, std::span<const Value> args,
                          const RenderContext& context = {}, const AggregationRenderer& aggregation = {});

// One conversion with its value; `width` and `precision` are the resolved ones.
std::string render_conversion(const printf_spec::Conversion& conv, int width, int precision, const Value& value,
                              const RenderContext& context = {});

// %S: C escapes for \a \b \f \n \r \t \v \" \\, three-digit octal for other bytes outside
// '!'..'~' except the space.
std::string escape_string(std::string_view s);

// %Y: a walltimestamp (ns since the epoch) in local time as "2024 Mar  5 14:03:07".
std::string format_walltime(uint64_t ns);
// %T: nanoseconds since the epoch in RFC 822's form, local time ("Fri, 27 Nov 2026 13:30:00 UTC").
std::string format_walltime_rfc822(uint64_t ns);

}  // namespace dsched::output
