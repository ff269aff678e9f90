#include "snapshot_io.h"

#include <sys/stat.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

namespace dsched::ctprof {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "dsched-ctprof-snapshot";
constexpr int kVersion = 1;

json value_to_json(const Snapshot& snap, const ThreadRecord& t, std::size_t id) {
  if (!t.has.test(id)) return nullptr;
  const auto& def = metric(id);
  if (def.unit == Unit::Text) return snap.text(t.value[id]);
  if (def.is_signed) return static_cast<std::int64_t>(t.value[id]);
  return t.value[id];
}

[[noreturn]] void schema_error(const std::string& name, const std::string& why) {
  throw SnapshotError(name + ": not a ctprof snapshot: " + why);
}

}  // namespace

std::string to_json(const Snapshot& snap) {
  json host = {{"hostname", snap.host.hostname},
               {"kernel_release", snap.host.kernel_release},
               {"cpu_count", snap.host.cpu_count},
               {"uptime_ns", snap.host.uptime_ns},
               {"boot_time_unix_s", snap.host.boot_time_unix_s},
               {"clock_ticks_per_s", snap.host.clock_ticks_per_s},
               {"captured_at_unix_ns", snap.host.captured_at_unix_ns},
               {"task_delayacct", snap.host.task_delayacct ? json(*snap.host.task_delayacct)
                                                           : json(nullptr)}};
  json by_file = json::object();
  for (std::size_t f = 0; f < kProcFileCount; ++f)
    by_file[std::string(kProcFileNames[f])] = snap.parse.failures_by_file[f];
  json metrics = json::array();
  for (std::size_t id = 0; id < kStoredMetricCount; ++id) metrics.push_back(metric(id).name);
  json threads = json::array();
  for (const auto& t : snap.threads) {
    json values = json::array();
    for (std::size_t id = 0; id < kStoredMetricCount; ++id)
      values.push_back(value_to_json(snap, t, id));
    threads.push_back({{"tid", t.tid},
                       {"tgid", t.tgid},
                       {"comm", t.comm},
                       {"pcomm", t.pcomm},
                       {"cgroup", t.cgroup},
                       {"values", std::move(values)}});
  }
  json doc = {
      {"format", kFormat},
      {"version", kVersion},
      {"host", std::move(host)},
      {"taskstats_summary",
       {{"ok_count", snap.taskstats.ok_count},
        {"eperm_count", snap.taskstats.eperm_count},
        {"esrch_count", snap.taskstats.esrch_count},
        {"other_err_count", snap.taskstats.other_err_count}}},
      {"parse_summary",
       {{"tids_walked", snap.parse.tids_walked},
        {"tids_exited", snap.parse.tids_exited},
        {"read_failures", snap.parse.read_failures()},
        {"read_failures_by_file", std::move(by_file)},
        {"dominant", snap.parse.dominant()}}},
      {"metrics", std::move(metrics)},
      {"threads", std::move(threads)}};
  // Replace invalid UTF-8 in thread names instead of failing the capture.
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

Snapshot from_json(const std::string& text, const std::string& name) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw SnapshotError(name + ": not valid JSON: " + e.what());
  }
  if (!doc.is_object()) schema_error(name, "top level is not an object");
  if (doc.value("format", "") != kFormat) schema_error(name, "missing or wrong \"format\"");
  if (!doc.contains("version") || doc["version"] != kVersion)
    schema_error(name, "unsupported \"version\" (expected " + std::to_string(kVersion) + ")");
  Snapshot snap;
  try {
    const auto& h = doc.at("host");
    snap.host.hostname = h.at("hostname").get<std::string>();
    snap.host.kernel_release = h.at("kernel_release").get<std::string>();
    snap.host.cpu_count = h.at("cpu_count").get<std::uint32_t>();
    snap.host.uptime_ns = h.at("uptime_ns").get<std::uint64_t>();
    snap.host.boot_time_unix_s = h.at("boot_time_unix_s").get<std::uint64_t>();
    snap.host.clock_ticks_per_s = h.at("clock_ticks_per_s").get<std::uint32_t>();
    snap.host.captured_at_unix_ns = h.at("captured_at_unix_ns").get<std::uint64_t>();
    if (h.contains("task_delayacct") && !h["task_delayacct"].is_null())
      snap.host.task_delayacct = h["task_delayacct"].get<int>();
    if (snap.host.clock_ticks_per_s == 0) schema_error(name, "host.clock_ticks_per_s is 0");

    const auto& ts = doc.at("taskstats_summary");
    snap.taskstats = {ts.at("ok_count").get<std::uint64_t>(), ts.at("eperm_count").get<std::uint64_t>(),
                      ts.at("esrch_count").get<std::uint64_t>(),
                      ts.at("other_err_count").get<std::uint64_t>()};
    const auto& ps = doc.at("parse_summary");
    snap.parse.tids_walked = ps.at("tids_walked").get<std::uint64_t>();
    snap.parse.tids_exited = ps.value("tids_exited", std::uint64_t{0});
    const auto& by_file = ps.at("read_failures_by_file");
    for (std::size_t f = 0; f < kProcFileCount; ++f)
      snap.parse.failures_by_file[f] = by_file.value(std::string(kProcFileNames[f]), std::uint64_t{0});

    // Column i of every thread's values is the metric named metrics[i]; unknown names (from a
    // newer writer) are skipped.
    std::vector<std::optional<std::size_t>> columns;
    for (const auto& m : doc.at("metrics")) columns.push_back(find_metric(m.get<std::string>()));
    const auto& threads = doc.at("threads");
    if (!threads.is_array()) schema_error(name, "\"threads\" is not an array");
    snap.threads.reserve(threads.size());
    for (const auto& jt : threads) {
      ThreadRecord t;
      t.tid = jt.at("tid").get<std::int32_t>();
      t.tgid = jt.at("tgid").get<std::int32_t>();
      t.comm = jt.at("comm").get<std::string>();
      t.pcomm = jt.at("pcomm").get<std::string>();
      t.cgroup = jt.at("cgroup").get<std::string>();
      const auto& values = jt.at("values");
      if (!values.is_array() || values.size() != columns.size())
        schema_error(name, "thread " + std::to_string(t.tid) + " has " +
                               std::to_string(values.size()) + " values for " +
                               std::to_string(columns.size()) + " metrics");
      for (std::size_t i = 0; i < columns.size(); ++i) {
        const auto& v = values[i];
        if (!columns[i] || v.is_null() || *columns[i] >= kStoredMetricCount) continue;
        const std::size_t id = *columns[i];
        const auto& def = metric(id);
        if (def.unit == Unit::Text) t.set(id, snap.intern(v.get<std::string>()));
        else if (def.is_signed) t.set_signed(id, v.get<std::int64_t>());
        else t.set(id, v.get<std::uint64_t>());
      }
      snap.threads.push_back(std::move(t));
    }
  } catch (const json::exception& e) {
    // Drop the library's "[json.exception.type_error.302] " tag; keep its description.
    std::string why = e.what();
    if (auto tag_end = why.find("] "); why.starts_with("[json.") && tag_end != std::string::npos)
      why.erase(0, tag_end + 2);
    schema_error(name, why);
  }
  return snap;
}

