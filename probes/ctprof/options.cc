#include "options.h"

#include <charconv>
#include <sstream>

namespace dsched::ctprof {
namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::size_t metric_or_throw(const std::string& name, const char* flag) {
  auto id = find_metric(name);
  if (!id)
    throw UsageError(std::string("unknown metric '") + name + "' in " + flag +
                     "; valid metrics: " + all_metric_names());
  return *id;
}

}  // namespace

bool ReportOptions::shows(std::size_t id) const {
  return (sections.empty() || sections.count(metric(id).section)) &&
         (metrics.empty() || metrics.count(id));
}

std::vector<std::string> split_flags(const std::string& flags) {
  std::vector<std::string> out;
  std::istringstream in(flags);
  std::string word;
  while (in >> word) out.push_back(word);
  return out;
}

ReportOptions parse_report_flags(const std::vector<std::string>& args,
                                 std::vector<std::string>& positional, bool allow_display_format) {
  ReportOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    if (flag.size() < 2 || flag.compare(0, 2, "--") != 0) {
      positional.push_back(flag);
      continue;
    }
    std::string value;
    if (auto eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
    } else {
      if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
      value = args[++i];
    }
    if (flag == "--group-by") {
      auto g = find_group_by(value);
      if (!g)
        throw UsageError("unknown --group-by '" + value +
                         "'; valid: all, pcomm, comm, comm-exact, cgroup");
      o.group_by = *g;
    } else if (flag == "--sections") {
      for (const auto& name : split_commas(value)) {
        auto s = find_section(name);
        if (!s)
          throw UsageError("unknown section '" + name + "' in --sections; valid sections: " +
                           all_section_names());
        o.sections.insert(*s);
      }
    } else if (flag == "--metrics") {
      for (const auto& name : split_commas(value)) o.metrics.insert(metric_or_throw(name, "--metrics"));
    } else if (flag == "--sort-by") {
      for (const auto& item : split_commas(value)) {
        SortKey k;
        std::string name = item;
        if (auto colon = item.find(':'); colon != std::string::npos) {
          name = item.substr(0, colon);
          const std::string dir = item.substr(colon + 1);
          if (dir != "asc" && dir != "desc")
            throw UsageError("bad direction '" + dir + "' in --sort-by " + item +
                             "; use asc or desc");
          k.descending = dir == "desc";
        }
        k.metric = metric_or_throw(name, "--sort-by");
        const Agg agg = metric(k.metric).agg;
        if (agg == Agg::Mode || agg == Agg::Range)
          throw UsageError("--sort-by " + name + ": only numeric metrics can rank groups (" +
                           name + " is a " + std::string(agg_name(agg)) + " value)");
        o.sort_by.push_back(k);
      }
    } else if (flag == "--display-format" && allow_display_format) {
      if (value != "arrow" && value != "full")
        throw UsageError("unknown --display-format '" + value + "'; valid: arrow, full");
      o.full_layout = value == "full";
    } else if (flag == "--limit") {
      std::size_t n = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || p != value.data() + value.size() || n == 0)
        throw UsageError("--limit needs a positive integer, got '" + value + "'");
      o.limit = n;
    } else {
      throw UsageError("unknown flag " + flag + "; valid: --group-by, --sections, --metrics, "
                       "--sort-by, " + std::string(allow_display_format ? "--display-format, " : "") +
                       "--limit");
    }
  }
  return o;
}

}  // namespace dsched::ctprof
