// The error every snapshot read or write failure is reported with: one line naming the file.
#pragma once

#include <stdexcept>

namespace dsched::ctprof {

class SnapshotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dsched::ctprof
