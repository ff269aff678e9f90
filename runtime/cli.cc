#include "runtime/cli.h"

#include <algorithm>
#include <charconv>

namespace dsched {
namespace {

using Result = std::pair<std::optional<Invocation>, std::optional<CliError>>;

Result fail(std::string message) { return {std::nullopt, CliError{std::move(message)}}; }

// Short options that take an argument, as in dtrace(1).
bool takes_argument(char flag) {
  switch (flag) {
    case 'b': case 'c': case 'D': case 'f': case 'i': case 'I': case 'L': case 'm': case 'n':
    case 'o': case 'p': case 'P': case 's': case 'U': case 'x': case 'X':
      return true;
    default:
      return false;
  }
}

// dtrace(1) flags that have no meaning without a kernel-resident DTrace, and why.
const char* refusal_reason(std::string_view flag) {
  if (flag == "a") return "-a is not supported: anonymous tracing state needs a kernel-resident DTrace";
  if (flag == "A") return "-A is not supported: boot-time (anonymous) enablings need a kernel-resident DTrace";
  if (flag == "G") return "-G is not supported: dsched reads USDT probes from the ELF notes that <sys/sdt.h> "
                          "(systemtap-sdt-dev) puts in a program, so no DOF object is built";
  if (flag == "32") return "-32 is not supported: dsched compiles only for the running 64-bit kernel";
  if (flag == "64") return "-64 is not supported: dsched compiles only for the running kernel, without a choice of data model";
  return nullptr;
}

// Sets option `name` from a flag's value (-b, -X) or as a flag (-F, -q), as -x would.
std::optional<CliError> set_option(Invocation& inv, const std::string& name, std::optional<std::string> value) {
  abi::OptionValue parsed;
  std::string error;
  // The reason names the option and what is wrong with it: no usage text follows, as in DTrace.
  if (!abi::parse_option(name, value, &parsed, &error)) return CliError{error, false, 1};
  inv.options.set(name, parsed);
  return std::nullopt;
}

std::optional<CliError> apply_option(Invocation& inv, char flag, const std::string& value) {
  using Kind = ProgramPiece::Kind;
  switch (flag) {
    case 's': inv.pieces.push_back({Kind::ScriptFile, value}); break;
    case 'P': case 'm': case 'f': {
      ProgramPiece piece{flag == 'P' ? Kind::Provider : flag == 'm' ? Kind::Module : Kind::Function, value};
      std::string text, error;
      if (!description_clause(piece, &text, &error)) return CliError{error};
      inv.pieces.push_back(piece);
      break;
    }
    case 'n': inv.pieces.push_back({Kind::Description, value}); break;
    case 'i': {
      auto [id, clause] = split_clause(value);
      unsigned number = 0;
      auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), number);
      if (ec != std::errc() || end != id.data() + id.size() || number == 0)
        return CliError{"invalid probe ID: " + id};
      inv.pieces.push_back({Kind::ProbeId, value});
      break;
    }
    case 'x': {
      auto eq = value.find('=');
      if (eq == 0 || value.empty()) return CliError{"invalid option -x " + value};
      std::optional<std::string> given;
      if (eq != std::string::npos) given = value.substr(eq + 1);
      return set_option(inv, value.substr(0, eq), given);
    }
    case 'b': return set_option(inv, "bufsize", value);
    case 'F': return set_option(inv, "flowindent", std::nullopt);
    case 'q': return set_option(inv, "quiet", std::nullopt);
    case 'X': return set_option(inv, "stdc", value);
    case 'c':
      if (value.find_first_not_of(" \t\n") == std::string::npos) return CliError{"-c requires a command to run"};
      if (!inv.command.empty()) return CliError{"-c may be given once: dsched follows one process", false};
      inv.command = value;
      break;
    case 'p': {
      long pid = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), pid);
      if (ec != std::errc() || end != value.data() + value.size() || pid <= 0)
        return CliError{"invalid process ID: " + value};
      if (inv.pid != 0) return CliError{"-p may be given once: dsched follows one process", false};
      inv.pid = pid;
      break;
    }
    case 'o':
      if (value.empty()) return CliError{"-o requires a file name"};
      inv.output_path = value;
      break;
    case 'D': inv.cpp_args.push_back("-D" + value); break;
    case 'U': inv.cpp_args.push_back("-U" + value); break;
    case 'I': inv.cpp_args.push_back("-I" + value); break;
    case 'H': inv.cpp_args.push_back("-H"); break;
    case 'L': inv.library_dirs.push_back(value); break;
    case 'S': inv.dump = "llvm"; break;
    case 'e': inv.mode = Invocation::Mode::CompileOnly; break;
    case 'l': inv.mode = Invocation::Mode::List; break;
    case 'h': inv.mode = Invocation::Mode::Help; break;
    case 'V': inv.mode = Invocation::Mode::ApiVersion; break;
    case 'v': inv.verbose = true; break;
    case 'w': inv.destructive = true; break;
    case 'Z': inv.allow_zero_matches = true; break;
    case 'C': inv.preprocess = true; break;
    default: {
      if (const char* reason = refusal_reason(std::string_view(&flag, 1))) return CliError{reason, false};
      return CliError{std::string("invalid option -- '") + flag + "'"};
    }
  }
  return std::nullopt;
}

