// The front door: parses the embedded library and the user's sources, checks them as one program,
// then lowers it to a BPF object. Every error on the way is rendered by the diagnostics renderer.
#include "lang/frontend.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "lang/codegen/codegen.h"
#include "lang/diagnostics.h"
#include "lang/library_selection.h"
#include "lang/parse_context.h"
#include "lang/preprocess.h"
#include "lang/program.h"
#include "lang/sema.h"
#include "lang/typedefs.h"
#include "stdlib.h"

namespace dsched::lang {
namespace {

// The texts of one compile: the embedded library's, the -L libraries', then the user's (possibly
// preprocessed). They outlive the compile's error messages, which quote them.
class Sources {
 public:
  // `needed`: which files of the embedded library to compile (null: all).
  Sources(const std::vector<ScriptSource>& libraries, const std::vector<ScriptSource>& sources,
          const std::vector<bool>* needed) {
    std::span<const stdlib::Source> embedded = stdlib::sources();
    for (size_t i = 0; i < embedded.size(); ++i) {
      if (needed && !(*needed)[i]) continue;
      texts_.emplace_back(embedded[i].text);
      views_.push_back({std::string(embedded[i].name), nullptr, false, true});
    }
    for (const std::vector<ScriptSource>* group : {&libraries, &sources})
      for (const ScriptSource& source : *group) {
        texts_.push_back(source.text);
        views_.push_back({source.display_name, nullptr, source.from_command_line, false});
      }
    for (size_t i = 0; i < views_.size(); ++i) views_[i].text = &texts_[i];
    origins_.resize(views_.size());
    library_count_ = views_.size() - sources.size();
  }
  size_t size() const { return texts_.size(); }
  // The sources before the user's: the embedded library and the -L libraries.
  size_t library_count() const { return library_count_; }
  std::string& text(size_t i) { return texts_[i]; }
  bool is_library(size_t i) const { return views_[i].is_library; }
  void set_preprocessed(size_t i, MappedText mapped) {
    texts_[i] = std::move(mapped.text);
    origins_[i] = std::move(mapped.origins);
    views_[i].origins = &origins_[i];
  }
  const std::vector<SourceView>& views() const { return views_; }

 private:
  std::vector<std::string> texts_;
  std::vector<SourceView> views_;
  std::vector<std::vector<LineOrigin>> origins_;  // -C: per source, where its lines came from
  size_t library_count_ = 0;
};

// A script's `#!` line is for the kernel, not for cpp: it becomes an empty line (lines keep their
// numbers), as DTrace removes it before preprocessing.
std::string without_interpreter_line(std::string_view text) {
  if (!text.starts_with("#!")) return std::string(text);
  size_t end = text.find('\n');
  return end == std::string_view::npos ? std::string() : std::string(text.substr(end));
}

// Whether a script defines anything a program is made of: a clause, an inline or a translator.
// Declarations and pragmas alone are, as DTrace says, an empty translation unit.
bool has_program(const ParseTree& tree) {
  return std::ranges::any_of(tree.items, [](const TopItem& item) {
    if (const auto* declaration = std::get_if<DeclarationSyntax>(&item))
      return declaration->spec.storage == Storage::Inline;
    return !std::holds_alternative<PragmaSyntax>(item);
  });
}

std::vector<ParseTree> parse_all(Sources& sources, const FrontendOptions& options, TypeUniverse& types,
                                 std::string* cpp_messages) {
  std::unordered_set<std::string> typedef_names = builtin_typedef_names();
  std::vector<ParseTree> trees(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!options.preprocess && !sources.is_library(i) && has_line_markers(sources.text(i)))
      sources.set_preprocessed(i, strip_line_markers(sources.text(i)));  // as DTrace reads #line itself
    if (options.preprocess && !sources.is_library(i)) {
      std::string output, error;
      std::vector<std::string> cpp_args = predefined_macros(kDVersion);
      cpp_args.insert(cpp_args.end(), options.cpp_args.begin(), options.cpp_args.end());
      for (std::string& flag : conformance_flags(options.cli_options.text("stdc"))) cpp_args.push_back(flag);
      if (!run_preprocessor(without_interpreter_line(sources.text(i)), cpp_args, &output, cpp_messages, &error))
        throw CompileError({}, ErrTag::None, error, false);
      sources.set_preprocessed(i, strip_line_markers(output));
    }
    ParseContext ctx{types, typedef_names, trees[i], !sources.views()[i].from_command_line, sources.is_library(i)};
    parse_source(sources.text(i), uint32_t(i), ctx);
    if (i >= sources.library_count()) trees[i].script_end = SourcePos{uint32_t(i), uint32_t(sources.text(i).size())};
  }
  return trees;
}

std::unique_ptr<Program> check_trees(std::vector<ParseTree>& trees, const FrontendOptions& options,
                                     ProbeCatalog& catalog, std::shared_ptr<TypeUniverse> types) {
  auto program = std::make_unique<Program>();
  program->types = std::move(types);
  std::vector<TopItem*> items;
  for (ParseTree& tree : trees)
    for (TopItem& item : tree.items) items.push_back(&item);
  Sema(*program, options, catalog, std::move(items)).run();
  // After the declarations are checked, as DTrace finds their errors while it parses.
  for (const ParseTree& tree : trees)
    if (tree.script_end && !has_program(tree))
      throw CompileError({*tree.script_end, *tree.script_end}, ErrTag::D_EMPTY, "empty D program translation unit");
  return program;
}

// Runs `body`, turning what it throws into the rendered message (with DTrace's tag under -x errtags).
template <typename Body>
std::string rendered_errors(const Sources& sources, bool with_tags, Body body) {
  try {
    body();
  } catch (const CompileError& error) {
    return format_error(error, sources.views(), with_tags);
  } catch (const std::exception& error) {
    return format_error(CompileError({}, ErrTag::None, std::string("internal compiler error: ") + error.what(), false),
                        sources.views());
  }
  return {};
}

// The embedded library's files the sources need (library_selection.h); none of it is left out
// for sources cpp preprocesses, whose names may come from the headers they include.
std::optional<std::vector<bool>> library_subset(const std::vector<ScriptSource>& script_sources,
                                                const FrontendOptions& options) {
  if (options.preprocess) return std::nullopt;
  std::vector<std::string_view> library, user;
  for (const stdlib::Source& source : stdlib::sources()) library.push_back(source.text);
  for (const std::vector<ScriptSource>* group : {&options.libraries, &script_sources})
    for (const ScriptSource& source : *group) user.push_back(source.text);
  for (const std::string& argument : options.macro_args) user.push_back(argument);
  return needed_library_files(library, user);
}

// Parses the sources after the embedded library and hands the trees to `then`; an error from
// either ends up rendered in `error`. The library is the files the sources need; when that
// fails before `then` sets `committed` (work that must not be done twice, such as code
// generation), the whole library takes its place, and its errors are the ones reported.
template <typename Then>
void parse_then(const std::vector<ScriptSource>& script_sources, const FrontendOptions& options, std::string& error,
                std::string& cpp_messages, Then then) {
  if (script_sources.empty()) {
    error = "dsched: no program to compile";
    return;
  }
  std::optional<std::vector<bool>> subset = library_subset(script_sources, options);
  bool committed = false;
  const std::vector<bool>* whole_library = nullptr;
  for (const std::vector<bool>* needed : {subset ? &*subset : whole_library, whole_library}) {
    Sources sources(options.libraries, script_sources, needed);
    error = rendered_errors(sources, options.cli_options.flag("errtags"), [&] {
      auto types = std::make_shared<TypeUniverse>(256);
      std::vector<ParseTree> trees = parse_all(sources, options, *types, &cpp_messages);
      then(trees, std::move(types), sources.library_count(), committed);
    });
    if (error.empty() || committed || !needed) return;
  }
}

}  // namespace

