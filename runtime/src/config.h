// Runtime settings read from CILKPP_* environment variables.
//
// The parser is a pure function over the environment entries so tests can
// drive it without touching the real environment or exiting the process.
#pragma once

#include <string>
#include <vector>

namespace cilkpp::rt {

// CILKPP_POLICY: what an idle worker may do to a busy one whose deque is
// empty. ecs: mug it when the thief is more than beta times faster (Bender
// and Rabin's Enhanced Cilk Scheduler); cilk: nothing (classic stealing).
enum class Policy { ecs, cilk };

// One worker's entry in CILKPP_SPEEDS: the fraction of its CPU it may use,
// fixed, or alternating (Jovanovic's Exp 3 renewal process): full speed for
// an exponentially distributed time of mean mean_ms, then a fraction drawn
// uniformly from [low, high] for another such time, and again.
struct SpeedSchedule {
  double fraction = 1.0;  // fixed schedules
  double mean_ms = 0.0;   // > 0: alternating
  double low = 1.0, high = 1.0;
  bool alternating() const noexcept { return mean_ms > 0; }
  bool full_speed() const noexcept { return !alternating() && fraction >= 1.0; }
};

struct Config {
  unsigned nworkers = 1;  // CILKPP_NWORKERS: worker threads including worker 0
  bool stats = false;     // CILKPP_STATS: print per-worker statistics at exit
  Policy policy = Policy::ecs;
  // CILKPP_BETA: a thief mugs only a victim more than beta times slower.
  // Any value > 1 keeps the scheduler's guarantees; 2 keeps workers that
  // share hardware unevenly (hyperthreads, a busy hypervisor: see
  // docs/runtime.md) from mugging each other back and forth.
  double beta = 2.0;
  // CILKPP_SPEEDS: emulated speeds of workers 0, 1, ...; missing entries are 1.
  std::vector<SpeedSchedule> speeds;
  // CILKPP_TRACE: where to write the event log at exit (trace.h); empty: none.
  std::string trace_path;
  // CILKPP_CANONICAL_CHECK: move promoted frames through the canonical format
  // (canonical_check.h).
  bool canonical_check = false;
};

struct ConfigResult {
  Config config;
  std::vector<std::string> warnings;  // complete lines, without newline
  std::string error;                  // empty when every setting parsed
};

// envp: "NAME=VALUE" entries terminated by nullptr (the shape of environ).
// cpus: the default worker count, the CPUs this process may run on (0 is
// taken as 1).
ConfigResult parse_config(const char *const *envp, unsigned cpus);

// parse_config(environ, cpus) with warnings printed; prints the error and
// exits with status 2 on a bad value.
Config load_config_or_exit(unsigned cpus);

}  // namespace cilkpp::rt
