// Taskstats replies built by hand (current, older and withdrawn layouts, errors, malformed),
// and one live round trip through the kernel's TASKSTATS family.
#include <doctest/doctest.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <vector>

#include "taskstats.h"

using namespace dsched::ctprof;

namespace {

using Bytes = std::vector<std::uint8_t>;

// Byte offsets of struct taskstats version 16, the layout these tests describe by hand.
constexpr std::size_t kIrqCount = 416, kIrqTotal = 424, kMaxMin = 432, kV16Size = 560;

void put_u64(Bytes& b, std::size_t off, std::uint64_t v) { std::memcpy(b.data() + off, &v, 8); }

Bytes stats_v16(std::uint16_t version = 16) {
  Bytes s(kV16Size, 0);
  std::memcpy(s.data(), &version, 2);
  put_u64(s, offsetof(taskstats, cpu_count), 7);
  put_u64(s, offsetof(taskstats, cpu_delay_total), 7000);
  put_u64(s, offsetof(taskstats, blkio_count), 2);
  put_u64(s, offsetof(taskstats, blkio_delay_total), 900);
  put_u64(s, offsetof(taskstats, swapin_delay_total), 11);
  put_u64(s, offsetof(taskstats, freepages_count), 3);
  put_u64(s, offsetof(taskstats, thrashing_delay_total), 13);
  put_u64(s, offsetof(taskstats, compact_delay_total), 17);
  put_u64(s, offsetof(taskstats, wpcopy_count), 4);
  put_u64(s, offsetof(taskstats, wpcopy_delay_total), 400);
  put_u64(s, offsetof(taskstats, hiwater_rss), 100);  // KiB
  put_u64(s, offsetof(taskstats, hiwater_vm), 300);
  put_u64(s, kIrqCount, 5);
  put_u64(s, kIrqTotal, 55);
  for (std::size_t b = 0; b < 8; ++b) {
    put_u64(s, kMaxMin + b * 16, 1000 + b);    // max
    put_u64(s, kMaxMin + b * 16 + 8, 10 + b);  // min
  }
  return s;
}

void append_attr(Bytes& out, std::uint16_t type, const Bytes& payload) {
  nlattr a{static_cast<std::uint16_t>(NLA_HDRLEN + payload.size()), type};
  const std::size_t at = out.size();
  out.resize(at + NLA_ALIGN(a.nla_len), 0);
  std::memcpy(out.data() + at, &a, sizeof a);
  std::memcpy(out.data() + at + NLA_HDRLEN, payload.data(), payload.size());
}

Bytes u32_bytes(std::uint32_t v) {
  Bytes b(4);
  std::memcpy(b.data(), &v, 4);
  return b;
}

Bytes message(std::uint16_t type, const Bytes& body) {
  Bytes m(NLMSG_HDRLEN, 0);
  m.insert(m.end(), body.begin(), body.end());
  nlmsghdr h{static_cast<std::uint32_t>(m.size()), type, 0, 5, 0};
  std::memcpy(m.data(), &h, sizeof h);
  return m;
}

Bytes stats_reply(std::uint32_t pid, const Bytes& stats) {
  Bytes nest;
  append_attr(nest, TASKSTATS_TYPE_PID, u32_bytes(pid));
  append_attr(nest, TASKSTATS_TYPE_STATS, stats);
  Bytes body(GENL_HDRLEN, 0);
  body[0] = TASKSTATS_CMD_NEW;
  append_attr(body, TASKSTATS_TYPE_AGGR_PID | NLA_F_NESTED, nest);
  return message(/*family id*/ 27, body);
}

Bytes error_reply(int err) {
  Bytes body(sizeof(nlmsgerr), 0);
  const int e = -err;
  std::memcpy(body.data(), &e, sizeof e);
  return message(NLMSG_ERROR, body);
}

}  // namespace

TEST_CASE("ctprof taskstats reply of a version 16 struct yields every bucket") {
  const auto r = parse_taskstats_reply(stats_reply(4242, stats_v16()), 4242);
  REQUIRE(r.status == TaskstatsStatus::Ok);
  const auto& d = r.delays;
  CHECK(d.version == 16);
  CHECK(d.bucket[0][0] == 7);
  CHECK(d.bucket[0][1] == 7000);
  CHECK(d.bucket[1][1] == 900);
  CHECK(d.bucket[2][1] == 11);
  CHECK(d.bucket[3][0] == 3);
  CHECK(d.bucket[4][1] == 13);
  CHECK(d.bucket[5][1] == 17);
  CHECK(d.bucket[6][0] == 4);
  CHECK(d.bucket[7][0] == 5);
  CHECK(d.bucket[7][1] == 55);
  for (std::size_t b = 0; b < 8; ++b) {
    CHECK(d.bucket[b][2] == 1000 + b);
    CHECK(d.bucket[b][3] == 10 + b);
  }
  CHECK(d.hiwater_rss_bytes == 100 * 1024);
  CHECK(d.hiwater_vm_bytes == 300 * 1024);
}

