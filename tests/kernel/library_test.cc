// Values the D library computes from the kernel: lwpsinfo_t's scheduling class and thread name,
// psinfo_t's process group and session, and progenyof()'s walk up the process tree.
#include <doctest/doctest.h>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "support.h"

using namespace dsched::test;

namespace {

// A thread named `name` under `policy` that sleeps 1 ms at a time until `stop`.
std::thread napping_thread(const char* name, int policy, const std::atomic<bool>& stop) {
  return std::thread([name, policy, &stop] {
    pthread_setname_np(pthread_self(), name);
    sched_param param{};
    param.sched_priority = policy == SCHED_FIFO ? 10 : 0;
    REQUIRE(pthread_setschedparam(pthread_self(), policy, &param) == 0);
    while (!stop) usleep(1000);
  });
}

}  // namespace

TEST_CASE("pr_clname is RT for a SCHED_FIFO thread and TS for a SCHED_OTHER one; pr_name is the thread's name") {
  std::atomic<bool> stop{false};
  std::thread fifo = napping_thread("dsched-fifo", SCHED_FIFO, stop);
  std::thread other = napping_thread("dsched-other", SCHED_OTHER, stop);
  RunResult r = run_dsched({"-qn",
                            "sched:::on-cpu /curlwpsinfo->pr_name == \"dsched-fifo\" || "
                            "curlwpsinfo->pr_name == \"dsched-other\"/ { "
                            "@[stringof(curlwpsinfo->pr_name), curlwpsinfo->pr_clname] = count(); } "
                            "tick-300ms { printa(\"%s %s\\n\", @); exit(0); }"},
                           std::chrono::seconds(20));
  stop = true;
  fifo.join();
  other.join();
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("dsched-fifo RT\n") != std::string::npos);
  CHECK(r.out.find("dsched-other TS\n") != std::string::npos);
  CHECK(leftover_programs().empty());
}

TEST_CASE("psinfo_t pr_pgid and pr_sid are the process group and session of the thread") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"%d %d\\n\", curpsinfo->pr_pgid, curpsinfo->pr_sid); exit(0); }"});
  // dsched runs as this test's child: same session; its process group is the test's unless it
  // made its own.
  CHECK(r.status == 0);
  CHECK(r.out == std::to_string(getpgrp()) + " " + std::to_string(getsid(0)) + "\n\n");
}

TEST_CASE("progenyof() is true for the process and its descendants, false for its parent") {
  TempScript children("sleep 0.2; /bin/true; exit 0\n");
  RunResult r = run_dsched({"-qn",
                            "proc:::exec-success /pid != $target && progenyof($target)/ { "
                            "printf(\"%s descends\\n\", execname); exit(0); } "
                            "END { printf(\"dsched %d\\n\", progenyof($target)); }",
                            "-c", "sh " + children.path()},
                           std::chrono::seconds(20));
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "sleep descends\ndsched 0\n\n");
}

TEST_CASE("pr_psargs is the arguments of the current process, joined by spaces and cut at 79 bytes; elsewhere the name") {
  TempScript children("/bin/sleep 0.01 1e-3 0.000\nexec /bin/sleep 0.0" + std::string(100, '0') + "\n");
  RunResult r = run_dsched({"-qn",
                            "proc:::exec-success /progenyof($target) && execname == \"sleep\"/ { "
                            "printf(\"[%s]\\n\", curpsinfo->pr_psargs); } "
                            "sched:::off-cpu /pid == $target && args[1]->pr_pid != pid/ { "
                            "@other[stringof(args[1]->pr_psargs) == stringof(args[1]->pr_fname)] = count(); } "
                            "END { printf(\"[%s]\\n\", curpsinfo->pr_psargs); printa(\"other named %d\\n\", @other); }",
                            "-c", "sh " + children.path()},
                           std::chrono::seconds(20));
  INFO(r.err);
  CHECK(r.status == 0);
  const std::string long_args = "/bin/sleep 0.0" + std::string(100, '0');
  // END runs in dsched itself, whose first argument is its path.
  CHECK(r.out.starts_with("[/bin/sleep 0.01 1e-3 0.000]\n[" + long_args.substr(0, 79) + "]\n["));
  CHECK(r.out.find("dsched -qn") != std::string::npos);
  // Another process's arguments are out of reach: its command name stands in.
  CHECK(r.out.ends_with("]\nother named 1\n\n"));
}

TEST_CASE("the lock predicates read Linux mutexes and rw_semaphores: none is held where BEGIN runs") {
  RunResult r = run_dsched({"-qn",
                            "BEGIN { m = &curthread->signal->cred_guard_mutex; s = &curthread->mm->mmap_lock; "
                            "printf(\"%d %d %d %d %d %d\\n\", mutex_owned(m), mutex_owner(m) == NULL, "
                            "mutex_type_adaptive(m), mutex_type_spin(m), rw_read_held(s), rw_write_held(s)); exit(0); }"});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "0 1 1 0 0 0\n\n");
}