Compilation compile(const std::vector<ScriptSource>& script_sources, const FrontendOptions& options,
                    ProbeCatalog& catalog, Stage until, std::optional<Stage> dump) {
  Compilation result;
  parse_then(script_sources, options, result.error, result.cpp_messages,
             [&](std::vector<ParseTree>& trees, std::shared_ptr<TypeUniverse> types, size_t library_count,
                 bool& committed) {
    result.dump.clear();
    result.probes.clear();
    if (dump == Stage::Parse)
      for (size_t i = library_count; i < trees.size(); ++i) result.dump += lang::dump(trees[i]);
    if (until == Stage::Parse) return;

    std::unique_ptr<Program> program = check_trees(trees, options, catalog, std::move(types));
    result.matched.assign(script_sources.size(), 0);
    result.stability.assign(script_sources.size(), {});
    std::vector<bool> has_clause(script_sources.size());
    std::unordered_map<const Probe*, size_t> clauses_of;
    for (const Clause& clause : program->clauses) {
      if (clause.loc.begin.file >= library_count) {
        size_t source = clause.loc.begin.file - library_count;
        result.matched[source] += clause.probes.size();
        Compilation::SourceStability& stability = result.stability[source];
        bool first = !has_clause[source];
        has_clause[source] = true;
        stability.descriptions = first ? clause.description_attributes : weakest(stability.descriptions, clause.description_attributes);
        stability.statements = first ? clause.statement_attributes : weakest(stability.statements, clause.statement_attributes);
        if (!clause.continues)
          for (const ResolvedDescription& d : clause.descriptions) stability.described.emplace_back(d.text, d.probes[0]);
      }
      for (const Probe* probe : clause.probes) {
        if (++clauses_of[probe] > kMaxClausesPerProbe)
          fail(clause.loc, ErrTag::D_UNKNOWN, "more than " + std::to_string(kMaxClausesPerProbe) + " clauses for " +
                               probe->full_name() + ": they share one BPF program, where a " +
                               "branch reaches at most 32767 instructions");
        if (clauses_of[probe] == 1) result.probes.push_back(probe);
        if (result.probes.size() > options.max_probes)
          fail(clause.loc, ErrTag::D_UNKNOWN, "more than " + std::to_string(options.max_probes) +
                               " probes enabled; no more can be attached (" + options.max_probes_reason + ")");
      }
    }
    std::sort(result.probes.begin(), result.probes.end(), [](const Probe* a, const Probe* b) { return a->id < b->id; });
    if (dump == Stage::Check) result.dump = lang::dump(*program);
    if (until == Stage::Check) return;

    committed = true;  // code generation lays out the maps, which the runtime then creates
    codegen::Dumps dumps;
    if (dump == Stage::Lower) dumps.lowered_ir = &result.dump;
    if (dump == Stage::Object) dumps.optimized_ir = &result.dump;
    result.program = std::make_unique<abi::CompiledProgram>(codegen::generate(*program, dumps, options.maps_laid_out));
  });
  return result;
}

CheckResult check(const std::vector<ScriptSource>& script_sources, const FrontendOptions& options,
                  ProbeCatalog& catalog) {
  CheckResult result;
  parse_then(script_sources, options, result.error, result.cpp_messages,
             [&](std::vector<ParseTree>& trees, std::shared_ptr<TypeUniverse> types, size_t, bool&) {
    result.program = check_trees(trees, options, catalog, std::move(types));
  });
  return result;
}

}  // namespace dsched::lang
