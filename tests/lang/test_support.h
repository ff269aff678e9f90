// Helpers shared by the front-end tests.
#pragma once
#include <string>
#include <vector>

#include "lang/frontend.h"
#include "lang/program.h"

namespace dsched::lang::test {

// The probes of every provider, shared by the tests (as the driver shares one per run).
inline ProbeCatalog& catalog() {
  static ProbeCatalog probes;
  return probes;
}

inline CheckResult check_sources(const std::vector<ScriptSource>& sources, const FrontendOptions& options = {}) {
  return check(sources, options, catalog());
}

inline CheckResult compile_text(const std::string& text, const std::string& name = "test.d",
                                FrontendOptions options = {}) {
  if (options.macro_args.empty()) options.macro_args = {name};
  return check_sources({{name, text, false}}, options);
}

// The dump of a program that must compile; the error text otherwise (so failures are readable).
inline std::string dump_of(const std::string& text, FrontendOptions options = {}) {
  CheckResult r = compile_text(text, "test.d", std::move(options));
  return r.program ? dump(*r.program) : "ERROR: " + r.error;
}

// The first line of the error of a program that must not compile.
inline std::string error_of(const std::string& text, FrontendOptions options = {}) {
  CheckResult r = compile_text(text, "test.d", std::move(options));
  if (r.program) return "(compiled)";
  return r.error.substr(0, r.error.find('\n'));
}

// The typed dump of the right-hand side of the last assignment in a BEGIN clause whose
// statements are `prelude` then `x = EXPR`.
inline std::string expr_dump(const std::string& expr,
                             const std::string& prelude = "a = 1; b = 2; c = 3;") {
  CheckResult r = compile_text("BEGIN { " + prelude + " x = " + expr + "; }");
  if (!r.program) return "ERROR: " + r.error;
  const Expr& assign = *r.program->clauses.back().statements.back()->expr;
  return dump(*assign.operands[1]);
}

}  // namespace dsched::lang::test
