// Time accounting and the statistics report.
#include "stats.h"

#include "cilkpp/rt/abi.h"
#include "trace.h"

#include <atomic>
#include <chrono>
#include <cstdio>

namespace cilkpp::rt {
namespace {

std::uint64_t now_ns() noexcept {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

double ms(std::uint64_t ns) { return static_cast<double>(ns) / 1e6; }

void append_row(std::string &out, const char *label, const WorkerStats &s, bool spawns_counted) {
  char spawns[24] = "       -";
  if (spawns_counted) std::snprintf(spawns, sizeof spawns, "%8llu", static_cast<unsigned long long>(s.spawns));
  char speed[40] = "      -       -       -";
  if (s.speed_measured) std::snprintf(speed, sizeof speed, "%7.2f %7.2f %7.2f", s.speed_min, s.speed_avg, s.speed_max);
  char line[256];
  std::snprintf(line, sizeof line, "%6s %s %8llu %8llu %8llu %6llu %8.1f %9.1f %8.1f %6llu %6llu %s\n", label, spawns,
                static_cast<unsigned long long>(s.exposures), static_cast<unsigned long long>(s.steals),
                static_cast<unsigned long long>(s.failed_steals), static_cast<unsigned long long>(s.moves),
                ms(s.ns_working), ms(s.ns_stealing), ms(s.ns_idle), static_cast<unsigned long long>(s.muggings),
                static_cast<unsigned long long>(s.mugged), speed);
  out += line;
}

}  // namespace

namespace detail {
std::atomic<bool> spawns_counted{false};
}

bool count_spawns_in_stats() noexcept {
  detail::spawns_counted.store(true, std::memory_order_relaxed);
  return true;
}

void ActivityClock::enter(Activity next, WorkerStats &stats) noexcept {
  if (next == current_) return;
  const std::uint64_t now = now_ns();
  const std::uint64_t spent = now - since_ns_;
  switch (current_) {
    case Activity::working: stats.ns_working += spent; break;
    case Activity::stealing: stats.ns_stealing += spent; break;
    case Activity::idle: stats.ns_idle += spent; break;
    case Activity::none: break;
  }
  current_ = next;
  since_ns_ = now;
  if (log_) {
    constexpr TraceEvent kEvent[] = {TraceEvent::none, TraceEvent::work, TraceEvent::steal_loop, TraceEvent::idle};
    log_->record(kEvent[static_cast<int>(next)]);
  }
}

std::string format_stats(const std::vector<WorkerStats> &workers, unsigned cpus, bool spawns_counted) {
  std::string out = "cilkpp stats: " + std::to_string(workers.size()) + (workers.size() == 1 ? " worker" : " workers") +
                    " on " + std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs") +
                    (workers.size() > cpus ? " (oversubscribed: idle workers yield the CPU early)\n" : "\n");
  if (!spawns_counted) out += "(spawns are counted in code built with cilkpp -fcilkpp-count-spawns)\n";
  out += "worker   spawns  exposed   steals   failed  moved  work_ms  steal_ms  idle_ms   mugs mugged spd_min spd_avg spd_max\n";
  WorkerStats total;
  for (std::size_t i = 0; i < workers.size(); ++i) {
    const WorkerStats &s = workers[i];
    append_row(out, std::to_string(i).c_str(), s, spawns_counted);
    total.spawns += s.spawns;
    total.exposures += s.exposures;
    total.steals += s.steals;
    total.failed_steals += s.failed_steals;
    total.moves += s.moves;
    total.ns_working += s.ns_working;
    total.ns_stealing += s.ns_stealing;
    total.ns_idle += s.ns_idle;
    total.muggings += s.muggings;
    total.mugged += s.mugged;
  }
  append_row(out, "total", total, spawns_counted);
  return out;
}

}  // namespace cilkpp::rt
