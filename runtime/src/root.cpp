// Root calls: entering the runtime from ordinary code.
#include <memory>

#include "cilkpp/rt/abi.h"
#include "hetero.h"
#include "runtime.h"
#include "stack_guard.h"
#include "stats.h"

namespace cilkpp::rt {
// resume == nullptr marks the frame as a root: complete_frame does not make
// it ready, the waiting caller notices its count reach 0 instead.
const FrameInfo root_frame_info{"<root>", nullptr, sizeof(RootFrame), nullptr};

namespace {

// A root call's caller gives up its count and works until the callee has
// handed back the other one.
void wait_for_callee(Worker *w, Frame &waiter) noexcept {
  w->escaping = false;
  // If the callee's frame already completed, this was the last count.
  if (waiter.join.fetch_sub(1, std::memory_order_acq_rel) == 1) return;
  ActivityClock &clock = w->runtime().clock(w->index());
  clock.enter(Activity::stealing, w->stats());
  w->schedule_until(waiter.join);
  clock.enter(Activity::working, w->stats());
}

// Not in the runtime's slots, so no thief ever looks at it: everything it
// spawns stays on its deque, each sync finds its children done, and its root
// calls never wait (wait_for_callee returns at once), which is what lets
// another thread's root call wait for this thread.
constexpr unsigned kPrivateWorkerIndex = ~0u;

Worker &private_worker(Runtime &runtime) {
  thread_local std::unique_ptr<Worker> worker;
  if (!worker) worker = std::make_unique<Worker>(runtime, kPrivateWorkerIndex);
  return *worker;
}
}  // namespace

void RootScope::bind_thread() noexcept {
  saved_escaping_ = false;
  Runtime &runtime = Runtime::instance();
  guard_this_thread();
  if (!runtime.try_begin_root()) {
    worker_ = &private_worker(runtime);
    binding_ = Binding::private_worker;
    Worker::bind(worker_);
    return;
  }
  worker_ = &runtime.worker(0);
  binding_ = Binding::worker0;
  Worker::bind(worker_);
  runtime.placement().note(0);
  runtime.clock(0).enter(Activity::working, worker_->stats());
  start_running(*worker_, /*root_call=*/true);
}

void RootScope::unbind_thread() noexcept {
  if (binding_ == Binding::private_worker) {
    Worker::bind(nullptr);
    return;
  }
  Runtime &runtime = worker_->runtime();
  stop_running(*worker_, /*root_call=*/true);
  runtime.clock(0).enter(Activity::none, worker_->stats());
  Worker::bind(nullptr);
  runtime.end_root();
}

void RootScope::wait(RootFrame &root) {
  wait_for_callee(worker_, root);
  rethrow_pending(root);
}

}  // namespace cilkpp::rt
