// The CILKPP_TRACE event log; see trace.h.
#include "trace.h"

#include "speed.h"

namespace cilkpp::rt {
namespace {

const char *name_of(TraceEvent e) noexcept {
  switch (e) {
    case TraceEvent::work: return "work";
    case TraceEvent::steal_loop: return "steal-loop";
    case TraceEvent::idle: return "idle";
    case TraceEvent::none: return "none";
    case TraceEvent::steal: return "steal";
    case TraceEvent::mug: return "mug";
    case TraceEvent::mugged: return "mugged";
  }
  return "?";
}

}  // namespace

void EventLog::enable(std::uint64_t origin_ns) noexcept {
  enabled_ = true;
  origin_ns_ = origin_ns;
  records_.reserve(4096);
}

void EventLog::append(TraceEvent event, int victim) noexcept {
  if (records_.size() >= kMaxRecords) {
    truncated_ = true;
    return;
  }
  const std::uint64_t now = wall_clock_ns();
  records_.push_back({now > origin_ns_ ? now - origin_ns_ : 0, event, victim});
}

void EventLog::write(std::FILE *out, unsigned worker) const {
  for (const Record &r : records_) {
    if (r.victim >= 0)
      std::fprintf(out, "%llu %u %s %d\n", static_cast<unsigned long long>(r.time_ns), worker, name_of(r.event),
                   r.victim);
    else
      std::fprintf(out, "%llu %u %s\n", static_cast<unsigned long long>(r.time_ns), worker, name_of(r.event));
  }
}

}  // namespace cilkpp::rt
