// Exposing latent frames on the owner's side; see exposure.h.
#include "cilkpp/rt/exposure.h"

#include "cilkpp/rt/calls.h"

#include "hetero.h"
#include "runtime.h"

namespace cilkpp::rt {
namespace {

// Latent frames above which a request exposes them all.
constexpr unsigned kExposeWholeChainAfter = 256;

// The first of f and its ancestors that is not calling: where a settled
// calling frame stops the walk, that frame (it is not latent, and neither is
// anything above it).
Frame *past_unsettled_callers(Frame *f) noexcept {
  while (f && f->visibility == Visibility::calling) f = f->parent;
  return f;
}

void expose(Worker *w, Frame *f) noexcept {
  f->visibility = Visibility::exposed;
  w->push(f);
  ++w->stats().exposures;
}

}  // namespace

void expose_oldest(Worker *w, Frame *f) noexcept {
  // A mug request is answered by exposure too: this worker has latent work,
  // so the thief may steal rather than mug (mugging.cpp).
  const std::uint8_t requests = w->take_requests();
  if (requests & Worker::kMug) w->take_mug_request();
  sample_speed(*w);
  if (requests & (Worker::kExpose | Worker::kMug)) expose_oldest_from(w, f);
}

void expose_oldest_from(Worker *w, Frame *f) noexcept {
  // A thief is looking for work: tell it where this victim runs now, which
  // the kernel may have changed since the victim last stole.
  w->runtime().placement().note(w->index());
  Frame *oldest = nullptr;
  unsigned latent = 0;
  for (Frame *g = past_unsettled_callers(f); g && g->visibility == Visibility::latent;
       g = past_unsettled_callers(g->parent)) {
    oldest = g;
    ++latent;
  }
  // A long chain (deep recursion that spawns at every level) is exposed
  // whole: walking it again for each thief's request cost its length each
  // time, quadratic in the depth.
  if (latent > kExposeWholeChainAfter)
    expose_chain(w, f);
  else if (oldest)
    expose(w, oldest);
}

void expose_chain(Worker *w, Frame *f) noexcept {
  // The links point from child to parent and the pushes must go the other
  // way: link the latent frames downward through next_ready, which only
  // ready (heap) frames use, then push from the oldest.
  // The calling frames passed are settled: every latent frame above them is
  // exposed here.
  Frame *below = nullptr;
  for (;;) {
    for (; f && f->visibility == Visibility::calling; f = f->parent) f->visibility = Visibility::calling_settled;
    if (!f || f->visibility != Visibility::latent) break;
    f->next_ready = below;
    below = f;
    f = f->parent;
  }
  for (Frame *g = below; g; g = g->next_ready) expose(w, g);
}

}  // namespace cilkpp::rt
