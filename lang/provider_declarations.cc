// provider p { probe a(int x) : (char *x); };  A user-space provider's interface, as dtrace -h
// and -G read it. DTrace checks the declaration when a script holds one; it enables nothing, so
// this is all a declaration does here.
#include <algorithm>
#include <cctype>

#include "lang/diagnostics.h"
#include "lang/provider.h"
#include "lang/sema.h"

namespace dsched::lang {
namespace {

// DTrace's name limits: DTRACE_PROVNAMELEN and DTRACE_NAMELEN, less the terminating NUL.
constexpr size_t kMaxProviderName = 63;
constexpr size_t kMaxProbeName = 63;

bool names_parameter(const std::vector<ProbeParameterSyntax>& list, size_t count, const std::string& name) {
  return std::any_of(list.begin(), list.begin() + long(count), [&](const ProbeParameterSyntax& p) { return p.name == name; });
}

// Whether a native argument can be given as an output argument of another type without a
// translator, as DTrace's dt_node_is_argcompat decides it.
bool argument_compatible(const Type* native, const Type* output) {
  if (native == output) return true;
  if (native->is_integer() && output->is_integer()) return true;
  if (native->is_pointer() && output->is_pointer())
    return native->target->is_void() || output->target->is_void() || native->target == output->target;
  auto text = [](const Type* t) { return t->is_string() || t->is_char_sequence(); };
  return text(native) && text(output);
}

}  // namespace

std::string dashed_probe_name(const std::string& name) {
  std::string text;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name.compare(i, 2, "__") == 0) {
      text += '-';
      ++i;
    } else {
      text += name[i];
    }
  }
  return text;
}

std::vector<const Type*> Sema::probe_prototype(const std::vector<ProbeParameterSyntax>& parameters,
                                               const std::vector<ProbeParameterSyntax>* inputs) {
  const char* kind = inputs ? "probe output" : "probe input";
  std::vector<const Type*> types;
  bool has_void = false;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const ProbeParameterSyntax& p = parameters[i];
    std::string number = "parameter #" + std::to_string(i + 1);
    const Type* type = resolve_type_name(*p.type);
    has_void |= type->is_void();
    if (type->is_void() && !p.name.empty())
      fail(p.loc, ErrTag::D_DECL_PROTO_NAME, "void parameter may not have a name: " + p.name);
    if (!p.name.empty()) {
      // An input parameter's name is unique; an output parameter names the input it comes from.
      bool known = inputs ? names_parameter(*inputs, inputs->size(), p.name) : names_parameter(parameters, i, p.name);
      if (known != (inputs != nullptr))
        fail(p.loc, ErrTag::D_DECL_PROTO_FORM, std::string("parameter is ") + (inputs ? "not" : "already") +
                                                   " declared in " + kind + " prototype: " + p.name + ", " + number);
    } else if (inputs && !type->is_void()) {
      fail(p.loc, ErrTag::D_DECL_PROTO_NAME, std::string("parameter declaration requires a name: ") + number);
    }
    types.push_back(type);
  }
  if (has_void && parameters.size() > 1)
    fail(parameters[1].loc, ErrTag::D_DECL_PROTO_VOID, "void must be sole parameter");
  if (has_void) types.clear();  // (void): none
  return types;
}

void Sema::provider_declaration(const ProviderSyntax& provider) {
  const std::string& name = provider.name;
  if (name.size() > kMaxProviderName)
    fail(provider.loc, ErrTag::D_PROV_BADNAME, "provider name may not exceed " + std::to_string(kMaxProviderName) +
                                                   " characters: " + name);
  if (std::isdigit(static_cast<unsigned char>(name.back())))
    fail(provider.loc, ErrTag::D_PROV_BADNAME, "provider name may not end with a digit: " + name);
  auto earlier = declared_providers_.find(name);
  std::map<std::string, std::vector<const Type*>> outputs;  // each probe's output prototype
  for (const ProviderProbeSyntax& probe : provider.probes) {
    std::string probe_name = dashed_probe_name(probe.name);
    if (probe_name.size() > kMaxProbeName)
      fail(probe.loc, ErrTag::D_PROV_BADNAME, "probe name may not exceed " + std::to_string(kMaxProbeName) +
                                                  " characters: " + probe_name);
    std::vector<const Type*> native = probe_prototype(probe.native, nullptr);
    std::vector<const Type*> output = probe.translated ? probe_prototype(*probe.translated, &probe.native) : native;
    std::string shown = name + ":" + probe_name;
    if (outputs.contains(probe_name)) fail(probe.loc, ErrTag::D_PROV_PRDUP, "probe redeclared: " + shown);
    if (earlier != declared_providers_.end()) {
      // A provider declared again must declare the same probes with the same arguments.
      auto before = earlier->second.find(probe_name);
      if (before == earlier->second.end())
        fail(probe.loc, ErrTag::D_PROV_INCOMPAT, "provider interface mismatch: " + name + ": probe " + shown +
                                                     " is not in its earlier declaration");
      if (before->second != output)
        fail(probe.loc, ErrTag::D_PROV_INCOMPAT, "probe " + shown + " prototype differs from its earlier declaration");
    }
    if (probe.translated) {
      // Each output argument is its input argument, translated where the types differ.
      for (size_t i = 0; i < output.size(); ++i) {
        const std::string& from = (*probe.translated)[i].name;
        auto input = std::find_if(probe.native.begin(), probe.native.end(),
                                  [&](const ProbeParameterSyntax& p) { return p.name == from; });
        const Type* in = native[size_t(input - probe.native.begin())];
        const Type* out = output[i];
        const Type* record = out->is_pointer() ? out->target : out;
        if (argument_compatible(in, out) || (record->is_record() && lookup_translator(record, in))) continue;
        fail(probe.loc, ErrTag::D_PROV_PRXLATOR, "translator for " + shown + " output argument #" +
                                                     std::to_string(i + 1) + " from " + type_name(in) + " to " +
                                                     type_name(out) + " is not defined");
      }
    }
    outputs[probe_name] = std::move(output);
  }
  if (earlier == declared_providers_.end()) declared_providers_[name] = std::move(outputs);
}

}  // namespace dsched::lang
