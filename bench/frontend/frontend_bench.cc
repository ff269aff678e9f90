// frontend_bench [--dump] [--repeat N] FILE [ARGS...]
// Compiles FILE through the front end and reports the time per compile (first, cold: including
// reading BTF; then the median of N warm compiles) and the vmlinux BTF types it converted.
// --dump prints the typed program instead (or the error), for inspection.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "lang/btf_types.h"
#include "lang/frontend.h"
#include "lang/program.h"

using namespace dsched::lang;

namespace {

double compile_ms(const std::vector<ScriptSource>& sources, const FrontendOptions& options, ProbeCatalog& catalog,
                  CheckResult* result) {
  auto start = std::chrono::steady_clock::now();
  *result = check(sources, options, catalog);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  bool dump_program = false;
  int repeat = 20;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; ++i) {
    if (!std::strcmp(argv[i], "--dump")) dump_program = true;
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
  }
  if (i >= argc) {
    std::fprintf(stderr, "usage: frontend_bench [--dump] [--repeat N] FILE [ARGS...]\n");
    return 2;
  }
  std::ifstream in(argv[i], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[i]);
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string path = argv[i];
  std::vector<ScriptSource> sources = {{path.substr(path.rfind('/') + 1), text.str(), false}};
  FrontendOptions options;
  for (int a = i; a < argc; ++a) options.macro_args.push_back(argv[a]);

  ProbeCatalog catalog;
  CheckResult result;
  double cold = compile_ms(sources, options, catalog, &result);
  if (!result.program) {
    std::fprintf(stderr, "%s\n", result.error.c_str());
    return 1;
  }
  if (dump_program) {
    std::fputs(dump(*result.program).c_str(), stdout);
    return 0;
  }
  std::vector<double> warm;
  for (int r = 0; r < repeat; ++r) warm.push_back(compile_ms(sources, options, catalog, &result));
  std::sort(warm.begin(), warm.end());
  long lines = std::count(sources[0].text.begin(), sources[0].text.end(), '\n');
  std::printf("%s: %ld lines, first compile %.2f ms, median of %d compiles %.2f ms\n",
              sources[0].display_name.c_str(), lines, cold, repeat, warm[warm.size() / 2]);
  if (const BtfTypes* btf = result.program->types->loaded_btf()) {
    BtfTypes::Stats s = btf->stats();
    std::printf("vmlinux BTF: %zu bytes, %u types; walked %u, converted %u (%.2f%%), "
                "struct member lists loaded %u\n",
                s.file_bytes, s.types_in_file, s.types_indexed, s.types_converted,
                100.0 * s.types_converted / std::max(1u, s.types_in_file), s.records_expanded);
  } else {
    std::printf("vmlinux BTF: not opened\n");
  }
  return 0;
}
