#include "runtime/probe_listing.h"

namespace dsched {
namespace {

std::string attribute_block(const char* title, const lang::Attributes& attributes) {
  return std::string("\t") + title + "\n\t\tIdentifier Names: " + lang::level_name(attributes.names) +
         "\n\t\tData Semantics:   " + lang::level_name(attributes.data) +
         "\n\t\tDependency Class: " + lang::class_name(attributes.dependency_class) + "\n";
}

// -v's blocks for one probe: the attributes of `description`, then the probe's provider's for its
// arguments, then the argument types.
std::string probe_details(const lang::Probe& probe, const lang::DescriptionFields& description) {
  std::string text = "\n";
  if (probe.owner) {
    lang::ProviderStability stability = probe.owner->stability();
    text += attribute_block("Probe Description Attributes", lang::description_attributes(description, stability)) + "\n";
    text += attribute_block("Argument Attributes", stability.arguments) + "\n";
  }
  text += "\tArgument Types\n";
  if (probe.args.empty()) text += "\t\tNone\n";
  for (size_t i = 0; i < probe.args.size(); ++i) {
    const lang::ProbeArg& arg = probe.args[i];
    text += "\t\targs[" + std::to_string(i) + "]: " + (arg.translated.empty() ? arg.native : arg.translated) + "\n";
  }
  if (!probe.unsupported.empty()) text += "\n\tNot available here: " + probe.unsupported + "\n";
  return text + "\n";
}

}  // namespace

void print_probe_list(FILE* out, const std::vector<const lang::Probe*>& probes, bool verbose) {
  std::fprintf(out, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
  for (const lang::Probe* p : probes) {
    std::fprintf(out, "%5u %10s %17s %33s %s\n", p->id, p->provider.c_str(), p->module.c_str(), p->function.c_str(),
                 p->name.c_str());
    if (verbose) std::fputs(probe_details(*p, {p->provider, p->module, p->function, p->name}).c_str(), out);
  }
}

std::string stability_report(bool is_script, std::string_view name, const lang::Compilation::SourceStability& stability,
                             bool each_description) {
  std::string text = std::string("\nStability attributes for ") + (is_script ? "script " : "description ") +
                     std::string(name) + ":\n\n" + attribute_block("Minimum Probe Description Attributes", stability.descriptions) +
                     "\n" + attribute_block("Minimum Statement Attributes", stability.statements);
  if (!each_description) return text + "\n";
  for (const auto& [written, probe] : stability.described) {
    lang::DescriptionFields fields = lang::split_fields(written);
    text += "\n" + fields.provider + ":" + fields.module + ":" + fields.function + ":" + fields.name + "\n";
    text += probe_details(*probe, fields);
  }
  return text;
}

}  // namespace dsched
