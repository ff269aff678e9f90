#include "diagnostics.h"

#include <algorithm>
#include <cstdio>

namespace dsched::lang {
namespace {

// The line holding `offset` with unprintable and non-ASCII bytes replaced one for one, so a caret
// under the (byte) column still lines up. Very long lines are cut to a window around the column.
void source_line(const std::string& text, const SourcePos& pos, std::string* line,
                 size_t* caret_at) {
  size_t offset = std::min<size_t>(pos.offset, text.size());
  size_t newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  size_t start = newline == std::string::npos ? 0 : newline + 1;
  size_t end = text.find('\n', offset);
  if (end == std::string::npos) end = text.size();
  size_t column = offset - start;
  constexpr size_t kWindow = 100;
  size_t from = column > kWindow / 2 ? column - kWindow / 2 : 0;
  size_t to = std::min(end, start + from + kWindow);
  line->clear();
  for (size_t i = start + from; i < to; ++i) {
    unsigned char c = text[i];
    line->push_back(c == '\t' || (c >= 0x20 && c < 0x7f) ? char(c) : '?');
  }
  *caret_at = column - from;
}

// The 1-based line and column (in bytes) of `offset` in `text`.
std::pair<size_t, size_t> line_and_column(const std::string& text, uint32_t offset) {
  size_t end = std::min<size_t>(offset, text.size());
  size_t line = 1 + size_t(std::count(text.begin(), text.begin() + end, '\n'));
  size_t newline = end == 0 ? std::string::npos : text.rfind('\n', end - 1);
  size_t column = end - (newline == std::string::npos ? 0 : newline + 1) + 1;
  return {line, column};
}

}  // namespace

std::string printable(const std::string& text, size_t limit) {
  std::string out;
  for (unsigned char c : text) {
    if (out.size() >= limit) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(char(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

const char* tag_name(ErrTag tag) {
  static const char* const names[] = {
      "",
#define DSCHED_ERROR_TAG_NAME(name) #name,
      DSCHED_ERROR_TAGS(DSCHED_ERROR_TAG_NAME)
#undef DSCHED_ERROR_TAG_NAME
  };
  return names[static_cast<size_t>(tag)];
}

std::string format_error(const CompileError& error, const std::vector<SourceView>& sources, bool with_tag) {
  const SourcePos& pos = error.loc.begin;
  const SourceView* source = pos.file < sources.size() ? &sources[pos.file] : nullptr;
  // The user's text decides the first line's words, even when the error is in the library.
  const SourceView& first = source && !source->is_library ? *source : sources.back();
  auto [line_number, column] = source ? line_and_column(*source->text, pos.offset) : std::pair<size_t, size_t>{1, 1};
  // -C: the line of the file it came from, as cpp's line markers tell.
  size_t origin_line = line_number;
  std::string origin_file;
  if (source && source->origins && line_number - 1 < source->origins->size()) {
    origin_line = (*source->origins)[line_number - 1].line;
    origin_file = (*source->origins)[line_number - 1].file;
  }
  std::string out;
  if (first.from_command_line) {
    out = "dsched: invalid probe specifier " + printable(first.display_name, 200) + ": ";
  } else {
    out = "dsched: failed to compile script " + first.display_name + ": ";
  }
  if (with_tag && error.tag != ErrTag::None) out += "[" + std::string(tag_name(error.tag)) + "] ";
  if (error.has_location && source && !source->from_command_line && source == &first && origin_file.empty())
    out += "line " + std::to_string(origin_line) + ": ";
  out += error.what();
  if (!error.has_location || !source) return out;
  std::string name = source->from_command_line ? "<command line>" : source->display_name;
  if (!origin_file.empty()) name = origin_file;
  out += "\n  --> " + name + ":" + std::to_string(origin_line) + ":" + std::to_string(column);
  std::string line;
  size_t caret;
  source_line(*source->text, pos, &line, &caret);
  std::string gutter = std::to_string(origin_line);
  out += "\n " + gutter + " | " + line;
  std::string pad;
  for (size_t i = 0; i < caret && i < line.size(); ++i) pad.push_back(line[i] == '\t' ? '\t' : ' ');
  out += "\n " + std::string(gutter.size(), ' ') + " | " + pad + "^";
  return out;
}

}  // namespace dsched::lang
