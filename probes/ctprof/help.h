// Usage and --help texts of `dsched ctprof` and its subcommands.
#pragma once

#include <string_view>

namespace dsched::ctprof {

std::string_view usage_text();
// Help of one subcommand ("capture", "compare", "show", "metric-list"); "" when unknown.
std::string_view help_text(std::string_view command);

}  // namespace dsched::ctprof
