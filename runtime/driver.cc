#include "runtime/driver.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <bpf/libbpf.h>

#include "lang/frontend.h"
#include "probes/ctprof/ctprof.h"
#include "runtime/cli.h"
#include "runtime/demo.h"
#include "runtime/output/text_output.h"
#include "runtime/session.h"
#include "runtime/support/target_process.h"
#include "runtime/timeline/recording.h"
#include "runtime/timeline/timeline.h"
#include "runtime/timeline/timeline_output.h"

namespace dsched {
namespace {

constexpr int kCompileError = 1;
constexpr int kUsageError = 2;

int usage_error(const std::string& message) {
  std::cerr << "dsched: " << message << "\n" << usage_text();
  return kUsageError;
}

bool read_file(const std::string& path, std::string& text, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "failed to open " + path + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

// The D sources of the -s/-n/-P pieces, in order.
bool gather_sources(const std::vector<ProgramPiece>& pieces, std::vector<lang::ScriptSource>& sources,
                    std::string& error) {
  for (const ProgramPiece& piece : pieces) {
    lang::ScriptSource source;
    switch (piece.kind) {
      case ProgramPiece::Kind::ScriptFile:
        source.display_name = piece.text;
        if (!read_file(piece.text, source.text, error)) return false;
        break;
      case ProgramPiece::Kind::Description:
        source = {piece.text, piece.text, true};
        break;
      case ProgramPiece::Kind::Provider:
        source = {piece.text, piece.text + ":::", true};
        break;
    }
    sources.push_back(std::move(source));
  }
  return true;
}

lang::FrontendOptions frontend_options(const Invocation& inv, long target_pid, bool stamp_records = false) {
  lang::FrontendOptions options;
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
  options.target_pid = target_pid;
  options.destructive = inv.destructive;
  options.allow_zero_matches = inv.allow_zero_matches;
  options.cli_options = inv.options;
  options.stamp_records = stamp_records;
  return options;
}

void print_probe_list(const std::vector<const lang::Probe*>& probes) {
  std::printf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
  for (const lang::Probe* p : probes)
    std::printf("%5u %10s %17s %33s %s\n", p->id, p->provider.c_str(), p->module.c_str(), p->function.c_str(),
                p->name.c_str());
}

int list_probes(const Invocation& inv) {
  lang::ProbeCatalog catalog;
  if (inv.pieces.empty()) {
    print_probe_list(catalog.all());
    return 0;
  }
  std::vector<const lang::Probe*> listed;
  auto add = [&](const std::vector<const lang::Probe*>& found) {
    for (const lang::Probe* p : found)
      if (std::find(listed.begin(), listed.end(), p) == listed.end()) listed.push_back(p);
  };
  for (const ProgramPiece& piece : inv.pieces) {
    if (piece.kind == ProgramPiece::Kind::Provider) {
      add(catalog.provider(piece.text));
    } else if (piece.kind == ProgramPiece::Kind::Description) {
      add(catalog.match(piece.text));
    } else {
      std::vector<lang::ScriptSource> sources;
      std::string error;
      if (!gather_sources({piece}, sources, error)) {
        std::cerr << "dsched: " << error << "\n";
        return kCompileError;
      }
      lang::Compilation compiled = lang::compile(sources, frontend_options(inv, 0), catalog, lang::Stage::Check);
      if (!compiled.error.empty()) {
        std::cerr << compiled.error << "\n";
        return kCompileError;
      }
      add(compiled.probes);
    }
  }
  std::sort(listed.begin(), listed.end(), [](auto* a, auto* b) { return a->id < b->id; });
  print_probe_list(listed);
  return 0;
}

// One "matched N probes" line per -s/-n/-P, counting each clause's probes as DTrace does.
std::vector<Matched> matched_lines(const std::vector<lang::ScriptSource>& sources, const lang::Compilation& compiled) {
  std::vector<Matched> lines;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string& text = sources[i].display_name;
    bool is_script = !sources[i].from_command_line;
    // DTrace names a description by its probe part: the text before the predicate or the body.
    lines.push_back({is_script ? text : text.substr(0, text.find_first_of("/{")), is_script, compiled.matched[i]});
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
  std::vector<lang::ScriptSource> sources;
  std::string error;
  if (!gather_sources(inv.pieces, sources, error)) {
    std::cerr << "dsched: " << error << "\n";
    return kCompileError;
  }
  // -c: the command exists (held before exec) before compiling, so $target is its pid.
  std::unique_ptr<TargetProcess> target;
  if (inv.mode == Invocation::Mode::Run && !inv.command.empty())
    target = TargetProcess::start_held(inv.command, error);
  else if (inv.mode == Invocation::Mode::Run && inv.pid)
    target = TargetProcess::follow(static_cast<pid_t>(inv.pid), error);
  if (!error.empty()) {
    std::cerr << "dsched: " << error << "\n";
    return kCompileError;
  }
  long target_pid = target ? target->pid() : inv.pid;

  lang::ProbeCatalog catalog;
  lang::Compilation compiled =
      lang::compile(sources, frontend_options(inv, target_pid, timeline != nullptr), catalog, lang::Stage::Object,
                    dump_stage(inv.dump));
  std::cout << compiled.dump << std::flush;
  if (!compiled.error.empty()) {
    std::cerr << compiled.error << "\n";
    return kCompileError;
  }
  if (inv.mode == Invocation::Mode::CompileOnly) return 0;

  SessionConfig config;
  config.matched = matched_lines(sources, compiled);
  config.target = target.get();
  config.verbose = inv.verbose;
  FILE* out = stdout;
  std::string out_name = "standard output";
  if (!inv.output_path.empty()) {
    out = std::fopen(inv.output_path.c_str(), "a");
    if (!out) {
      std::cerr << "dsched: failed to open output file '" << inv.output_path << "': " << std::strerror(errno) << "\n";
      return kCompileError;
    }
    out_name = inv.output_path;
  }
  abi::Options options = compiled.program->options;
  output::TextOutput text(out, out_name, stderr, options);
  int status = timeline ? run_recorded(*compiled.program, text, options, config, *timeline)
                        : run_session(*compiled.program, text, options, config);
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
  return compile_and_run(*invocation, &options);
}

}  // namespace

int run_main(const std::vector<std::string>& args) {
  auto [invocation, cli_error] = parse_command_line(args);
  if (cli_error) return usage_error(cli_error->message);
  const Invocation& inv = *invocation;
  switch (inv.mode) {
    case Invocation::Mode::Help:
      std::cout << usage_text();
      return 0;
    case Invocation::Mode::Version:
      std::cout << "dsched " << DSCHED_VERSION << "\n";
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
