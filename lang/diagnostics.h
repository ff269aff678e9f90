// Compile errors: thrown where a problem is found, formatted once for the user.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "ast.h"
#include "error_tags.h"
#include "preprocess.h"

namespace dsched::lang {

struct CompileError : std::runtime_error {
  CompileError(SourceRange where, ErrTag error_tag, const std::string& message, bool located = true)
      : std::runtime_error(message), loc(where), tag(error_tag), has_location(located) {}
  SourceRange loc;
  ErrTag tag;  // DTrace's kind of error, printed with -x errtags
  bool has_location;
};

[[noreturn]] inline void fail(SourceRange where, ErrTag tag, const std::string& message) {
  throw CompileError(where, tag, message);
}

// A stack or symbol (stack(), sym(), uaddr()...) exists only where DTrace's actions record it, as
// a statement or an aggregation key: as the value of trace() or printf() DTrace's code generator
// refuses the call.
[[noreturn]] inline void fail_action_value(const Expr& e) {
  fail(e.loc, ErrTag::D_CG_EXPR,
       "action " + e.text + "( ) may not be called from a D expression (D program context required)");
}

struct SourceView {
  std::string display_name;
  const std::string* text;
  bool from_command_line;
  bool is_library;  // stdlib sources: errors there are reported against the user's script
  const std::vector<LineOrigin>* origins = nullptr;  // -C: where each line of `text` came from
};

// DTrace's first line ("dsched: failed to compile script x.d: line 5: ..." or "dsched: invalid
// probe specifier TEXT: ..."; with `with_tag`, the tag before the line: "[D_SYNTAX] line 5: ..."),
// then " --> x.d:5:3" and the source line with a caret.
// `sources` is indexed by SourcePos::file and holds at least one non-library source.
std::string format_error(const CompileError& error, const std::vector<SourceView>& sources, bool with_tag = false);

// Text quoted in a message: control and non-ASCII bytes escaped, long text shortened.
std::string printable(const std::string& text, size_t limit = 60);

}  // namespace dsched::lang
