#include "CentralScheduler.h"

namespace cilkpp::sim {

namespace {
constexpr ProcId kNone = ~ProcId(0);

ProcId fastestIdle(const Machine &m) {
  ProcId best = kNone;
  for (ProcId p = 0; p < m.processors(); ++p)
    if (!m.busy(p) && (best == kNone || m.speed(p) > m.speed(best)))
      best = p;
  return best;
}

ProcId slowestBusy(const Machine &m) {
  ProcId best = kNone;
  for (ProcId p = 0; p < m.processors(); ++p)
    if (m.busy(p) && (best == kNone || m.speed(p) < m.speed(best)))
      best = p;
  return best;
}
} // namespace

void CentralScheduler::dispatch(Machine &m) {
  while (!queue_.empty()) {
    ProcId p = fastestIdle(m);
    if (p == kNone)
      break;
    std::size_t pick = options_.order == CentralOptions::Order::Random
                           ? m.rng().below(queue_.size())
                           : 0;
    TaskId task = queue_[pick];
    queue_.erase(queue_.begin() + pick);
    m.start(p, task);
  }
  for (;;) {
    ProcId idle = fastestIdle(m), busy = slowestBusy(m);
    if (idle == kNone || busy == kNone ||
        !(m.speed(idle) > options_.beta * m.speed(busy)))
      break;
    m.start(idle, m.preempt(busy));
    ++muggings_;
  }
}

void CentralScheduler::jobArrived(Machine &m, JobId, ProcId,
                                  const std::vector<TaskId> &sources) {
  queue_.insert(queue_.end(), sources.begin(), sources.end());
  dispatch(m);
}

void CentralScheduler::taskFinished(Machine &m, ProcId p, TaskId,
                                    const std::vector<TaskId> &enabled) {
  auto rest = enabled.begin();
  if (options_.keepThread && rest != enabled.end())
    m.start(p, *rest++);
  queue_.insert(queue_.end(), rest, enabled.end());
  dispatch(m);
}

void CentralScheduler::speedChanged(Machine &m, ProcId) { dispatch(m); }

} // namespace cilkpp::sim