TEST_CASE("ctprof taskstats fields a shorter struct lacks read as zero") {
  Bytes v13 = stats_v16(13);
  v13.resize(kIrqCount);
  auto r = parse_taskstats_reply(stats_reply(9, v13), 9);
  REQUIRE(r.status == TaskstatsStatus::Ok);
  CHECK(r.delays.bucket[6][1] == 400);  // wpcopy is in v13
  CHECK(r.delays.bucket[7][0] == 0);    // irq is not
  CHECK(r.delays.bucket[0][2] == 0);

  // A v13 kernel never has max/min even if the payload carries trailing bytes.
  r = parse_taskstats_reply(stats_reply(9, stats_v16(13)), 9);
  CHECK(r.delays.bucket[0][2] == 0);
  CHECK(r.delays.bucket[7][1] == 55);

  Bytes v8 = stats_v16(8);
  v8.resize(offsetof(taskstats, freepages_count));
  r = parse_taskstats_reply(stats_reply(9, v8), 9);
  REQUIRE(r.status == TaskstatsStatus::Ok);
  CHECK(r.delays.bucket[0][1] == 7000);
  CHECK(r.delays.bucket[3][0] == 0);
  CHECK(r.delays.bucket[6][0] == 0);
  CHECK(r.delays.hiwater_rss_bytes == 100 * 1024);
}

TEST_CASE("ctprof taskstats error replies and malformed messages") {
  CHECK(parse_taskstats_reply(error_reply(EPERM), 1).status == TaskstatsStatus::Eperm);
  CHECK(parse_taskstats_reply(error_reply(ESRCH), 1).status == TaskstatsStatus::Esrch);
  CHECK(parse_taskstats_reply(error_reply(EINVAL), 1).status == TaskstatsStatus::OtherError);
  // The withdrawn version 15 layout moved every field: refuse to guess.
  CHECK(parse_taskstats_reply(stats_reply(3, stats_v16(15)), 3).status ==
        TaskstatsStatus::OtherError);
  // An answer about another task is not an answer about ours.
  CHECK(parse_taskstats_reply(stats_reply(3, stats_v16()), 4).status ==
        TaskstatsStatus::OtherError);

  Bytes truncated = stats_reply(3, stats_v16());
  truncated.resize(truncated.size() / 2);  // nlmsg_len now exceeds the buffer
  CHECK(parse_taskstats_reply(truncated, 3).status == TaskstatsStatus::OtherError);
  CHECK(parse_taskstats_reply(Bytes{1, 2, 3}, 3).status == TaskstatsStatus::OtherError);

  Bytes bad_attr = stats_reply(3, stats_v16());
  const std::uint16_t huge = 0xfff0;  // first attribute claims more bytes than the message has
  std::memcpy(bad_attr.data() + NLMSG_HDRLEN + GENL_HDRLEN, &huge, 2);
  CHECK(parse_taskstats_reply(bad_attr, 3).status == TaskstatsStatus::OtherError);
}

TEST_CASE("ctprof taskstats family lookup reply") {
  Bytes body(GENL_HDRLEN, 0);
  append_attr(body, CTRL_ATTR_FAMILY_NAME, Bytes{'T', 'A', 'S', 'K', 'S', 'T', 'A', 'T', 'S', 0});
  Bytes id(2);
  const std::uint16_t family = 31;
  std::memcpy(id.data(), &family, 2);
  append_attr(body, CTRL_ATTR_FAMILY_ID, id);
  CHECK(parse_family_reply(message(GENL_ID_CTRL, body)) == 31);
  CHECK(parse_family_reply(error_reply(ENOENT)) == -1);
}

TEST_CASE("ctprof taskstats live query of this thread and of a tid that does not exist") {
  std::string error;
  auto source = NetlinkTaskstats::open(error);
  REQUIRE_MESSAGE(source, error);
  const auto self = static_cast<std::uint32_t>(syscall(SYS_gettid));
  const auto results = source->query({self, 0x3ffffff0u, self});
  REQUIRE(results.size() == 3);
  CHECK(results[0].status == TaskstatsStatus::Ok);
  CHECK(results[0].delays.version >= 13);
  CHECK(results[0].delays.hiwater_rss_bytes > 0);
  CHECK(results[1].status == TaskstatsStatus::Esrch);
  CHECK(results[2].status == TaskstatsStatus::Ok);
}
