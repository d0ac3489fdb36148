// The worker side of heterogeneity: its speed estimate (speed.h) and its
// emulated slowness (throttle.h), kept in its runtime slot.
#pragma once

#include "cilkpp/rt/worker.h"

namespace cilkpp::rt {

// The worker's thread starts wanting to run (a root call began, or it woke
// up for one): open a speed window, start its emulated slowness. root_call:
// the thread makes a root call, and ran its caller's code since the last
// one (which a short gap then does not take out of the window).
void start_running(Worker &w, bool root_call = false) noexcept;
// The thread is about to sleep or leave its root call.
void stop_running(Worker &w, bool root_call = false) noexcept;
// Takes a speed sample if the window is long enough and publishes the
// estimate for thieves. Cheap when it is not: one read of the steady clock.
void sample_speed(Worker &w) noexcept;

}  // namespace cilkpp::rt
