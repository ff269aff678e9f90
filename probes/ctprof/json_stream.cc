#include "json_stream.h"

#include <vector>

#include "snapshot_error.h"

namespace dsched::ctprof {
namespace {

using json = nlohmann::json;

// Builds the DOM of one record at a time (see the header): frames[0] is the top-level object,
// which never keeps its members.
class StreamingDom final : public nlohmann::json_sax<json> {
 public:
  StreamingDom(const std::string& name, SnapshotConsumer& consumer, std::size_t max_values)
      : name_(name), consumer_(consumer), max_values_(max_values) {}

  bool null() override { return value(nullptr); }
  bool boolean(bool v) override { return value(v); }
  bool number_integer(number_integer_t v) override { return value(v); }
  bool number_unsigned(number_unsigned_t v) override { return value(v); }
  bool number_float(number_float_t v, const string_t&) override { return value(v); }
  bool string(string_t& v) override { return value(std::move(v)); }
  bool binary(binary_t& v) override { return value(json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    if (frames_.size() == 1) consumer_.begin(k);
    frames_.back().key = std::move(k);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    // Drop the library's "[json.exception.parse_error.101] " tag; keep its description.
    std::string why = e.what();
    if (auto tag_end = why.find("] "); why.starts_with("[json.") && tag_end != std::string::npos)
      why.erase(0, tag_end + 2);
    throw SnapshotError(name_ + ": not valid JSON: " + why);
  }

 private:
  struct Frame {
    json value;
    std::string key;  // of the member being built, in an object
  };

  bool open(json container) {
    if (frames_.empty() && !container.is_object())
      throw SnapshotError(name_ + ": not a ctprof snapshot: top level is not an object");
    count();
    frames_.push_back({std::move(container), {}});
    return true;
  }

  bool close() {
    Frame done = std::move(frames_.back());
    frames_.pop_back();
    if (!frames_.empty()) complete(std::move(done.value));
    return true;
  }

  bool value(json v) {
    if (frames_.empty())
      throw SnapshotError(name_ + ": not a ctprof snapshot: top level is not an object");
    count();
    complete(std::move(v));
    return true;
  }

  void count() {
    if (++values_ > max_values_)
      throw SnapshotError(name_ + ": not a ctprof snapshot: a record holds more than " +
                          std::to_string(max_values_) + " values");
  }

  bool streamed(const Frame& member, const char* key,
                bool (json::*is_kind)() const noexcept) const {
    return frames_.size() == 2 && frames_[0].key == key && (member.value.*is_kind)();
  }

  void complete(json v) {
    Frame& parent = frames_.back();
    if (frames_.size() == 1) {  // a top-level member
      const bool streamed_member = parent.key == "threads" || parent.key == "cgroup_stats";
      if (parent.key == "threads" && !v.is_array())
        throw SnapshotError(name_ + ": not a ctprof snapshot: \"threads\" is not an array");
      if (parent.key == "cgroup_stats" && !v.is_object())
        throw SnapshotError(name_ + ": not a ctprof snapshot: \"cgroup_stats\" is not an object");
      if (!streamed_member) consumer_.member(parent.key, std::move(v));
      values_ = 0;
    } else if (streamed(parent, "threads", &json::is_array)) {
      consumer_.thread(std::move(v));
      values_ = 0;
    } else if (streamed(parent, "cgroup_stats", &json::is_object)) {
      consumer_.cgroup(parent.key, std::move(v));
      values_ = 0;
    } else if (parent.value.is_array()) {
      parent.value.push_back(std::move(v));
    } else {
      parent.value[parent.key] = std::move(v);
    }
  }

  const std::string& name_;
  SnapshotConsumer& consumer_;
  std::size_t max_values_;
  std::size_t values_ = 0;
  std::vector<Frame> frames_;
};

}  // namespace

void parse_snapshot_stream(std::istream& in, const std::string& name, SnapshotConsumer& consumer,
                           std::size_t max_record_values) {
  StreamingDom dom(name, consumer, max_record_values);
  json::sax_parse(in, &dom);
}

}  // namespace dsched::ctprof
