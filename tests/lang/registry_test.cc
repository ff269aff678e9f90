// The probe registry: stable ids, matching, rate probes, argument tables.
#include <doctest/doctest.h>

#include "registry.h"

using namespace dsched::probes;

TEST_SUITE("registry") {

TEST_CASE("ids are 1-based in table order and stable") {
  auto all = Registry::instance().all();
  REQUIRE(!all.empty());
  for (size_t i = 0; i < all.size(); ++i) CHECK(all[i]->id == i + 1);
  CHECK(all[0]->full_name() == "dtrace:::BEGIN");
  auto again = Registry::instance().match("dtrace:::END");
  REQUIRE(again.size() == 1);
  CHECK(again[0]->id == 2);
}

TEST_CASE("providers and their probes") {
  auto& r = Registry::instance();
  CHECK(r.provider("sched").size() == 11);
  CHECK(r.provider("proc").size() == 8);
  CHECK(r.provider("dtrace").size() == 3);
  CHECK(r.match("sched:::*").size() == 11);
  CHECK(r.match("sched:::nosuch").empty());
  CHECK(r.match("nosuch:::*").empty());
  auto enqueue = r.match("sched:::enqueue");
  REQUIRE(enqueue.size() == 1);
  REQUIRE(enqueue[0]->args.size() == 4);
  CHECK(std::string(enqueue[0]->args[0].translated_type) == "lwpsinfo_t *");
  CHECK(std::string(enqueue[0]->args[0].native_type) == "struct task_struct *");
  CHECK(enqueue[0]->args[2].source == ArgSource::QueueCpu);
  CHECK(enqueue[0]->args[3].translated_type == nullptr);
  CHECK(r.match("sched:::on-cpu")[0]->args.empty());
  CHECK(r.match("sched:::remain-cpu")[0]->unsupported != nullptr);
}

TEST_CASE("profile-N and tick-N exist at any rate and are created once") {
  auto& r = Registry::instance();
  size_t before = r.all().size();
  auto p = r.match("profile-1234hz");
  REQUIRE(p.size() == 1);
  CHECK(p[0]->period_ns == 1000000000ull / 1234);
  CHECK(p[0]->every_cpu);
  CHECK(p[0]->id == before + 1);
  CHECK(r.match("profile:::profile-1234hz")[0] == p[0]);
  auto t = r.match("tick-250ms");
  REQUIRE(t.size() == 1);
  CHECK(t[0]->period_ns == 250000000ull);
  CHECK(!t[0]->every_cpu);
  CHECK(r.match("tick-0").empty());
  CHECK(r.match("tick-5parsecs").empty());
  CHECK(r.match("profile:::tick-1sec")[0]->id < before);  // a listed rate, not a new probe
  CHECK(r.match("profile:::profile-*").size() >= 7);
}

TEST_CASE("rate units") {
  CHECK(parse_probe_rate("997") == 1000000000ull / 997);
  CHECK(parse_probe_rate("997hz") == 1000000000ull / 997);
  CHECK(parse_probe_rate("10sec") == 10000000000ull);
  CHECK(parse_probe_rate("5s") == 5000000000ull);
  CHECK(parse_probe_rate("100us") == 100000ull);
  CHECK(parse_probe_rate("2m") == 120000000000ull);
  CHECK(parse_probe_rate("1d") == 86400000000000ull);
  CHECK(parse_probe_rate("ms") == 0);
  CHECK(parse_probe_rate("10x") == 0);
}

}  // TEST_SUITE
