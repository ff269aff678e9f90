#include <bpf/libbpf.h>
#include <doctest/doctest.h>

#include <cerrno>
#include <memory>

#include "lang/frontend.h"
#include "lang/probe_catalog.h"
#include "runtime/buffer_resize.h"

using dsched::BufferResizer;

namespace {

using Object = std::unique_ptr<bpf_object, decltype(&bpf_object__close)>;

// The BPF object of a script with a trace buffer, a keyed aggregation and a global, opened (not
// loaded: no privileges needed).
Object open_object() {
  static const std::vector<char> elf = [] {
    dsched::lang::FrontendOptions options;
    dsched::lang::ProbeCatalog catalog;
    auto compiled = dsched::lang::compile({{"t.d", "BEGIN { x = 1; @[x] = count(); printf(\"%d\", x); }", false}},
                                          options, catalog, dsched::lang::Stage::Object);
    REQUIRE_MESSAGE(compiled.program, compiled.error);
    return compiled.program->object;
  }();
  Object object(bpf_object__open_mem(elf.data(), elf.size(), nullptr), bpf_object__close);
  REQUIRE(object);
  return object;
}

std::string create_failed(const std::string& map) {
  return "libbpf: Error in bpf_create_map_xattr(" + map + "):Cannot allocate memory(-12). Retrying without BTF.\n"
         "libbpf: map '" + map + "': failed to create: Cannot allocate memory(-12)\n";
}

uint32_t entries(bpf_object* object, const char* map) {
  return bpf_map__max_entries(bpf_object__find_map_by_name(object, map));
}

}  // namespace

TEST_CASE("libbpf's message names the map it could not create; sizes are written as DTrace does") {
  CHECK(BufferResizer::failed_map(create_failed("events")) == "events");
  CHECK(BufferResizer::failed_map("libbpf: prog 'x': failed to load: -13\n") == std::nullopt);
  CHECK(BufferResizer::size_text(2 << 20) == "2m");
  CHECK(BufferResizer::size_text(3 << 10) == "3k");
  CHECK(BufferResizer::size_text(1 << 30) == "1g");
  CHECK(BufferResizer::size_text(1000) == "1000");
}

TEST_CASE("bufresize=auto halves the buffer the kernel could not allocate, and says so") {
  Object object = open_object();
  BufferResizer resizer(true);
  const uint32_t ring = entries(object.get(), "events");
  REQUIRE(ring == 4u << 20);  // bufsize's default
  // As the loader does: each try opens the object anew with the sizes lowered so far.
  for (const char* map : {"events", "events", "agg_0"}) {
    object = open_object();
    resizer.apply(object.get());
    REQUIRE(resizer.halve_failed(-ENOMEM, create_failed(map), object.get()));
  }
  const uint32_t keys = entries(open_object().get(), "agg_0");
  // Not buffers: a global's map, or a failure that is not about memory.
  CHECK_FALSE(resizer.halve_failed(-ENOMEM, create_failed("globals"), object.get()));
  CHECK_FALSE(resizer.halve_failed(-EPERM, create_failed("events"), object.get()));

  Object fresh = open_object();
  resizer.apply(fresh.get());
  CHECK(entries(fresh.get(), "events") == ring / 4);
  CHECK(entries(fresh.get(), "agg_0") == keys / 2);
  const bpf_map* agg = bpf_object__find_map_by_name(fresh.get(), "agg_0");
  const uint64_t agg_bytes = uint64_t(keys / 2) * (bpf_map__key_size(agg) + bpf_map__value_size(agg));
  CHECK(resizer.notes() == std::vector<std::string>{"aggregation size lowered to " + BufferResizer::size_text(agg_bytes),
                                                    "buffer size lowered to 1m"});
}

TEST_CASE("quietresize lowers a buffer without a note") {
  BufferResizer resizer(true, /*quiet=*/true);
  Object object = open_object();
  REQUIRE(resizer.halve_failed(-ENOMEM, create_failed("events"), object.get()));
  Object fresh = open_object();
  resizer.apply(fresh.get());
  CHECK(entries(fresh.get(), "events") == (4u << 20) / 2);
  CHECK(resizer.notes().empty());
}

TEST_CASE("a ring buffer is never halved below a page; bufresize=manual never halves") {
  Object object = open_object();
  BufferResizer resizer(true);
  int halvings = 0;
  while (resizer.halve_failed(-ENOMEM, create_failed("events"), object.get())) {
    resizer.apply(object.get());
    ++halvings;
  }
  CHECK(halvings == 10);  // 4m down to 4k
  CHECK(entries(object.get(), "events") == 4096);
  BufferResizer manual(false);
  CHECK_FALSE(manual.halve_failed(-ENOMEM, create_failed("events"), open_object().get()));
}
