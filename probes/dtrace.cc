// dtrace provider: BEGIN, END and ERROR. None has typed arguments.
#include "registry.h"

namespace dsched::probes {

const ProviderTable& dtrace_provider() {
  static const ProviderTable table{"dtrace", "", {{"BEGIN", {}}, {"END", {}}, {"ERROR", {}}}};
  return table;
}

}  // namespace dsched::probes
