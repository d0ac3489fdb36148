// Exceptions across spawns (see cilkpp/rt/exceptions.h).
#include "cilkpp/rt/exceptions.h"

#include <array>
#include <cstdint>
#include <mutex>

#include "cilkpp/rt/abi.h"
#include "cilkpp/rt/exposure.h"
#include "runtime.h"

namespace cilkpp::rt {
namespace {

// Recording is rare (something threw), so frames share a few locks instead
// of each carrying one.
std::mutex &lock_for(const Frame *f) {
  static std::array<std::mutex, 64> locks;
  return locks[(reinterpret_cast<std::uintptr_t>(f) >> 6) % locks.size()];
}

void hand_back(Worker *w, Frame *f) noexcept {
  const bool is_waiter = f->info->resume == nullptr;
  if (f->join.fetch_sub(1, std::memory_order_acq_rel) == 1 && !is_waiter) w->make_ready(f);
}

// The continuation of parent was stolen while its child threw.
bool hand_to_thief(Worker *w, Frame *parent, std::uint32_t seq) noexcept {
  Frame *target = current_location(parent);
  record_exception(target, std::current_exception(), seq);
  w->escaping = true;
  hand_back(w, target);
  return false;
}


// The count is 1 plus the children running elsewhere; they hand it back as
// they complete, and none makes the frame ready (only a suspended sync's
// count reaches 0), so the worker may wait for them here. It takes no other
// work meanwhile: a frame stolen here would run on this stack above f, and a
// wait of its own there could need frames that only unwind below f, on this
// or another waiting worker (three workers deadlocked so, each in nested
// waits). Requests are answered as at a poll point.
void wait_for_children(Worker *w, Frame &f) noexcept {
  if (f.join.load(std::memory_order_acquire) == 1) return;
  ActivityClock &clock = w->runtime().clock(w->index());
  clock.enter(Activity::stealing, w->stats());
  w->wait_without_work(f.join, 1, &f);
  clock.enter(Activity::working, w->stats());
}

}  // namespace

void record_exception(Frame *f, std::exception_ptr error, std::uint32_t seq) {
  std::lock_guard<std::mutex> guard(lock_for(f));
  const std::uint32_t child = seq == continuation_seq ? 0 : seq;
  if (f->pending == nullptr) {
    f->pending = new PendingException{std::move(error), seq, child};
    return;
  }
  if (child > f->pending->latest_child) f->pending->latest_child = child;
  if (seq < f->pending->seq) {
    f->pending->error = std::move(error);
    f->pending->seq = seq;
  }
}

bool spawn_threw(Worker *w, Frame *parent, std::uint32_t seq) noexcept {
  if (!w->pop()) return hand_to_thief(w, parent, seq);
  record_exception(parent, std::current_exception(), seq);
  return true;
}


bool fast_spawn_threw(Worker *w, Frame *parent, std::uint32_t seq) noexcept {
  return still_ours(w, parent) || hand_to_thief(w, parent, seq);
}

void complete_frame_exceptionally(Worker *w, Frame *f, std::uint32_t seq_in_parent) noexcept {
  PendingException *thrown = f->pending;
  Frame *parent = f->parent;
  free_frame_generic(w, f);
  record_exception(parent, std::move(thrown->error), seq_in_parent);
  delete thrown;
  hand_back(w, parent);
}

void settle_exception(Worker *w, Frame &f) {
  wait_for_children(w, f);
  // Children that threw are earlier in serial order than this exception.
  if (f.pending != nullptr) rethrow_pending(f);
  throw;
}

void rethrow_first_thrown(Frame &parent) {
  rethrow_pending(parent);
  std::terminate();  // (spawn_threw recorded one)
}

void rethrow_pending(Frame &waiter) {
  PendingException *thrown = waiter.pending;
  if (thrown == nullptr) return;
  waiter.pending = nullptr;
  std::exception_ptr error = std::move(thrown->error);
  delete thrown;
  std::rethrow_exception(std::move(error));
}

}  // namespace cilkpp::rt
