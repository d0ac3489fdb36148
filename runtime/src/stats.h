// Per-worker statistics: time accounting and the report printed at exit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cilkpp/rt/worker.h"

namespace cilkpp::rt {

// What a worker spends its time on. Time is charged to the activity being
// left whenever a worker changes activity, so the clock is read at state
// transitions only (never per spawn).
enum class Activity : std::uint8_t {
  none,      // not bound to a thread (worker 0 between root calls)
  working,   // running frames
  stealing,  // a root call is active and the worker looks for work
  idle,      // asleep until a root call starts
};

class EventLog;

class ActivityClock {
 public:
  // Activity changes go to log too (CILKPP_TRACE).
  void attach(EventLog *log) noexcept { log_ = log; }
  // Charges the time since the last transition to the current activity in
  // stats, then switches to next.
  void enter(Activity next, WorkerStats &stats) noexcept;
  Activity current() const noexcept { return current_; }

 private:
  Activity current_ = Activity::none;
  std::uint64_t since_ns_ = 0;
  EventLog *log_ = nullptr;
};

// The table CILKPP_STATS=1 prints, one line per worker and a total; cpus is
// how many CPUs the process may run on; without spawns_counted the spawns
// column shows '-' (abi.h, count_spawn).
std::string format_stats(const std::vector<WorkerStats> &workers, unsigned cpus, bool spawns_counted);

}  // namespace cilkpp::rt
