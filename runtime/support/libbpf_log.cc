#include "runtime/support/libbpf_log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <bpf/libbpf.h>

namespace dsched {
namespace {

std::mutex log_mutex;
std::string* log_sink = nullptr;

int print_to_sink(enum libbpf_print_level, const char* format, va_list args) {
  std::lock_guard lock(log_mutex);
  if (!log_sink) return 0;
  char* text = nullptr;
  int n = vasprintf(&text, format, args);  // the verifier log arrives as one long string
  if (n > 0) log_sink->append(text, n);
  free(text);
  return n;
}

const int install_printer = [] {
  libbpf_set_print(print_to_sink);
  return 0;
}();

}  // namespace

LibbpfLogCapture::LibbpfLogCapture() {
  std::lock_guard lock(log_mutex);
  log_sink = new std::string;
}

LibbpfLogCapture::~LibbpfLogCapture() {
  std::lock_guard lock(log_mutex);
  delete log_sink;
  log_sink = nullptr;
}

std::string LibbpfLogCapture::take() {
  std::lock_guard lock(log_mutex);
  std::string text = std::move(*log_sink);
  log_sink->clear();
  return text;
}

}  // namespace dsched
