#include "runtime/probe_listing.h"

namespace dsched {
namespace {

void print_stability(FILE* out, const char* title, const lang::Stability& s) {
  std::fprintf(out, "\t%s\n\t\tIdentifier Names: %s\n\t\tData Semantics:   %s\n\t\tDependency Class: %s\n\n", title,
               s.names, s.data, s.dependency_class);
}

void print_details(FILE* out, const lang::Probe& probe) {
  std::fputs("\n", out);
  if (probe.owner) {
    lang::ProviderStability stability = probe.owner->stability();
    print_stability(out, "Probe Description Attributes", stability.description);
    print_stability(out, "Argument Attributes", stability.arguments);
  }
  std::fputs("\tArgument Types\n", out);
  if (probe.args.empty()) std::fputs("\t\tNone\n", out);
  for (size_t i = 0; i < probe.args.size(); ++i) {
    const lang::ProbeArg& arg = probe.args[i];
    std::fprintf(out, "\t\targs[%zu]: %s\n", i, (arg.translated.empty() ? arg.native : arg.translated).c_str());
  }
  if (!probe.unsupported.empty()) std::fprintf(out, "\n\tNot available here: %s\n", probe.unsupported.c_str());
  std::fputs("\n", out);
}

}  // namespace

void print_probe_list(FILE* out, const std::vector<const lang::Probe*>& probes, bool verbose) {
  std::fprintf(out, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
  for (const lang::Probe* p : probes) {
    std::fprintf(out, "%5u %10s %17s %33s %s\n", p->id, p->provider.c_str(), p->module.c_str(), p->function.c_str(),
                 p->name.c_str());
    if (verbose) print_details(out, *p);
  }
}

}  // namespace dsched
