// Reading the per-cgroup files (cgroup v2) and pressure files into CgroupStats / PsiResource.
#pragma once

#include <string>
#include <string_view>

#include "cgroup_stats.h"
#include "snapshot.h"

namespace dsched::ctprof {

// "some avg10=1.50 avg60=0.00 avg300=0.00 total=123\nfull ...": the "full" line is optional
// (host cpu pressure has it, older kernels do not).
bool parse_pressure(std::string_view text, PsiResource& out);

// Reads pressure files <name>.pressure (cgroup) or pressure/<name> (host) of every resource
// relative to `dir`; a file that cannot be read is counted as "<source> <file>".
Psi read_pressure(int dir, bool cgroup_layout, const std::string& source, SourceTally& tally,
                  std::string& buf);

// Reads the cgroup `path` ("/a/b") below the cgroup v2 mount open as `root`. Every file that
// cannot be read or parsed is counted in `tally` as "cgroup <file>"; the limit files, which the
// root cgroup never has, are not read for "/".
CgroupStats read_cgroup(int root, const std::string& path, SourceTally& tally, std::string& buf);

}  // namespace dsched::ctprof
