// Line by line through the text of a /proc file.
#pragma once

#include <string_view>

namespace dsched::symbols {

template <typename Each>
void for_each_line(std::string_view text, Each each) {
  while (!text.empty()) {
    size_t end = text.find('\n');
    each(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
}

}  // namespace dsched::symbols
