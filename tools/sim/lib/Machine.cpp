#include "Machine.h"

#include <cassert>

namespace cilkpp::sim {

Machine::Machine(const MachineSpec &spec, std::uint64_t seed,
                 bool recordSegments)
    : timers_(static_cast<std::uint32_t>(spec.speeds.size())),
      rng_(Random::stream(seed, 0)), recordSegments_(recordSegments),
      busyTime_(spec.speeds.size(), 0.0) {
  for (std::size_t p = 0; p < spec.speeds.size(); ++p)
    // Speed changes draw from their own streams: two schedulers run with
    // the same seed see the same speeds whatever their own random choices.
    procs_.push_back(Proc{SpeedTrack(spec.speeds[p], spec.slowdown,
                                     Random::stream(seed, 1000 + p)),
                          spec.intervals[p]});
}

JobId Machine::addJob(const Dag &dag, double arrival, ProcId where) {
  JobId j = static_cast<JobId>(jobs_.size());
  TaskId base = static_cast<TaskId>(remaining_.size());
  jobs_.push_back(Job{&dag, arrival, where, base, dag.size()});
  for (NodeId n = 0; n < dag.size(); ++n) {
    taskJob_.push_back(j);
    remaining_.push_back(dag.work(n));
    pendingPreds_.push_back(dag.predecessorCount(n));
    lastProc_.push_back(where);
  }
  push(arrival, EventKind::Arrival, j);
  return j;
}

void Machine::push(double time, EventKind kind, std::uint32_t subject,
                   std::uint32_t version) {
  events_.push(Event{time, sequence_++, kind, subject, version});
}

double Machine::remainingOn(ProcId p) const {
  const Proc &proc = procs_[p];
  return remaining_[proc.task] - speed(p) * (now_ - proc.since);
}

void Machine::settle(ProcId p) {
  Proc &proc = procs_[p];
  remaining_[proc.task] -= proc.track.current() * (now_ - proc.since);
  if (remaining_[proc.task] < 0)
    remaining_[proc.task] = 0;
  proc.since = now_;
}

void Machine::scheduleCompletion(ProcId p) {
  Proc &proc = procs_[p];
  push(now_ + remaining_[proc.task] / proc.track.current(),
       EventKind::Completion, p, ++proc.completionVersion);
}

void Machine::endSegment(ProcId p) {
  Proc &proc = procs_[p];
  busyTime_[p] += now_ - proc.segmentStart;
  if (recordSegments_ && now_ > proc.segmentStart) {
    JobId j = taskJob_[proc.task];
    segments_.push_back(Segment{p, proc.segmentStart, now_, j,
                                proc.task - jobs_[j].base});
  }
}

void Machine::start(ProcId p, TaskId task) {
  Proc &proc = procs_[p];
  assert(proc.task == kNoTask && pendingPreds_[task] == 0);
  if (lastProc_[task] != p)
    ++migrations_;
  lastProc_[task] = p;
  proc.task = task;
  proc.since = proc.segmentStart = now_;
  scheduleCompletion(p);
}

TaskId Machine::preempt(ProcId p) {
  Proc &proc = procs_[p];
  settle(p);
  endSegment(p);
  TaskId task = proc.task;
  proc.task = kNoTask;
  ++proc.completionVersion; // drops the pending completion event
  return task;
}

void Machine::setTimer(ProcId p, double at) { timers_.set(p, at); }

void Machine::cancelTimer(ProcId p) { timers_.set(p, TimerHeap::kNever); }

void Machine::run(Scheduler &scheduler, std::size_t stopAfter) {
  for (ProcId p = 0; p < procs_.size(); ++p)
    if (procs_[p].track.nextChange() < std::numeric_limits<double>::infinity())
      push(procs_[p].track.nextChange(), EventKind::Speed, p);

  std::size_t finishedJobs = 0, unfinished = jobs_.size();
  std::vector<TaskId> enabled;
  while (unfinished > 0 && finishedJobs < stopAfter) {
    const bool timerDue =
        timers_.firstTime() != TimerHeap::kNever &&
        (events_.empty() || timers_.firstTime() < events_.top().time);
    if (timerDue) {
      ProcId p = timers_.first();
      now_ = timers_.firstTime();
      timers_.set(p, TimerHeap::kNever);
      scheduler.timer(*this, p);
      continue;
    }
    if (events_.empty())
      break;
    Event e = events_.top();
    events_.pop();
    switch (e.kind) {
    case EventKind::Arrival: {
      now_ = e.time;
      const Job &job = jobs_[e.subject];
      std::vector<TaskId> sources;
      for (NodeId n : job.dag->sources())
        sources.push_back(job.base + n);
      scheduler.jobArrived(*this, e.subject, job.where, sources);
      break;
    }
    case EventKind::Completion: {
      Proc &proc = procs_[e.subject];
      if (e.version != proc.completionVersion)
        break;
      now_ = e.time;
      TaskId task = proc.task;
      remaining_[task] = 0;
      endSegment(e.subject);
      proc.task = kNoTask;
      Job &job = jobs_[taskJob_[task]];
      enabled.clear();
      for (NodeId s : job.dag->successors(task - job.base)) {
        TaskId t = job.base + s;
        if (--pendingPreds_[t] == 0) {
          lastProc_[t] = e.subject;
          enabled.push_back(t);
        }
      }
      if (--job.left == 0) {
        job.finish = lastFinish_ = now_;
        finishedOrder_.push_back(taskJob_[task]);
        ++finishedJobs;
        --unfinished;
      }
      scheduler.taskFinished(*this, e.subject, task, enabled);
      break;
    }
    case EventKind::Speed: {
      now_ = e.time;
      Proc &proc = procs_[e.subject];
      if (proc.task != kNoTask)
        settle(e.subject);
      proc.track.advance();
      if (proc.task != kNoTask)
        scheduleCompletion(e.subject);
      push(proc.track.nextChange(), EventKind::Speed, e.subject);
      scheduler.speedChanged(*this, e.subject);
      break;
    }
    }
  }
}

} // namespace cilkpp::sim