std::string compress(const std::string& data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  if (ZSTD_isError(n)) throw SnapshotError(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

std::string decompress(const std::string& data, const std::string& name, std::size_t cap) {
  if (data.empty()) throw SnapshotError(name + ": empty file");
  std::uint32_t magic = 0;
  if (data.size() >= 4) std::memcpy(&magic, data.data(), 4);
  if (magic != ZSTD_MAGICNUMBER)
    throw SnapshotError(name + ": not a zstd-compressed snapshot (bad magic number)");
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  std::string out;
  std::string chunk(ZSTD_DStreamOutSize(), '\0');
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  std::size_t last = 1;
  // Stream in bounded chunks so a decompression bomb stops at the cap instead of allocating it.
  while (in.pos < in.size || last != 0) {
    ZSTD_outBuffer ob{chunk.data(), chunk.size(), 0};
    last = ZSTD_decompressStream(ctx.get(), &ob, &in);
    if (ZSTD_isError(last))
      throw SnapshotError(name + ": corrupt zstd data (" + ZSTD_getErrorName(last) + ")");
    if (out.size() + ob.pos > cap)
      throw SnapshotError(name + ": decompressed size exceeds the " +
                          std::to_string(cap >> 20) + " MiB cap");
    out.append(chunk.data(), ob.pos);
    if (in.pos == in.size && ob.pos < ob.size && last != 0)
      throw SnapshotError(name + ": truncated zstd stream");
  }
  return out;
}

void write_snapshot_file(const Snapshot& snap, const std::string& path) {
  const std::string packed = compress(to_json(snap));
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw SnapshotError(path + ": cannot create: " + std::strerror(errno));
  f.write(packed.data(), static_cast<std::streamsize>(packed.size()));
  f.close();
  if (!f) throw SnapshotError(path + ": write failed: " + std::strerror(errno));
}

Snapshot read_snapshot_file(const std::string& path, std::size_t cap) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0)
    throw SnapshotError(path + ": cannot open: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw SnapshotError(path + ": not a regular file");
  // A compressed file larger than the decompressed cap cannot be a valid snapshot.
  if (static_cast<std::uint64_t>(st.st_size) > cap)
    throw SnapshotError(path + ": file size exceeds the " + std::to_string(cap >> 20) + " MiB cap");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw SnapshotError(path + ": cannot open: " + std::strerror(errno));
  std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw SnapshotError(path + ": read failed: " + std::strerror(errno));
  return from_json(decompress(data, path, cap), path);
}

}  // namespace dsched::ctprof
