// The process-wide runtime: the workers, their threads, and root-call
// bookkeeping.
//
// Started lazily by the first root call (there is no setup call in user
// code) and never destroyed: an atexit handler stops the threads, and root
// calls made after that (from static destructors, say) still work, serially
// on worker 0.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <pthread.h>

#include "cilkpp/rt/worker.h"
#include "config.h"
#include "placement.h"
#include "speed.h"
#include "stats.h"
#include "throttle.h"
#include "trace.h"

namespace cilkpp::rt {

// The CPUs this process may run on (taskset and cgroup cpusets shrink it).
unsigned usable_cpus() noexcept;

class Runtime {
 public:
  static Runtime &instance();

  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  const Config &config() const noexcept { return config_; }
  unsigned num_workers() const noexcept { return nworkers_; }
  // More workers than CPUs this process may run on.
  bool oversubscribed() const noexcept { return nworkers_ > cpus_; }
  Worker &worker(unsigned i) noexcept { return slots_[i]->worker; }
  ActivityClock &clock(unsigned i) noexcept { return slots_[i]->clock; }
  SpeedEstimator &speed(unsigned i) noexcept { return slots_[i]->speed; }
  Throttle &throttle(unsigned i) noexcept { return slots_[i]->throttle; }
  EventLog &trace(unsigned i) noexcept { return slots_[i]->trace; }
  CpuPlacement &placement() noexcept { return *placement_; }
  std::uint64_t reference_core_ns() const noexcept { return reference_core_ns_; }

  // An outermost root call, made by a thread that is not a worker: true when
  // the calling thread may act as worker 0 until end_root. False while
  // another thread's root call holds the workers; the caller then runs its
  // call on a private worker (root.cpp) rather than wait, since that call
  // may be waiting for this thread.
  bool try_begin_root() noexcept;
  void end_root() noexcept;

  // Reads 1 while a root call is active, 0 otherwise; worker threads
  // schedule_until it reads 0.
  const std::atomic<std::int32_t> &root_active() const noexcept { return active_; }
  // Worker threads: sleeps until a root call is active; false when the
  // threads are to exit.
  bool wait_for_root() noexcept;

  // At exit: stops and joins the threads unless a root call is still active
  // (exit() called from parallel code), then prints statistics if enabled.
  void shutdown() noexcept;

  // Statistics of every worker, read once the worker threads have gone to
  // sleep. Must be called outside root calls; blocks root calls meanwhile.
  std::vector<WorkerStats> stats_snapshot();

  // Tests: replaces the workers by nworkers fresh ones. Outside root calls.
  void restart_for_testing(unsigned nworkers);

  // pthread_atfork handlers. Before fork(): outside root calls, waits for
  // the worker threads to go to sleep (holding no lock) and holds root
  // calls off. In the child, which has none of the worker threads, the
  // runtime is as after shutdown: root calls run on one worker, and exit
  // neither joins threads nor prints statistics.
  void prepare_fork() noexcept;
  void after_fork_in_parent() noexcept;
  void after_fork_in_child() noexcept;

 private:
  // One worker and what only its thread touches, on cache lines of their own.
  struct alignas(64) Slot {
    Slot(Runtime &rt, unsigned index, const SpeedSchedule &emulated) : worker(rt, index), throttle(emulated, index) {}
    Worker worker;
    ActivityClock clock;
    SpeedEstimator speed;
    Throttle throttle;
    EventLog trace;
  };
  void write_trace() const;

  Runtime(const Config &config, unsigned cpus);
  void start(unsigned nworkers);  // root_mutex_ held or not yet shared
  void stop_and_join();           // root_mutex_ held, no root active
  void join_threads() noexcept;
  void wake_all() noexcept;
  std::vector<WorkerStats> collect() const;

  Config config_;
  unsigned nworkers_ = 0;
  unsigned cpus_ = 1;  // usable_cpus() when the runtime was made
  // probe_core_ns() on the thread that started the runtime: speed 1 (speed.h).
  std::uint64_t reference_core_ns_ = 0;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::unique_ptr<CpuPlacement> placement_;
  std::vector<pthread_t> threads_;  // workers 1..n-1 (worker_thread.h)

  // Held for the whole of an outermost root call.
  std::mutex root_mutex_;
  // Guards the transitions of active_ and stopped_ (never held while user
  // code runs, unlike root_mutex_).
  std::mutex state_mutex_;
  std::atomic<bool> stopped_{false};
  std::atomic<std::int32_t> active_{0};
  // Bumped whenever sleeping threads must look again; they wait on it.
  std::atomic<std::uint32_t> epoch_{0};
  // Worker threads asleep in wait_for_root, for stats_snapshot.
  std::atomic<unsigned> parked_{0};
  // prepare_fork took root_mutex_ (no root call was active).
  bool fork_holds_root_ = false;
};

}  // namespace cilkpp::rt
