// profile provider: profile-N fires on every CPU, tick-N on one, at any rate; these are the
// rates listed by `dsched -l`. arg0/arg1 are the kernel and user PCs; there are no typed args.
#include "registry.h"

namespace dsched::probes {

const ProviderTable& profile_provider() {
  static const ProviderTable table{
      "profile",
      "",
      {{"profile-97", {}}, {"profile-199", {}}, {"profile-499", {}}, {"profile-997", {}},
       {"profile-1999", {}}, {"profile-4001", {}}, {"profile-4999", {}}, {"tick-1", {}},
       {"tick-10", {}}, {"tick-100", {}}, {"tick-500", {}}, {"tick-1000", {}},
       {"tick-5000", {}}, {"tick-1sec", {}}, {"tick-10sec", {}}}};
  return table;
}

}  // namespace dsched::probes
