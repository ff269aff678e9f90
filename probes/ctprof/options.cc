#include "options.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace dsched::ctprof {
namespace {

std::string trim(std::string s) {
  const auto start = s.find_first_not_of(" \t");
  const auto end = s.find_last_not_of(" \t");
  return start == std::string::npos ? std::string() : s.substr(start, end - start + 1);
}

// Comma-separated entries; an empty entry is an error ("a,,b").
std::vector<std::string> split_commas(const std::string& s, const char* flag) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (item.empty()) throw UsageError(std::string("empty entry in ") + flag + " '" + s + "'");
    out.push_back(item);
  }
  if (out.empty()) throw UsageError(std::string(flag) + " needs at least one entry");
  return out;
}

std::size_t metric_or_throw(const std::string& name, const char* flag) {
  auto id = find_metric(name);
  if (!id)
    throw UsageError(std::string("unknown metric '") + name + "' in " + flag +
                     "; valid metrics: " + all_metric_names());
  return *id;
}

constexpr std::pair<std::string_view, DisplayFormat> kFormats[] = {
    {"full", DisplayFormat::Full},
    {"delta-only", DisplayFormat::DeltaOnly},
    {"no-pct", DisplayFormat::NoPct},
    {"arrow", DisplayFormat::Arrow},
    {"pct-only", DisplayFormat::PctOnly}};

constexpr Column kCompareColumns[] = {
    Column::Group, Column::Threads, Column::Metric, Column::Baseline, Column::Candidate,
    Column::Delta, Column::Pct,     Column::Arrow,  Column::Tags,     Column::Uptime};
constexpr Column kShowColumns[] = {Column::Group, Column::Threads, Column::Metric,
                                   Column::Value, Column::Tags,    Column::Uptime};

template <std::size_t N>
std::string names_of(const Column (&cols)[N]) {
  std::string out;
  for (Column c : cols) out += (out.empty() ? "" : ", ") + std::string(column_name(c));
  return out;
}

std::vector<Column> parse_columns(const std::string& value, ReportKind kind) {
  std::vector<Column> out;
  for (const auto& name : split_commas(value, "--columns")) {
    const auto match = [&](Column c) { return column_name(c) == name; };
    const bool compare = kind == ReportKind::Compare;
    const Column* begin = compare ? std::begin(kCompareColumns) : std::begin(kShowColumns);
    const Column* end = compare ? std::end(kCompareColumns) : std::end(kShowColumns);
    const Column* found = std::find_if(begin, end, match);
    if (found == end)
      throw UsageError("unknown column '" + name + "' in --columns; valid: " +
                       (compare ? names_of(kCompareColumns) : names_of(kShowColumns)));
    if (std::find(out.begin(), out.end(), *found) != out.end())
      throw UsageError("duplicate column '" + name + "' in --columns");
    out.push_back(*found);
  }
  const auto has = [&](Column c) { return std::find(out.begin(), out.end(), c) != out.end(); };
  if (has(Column::Arrow) && (has(Column::Baseline) || has(Column::Candidate)))
    throw UsageError(
        "--columns: arrow already shows baseline → candidate; use it without "
        "baseline and candidate");
  return out;
}

std::vector<SortKey> parse_sort_by(const std::string& value) {
  std::vector<SortKey> keys;
  for (const auto& item : split_commas(value, "--sort-by")) {
    SortKey k;
    std::string name = item;
    if (auto colon = item.find(':'); colon != std::string::npos) {
      name = trim(item.substr(0, colon));
      std::string dir = trim(item.substr(colon + 1));
      std::transform(dir.begin(), dir.end(), dir.begin(),
                     [](unsigned char c) { return std::tolower(c); });
      if (dir != "asc" && dir != "desc")
        throw UsageError("bad direction '" + dir + "' in --sort-by " + item + "; use asc or desc");
      k.descending = dir == "desc";
    }
    k.metric = metric_or_throw(name, "--sort-by");
    if (metric(k.metric).agg == Agg::Mode)
      throw UsageError("--sort-by " + name + ": only numeric metrics can rank groups (" + name +
                       " is a categorical value)");
    for (const auto& earlier : keys)
      if (earlier.metric == k.metric)
        throw UsageError("duplicate metric '" + name + "' in --sort-by");
    keys.push_back(k);
  }
  return keys;
}

// A glob must at least be well formed: fnmatch(3) quietly treats a broken one as literal text.
void check_glob(const std::string& glob) {
  if (glob.empty()) throw UsageError("--cgroup-flatten needs a non-empty glob");
  for (std::size_t i = 0; i < glob.size(); ++i) {
    if (glob[i] == '\\') {
      ++i;
    } else if (glob[i] == '[') {
      std::size_t j = i + 1;
      if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) ++j;
      if (j < glob.size() && glob[j] == ']') ++j;
      while (j < glob.size() && glob[j] != ']') ++j;
      if (j >= glob.size()) throw UsageError("--cgroup-flatten '" + glob + "': unclosed '['");
      i = j;
    }
  }
}

std::size_t parse_limit(const std::string& value) {
  std::size_t n = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc() || p != value.data() + value.size())
    throw UsageError("--limit needs a number of lines (0 for no limit), got '" + value + "'");
  return n;
}

void check_cgroup_sections(ReportOptions& o) {
  if (o.group_by == GroupBy::Cgroup || o.group_by == GroupBy::All) return;
  for (Section s : o.sections)
    if (is_cgroup_section(s))
      o.warnings.push_back(
          "--sections " + std::string(section_name(s)) +
          " needs --group-by cgroup (or all); it renders nothing under --group-by " +
          std::string(group_by_name(o.group_by)));
}


