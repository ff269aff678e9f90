// -l and -lv: the probe table in dtrace(1)'s columns, with -v each probe's stability and
// argument types as its provider declares them; and -v's stability report of a compiled program.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "lang/frontend.h"
#include "lang/provider.h"

namespace dsched {

void print_probe_list(FILE* out, const std::vector<const lang::Probe*>& probes, bool verbose);

// dtrace -v's report for one -s (`is_script`) or -n/-P/-m/-f/-i: the weakest attributes of its
// probe descriptions and of its statements; with `each_description` (-e), then each description as
// written with the blocks of the first probe it matched.
std::string stability_report(bool is_script, std::string_view name, const lang::Compilation::SourceStability& stability,
                             bool each_description);

}  // namespace dsched
