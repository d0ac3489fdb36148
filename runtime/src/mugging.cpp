// The victim's side of a poll point; see poll.h.
#include "cilkpp/rt/poll.h"

#include "cilkpp/rt/exposure.h"
#include "runtime.h"

namespace cilkpp::rt {

bool poll(Worker *w, Frame *f) noexcept {
  const std::uint8_t requests = w->take_requests();
  // f itself has no child running: exposing it would run its continuation
  // twice. Older latent frames do, and a thief may take the oldest.
  if (requests & (Worker::kExpose | Worker::kMug)) expose_oldest_from(w, f->parent);
  return false;
}

}  // namespace cilkpp::rt
