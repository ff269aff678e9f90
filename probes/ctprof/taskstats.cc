#include "taskstats.h"

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

namespace dsched::ctprof {
namespace {

std::uint64_t read_u64(std::span<const std::uint8_t> p, std::size_t off) {
  std::uint64_t v = 0;
  if (off + sizeof v <= p.size()) std::memcpy(&v, p.data() + off, sizeof v);
  return v;
}

// Calls fn(type, payload) for each netlink attribute in `p`; stops at a malformed one.
template <typename Fn>
void for_each_attr(std::span<const std::uint8_t> p, Fn&& fn) {
  while (p.size() >= NLA_HDRLEN) {
    nlattr a;
    std::memcpy(&a, p.data(), sizeof a);
    if (a.nla_len < NLA_HDRLEN || a.nla_len > p.size()) return;
    fn(a.nla_type & NLA_TYPE_MASK, p.subspan(NLA_HDRLEN, a.nla_len - NLA_HDRLEN));
    const std::size_t step = NLA_ALIGN(a.nla_len);
    if (step >= p.size()) return;
    p = p.subspan(step);
  }
}

// Fields the installed <linux/taskstats.h> may not have yet are located after wpcopy_delay_total:
// v14 appends irq_count and irq_delay_total, v16 then appends max/min per bucket.
constexpr std::size_t kAfterV13 = offsetof(taskstats, wpcopy_delay_total) + 8;
constexpr std::size_t kIrqCount = kAfterV13, kIrqTotal = kAfterV13 + 8;
constexpr std::size_t kFirstMaxMin = kAfterV13 + 16;
// Version 15 placed max/min inside the struct and moved every later field; it was withdrawn.
constexpr std::uint16_t kWithdrawnLayout = 15;

TaskstatsStatus status_from_errno(int error) {
  switch (error) {
    case EPERM: return TaskstatsStatus::Eperm;
    case ESRCH: return TaskstatsStatus::Esrch;
  }
  return TaskstatsStatus::OtherError;
}

bool parse_header(std::span<const std::uint8_t> msg, nlmsghdr& h) {
  if (msg.size() < sizeof h) return false;
  std::memcpy(&h, msg.data(), sizeof h);
  return h.nlmsg_len >= sizeof h && h.nlmsg_len <= msg.size();
}

}  // namespace

DelayRecord parse_taskstats_struct(std::span<const std::uint8_t> p) {
  DelayRecord d;
  if (p.size() >= 2) std::memcpy(&d.version, p.data(), 2);
  const std::size_t count_total[8][2] = {
      {offsetof(taskstats, cpu_count), offsetof(taskstats, cpu_delay_total)},
      {offsetof(taskstats, blkio_count), offsetof(taskstats, blkio_delay_total)},
      {offsetof(taskstats, swapin_count), offsetof(taskstats, swapin_delay_total)},
      {offsetof(taskstats, freepages_count), offsetof(taskstats, freepages_delay_total)},
      {offsetof(taskstats, thrashing_count), offsetof(taskstats, thrashing_delay_total)},
      {offsetof(taskstats, compact_count), offsetof(taskstats, compact_delay_total)},
      {offsetof(taskstats, wpcopy_count), offsetof(taskstats, wpcopy_delay_total)},
      {kIrqCount, kIrqTotal}};
  for (std::size_t b = 0; b < 8; ++b) {
    d.bucket[b][0] = read_u64(p, count_total[b][0]);
    d.bucket[b][1] = read_u64(p, count_total[b][1]);
    if (d.version >= 16) {
      d.bucket[b][2] = read_u64(p, kFirstMaxMin + b * 16);
      d.bucket[b][3] = read_u64(p, kFirstMaxMin + b * 16 + 8);
    }
  }
  d.hiwater_rss_bytes = read_u64(p, offsetof(taskstats, hiwater_rss)) * 1024;
  d.hiwater_vm_bytes = read_u64(p, offsetof(taskstats, hiwater_vm)) * 1024;
  d.run_virtual_total_ns = read_u64(p, offsetof(taskstats, cpu_run_virtual_total));
  return d;
}

TaskstatsResult parse_taskstats_reply(std::span<const std::uint8_t> msg, std::uint32_t tid) {
  TaskstatsResult r;
  nlmsghdr h;
  if (!parse_header(msg, h)) return r;
  msg = msg.first(h.nlmsg_len);
  if (h.nlmsg_type == NLMSG_ERROR) {
    nlmsgerr e;
    if (msg.size() < NLMSG_HDRLEN + sizeof e.error) return r;
    std::memcpy(&e.error, msg.data() + NLMSG_HDRLEN, sizeof e.error);
    r.status = status_from_errno(-e.error);
    return r;
  }
  if (msg.size() < NLMSG_HDRLEN + GENL_HDRLEN) return r;
  bool pid_matches = false, have_stats = false;
  for_each_attr(msg.subspan(NLMSG_HDRLEN + GENL_HDRLEN), [&](int type, auto payload) {
    if (type != TASKSTATS_TYPE_AGGR_PID) return;
    for_each_attr(payload, [&](int inner, auto value) {
      if (inner == TASKSTATS_TYPE_PID && value.size() >= 4) {
        std::uint32_t pid;
        std::memcpy(&pid, value.data(), 4);
        pid_matches = pid == tid;
      } else if (inner == TASKSTATS_TYPE_STATS) {
        r.delays = parse_taskstats_struct(value);
        have_stats = value.size() >= 2;
      }
    });
  });
  if (pid_matches && have_stats && r.delays.version != kWithdrawnLayout)
    r.status = TaskstatsStatus::Ok;
  return r;
}

int parse_family_reply(std::span<const std::uint8_t> msg) {
  nlmsghdr h;
  if (!parse_header(msg, h) || h.nlmsg_type == NLMSG_ERROR ||
      h.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
    return -1;
  int id = -1;
  for_each_attr(msg.subspan(NLMSG_HDRLEN + GENL_HDRLEN, h.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN),
                [&](int type, auto payload) {
                  if (type == CTRL_ATTR_FAMILY_ID && payload.size() >= 2) {
                    std::uint16_t v;
                    std::memcpy(&v, payload.data(), 2);
                    id = v;
                  }
                });
  return id;
}

namespace {

// One genetlink request: header, genl header and one attribute with a small payload.
struct Request {
  nlmsghdr nl;
  genlmsghdr genl;
  nlattr attr;
  char payload[16];
};

bool send_request(int fd, std::uint16_t type, std::uint8_t cmd, std::uint16_t attr_type,
                  const void* data, std::size_t len, std::uint32_t seq) {
  Request req{};
  req.nl.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + NLA_ALIGN(NLA_HDRLEN + len);
  req.nl.nlmsg_type = type;
  req.nl.nlmsg_flags = NLM_F_REQUEST;
  req.nl.nlmsg_seq = seq;
  req.genl.cmd = cmd;
  req.genl.version = 1;
  req.attr.nla_type = attr_type;
  req.attr.nla_len = NLA_HDRLEN + len;
  std::memcpy(req.payload, data, len);
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  return sendto(fd, &req, req.nl.nlmsg_len, 0, reinterpret_cast<sockaddr*>(&kernel),
                sizeof kernel) == static_cast<ssize_t>(req.nl.nlmsg_len);
}

// Requests in flight before reading replies: amortises the round trips while staying far below
// the socket's receive buffer (a reply is well under 1 KiB).
constexpr std::size_t kWindow = 64;

}  // namespace

std::unique_ptr<NetlinkTaskstats> NetlinkTaskstats::open(std::string& error) {
  const int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
  if (fd < 0) {
    error = std::string("netlink socket: ") + std::strerror(errno);
    return nullptr;
  }
  // Replies normally arrive at once; the timeout only guards against a kernel that never answers.
  timeval tv{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_nl local{};
  local.nl_family = AF_NETLINK;
  if (bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
    error = std::string("netlink bind: ") + std::strerror(errno);
    close(fd);
    return nullptr;
  }
  static const char kName[] = TASKSTATS_GENL_NAME;
  std::uint8_t buf[4096];
  ssize_t n = -1;
  if (send_request(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME, kName, sizeof kName,
                   1))
    n = recv(fd, buf, sizeof buf, 0);
  const int family = n > 0 ? parse_family_reply({buf, static_cast<std::size_t>(n)}) : -1;
  if (family < 0) {
    error = "the kernel has no TASKSTATS generic netlink family (CONFIG_TASKSTATS off?)";
    close(fd);
    return nullptr;
  }
  return std::unique_ptr<NetlinkTaskstats>(
      new NetlinkTaskstats(fd, static_cast<std::uint16_t>(family)));
}

NetlinkTaskstats::~NetlinkTaskstats() { close(fd_); }

bool NetlinkTaskstats::send_get(std::uint32_t tid, std::uint32_t seq) {
  return send_request(fd_, family_, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_PID, &tid, sizeof tid,
                      seq);
}

std::vector<TaskstatsResult> NetlinkTaskstats::query(const std::vector<std::uint32_t>& tids) {
  std::vector<TaskstatsResult> out(tids.size());
  buf_.resize(16384);
  // Sequence numbers are the index into tids plus 2 (1 was the family lookup).
  for (std::size_t start = 0; start < tids.size(); start += kWindow) {
    const std::size_t end = std::min(tids.size(), start + kWindow);
    std::size_t pending = 0;
    for (std::size_t i = start; i < end; ++i)
      if (send_get(tids[i], static_cast<std::uint32_t>(i + 2))) ++pending;
    while (pending > 0) {
      const ssize_t n = recv(fd_, buf_.data(), buf_.size(), 0);
      if (n <= 0) break;  // timeout or error: the rest stay OtherError
      std::span<const std::uint8_t> rest(buf_.data(), static_cast<std::size_t>(n));
      nlmsghdr h;
      while (parse_header(rest, h)) {
        const std::size_t index = h.nlmsg_seq - 2;
        if (h.nlmsg_seq >= 2 && index >= start && index < end) {
          out[index] = parse_taskstats_reply(rest.first(h.nlmsg_len), tids[index]);
          --pending;
        }
        const std::size_t step = NLMSG_ALIGN(h.nlmsg_len);
        if (step >= rest.size()) break;
        rest = rest.subspan(step);
      }
    }
  }
  return out;
}

}  // namespace dsched::ctprof