// The number of the description field a flag names: provider 0 ... name 3.
int field_of(ProgramPiece::Kind kind) {
  switch (kind) {
    case ProgramPiece::Kind::Provider: return 0;
    case ProgramPiece::Kind::Module: return 1;
    case ProgramPiece::Kind::Function: return 2;
    default: return 3;
  }
}

}  // namespace

Result parse_command_line(const std::vector<std::string>& args) {
  Invocation inv;
  if (!args.empty() && args[0] == "ctprof") {
    inv.mode = Invocation::Mode::Ctprof;
    inv.ctprof_args.assign(args.begin() + 1, args.end());
    return {inv, std::nullopt};
  }
  if (!args.empty() && args[0] == "timeline") {
    inv.mode = Invocation::Mode::Timeline;
    inv.timeline_args.assign(args.begin() + 1, args.end());
    return {inv, std::nullopt};
  }
  bool options_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_done || arg.size() < 2 || arg[0] != '-') {
      inv.script_args.push_back(arg);
      continue;
    }
    if (arg == "--") { options_done = true; continue; }
    if (arg == "--help") { inv.mode = Invocation::Mode::Help; continue; }
    if (arg == "--version") { inv.mode = Invocation::Mode::Version; continue; }
    if (arg == "--demo") { inv.mode = Invocation::Mode::Demo; continue; }
    if (arg == "--demo-workload") { inv.mode = Invocation::Mode::DemoWorkload; continue; }
    if (arg.starts_with("--dump=")) {
      inv.dump = arg.substr(7);
      if (*inv.dump != "ast" && *inv.dump != "types" && *inv.dump != "ir")
        return fail("invalid --dump stage '" + *inv.dump + "': use ast, types or ir");
      continue;
    }
    if (arg[1] == '-') return fail("invalid option '" + arg + "'");
    if (const char* reason = refusal_reason(std::string_view(arg).substr(1)))
      return {std::nullopt, CliError{reason, false}};
    // A cluster of short flags, e.g. -qs file or -xquiet.
    for (size_t j = 1; j < arg.size(); ++j) {
      char flag = arg[j];
      std::string value;
      if (takes_argument(flag)) {
        if (j + 1 < arg.size()) {
          value = arg.substr(j + 1);
        } else if (i + 1 < args.size()) {
          value = args[++i];
        } else {
          return fail(std::string("option requires an argument -- '") + flag + "'");
        }
        j = arg.size();
      }
      if (auto err = apply_option(inv, flag, value)) return {std::nullopt, err};
    }
  }
  if (!inv.command.empty() && inv.pid != 0) return fail("only one of -c and -p may be given");
  bool has_script = std::any_of(inv.pieces.begin(), inv.pieces.end(),
                                [](const ProgramPiece& p) { return p.kind == ProgramPiece::Kind::ScriptFile; });
  if (inv.mode == Invocation::Mode::Help && has_script)
    return {std::nullopt, CliError{"-h with -s is not supported: USDT probes are written with <sys/sdt.h> "
                                   "(systemtap-sdt-dev), whose ELF notes dsched reads (without -s, -h prints this help)",
                                   false}};
  bool needs_program = inv.mode == Invocation::Mode::Run || inv.mode == Invocation::Mode::CompileOnly;
  if (needs_program && inv.pieces.empty())
    return fail("no probes specified: use -s script, -n description or -P provider");
  return {inv, std::nullopt};
}

