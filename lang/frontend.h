// The compiler's front door: D sources in, a compiled program (or DTrace-shaped errors) out.
// The runtime uses the compiler only through this header.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "abi/compiled_program.h"
#include "abi/options.h"
#include "lang/probe_catalog.h"

namespace dsched::lang {

struct Program;

// The version of D this compiler implements, as DTrace numbers versions (major << 24 | minor << 12
// | micro): 1.13. dsched -V names it; cpp sees it as __SUNW_D_VERSION.
constexpr unsigned kDVersion = (1u << 24) | (13u << 12);

struct ScriptSource {
  std::string display_name;        // "qtime.d" for -s FILE, the description text for -n
  std::string text;
  bool from_command_line = false;  // -n/-P etc.: DTrace words the error "invalid probe specifier"
};

struct FrontendOptions {
  std::vector<std::string> macro_args;  // [0] = script name, [1..] = script arguments ($1, $$1 ...)
  bool preprocess = false;              // -C: run the text through cpp first
  std::vector<std::string> cpp_args;    // -D/-U/-I exactly as given, e.g. "-DFOO=1"
  long target_pid = 0;                  // $target (0 when none)
  bool destructive = false;             // -w: allows system(), raise()
  bool compile_only = false;            // -e: as DTrace, destructive actions are refused only when enabled
  bool allow_zero_matches = false;      // -Z: a description matching no probe is not an error
  abi::Options cli_options;             // -x name[=value], already checked; they override pragmas
  bool stamp_records = false;           // dsched timeline: each record says when and where it fired
  std::vector<ScriptSource> libraries;  // -L: D libraries, compiled before the sources
  // Scripts enabling more probes than can ever be attached are refused before code generation;
  // the reason names the limit (the runtime sets it from the open-file limit).
  size_t max_probes = SIZE_MAX;
  std::string max_probes_reason;
  // Called, when set, with the output ring's and the aggregations' maps as soon as their sizes are
  // known, before code is generated: the runtime creates them meanwhile.
  std::function<void(const std::vector<abi::MapShape>&)> maps_laid_out;
};

// The clauses of one probe run in one BPF program, inline: a branch over them reaches at most
// 32767 instructions, and each clause takes at least four.
inline constexpr size_t kMaxClausesPerProbe = 8192;

// The stages a compile goes through; each can be shown (--dump=..., -S).
enum class Stage {
  Parse,   // the parse tree
  Check,   // the typed program
  Lower,   // the LLVM IR as generated
  Object,  // the LLVM IR as optimised, then the BPF object
};

struct Compilation {
  std::unique_ptr<abi::CompiledProgram> program;  // set when the compile reached Object
  std::vector<const Probe*> probes;  // the probes the clauses enable, in id order
  std::vector<uint64_t> matched;     // per source: how many probes its clauses enable
  // -v, per source: the weakest stability of its clauses' probe descriptions and of what their
  // statements use (Stable when it has no clause), and each description as written with the first
  // probe it matched.
  struct SourceStability {
    Attributes descriptions = kStableCommon;
    Attributes statements = kStableCommon;
    std::vector<std::pair<std::string, const Probe*>> described;
  };
  std::vector<SourceStability> stability;
  std::string dump;                  // the requested stage's rendering
  std::string error;                 // full message for stderr (may be several lines)
  std::string cpp_messages;          // -C: what cpp said besides the text (warnings, -H)
};

// Compiles `sources` up to and including `until`; `dump` names a stage to render (or `until`
// when none was asked for and nothing is rendered: pass std::nullopt).
Compilation compile(const std::vector<ScriptSource>& sources, const FrontendOptions& options, ProbeCatalog& catalog,
                    Stage until = Stage::Object, std::optional<Stage> dump = std::nullopt);

// The front end alone (parse and check), for tests and benchmarks of the typed program.
struct CheckResult {
  std::unique_ptr<Program> program;  // null on error
  std::string error;
  std::string cpp_messages;
};
CheckResult check(const std::vector<ScriptSource>& sources, const FrontendOptions& options, ProbeCatalog& catalog);

}  // namespace dsched::lang