// The flags that take a value; --display-format only in compare.
bool takes_value(const std::string& flag, bool compare) {
  static const char* const kValueFlags[] = {"--group-by", "--cgroup-flatten", "--sections",
                                            "--metrics",  "--sort-by",        "--columns",
                                            "--limit"};
  if (flag == "--display-format") return compare;
  return std::find(std::begin(kValueFlags), std::end(kValueFlags), flag) != std::end(kValueFlags);
}

UsageError unknown_flag(const std::string& flag, bool compare) {
  return UsageError("unknown flag " + flag +
                    "; valid: --group-by, --cgroup-flatten, --no-thread-normalize, "
                    "--no-cg-normalize, --sections, --metrics, --sort-by, " +
                    std::string(compare ? "--display-format, " : "") + "--columns, --limit");
}

}  // namespace

std::string_view column_name(Column c) {
  switch (c) {
    case Column::Group: return "group";
    case Column::Threads: return "threads";
    case Column::Metric: return "metric";
    case Column::Baseline: return "baseline";
    case Column::Candidate: return "candidate";
    case Column::Delta: return "delta";
    case Column::Pct: return "%";
    case Column::Arrow: return "arrow";
    case Column::Value: return "value";
    case Column::Tags: return "tags";
    case Column::Uptime: return "uptime";
  }
  return "?";
}

bool ReportOptions::shows(std::size_t id) const {
  return (sections.empty() || sections.count(metric(id).section)) &&
         (metrics.empty() || metrics.count(id));
}

bool ReportOptions::shows(Section s) const { return sections.empty() || sections.count(s); }

std::vector<Column> ReportOptions::resolved_columns() const {
  if (!columns.empty()) return columns;
  if (kind == ReportKind::Show)
    return {Column::Group, Column::Threads, Column::Metric, Column::Value};
  std::vector<Column> out = {Column::Group, Column::Threads, Column::Metric};
  switch (display_format) {
    case DisplayFormat::Full:
      out.insert(out.end(),
                 {Column::Baseline, Column::Candidate, Column::Delta, Column::Pct, Column::Uptime});
      break;
    case DisplayFormat::DeltaOnly: out.insert(out.end(), {Column::Delta, Column::Pct}); break;
    case DisplayFormat::NoPct:
      out.insert(out.end(), {Column::Baseline, Column::Candidate, Column::Delta});
      break;
    case DisplayFormat::Arrow:
      out.insert(out.end(), {Column::Arrow, Column::Delta, Column::Pct, Column::Uptime});
      break;
    case DisplayFormat::PctOnly: out.push_back(Column::Pct); break;
  }
  return out;
}

std::vector<std::string> split_flags(const std::string& flags) {
  std::vector<std::string> out;
  std::istringstream in(flags);
  std::string word;
  while (in >> word) out.push_back(word);
  return out;
}

ReportOptions parse_report_flags(const std::vector<std::string>& args,
                                 std::vector<std::string>& positional, ReportKind kind) {
  ReportOptions o;
  o.kind = kind;
  o.group_by = kind == ReportKind::Compare ? GroupBy::All : GroupBy::Pcomm;
  const bool compare = kind == ReportKind::Compare;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    if (flag.size() < 2 || flag.compare(0, 2, "--") != 0) {
      positional.push_back(flag);
      continue;
    }
    if (flag == "--no-thread-normalize" || flag == "--no-cg-normalize") {
      (flag == "--no-thread-normalize" ? o.no_thread_normalize : o.no_cg_normalize) = true;
      continue;
    }
    if (flag == "--wrap")
      throw UsageError(
          "--wrap is not supported: tables are printed unwrapped (pipe them through "
          "`less -S` to scroll)");
    std::string value;
    if (auto eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
      if (flag == "--no-thread-normalize" || flag == "--no-cg-normalize" || flag == "--wrap")
        throw UsageError(flag + " takes no value");
    } else {
      if (!takes_value(flag, compare)) throw unknown_flag(flag, compare);
      if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
      value = args[++i];
    }
    if (flag == "--group-by") {
      auto g = find_group_by(value);
      if (!g)
        throw UsageError("unknown --group-by '" + value +
                         "'; valid: all, pcomm, comm, comm-exact, cgroup");
      o.group_by = *g;
    } else if (flag == "--cgroup-flatten") {
      check_glob(value);
      o.cgroup_flatten.push_back(value);
    } else if (flag == "--sections") {
      for (const auto& name : split_commas(value, "--sections")) {
        auto s = find_section(name);
        if (!s)
          throw UsageError("unknown section '" + name +
                           "' in --sections; valid sections: " + all_section_names());
        o.sections.insert(*s);
      }
    } else if (flag == "--metrics") {
      for (const auto& name : split_commas(value, "--metrics"))
        o.metrics.insert(metric_or_throw(name, "--metrics"));
    } else if (flag == "--sort-by") {
      o.sort_by = parse_sort_by(value);
    } else if (flag == "--display-format" && compare) {
      const auto* f = std::find_if(std::begin(kFormats), std::end(kFormats),
                                   [&](const auto& p) { return p.first == value; });
      if (f == std::end(kFormats))
        throw UsageError("unknown --display-format '" + value +
                         "'; valid: full, delta-only, no-pct, arrow, pct-only");
      o.display_format = f->second;
    } else if (flag == "--columns") {
      o.columns = parse_columns(value, kind);
    } else if (flag == "--limit") {
      o.limit = parse_limit(value);
    } else {
      throw unknown_flag(flag, compare);
    }
  }
  check_cgroup_sections(o);
  return o;
}

}  // namespace dsched::ctprof
