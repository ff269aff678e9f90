// The probe that fired: probeprov, probemod, probefunc, probename (constants, or read by the index
// of the probe that fired when its clause fires alike for several),
// id (the probe's id), epid (the enabled probe: this clause for this probe), and arg0..arg9 (the
// probe's arguments as 64-bit integers, as its provider defines them).
#include "lang/builtins/support.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

class ProbeName : public NamedVariable {
 public:
  ProbeName(std::string_view name, std::string Probe::*field, Attributes ProviderStability::*stability)
      : NamedVariable(name, "string"), field_(field), stability_(stability) {}
  // As stable as the provider declares the field it names.
  Attributes attributes(const ProviderStability& provider) const override { return provider.*stability_; }
  Value lower(Lowering& l, const Expr&) const override { return l.firing.per_probe(field_); }

 private:
  std::string Probe::*field_;
  Attributes ProviderStability::*stability_;
};

class ProbeId : public NamedVariable {
 public:
  ProbeId() : NamedVariable("id", "uint32_t") {}
  Value lower(Lowering& l, const Expr& use) const override {
    return {l.firing.per_probe([](const Probe& probe) { return int64_t(probe.id); }), use.type};
  }
};

// Enabled probe ids count from 1, as in DTrace's error messages.
class EnabledProbeId : public NamedVariable {
 public:
  EnabledProbeId() : NamedVariable("epid", "uint32_t") {}
  Value lower(Lowering& l, const Expr& use) const override {
    return {l.ir.b().CreateAdd(l.records.epid(), l.ir.const64(1)), use.type};
  }
};

class Arg : public BuiltinVariable {
 public:
  explicit Arg(int n) : n_(n), name_("arg" + std::to_string(n)) {}
  std::string_view name() const override { return name_; }
  const char* type() const override { return "int64_t"; }
  Value lower(Lowering& l, const Expr& use) const override { return {l.firing.raw_arg(n_), use.type}; }

 private:
  int n_;
  std::string name_;
};

const Registered<ProbeName> probeprov("probeprov", &Probe::provider, &ProviderStability::provider);
const Registered<ProbeName> probemod("probemod", &Probe::module, &ProviderStability::module);
const Registered<ProbeName> probefunc("probefunc", &Probe::function, &ProviderStability::function);
const Registered<ProbeName> probename("probename", &Probe::name, &ProviderStability::name);
const Registered<ProbeId> id;
const Registered<EnabledProbeId> epid;
const Registered<Arg> arg0(0), arg1(1), arg2(2), arg3(3), arg4(4), arg5(5), arg6(6), arg7(7), arg8(8), arg9(9);

}  // namespace
}  // namespace dsched::lang
