// The probe catalog: stable ids, matching, probes made on demand, argument tables, and what the
// providers' hooks say about their probes.
#include <doctest/doctest.h>

#include "lang/codegen/hook.h"
#include "lang/probe_catalog.h"

using namespace dsched::lang;

TEST_SUITE("catalog") {

// The period a probe's hook gives its perf timer.
uint64_t period_of(const Probe* p) { return p->owner->hook(*p).period_ns(*p); }
bool every_cpu(const Probe* p) { return p->owner->hook(*p).every_cpu(*p); }

TEST_CASE("ids are 1-based, providers by name, and stable") {
  ProbeCatalog catalog;
  auto all = catalog.all();
  REQUIRE(!all.empty());
  for (size_t i = 0; i < all.size(); ++i) CHECK(all[i]->id == i + 1);
  CHECK(all[0]->full_name() == "dtrace:::BEGIN");
  auto again = catalog.match("dtrace:::END");
  REQUIRE(again.size() == 1);
  CHECK(again[0]->id == 2);
  CHECK(ProbeCatalog().match("sched:::on-cpu")[0]->id == catalog.match("sched:::on-cpu")[0]->id);
}

TEST_CASE("providers and their probes") {
  ProbeCatalog r;
  CHECK(r.provider("sched").size() == 11);
  CHECK(r.provider("proc").size() == 12);
  CHECK(r.provider("dtrace").size() == 3);
  CHECK(r.provider("nosuch").empty());
  CHECK(r.match("sched:::*").size() == 11);
  CHECK(r.match("sched:::nosuch").empty());
  CHECK(r.match("nosuch:::*").empty());
  auto enqueue = r.match("sched:::enqueue");
  REQUIRE(enqueue.size() == 1);
  REQUIRE(enqueue[0]->args.size() == 4);
  CHECK(enqueue[0]->args[0].translated == "lwpsinfo_t *");
  CHECK(enqueue[0]->args[0].native == "struct task_struct *");
  CHECK(enqueue[0]->args[2].translated == "cpuinfo_t *");
  CHECK(enqueue[0]->args[3].translated.empty());
  CHECK(r.match("sched:::on-cpu")[0]->args.empty());
  CHECK(!r.match("sched:::remain-cpu")[0]->unsupported.empty());
  CHECK(r.match("sched:::tick")[0]->owner->name() == "sched");
}

TEST_CASE("the syscall provider lists this kernel's system calls, read only when needed") {
  ProbeCatalog fixed;
  size_t fixed_count = fixed.match("sched:::*").back()->id;
  CHECK(fixed.match("BEGIN").size() == 1);
  auto read = fixed.match("syscall::read:entry");
  REQUIRE(read.size() == 1);
  CHECK(read[0]->id > fixed_count);
  CHECK(read[0]->full_name() == "syscall:vmlinux:read:entry");
  CHECK(read[0]->args.size() == 6);
  auto ret = fixed.match("syscall::read:return");
  REQUIRE(ret.size() == 1);
  CHECK(ret[0]->args.size() == 2);
  // Calls without arguments (BTF has only their __do_sys_ function) and a renamed one are there.
  for (const char* call : {"getpid", "sched_yield", "umount2", "openat", "fstat"})
    CHECK(fixed.match(std::string("syscall::") + call + ":entry").size() == 1);
  CHECK(fixed.match("syscall::afs_syscall:entry").empty());  // in the table, not in the kernel
  CHECK(fixed.match("syscall::*read*:entry").size() >= 6);
  size_t calls = fixed.provider("syscall").size() / 2;
  CHECK(calls > 300);
  CHECK(fixed.match("syscall:::entry").size() == calls);
  // Read or not, the fixed providers keep their ids; the kernel's come after them, numbered in the
  // order they were read (a script naming only system calls does not read the tracepoints).
  CHECK(fixed.provider("rawtp").front()->id > read[0]->id);
  ProbeCatalog listed;
  auto all = listed.all();
  CHECK(all.size() > fixed_count + 2 * calls - 1);
  for (size_t i = 0; i < all.size(); ++i) CHECK(all[i]->id == i + 1);
  CHECK(listed.match("syscall::read:entry")[0]->id > fixed_count);
  CHECK(listed.match("sched:::on-cpu")[0]->id == fixed.match("sched:::on-cpu")[0]->id);
}

TEST_CASE("profile-N and tick-N exist at any rate and are made once") {
  ProbeCatalog r;
  size_t before = r.all().size();
  auto p = r.match("profile-1234hz");
  REQUIRE(p.size() == 1);
  CHECK(period_of(p[0]) == 1000000000ull / 1234);
  CHECK(every_cpu(p[0]));
  CHECK(p[0]->id == before + 1);
  CHECK(r.match("profile:::profile-1234hz")[0] == p[0]);
  auto t = r.match("tick-250ms");
  REQUIRE(t.size() == 1);
  CHECK(period_of(t[0]) == 250000000ull);
  CHECK(!every_cpu(t[0]));
  CHECK(r.match("tick-0").empty());
  CHECK(r.match("tick-5parsecs").empty());
  CHECK(r.match("profile:::tick-1sec")[0]->id < before);  // a listed rate, not a new probe
  CHECK(r.match("profile:::profile-*").size() >= 7);
}

TEST_CASE("rate units") {
  ProbeCatalog r;
  auto period = [&](const std::string& name) {
    auto found = r.match("profile:::" + name);
    return found.empty() ? 0 : period_of(found[0]);
  };
  CHECK(period("tick-997") == 1000000000ull / 997);
  CHECK(period("tick-997hz") == 1000000000ull / 997);
  CHECK(period("tick-10sec") == 10000000000ull);
  CHECK(period("tick-5s") == 5000000000ull);
  CHECK(period("tick-100us") == 100000ull);
  CHECK(period("tick-2m") == 120000000000ull);
  CHECK(period("tick-1d") == 86400000000000ull);
  CHECK(period("tick-ms") == 0);
  CHECK(period("tick-10x") == 0);
}

TEST_CASE("argN: on-demand probes read their context; others their typed arguments") {
  ProbeCatalog r;
  const Probe* begin = r.match("dtrace:::BEGIN")[0];
  const Probe* wakeup = r.match("sched:::wakeup")[0];
  CHECK(begin->owner->hook(*begin).attach_kind() == dsched::abi::AttachPoint::Kind::OnDemand);
  CHECK(begin->owner->hook(*begin).phase(*begin) == dsched::abi::AttachPoint::Phase::Begin);
  const Probe* error = r.match("dtrace:::ERROR")[0];
  CHECK(error->owner->hook(*error).fires_on_fault(*error));
  CHECK(wakeup->owner->hook(*wakeup).attach_kind() == dsched::abi::AttachPoint::Kind::Tracepoint);
  CHECK(wakeup->owner->hook(*wakeup).sections(*wakeup) == std::vector<std::string>{"tp_btf/sched_waking"});
}

}  // TEST_SUITE
