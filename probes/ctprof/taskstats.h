// Per-thread taskstats (delay accounting) over generic netlink, and the parser for its replies.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace dsched::ctprof {

enum class TaskstatsStatus { Ok, Eperm, Esrch, OtherError };

// The fields ctprof keeps from struct taskstats. Fields a shorter (older) struct lacks read as 0.
struct DelayRecord {
  // Per bucket in kDelayBuckets order: count, total, max, min (ns).
  std::array<std::array<std::uint64_t, 4>, 8> bucket{};
  std::uint64_t hiwater_rss_bytes = 0, hiwater_vm_bytes = 0;
  // Time on cpu (se.sum_exec_runtime, the first schedstat field); the cpu bucket's count and
  // total are schedstat's timeslices and run delay.
  std::uint64_t run_virtual_total_ns = 0;
  std::uint16_t version = 0;
};

struct TaskstatsResult {
  TaskstatsStatus status = TaskstatsStatus::OtherError;
  DelayRecord delays;
};

// Decodes one netlink message (header included) answering TASKSTATS_CMD_GET for `tid`:
// either a NLMSG_ERROR or a genetlink message with the AGGR_PID nest.
TaskstatsResult parse_taskstats_reply(std::span<const std::uint8_t> msg, std::uint32_t tid);
// Decodes the struct taskstats payload itself (any length; missing fields are 0).
DelayRecord parse_taskstats_struct(std::span<const std::uint8_t> payload);
// Decodes a CTRL_CMD_GETFAMILY reply; returns the family id or -1.
int parse_family_reply(std::span<const std::uint8_t> msg);

// Where capture gets taskstats from; tests inject their own.
class TaskstatsSource {
 public:
  virtual ~TaskstatsSource() = default;
  // Answers every tid of `tids`, in order.
  virtual std::vector<TaskstatsResult> query(const std::vector<std::uint32_t>& tids) = 0;
};

// The kernel's TASKSTATS family over one NETLINK_GENERIC socket. open() fails with a reason when
// the socket or the family lookup fails (e.g. kernel without CONFIG_TASKSTATS).
class NetlinkTaskstats final : public TaskstatsSource {
 public:
  static std::unique_ptr<NetlinkTaskstats> open(std::string& error);
  ~NetlinkTaskstats() override;
  std::vector<TaskstatsResult> query(const std::vector<std::uint32_t>& tids) override;

 private:
  NetlinkTaskstats(int fd, std::uint16_t family) : fd_(fd), family_(family) {}
  bool send_get(std::uint32_t tid, std::uint32_t seq);
  int fd_;
  std::uint16_t family_;
  std::vector<std::uint8_t> buf_;
};

}  // namespace dsched::ctprof
