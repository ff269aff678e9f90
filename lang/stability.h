// DTrace's stability attributes: how stable a name is, how stable what it means is, and the class
// of system it depends on. Providers declare them per description field; every identifier a
// clause uses has them; -l -v and -v print the weakest.
#pragma once

#include <cstdint>

namespace dsched::lang {

// Ordered from the least stable to the most, as DTrace compares them.
enum class StabilityLevel : uint8_t { Internal, Private, Obsolete, External, Unstable, Evolving, Stable, Standard };
enum class DependencyClass : uint8_t { Unknown, Cpu, Platform, Group, Isa, Common };

struct Attributes {
  StabilityLevel names;
  StabilityLevel data;
  DependencyClass dependency_class;
  bool operator==(const Attributes&) const = default;
};

const char* level_name(StabilityLevel level);
const char* class_name(DependencyClass dependency_class);
// Each of the three the weaker of a's and b's.
Attributes weakest(Attributes a, Attributes b);

constexpr Attributes kStableCommon{StabilityLevel::Stable, StabilityLevel::Stable, DependencyClass::Common};
constexpr Attributes kEvolvingCommon{StabilityLevel::Evolving, StabilityLevel::Evolving, DependencyClass::Common};
constexpr Attributes kEvolvingIsa{StabilityLevel::Evolving, StabilityLevel::Evolving, DependencyClass::Isa};
constexpr Attributes kPrivateIsa{StabilityLevel::Private, StabilityLevel::Private, DependencyClass::Isa};
// Kernel symbols and types: whatever the running kernel happens to have.
constexpr Attributes kPrivateUnknown{StabilityLevel::Private, StabilityLevel::Private, DependencyClass::Unknown};
constexpr Attributes kUnstableCommon{StabilityLevel::Unstable, StabilityLevel::Unstable, DependencyClass::Common};

// A provider's attributes for each field of a probe description and for its arguments.
struct ProviderStability {
  Attributes provider, module, function, name, arguments;
};

// What DTrace assumes of a description whose provider field is empty or a pattern.
constexpr ProviderStability kAnyProviderStability{kUnstableCommon, kUnstableCommon, kUnstableCommon,
                                                  kUnstableCommon, kUnstableCommon};

}  // namespace dsched::lang
