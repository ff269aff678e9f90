// Something a script's event loop runs beside the script: the timeline recorder of
// `dsched timeline -s`. Its ring buffers are read by the loop's own wait, so neither starves the
// other, and it may end the run.
#pragma once

#include <string>

namespace dsched {

class RingReader;

class LoopCompanion {
 public:
  virtual ~LoopCompanion() = default;
  // Adds its ring buffers to `ring`, once the script is loaded; false with `error` set on failure.
  virtual bool join(RingReader& ring, std::string& error) = 0;
  // Asked after each wait of the loop; false ends the run (its duration is over, it failed).
  virtual bool keep_running() = 0;
};

}  // namespace dsched
