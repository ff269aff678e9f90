#include "abi/compiled_program.h"

namespace dsched::abi {

std::vector<std::string> CompiledProgram::programs_at(AttachPoint::Phase phase) const {
  std::vector<std::string> names;
  for (const AttachPoint& point : attach_points)
    if (point.kind == AttachPoint::Kind::OnDemand && point.phase == phase) names.push_back(point.program);
  return names;
}

}  // namespace dsched::abi
