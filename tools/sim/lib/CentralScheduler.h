// Centrally controlled greedy schedules with preemption: Jovanović's
// Central Manager and Bender–Rabin's maximum- and high-utilization
// schedules (§2).
//
// One ready queue. Whenever a processor is idle and a task is ready, the
// fastest idle processor takes one. Bender–Rabin schedule threads: a
// processor that finishes a task goes on with the first task it enabled (its
// thread's continuation) before the rest join the queue; Jovanović's Central
// Manager queues them all. While the fastest idle processor is
// more than beta times faster than the slowest busy one, it takes that
// processor's task over (a central "mugging"). With beta = 1 this keeps the
// ready tasks on the fastest processors at all times: a maximum-utilization
// schedule; with beta > 1 a high-utilization one.
#pragma once

#include <deque>

#include "Machine.h"

namespace cilkpp::sim {

struct CentralOptions {
  double beta = 1;
  // Which ready task an idle processor takes: the oldest (FIFO, the Central
  // Manager) or one at random (any maximum-utilization schedule).
  enum class Order { Fifo, Random } order = Order::Fifo;
  bool keepThread = false;
};

class CentralScheduler : public Scheduler {
public:
  explicit CentralScheduler(CentralOptions options) : options_(options) {}

  void jobArrived(Machine &m, JobId job, ProcId where,
                  const std::vector<TaskId> &sources) override;
  void taskFinished(Machine &m, ProcId p, TaskId task,
                    const std::vector<TaskId> &enabled) override;
  void speedChanged(Machine &m, ProcId p) override;

  std::uint64_t muggings() const { return muggings_; }

private:
  void dispatch(Machine &m);

  CentralOptions options_;
  std::deque<TaskId> queue_;
  std::uint64_t muggings_ = 0;
};

} // namespace cilkpp::sim
