// -l and -lv: the probe table in dtrace(1)'s columns, with -v each probe's stability and
// argument types as its provider declares them.
#pragma once

#include <cstdio>
#include <vector>

#include "lang/provider.h"

namespace dsched {

void print_probe_list(FILE* out, const std::vector<const lang::Probe*>& probes, bool verbose);

}  // namespace dsched
