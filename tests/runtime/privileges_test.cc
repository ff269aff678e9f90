#include <doctest/doctest.h>

#include "runtime/privileges.h"

using dsched::missing_kernel_object;
using dsched::missing_privileges;

TEST_CASE("tracing needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN") {
  auto status = [](const char* caps) { return std::string("Name:\tdsched\nCapEff:\t") + caps + "\nCapBnd:\t0\n"; };
  CHECK_FALSE(missing_privileges(status("000001ffffffffff")).has_value());  // root
  CHECK_FALSE(missing_privileges(status("000000c000000000")).has_value());  // CAP_BPF + CAP_PERFMON
  CHECK_FALSE(missing_privileges(status("0000000000200000")).has_value());  // CAP_SYS_ADMIN
  CHECK(missing_privileges(status("0000000000000000")) ==
        "tracing needs root, or the capabilities CAP_BPF and CAP_PERFMON (this process lacks CAP_BPF and "
        "CAP_PERFMON)");
  CHECK(missing_privileges(status("0000008000000000")) ==
        "tracing needs root, or the capabilities CAP_BPF and CAP_PERFMON (this process lacks CAP_PERFMON)");
  CHECK_FALSE(missing_privileges(std::string("Name:\tx\n")).has_value());  // no CapEff: the kernel decides
}

TEST_CASE("a failed load names the missing tracepoint or BTF") {
  CHECK(missing_kernel_object("libbpf: prog 'p1': failed to find kernel BTF type ID of 'sched_waking': -3\n") ==
        "the kernel has no tracepoint sched_waking");
  CHECK(missing_kernel_object("libbpf: failed to find valid kernel BTF\n")->starts_with("the kernel has no BTF"));
  CHECK_FALSE(missing_kernel_object("libbpf: prog 'p1': BPF program load failed: Permission denied\n").has_value());
}

TEST_CASE("a program the kernel refuses for a withheld helper says which actions need it") {
  CHECK(dsched::forbidden_helper("52: (85) call bpf_probe_write_user#36\nprogram of this type cannot use helper "
                                 "bpf_probe_write_user#36\n")
            ->find("copyout()") != std::string::npos);
  CHECK_FALSE(dsched::forbidden_helper("program of this type cannot use helper bpf_d_path#147\n").has_value());
}
