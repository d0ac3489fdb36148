// The event log CILKPP_TRACE=FILE writes at exit: per worker, its activity
// changes (work, looking for work, idle), steals and muggings, with times.
// tools/timeline/cilkpp-timeline.py draws it. Each worker appends to its own
// log only (no locks, no sharing); without CILKPP_TRACE nothing is recorded.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

namespace cilkpp::rt {

enum class TraceEvent : std::uint8_t { work, steal_loop, idle, none, steal, mug, mugged };

class EventLog {
 public:
  // Records kept per worker; beyond that the log says it was truncated.
  static constexpr std::size_t kMaxRecords = 1u << 20;

  void enable(std::uint64_t origin_ns) noexcept;
  bool enabled() const noexcept { return enabled_; }
  void record(TraceEvent event, int victim = -1) noexcept {
    if (__builtin_expect(enabled_, 0)) append(event, victim);
  }
  // Writes this worker's records in the trace format (one per line).
  void write(std::FILE *out, unsigned worker) const;
  bool truncated() const noexcept { return truncated_; }

 private:
  struct Record {
    std::uint64_t time_ns;
    TraceEvent event;
    std::int32_t victim;
  };
  void append(TraceEvent event, int victim) noexcept;

  bool enabled_ = false;
  bool truncated_ = false;
  std::uint64_t origin_ns_ = 0;
  std::vector<Record> records_;
};

}  // namespace cilkpp::rt
