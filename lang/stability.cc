#include "lang/stability.h"

#include <algorithm>

namespace dsched::lang {

const char* level_name(StabilityLevel level) {
  static constexpr const char* kNames[] = {"Internal", "Private",  "Obsolete", "External",
                                           "Unstable", "Evolving", "Stable",   "Standard"};
  return kNames[size_t(level)];
}

const char* class_name(DependencyClass dependency_class) {
  static constexpr const char* kNames[] = {"Unknown", "CPU", "Platform", "Group", "ISA", "Common"};
  return kNames[size_t(dependency_class)];
}

Attributes weakest(Attributes a, Attributes b) {
  return {std::min(a.names, b.names), std::min(a.data, b.data), std::min(a.dependency_class, b.dependency_class)};
}

}  // namespace dsched::lang
