#include "runtime/driver.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "lang/codegen/codegen.h"
#include "lang/frontend.h"
#include "probes/ctprof/ctprof.h"
#include "probes/registry.h"
#include "runtime/cli.h"
#include "runtime/demo.h"
#include "runtime/session.h"
#include "runtime/target_process.h"
#include "runtime/timeline/timeline.h"
#include "runtime/output/probe_lines.h"
#include "stdlib.h"

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
bool gather_sources(const Invocation& inv, std::vector<lang::ScriptSource>& sources, std::string& error) {
  for (const ProgramPiece& piece : inv.pieces) {
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

lang::FrontendOptions frontend_options(const Invocation& inv, long target_pid) {
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
  return options;
}

void print_probe_list(const std::vector<const probes::Probe*>& probes) {
  std::printf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
  for (const probes::Probe* p : probes)
    std::printf("%5u %10s %17s %33s %s\n", p->id, p->provider.c_str(), p->module.c_str(), p->function.c_str(),
                p->name.c_str());
}

int list_probes(const Invocation& inv) {
  auto& registry = probes::Registry::instance();
  if (inv.pieces.empty()) {
    print_probe_list(registry.all());
    return 0;
  }
  std::vector<const probes::Probe*> listed;
  auto add = [&](const std::vector<const probes::Probe*>& found) {
    for (const probes::Probe* p : found)
      if (std::find(listed.begin(), listed.end(), p) == listed.end()) listed.push_back(p);
  };
  for (const ProgramPiece& piece : inv.pieces) {
    if (piece.kind == ProgramPiece::Kind::Provider) {
      add(registry.provider(piece.text));
    } else if (piece.kind == ProgramPiece::Kind::Description) {
      add(registry.match(piece.text));
    } else {
      std::vector<lang::ScriptSource> sources;
      std::string error;
      Invocation one = inv;
      one.pieces = {piece};
      if (!gather_sources(one, sources, error)) {
        std::cerr << "dsched: " << error << "\n";
        return kCompileError;
      }
      lang::CompileResult compiled = lang::compile(sources, frontend_options(inv, 0));
      if (!compiled.program) {
        std::cerr << compiled.error << "\n";
        return kCompileError;
      }
      for (const lang::Clause& clause : compiled.program->clauses) add(clause.probes);
    }
  }
  std::sort(listed.begin(), listed.end(), [](auto* a, auto* b) { return a->id < b->id; });
  print_probe_list(listed);
  return 0;
}

// One "matched N probes" line per -s/-n/-P, counting each clause's probes as DTrace does.
std::string matched_lines(const std::vector<lang::ScriptSource>& sources, const lang::Program& program) {
  std::vector<uint64_t> counts(sources.size(), 0);
  size_t first_user_file = stdlib::sources().size();  // the library's files come first
  for (const lang::Clause& clause : program.clauses) {
    size_t source = clause.loc.begin.file - first_user_file;
    if (clause.loc.begin.file >= first_user_file && source < counts.size()) counts[source] += clause.probes.size();
  }
  std::string lines;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string& text = sources[i].display_name;
    bool is_script = !sources[i].from_command_line;
    // DTrace names a description by its probe part: the text before the predicate or the body.
    lines += output::matched_probes(is_script, is_script ? text : text.substr(0, text.find_first_of("/{")), counts[i]);
  }
  return lines;
}

output::SortOptions sort_options(const lang::Options& options) {
  output::SortOptions sort;
  sort.by_key = options.flag("aggsortkey");
  sort.reverse = options.flag("aggsortrev");
  sort.key_position = static_cast<size_t>(options.number("aggsortkeypos", 0));
  sort.aggregation_position = static_cast<size_t>(options.number("aggsortpos", 0));
  return sort;
}

int compile_and_run(const Invocation& inv) {
  std::vector<lang::ScriptSource> sources;
  std::string error;
  if (!gather_sources(inv, sources, error)) {
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

  lang::CompileResult compiled = lang::compile(sources, frontend_options(inv, target_pid));
  if (!compiled.program) {
    std::cerr << compiled.error << "\n";
    return kCompileError;
  }
  codegen::CodegenResult lowered = codegen::generate(*compiled.program);
  if (!lowered.error.empty()) {
    const lang::ScriptSource& first = sources.front();
    std::cerr << "dsched: " << (first.from_command_line ? "invalid probe specifier " : "failed to compile script ")
              << first.display_name << ": " << lowered.error << "\n";
    return kCompileError;
  }
  if (inv.mode == Invocation::Mode::CompileOnly) return 0;

  SessionConfig config;
  const lang::Options& options = compiled.program->options;
  config.consumer.quiet = options.quiet();
  config.consumer.specsize = static_cast<uint64_t>(options.number("specsize", 32 << 10));
  config.consumer.sort = sort_options(options);
  config.consumer.destructive = inv.destructive || options.destructive();
  config.matched = matched_lines(sources, *compiled.program);
  config.target = target.get();
  config.verbose = inv.verbose;
  FILE* out = stdout;
  if (!inv.output_path.empty()) {
    out = std::fopen(inv.output_path.c_str(), "a");
    if (!out) {
      std::cerr << "dsched: failed to open output file '" << inv.output_path << "': " << std::strerror(errno) << "\n";
      return kCompileError;
    }
  }
  config.out = out;
  int status = run_session(lowered.program, config);
  if (out != stdout) std::fclose(out);
  return status;
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
      return timeline::run_cli(inv.timeline_args, std::cout, std::cerr);
    case Invocation::Mode::List:
      return list_probes(inv);
    case Invocation::Mode::Demo:
      return run_demo([](const std::vector<std::string>& demo_args) { return run_main(demo_args); });
    case Invocation::Mode::DemoWorkload:
      return run_demo_workload();
    case Invocation::Mode::CompileOnly:
    case Invocation::Mode::Run:
      return compile_and_run(inv);
  }
  return 0;
}

}  // namespace dsched
