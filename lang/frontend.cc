// compile(): parses the embedded library and the user's sources, then checks them as one program.
#include "frontend.h"

#include <set>

#include "builtins.h"
#include "diagnostics.h"
#include "parse_context.h"
#include "preprocess.h"
#include "sema.h"
#include "stdlib.h"

namespace dsched::lang {

CompileResult compile(const std::vector<ScriptSource>& sources, const FrontendOptions& options) {
  CompileResult result;
  if (sources.empty()) {
    result.error = "dsched: no program to compile";
    return result;
  }
  // Texts must outlive error formatting: library texts, then the user's (possibly preprocessed).
  std::vector<std::string> texts;
  std::vector<SourceView> views;
  for (const stdlib::Source& lib : stdlib::sources()) {
    texts.emplace_back(lib.text);
    views.push_back({std::string(lib.name), nullptr, false, true});
  }
  for (const ScriptSource& source : sources) {
    texts.push_back(source.text);
    views.push_back({source.display_name, nullptr, source.from_command_line, false});
  }
  for (size_t i = 0; i < views.size(); ++i) views[i].text = &texts[i];

  try {
    auto program = std::make_unique<Program>();
    program->types = std::make_shared<TypeUniverse>(256);
    program->macro_args = options.macro_args;

    std::set<std::string> typedef_names;
    for (const BuiltinTypedef& t : builtin_typedefs()) typedef_names.insert(t.name);
    typedef_names.insert("caddr_t");
    std::vector<ParseTree> trees(views.size());
    for (size_t i = 0; i < views.size(); ++i) {
      if (options.preprocess && !views[i].is_library) {
        std::string output, error;
        if (!run_preprocessor(texts[i], options.cpp_args, &output, &error))
          throw CompileError({}, error, false);
        texts[i] = std::move(output);
      }
      ParseContext ctx{*program->types, typedef_names, trees[i]};
      parse_source(texts[i], uint32_t(i), ctx);
    }
    std::vector<TopItem*> items;
    for (ParseTree& tree : trees)
      for (TopItem& item : tree.items) items.push_back(&item);
    Sema(*program, options, std::move(items)).run();
    result.program = std::move(program);
  } catch (const CompileError& error) {
    result.error = format_error(error, views);
  } catch (const std::exception& error) {
    CompileError internal({}, std::string("internal compiler error: ") + error.what(), false);
    result.error = format_error(internal, views);
  }
  return result;
}

}  // namespace dsched::lang
