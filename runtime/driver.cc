#include "runtime/driver.h"

#include <algorithm>
#include <filesystem>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>

#include <bpf/libbpf.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/frontend.h"
#include "probes/ctprof/ctprof.h"
#include "runtime/cli.h"
#include "runtime/demo.h"
#include "runtime/output/json_output.h"
#include "runtime/output/text_output.h"
#include "runtime/privileges.h"
#include "runtime/probe_listing.h"
#include "runtime/session.h"
#include "runtime/support/target_process.h"
#include "runtime/symbols/process_images.h"
#include "runtime/symbols/symbolizer.h"
#include "runtime/timeline/recording.h"
#include "runtime/timeline/timeline.h"
#include "runtime/timeline/timeline_output.h"

namespace dsched {
namespace {

// Whether the program records user-space stacks, in records or in aggregation keys.
bool records_user_stacks(const abi::CompiledProgram& program) {
  for (const abi::RecordLayout& layout : program.records)
    for (const abi::RecordedAction& action : layout.actions)
      for (const abi::RecordField& field : action.fields)
        if (field.kind == abi::RecordField::Kind::Stack && field.addresses.user) return true;
  for (const abi::AggregationSpec& spec : program.aggregations)
    for (const abi::KeyComponent& key : spec.keys)
      if (key.kind == abi::KeyComponent::Kind::Stack && key.addresses.user) return true;
  return false;
}

constexpr int kCompileError = 1;
constexpr int kUsageError = 2;

int usage_error(const CliError& error) {
  std::cerr << "dsched: " << error.message << "\n";
  if (error.show_usage) std::cerr << usage_text();
  return error.exit_status;
}

// A script: a regular file, or a pipe (-s /dev/stdin, -s <(...)). It is opened without waiting,
// so a FIFO nobody writes to ends at once (as an empty script) instead of blocking; a directory
// or a device is refused, as reading it would fail or never end.
bool read_file(const std::string& path, std::string& text, std::string& error) {
  auto failed = [&](const std::string& why) {
    error = "failed to open " + path + ": " + why;
    return false;
  };
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return failed(std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat st {};
  if (fstat(fd, &st) != 0) return failed(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return failed(std::strerror(EISDIR));
  bool pipe = S_ISFIFO(st.st_mode);
  if (!pipe && !S_ISREG(st.st_mode)) return failed("not a regular file");
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // a writer's data is waited for
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = "failed to read " + path + ": " + std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  if (pipe && text.empty()) return failed("a FIFO with no writer");
  return true;
}

// Reads each -s script, once, and applies the flags on its `#!` line as the kernel would pass
// them to dtrace.
std::optional<std::string> read_scripts(Invocation& inv) {
  for (ProgramPiece& piece : inv.pieces) {
    if (piece.kind != ProgramPiece::Kind::ScriptFile) continue;
    std::string error;
    if (!read_file(piece.text, piece.script, error)) return error;
    std::string_view first_line = std::string_view(piece.script).substr(0, piece.script.find('\n'));
    if (auto err = apply_interpreter_line(inv, first_line))
      return "failed to compile script " + piece.text + ": line 1: " + err->message;
  }
  return std::nullopt;
}

// The D text of a -i piece: the full description of the probe with that ID, then its clause.
bool probe_id_clause(const std::string& piece, lang::ProbeCatalog& catalog, std::string& text,
                     std::string& error) {
  auto [id, clause] = split_clause(piece);
  for (const lang::Probe* probe : catalog.all())
    if (std::to_string(probe->id) == id) {
      text = probe->full_name() + (clause.empty() ? "" : " " + clause);
      return true;
    }
  error = "invalid probe specifier " + piece + ": probe ID " + id + " does not exist";
  return false;
}

// The D sources of the -s/-P/-m/-f/-n/-i pieces, in order.
bool gather_sources(const std::vector<ProgramPiece>& pieces, lang::ProbeCatalog& catalog,
                    std::vector<lang::ScriptSource>& sources, std::string& error) {
  for (const ProgramPiece& piece : pieces) {
    lang::ScriptSource source{piece.text, "", true};
    bool ok = true;
    switch (piece.kind) {
      case ProgramPiece::Kind::ScriptFile:
        source.from_command_line = false;
        source.text = piece.script;
        break;
      case ProgramPiece::Kind::ProbeId:
        ok = probe_id_clause(piece.text, catalog, source.text, error);
        break;
      default:
        ok = description_clause(piece, &source.text, &error);
        break;
    }
    if (!ok) return false;
    sources.push_back(std::move(source));
  }
  return true;
}

// -L: every *.d file of each directory, in name order, as DTrace loads its libraries.
bool gather_libraries(const std::vector<std::string>& dirs, std::vector<lang::ScriptSource>& libraries,
                      std::string& error) {
  for (const std::string& dir : dirs) {
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
      if (entry.path().extension() == ".d" && entry.is_regular_file()) files.push_back(entry.path());
    if (ec) {
      error = "failed to open library directory " + dir + ": " + ec.message();
      return false;
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      lang::ScriptSource library{file.string(), "", false};
      if (!read_file(file.string(), library.text, error)) return false;
      libraries.push_back(std::move(library));
    }
  }
  return true;
}

// The compiler's options for this invocation, with the -L libraries read.
bool frontend_options(const Invocation& inv, lang::FrontendOptions& options, std::string& error) {
  std::string script_name = "dsched";
  for (const ProgramPiece& piece : inv.pieces)
    if (piece.kind == ProgramPiece::Kind::ScriptFile) {
      script_name = piece.text;
      break;
    }
  options.macro_args.push_back(script_name);
  options.macro_args.insert(options.macro_args.end(), inv.script_args.begin(), inv.script_args.end());
  options.preprocess = inv.preprocess;
  options.cpp_args = inv.cpp_args;
  options.destructive = inv.destructive;
  options.compile_only = inv.mode == Invocation::Mode::CompileOnly;
  options.allow_zero_matches = inv.allow_zero_matches;
  options.cli_options = inv.options;
  // Each probe's attachment is at least one file descriptor (main raised the soft limit to the
  // hard one): a script enabling more probes than that can never load.
  if (rlimit files{}; getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
    options.max_probes = files.rlim_cur;
    options.max_probes_reason = "each needs an open file and the limit is " +
                                std::to_string(files.rlim_cur) + "; raise it with ulimit -n";
  }
  return gather_libraries(inv.library_dirs, options.libraries, error);
}

int fail(const std::string& message) {
  std::cerr << "dsched: " << message << "\n";
  return kCompileError;
}

// -c (the command, started and held before exec) or -p (followed): the process $target names.
std::unique_ptr<TargetProcess> grab_target(const Invocation& inv, std::string& error) {
  if (!inv.command.empty()) return TargetProcess::start_held(inv.command, error);
  if (inv.pid) return TargetProcess::follow(static_cast<pid_t>(inv.pid), error);
  return nullptr;
}

// What the pid and USDT providers read of processes; a held -c command first runs to its entry
// point, where its libraries are loaded.
symbols::ProcessImages process_images(const std::unique_ptr<TargetProcess>& target) {
  return symbols::ProcessImages([&target](long pid) {
    return target && target->pid() == pid ? target->run_to(TargetProcess::StartPoint::Entry) : std::string();
  });
}

// A description with its omitted leading fields: "BEGIN" is ":::BEGIN", as DTrace prints it.
std::string full_description(const std::string& description) {
  size_t fields = size_t(std::count(description.begin(), description.end(), ':')) + 1;
  return fields >= 4 ? description : std::string(4 - fields, ':') + description;
}

// -l: the probes each piece names (a script's: those its clauses enable), or every probe.
int list_probes(const Invocation& inv) {
  std::string error;
  std::unique_ptr<TargetProcess> target = grab_target(inv, error);
  if (!error.empty()) return fail(error);
  symbols::ProcessImages images = process_images(target);
  lang::ProbeCatalog catalog(&images);
  std::vector<const lang::Probe*> listed;
  if (inv.pieces.empty()) listed = catalog.all();
  auto add = [&](const std::vector<const lang::Probe*>& found) {
    for (const lang::Probe* p : found)
      if (std::find(listed.begin(), listed.end(), p) == listed.end()) listed.push_back(p);
  };
  lang::FrontendOptions options;
  if (!frontend_options(inv, options, error)) return fail(error);
  options.target_pid = target ? target->pid() : inv.pid;
  options.allow_zero_matches = true;  // as in dtrace(1), -l implies -Z
  for (const ProgramPiece& piece : inv.pieces) {
    std::vector<lang::ScriptSource> sources;
    if (!gather_sources({piece}, catalog, sources, error)) return fail(error);
    std::string description = split_clause(sources[0].text).first;
    // A script's clauses, or a description with macros ($target): what the compiler resolves.
    bool compiled_piece = piece.kind == ProgramPiece::Kind::ScriptFile || description.find('$') != std::string::npos;
    if (compiled_piece) {
      if (piece.kind != ProgramPiece::Kind::ScriptFile) sources[0].text = description + " {}";
      lang::Compilation compiled = lang::compile(sources, options, catalog, lang::Stage::Check);
      std::cerr << compiled.cpp_messages;
      if (!compiled.error.empty()) {
        std::cerr << compiled.error << "\n";
        return kCompileError;
      }
      add(compiled.probes);
      continue;
    }
    std::string why;
    std::vector<const lang::Probe*> found = catalog.match(description, &why);
    // dtrace(1) says so and lists the rest: the run still succeeds.
    if (found.empty())
      std::cerr << "dsched: failed to match " << full_description(description) << ": "
                << (why.empty() ? "No probe matches description" : why) << "\n";
    add(found);
  }
  std::sort(listed.begin(), listed.end(), [](auto* a, auto* b) { return a->id < b->id; });
  print_probe_list(stdout, listed, inv.verbose);
  return 0;
}

// One "matched N probes" line per -s/-n/-P, counting each clause's probes as DTrace does; with -v,
// its stability report.
std::vector<Matched> matched_lines(const std::vector<lang::ScriptSource>& sources, const lang::Compilation& compiled,
                                   bool verbose) {
  std::vector<Matched> lines;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string& text = sources[i].display_name;
    bool is_script = !sources[i].from_command_line;
    // DTrace names a description by its probe part: the text before the predicate or the body.
    Matched& line = lines.emplace_back(Matched{is_script ? text : text.substr(0, text.find_first_of("/{")), is_script,
                                               compiled.matched[i]});
    if (verbose) line.stability_report = stability_report(is_script, line.what, compiled.stability[i], false);
  }
  return lines;
}

std::optional<lang::Stage> dump_stage(const std::optional<std::string>& dump) {
  if (!dump) return std::nullopt;
  if (*dump == "ast") return lang::Stage::Parse;
  if (*dump == "types") return lang::Stage::Check;
  if (*dump == "ir") return lang::Stage::Lower;
  return lang::Stage::Object;
}

// dsched timeline -s/-n: the script runs while the timeline records, and what it prints also
// marks the trace. A script whose programs the kernel refuses leaves no trace file.
int run_recorded(const abi::CompiledProgram& program, abi::Output& text, abi::Options& options, SessionConfig config,
                 const timeline::TimelineOptions& timeline_options) {
  std::string error;
  auto recording = timeline::Recording::start(timeline_options, error);
  if (!recording) {
    std::cerr << "dsched timeline: " << error << "\n";
    return kCompileError;
  }
  std::cerr << "dsched timeline: recording to " << timeline_options.output << "\n";
  timeline::TimelineOutput output(text, recording->track_events(), options);
  config.companion = recording.get();
  int status = run_session(program, output, options, config);
  if (!recording->joined()) {
    recording->discard();
    return status;
  }
  int recorded = recording->finish(std::cerr);
  return status ? status : recorded;
}

// Runs the script of `inv`; with `timeline`, as dsched timeline -s/-n runs it.
int compile_and_run(const Invocation& inv, const timeline::TimelineOptions* timeline = nullptr) {
  std::unique_ptr<TargetProcess> target;
  symbols::ProcessImages images = process_images(target);
  lang::ProbeCatalog catalog(&images);
  std::vector<lang::ScriptSource> sources;
  lang::FrontendOptions options;
  std::string error;
  if (!gather_sources(inv.pieces, catalog, sources, error) || !frontend_options(inv, options, error))
    return fail(error);
  if (inv.mode == Invocation::Mode::Run) {
    if (std::optional<std::string> why = missing_privileges()) return fail(*why);
  }
  // -c: the command exists (held before exec) before compiling, so $target is its pid.
  if (inv.mode == Invocation::Mode::Run) target = grab_target(inv, error);
  if (!error.empty()) return fail(error);
  options.target_pid = target ? target->pid() : inv.pid;

  options.stamp_records = timeline != nullptr;
  EarlyMaps early_maps;
  if (inv.mode == Invocation::Mode::Run)
    options.maps_laid_out = [&early_maps](const std::vector<abi::MapShape>& shapes) { early_maps.create(shapes); };
  lang::Compilation compiled = lang::compile(sources, options, catalog, lang::Stage::Object, dump_stage(inv.dump));
  std::cerr << compiled.cpp_messages;
  std::cout << compiled.dump << std::flush;
  if (!compiled.error.empty()) {
    std::cerr << compiled.error << "\n";
    return kCompileError;
  }
  if (inv.mode == Invocation::Mode::CompileOnly) {
    if (inv.verbose) {
      std::vector<Matched> lines = matched_lines(sources, compiled, false);
      for (size_t i = 0; i < lines.size(); ++i)
        std::cout << stability_report(lines[i].is_script, lines[i].what, compiled.stability[i], true);
    }
    return 0;
  }

  SessionConfig config;
  config.early_maps = &early_maps;
  config.matched = matched_lines(sources, compiled, inv.verbose);
  config.target = target.get();
  config.verbose = inv.verbose;
  FILE* out = stdout;
  std::string out_name = "stdout";
  if (!inv.output_path.empty()) {
    out = std::fopen(inv.output_path.c_str(), "a");
    if (!out) return fail("failed to open output file '" + inv.output_path + "': " + std::strerror(errno));
    out_name = inv.output_path;
  }
  abi::Options run_options = compiled.program->options;
  std::unique_ptr<abi::Output> output;
  // Names stack frames and symbols; reads nothing until an address needs a name.
  symbols::Symbolizer symbolizer([&output](const std::string& message) { output->warning(message); });
  config.symbols = &symbolizer;
  // The target's program and libraries have names even if it exits before its addresses print.
  if (target) symbolizer.set_target_process(uint32_t(target->pid()));
  if (target && target->image_loaded()) symbolizer.remember_process(uint32_t(target->pid()));
  if (inv.verbose && records_user_stacks(*compiled.program))
    std::cerr << "dsched: user stacks are walked through frame pointers: code built without them (most of "
                 "Debian's libraries) ends a stack after its first frame or two, or adds a wrong frame; build "
                 "with -fno-omit-frame-pointer for whole stacks (docs/stacks.md)\n";
  if (run_options.text("oformat") == "json")
    output = std::make_unique<output::JsonOutput>(out, out_name, stderr, run_options, &symbolizer);
  else
    output = std::make_unique<output::TextOutput>(out, out_name, stderr, run_options, &symbolizer);
  int status = timeline ? run_recorded(*compiled.program, *output, run_options, config, *timeline)
                        : run_session(*compiled.program, *output, run_options, config);
  if (out != stdout) std::fclose(out);
  return status;
}

// dsched timeline: the recorder alone, or with a script (-s, -n) read as the main command reads it.
int run_timeline(const std::vector<std::string>& args) {
  timeline::ParsedOptions parsed = timeline::parse_options(args, libbpf_num_possible_cpus());
  if (!parsed.options || parsed.options->help || !parsed.options->has_script)
    return timeline::run_cli(parsed, std::cout, std::cerr);
  const timeline::TimelineOptions& options = *parsed.options;
  std::vector<std::string> words = options.script_words;
  words.push_back("--");
  words.insert(words.end(), options.script_args.begin(), options.script_args.end());
  auto [invocation, cli_error] = parse_command_line(words);
  if (cli_error) {
    std::cerr << "dsched timeline: " << cli_error->message << "\n" << timeline::usage_text();
    return kUsageError;
  }
  invocation->command = options.command;
  invocation->pid = options.pid;
  if (auto err = read_scripts(*invocation)) return fail(*err);
  return compile_and_run(*invocation, &options);
}

}  // namespace

int run_main(const std::vector<std::string>& args) {
  auto [invocation, cli_error] = parse_command_line(args);
  if (cli_error) return usage_error(*cli_error);
  if (auto err = read_scripts(*invocation)) return fail(*err);
  const Invocation& inv = *invocation;
  switch (inv.mode) {
    case Invocation::Mode::Help:
      std::cout << usage_text();
      return 0;
    case Invocation::Mode::Version:
      std::cout << "dsched " << DSCHED_VERSION << "\n";
      return 0;
    case Invocation::Mode::ApiVersion:
      std::cout << "dsched: Sun D " << (lang::kDVersion >> 24) << "." << ((lang::kDVersion >> 12) & 0xfff)
                << " (dsched " << DSCHED_VERSION << ")\n";
      return 0;
    case Invocation::Mode::Ctprof:
      return ctprof::run_cli(inv.ctprof_args, std::cout, std::cerr);
    case Invocation::Mode::Timeline:
      return run_timeline(inv.timeline_args);
    case Invocation::Mode::List:
      return list_probes(inv);
    case Invocation::Mode::Demo:
      return run_demo([](const std::vector<std::string>& demo_args) { return run_main(demo_args); }, std::cout,
                      std::cerr);
    case Invocation::Mode::DemoWorkload:
      return run_demo_workload();
    case Invocation::Mode::CompileOnly:
    case Invocation::Mode::Run:
      return compile_and_run(inv);
  }
  return 0;
}

}  // namespace dsched
