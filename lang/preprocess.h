// -C: runs a script through the C preprocessor before compiling it, and maps the lines of what
// cpp wrote back to the files and lines they came from (cpp's `# N "file"` line markers).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dsched::lang {

// False with `error` set when cpp cannot be run or fails (its first diagnostic line is kept).
// On success cpp's own messages (warnings, -H's included files) are added to `messages`.
bool run_preprocessor(const std::string& text, const std::vector<std::string>& cpp_args,
                      std::string* output, std::string* messages, std::string* error);

// Where one line of cpp's output came from; `file` is empty for the script itself.
struct LineOrigin {
  std::string file;
  uint32_t line = 0;
};

// cpp's output, or a D source with line markers of its own, with each marker blanked (the lexer
// never sees one), and the origin of each line: origins[i] is line i + 1's.
struct MappedText {
  std::string text;
  std::vector<LineOrigin> origins;
};
MappedText strip_line_markers(const std::string& text);
// Whether `text` has a line marker (# 12 "file", #line 12): D reads them without cpp too.
bool has_line_markers(const std::string& text);

// cpp's flags for DTrace's ISO C conformance setting (-X, the stdc option): a, c, s or t; none
// for "" (cpp's default). GNU cpp always defines __STDC__ as 1, except with -Xs, where the
// traditional preprocessor leaves it undefined as DTrace does.
std::vector<std::string> conformance_flags(const std::string& stdc);

// The macros DTrace defines for cpp, before the user's -D and -U: __SUNW_D, __SUNW_D_64, __SVR4,
// __unix, __linux and __<system name> as uname gives it, __SUNW_D_VERSION (`d_version`, as
// 0xMMmmmuuu), and __GNUC__ undefined so that system headers read as plain C.
std::vector<std::string> predefined_macros(unsigned d_version);

}  // namespace dsched::lang