std::optional<CliError> apply_interpreter_line(Invocation& inv, std::string_view first_line) {
  if (!first_line.starts_with("#!")) return std::nullopt;
  std::vector<std::string> words;
  std::string line(first_line.substr(2));
  for (size_t at = 0; (at = line.find_first_not_of(" \t\r", at)) != std::string::npos;) {
    size_t end = line.find_first_of(" \t\r", at);
    words.push_back(line.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end;
  }
  auto interpreter = std::find_if(words.begin(), words.end(), [](const std::string& w) {
    std::string_view base = std::string_view(w).substr(w.rfind('/') + 1);
    return base == "dtrace" || base == "dsched";
  });
  if (interpreter == words.end()) return std::nullopt;
  for (auto word = interpreter + 1; word != words.end(); ++word) {
    const std::string& arg = *word;
    auto refuse = [&](const std::string& why) {
      return CliError{"#! line: " + why, false};
    };
    if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-') return refuse("invalid argument '" + arg + "'");
    for (size_t j = 1; j < arg.size(); ++j) {
      char flag = arg[j];
      // -s names the script itself (the kernel appends its path): it ends the line's flags.
      if (flag == 's') {
        if (j + 1 != arg.size() || word + 1 != words.end()) return refuse("-s must come last");
        return std::nullopt;
      }
      if (std::string_view("CqwZFvxbDUIX").find(flag) == std::string_view::npos)
        return refuse(std::string("-") + flag + " cannot be given on it");
      std::string value;
      if (takes_argument(flag)) {
        if (j + 1 < arg.size()) value = arg.substr(j + 1);
        else if (word + 1 != words.end()) value = *++word;
        else return refuse(std::string("option requires an argument -- '") + flag + "'");
        j = arg.size();
      }
      if (auto err = apply_option(inv, flag, value)) return refuse(err->message);
    }
  }
  return std::nullopt;
}

std::pair<std::string, std::string> split_clause(const std::string& text) {
  size_t start = text.find_first_of("/{");
  if (start == std::string::npos) return {text, ""};
  size_t end = text.find_last_not_of(" \t\n", start == 0 ? 0 : start - 1);
  return {start == 0 ? "" : text.substr(0, end + 1), text.substr(start)};
}

bool description_clause(const ProgramPiece& piece, std::string* text, std::string* error) {
  auto [head, clause] = split_clause(piece.text);
  int field = field_of(piece.kind);
  // -n keeps DTrace's reading of a description (fields from the right, lists, globs) as written.
  if (piece.kind == ProgramPiece::Kind::Description) {
    *text = piece.text;
    return true;
  }
  int colons = int(std::count(head.begin(), head.end(), ':'));
  if (colons > field) {
    static const char* const forms[] = {"provider", "[provider:]module", "[[provider:]module:]function"};
    *error = "invalid probe description \"" + head + "\": " + forms[field] + " expected";
    return false;
  }
  *text = std::string(size_t(field - colons), ':') + head + std::string(size_t(3 - field), ':');
  if (!clause.empty()) *text += " " + clause;
  return true;
}

std::string usage_text() {
  return "Usage: dsched [-CeFhHlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]] [-I path] [-L path]\n"
         "              [-o output] [-p pid] [-s script] [-U name] [-x opt[=val]] [-X a|c|s|t]\n"
         "              [-P provider [[predicate] action]] [-m [provider:]module [[predicate] action]]\n"
         "              [-f [[provider:]module:]func [[predicate] action]]\n"
         "              [-n [[[provider:]module:]func:]name [[predicate] action]]\n"
         "              [-i probe-id [[predicate] action]] [args ...]\n"
         "       dsched ctprof capture|compare|show|metric-list ...\n"
         "       dsched timeline -o file [-d duration] [-c cmd | -p pid] ...  (see dsched timeline --help)\n"
         "\n"
         "\t-b  set trace buffer size\n"
         "\t-c  run specified command and exit upon its completion\n"
         "\t-C  run cpp(1) preprocessor on script files\n"
         "\t-D  define symbol when invoking preprocessor\n"
         "\t-e  exit after compiling request but prior to enabling probes\n"
         "\t-f  enable or list probes matching the specified function name\n"
         "\t-F  coalesce trace output by function\n"
         "\t-h  show this help (with -s: refused, USDT probes come from <sys/sdt.h>)\n"
         "\t-H  print included files when invoking preprocessor\n"
         "\t-i  enable or list probes matching the specified probe id\n"
         "\t-I  add include directory to preprocessor search path\n"
         "\t-l  list probes matching specified criteria\n"
         "\t-L  add library directory to library search path\n"
         "\t-m  enable or list probes matching the specified module name\n"
         "\t-n  enable or list probes matching the specified probe name\n"
         "\t-o  set output file\n"
         "\t-p  grab specified process-ID and cache its symbol tables\n"
         "\t-P  enable or list probes matching the specified provider name\n"
         "\t-q  set quiet mode (only output explicitly traced data)\n"
         "\t-s  enable or list probes for the specified D program\n"
         "\t-S  print the compiled program (LLVM IR, as optimised for BPF)\n"
         "\t-U  undefine symbol when invoking preprocessor\n"
         "\t-v  set verbose mode (report stability attributes, arguments)\n"
         "\t-V  report DTrace API version\n"
         "\t-w  permit destructive actions\n"
         "\t-x  enable or modify compiler and tracing options\n"
         "\t-X  specify ISO C conformance settings for preprocessor\n"
         "\t-Z  permit probe descriptions that match zero probes\n"
         "\t--dump=ast|types|ir  print a stage of the compile: the parse tree, the typed program,\n"
         "\t           or the LLVM IR as generated\n"
         "\t--version  print the version and exit\n"
         "\t--demo     run the built-in demonstration (a seed script on a short workload)\n";
}

}  // namespace dsched
