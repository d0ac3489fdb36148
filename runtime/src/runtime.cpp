// Lifecycle of the runtime: lazy start, root-call activation, sleeping
// worker threads, shutdown at exit.
#include "runtime.h"

#include "canonical_check.h"
#include "stack_guard.h"
#include "worker_thread.h"

#include "cilkpp/rt/abi.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <atomic>
#include <mutex>
#include <thread>

#include <pthread.h>
#include <sched.h>

namespace cilkpp::rt {
namespace {

std::atomic<Runtime *> the_runtime{nullptr};
// Held while the runtime starts, and across fork(): a child forked while
// another thread was starting the runtime found it half made, and its own
// first cilk call waited for ever for that start to end.
std::mutex starting;

void shutdown_at_exit() { the_runtime.load()->shutdown(); }
void prepare_fork_of_runtime() {
  starting.lock();
  if (Runtime *runtime = the_runtime.load()) runtime->prepare_fork();
}
void parent_after_fork() {
  if (Runtime *runtime = the_runtime.load()) runtime->after_fork_in_parent();
  starting.unlock();
}
void child_after_fork() {
  if (Runtime *runtime = the_runtime.load()) runtime->after_fork_in_child();
  starting.unlock();
}
// Before main, so that every fork() finds them, even one made while the
// runtime starts.
[[maybe_unused]] const int fork_handlers = pthread_atfork(prepare_fork_of_runtime, parent_after_fork, child_after_fork);

}  // namespace

unsigned usable_cpus() noexcept {
  // One system call; hardware_concurrency() reads a file (and counts CPUs
  // this process may not be allowed to use).
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(CPU_COUNT(&set));
  const unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

Runtime &Runtime::instance() {
  // Made once, by the first thread that asks; never destroyed, so root calls
  // made during static destruction still find it.
  if (Runtime *runtime = the_runtime.load(std::memory_order_acquire)) return *runtime;
  const std::lock_guard<std::mutex> lock(starting);
  if (Runtime *runtime = the_runtime.load(std::memory_order_relaxed)) return *runtime;
  const unsigned cpus = usable_cpus();
  auto *runtime = new Runtime(load_config_or_exit(cpus), cpus);
  std::atexit(shutdown_at_exit);
  the_runtime.store(runtime, std::memory_order_release);
  return *runtime;
}

Runtime::Runtime(const Config &config, unsigned cpus) : config_(config), cpus_(cpus) {
  if (config_.canonical_check) canonical_check::enable();
  install_stack_overflow_report();
  start(config_.nworkers);
}

void Runtime::start(unsigned nworkers) {
  nworkers_ = nworkers;
  slots_.clear();
  const std::uint64_t reference_core_ns = nworkers > 1 ? probe_core_ns() : 0;
  for (unsigned i = 0; i < nworkers; ++i) {
    const SpeedSchedule emulated = i < config_.speeds.size() ? config_.speeds[i] : SpeedSchedule{};
    slots_.push_back(std::make_unique<Slot>(*this, i, emulated));
  }
  reference_core_ns_ = reference_core_ns;
  if (!config_.trace_path.empty()) {
    const std::uint64_t origin = wall_clock_ns();
    for (auto &slot : slots_) {
      slot->trace.enable(origin);
      slot->clock.attach(&slot->trace);
    }
  }
  placement_ = std::make_unique<CpuPlacement>(nworkers);
  stopped_.store(false, std::memory_order_relaxed);
  // Worker 0 is whichever thread makes a root call; the others get threads.
  for (unsigned i = 1; i < nworkers; ++i) threads_.push_back(start_worker_thread(worker(i)));
}

void Runtime::wake_all() noexcept {
  epoch_.fetch_add(1, std::memory_order_release);
  epoch_.notify_all();
}

bool Runtime::try_begin_root() noexcept {
  if (!root_mutex_.try_lock()) return false;
  std::lock_guard<std::mutex> guard(state_mutex_);
  // After shutdown nobody steals; worker 0 then runs the call on its own.
  if (stopped_.load(std::memory_order_relaxed)) return true;
  active_.store(1, std::memory_order_release);
  wake_all();
  return true;
}

void Runtime::end_root() noexcept {
  {
    std::lock_guard<std::mutex> guard(state_mutex_);
    active_.store(0, std::memory_order_release);
  }
  root_mutex_.unlock();
}

bool Runtime::wait_for_root() noexcept {
  for (;;) {
    // Read the epoch before the flags: a begin_root or shutdown after this
    // read changes the epoch, so the wait below returns at once.
    const std::uint32_t epoch = epoch_.load(std::memory_order_acquire);
    if (stopped_.load(std::memory_order_acquire)) return false;
    if (active_.load(std::memory_order_acquire) != 0) return true;
    parked_.fetch_add(1, std::memory_order_release);
    epoch_.wait(epoch, std::memory_order_acquire);
    parked_.fetch_sub(1, std::memory_order_relaxed);
  }
}

void Runtime::stop_and_join() {
  {
    std::lock_guard<std::mutex> guard(state_mutex_);
    stopped_.store(true, std::memory_order_release);
    wake_all();
  }
  join_threads();
}

void Runtime::join_threads() noexcept {
  for (pthread_t t : threads_) pthread_join(t, nullptr);
  threads_.clear();
}

void Runtime::shutdown() noexcept {
  bool joined = false;
  {
    std::unique_lock<std::mutex> guard(state_mutex_);
    if (stopped_.load(std::memory_order_relaxed)) return;
    if (active_.load(std::memory_order_relaxed) == 0) {
      stopped_.store(true, std::memory_order_release);
      wake_all();
      joined = true;
    }
    // Otherwise a root call is still running (exit() from parallel code, or
    // from another thread during a root call): its threads may be deep in
    // user code, so joining them could hang. They die with the process.
  }
  if (joined) {
    join_threads();
  }
  if (!config_.trace_path.empty()) {
    if (joined)
      write_trace();
    else
      std::fprintf(stderr, "cilkpp: warning: CILKPP_TRACE not written: the program exited inside a parallel call\n");
  }
  if (config_.stats) {
    // The counters of a parallel call are summed when it ends: a table now
    // would show zeros.
    if (joined)
      std::fputs(format_stats(collect(), cpus_, spawns_counted()).c_str(), stderr);
    else
      std::fprintf(stderr, "cilkpp: warning: CILKPP_STATS not printed: the program exited inside a parallel call\n");
  }
  if (canonical_check::enabled())
    std::fprintf(stderr, "cilkpp: canonical check: %llu frames moved through the canonical format\n",
                 static_cast<unsigned long long>(canonical_check::moved()));
}

void Runtime::write_trace() const {
  std::FILE *out = std::fopen(config_.trace_path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cilkpp: error: cannot write CILKPP_TRACE file '%s': %s\n", config_.trace_path.c_str(),
                 std::strerror(errno));
    return;
  }
  std::fprintf(out, "# cilkpp trace v1: TIME_NS WORKER EVENT [VICTIM], times since the runtime started\n");
  std::fprintf(out, "workers %u\n", nworkers_);
  for (unsigned i = 0; i < nworkers_; ++i) {
    const SpeedSummary s = slots_[i]->speed.summary();
    if (s.sampled) std::fprintf(out, "speed %u %.3f\n", i, s.avg);
    if (slots_[i]->trace.truncated())
      std::fprintf(out, "# worker %u: only its first %zu records\n", i, EventLog::kMaxRecords);
  }
  for (unsigned i = 0; i < nworkers_; ++i) slots_[i]->trace.write(out, i);
  if (std::fclose(out) != 0)
    std::fprintf(stderr, "cilkpp: error: cannot write CILKPP_TRACE file '%s': %s\n", config_.trace_path.c_str(),
                 std::strerror(errno));
}

std::vector<WorkerStats> Runtime::collect() const {
  std::vector<WorkerStats> out;
  out.reserve(nworkers_);
  for (const auto &slot : slots_) {
    Worker &w = const_cast<Worker &>(slot->worker);
    out.push_back(w.stats());
    out.back().spawns = w.spawns;
    const SpeedSummary speed = slot->speed.summary();
    out.back().speed_measured = speed.sampled;
    out.back().speed_min = speed.min;
    out.back().speed_avg = speed.avg;
    out.back().speed_max = speed.max;
  }
  return out;
}

std::vector<WorkerStats> Runtime::stats_snapshot() {
  std::lock_guard<std::mutex> root(root_mutex_);
  // With no root call active the threads finish their last steal attempts
  // and go to sleep; their counters are stable (and visible) from then on.
  while (!stopped_.load(std::memory_order_acquire) &&
         parked_.load(std::memory_order_acquire) != threads_.size())
    std::this_thread::yield();
  return collect();
}

void Runtime::prepare_fork() noexcept {
  // A fork from parallel code (or during another thread's root call) cannot
  // wait for the workers; its child should exec or _exit, as POSIX asks of
  // a multithreaded program's child.
  fork_holds_root_ = root_mutex_.try_lock();
  if (!fork_holds_root_) return;
  while (!stopped_.load(std::memory_order_acquire) &&
         parked_.load(std::memory_order_acquire) != threads_.size())
    std::this_thread::yield();
}

void Runtime::after_fork_in_parent() noexcept {
  if (fork_holds_root_) root_mutex_.unlock();
}

void Runtime::after_fork_in_child() noexcept {
  // The threads do not exist here: nothing to join.
  threads_.clear();
  parked_.store(0, std::memory_order_relaxed);
  stopped_.store(true, std::memory_order_relaxed);
  if (fork_holds_root_) root_mutex_.unlock();
}

void Runtime::restart_for_testing(unsigned nworkers) {
  std::lock_guard<std::mutex> root(root_mutex_);
  stop_and_join();
  start(nworkers);
}

}  // namespace cilkpp::rt
