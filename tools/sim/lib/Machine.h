// The event-driven simulation engine: processors, the tasks of the DAG
// instances (jobs) being run, and the clock. A Scheduler decides what each
// processor runs; the Machine advances work at each processor's current speed
// and tells the scheduler when a task finishes, a timer fires, a speed
// changes or a job arrives. No per-time-step loop: time jumps from event to
// event.
#pragma once

#include <cstdint>
#include <limits>
#include <queue>
#include <vector>

#include "Dag.h"
#include "Random.h"
#include "Speed.h"
#include "TimerHeap.h"

namespace cilkpp::sim {

using ProcId = std::uint32_t;
using TaskId = std::uint32_t; // a node of one job, numbered machine-wide
using JobId = std::uint32_t;
inline constexpr TaskId kNoTask = std::numeric_limits<TaskId>::max();

// One stretch of a task on a processor, for Gantt charts.
struct Segment {
  ProcId proc;
  double start, end;
  JobId job;
  NodeId node;
};

class Machine;

class Scheduler {
public:
  virtual ~Scheduler() = default;
  // A job's source tasks became ready, on processor `where`.
  virtual void jobArrived(Machine &m, JobId job, ProcId where,
                          const std::vector<TaskId> &sources) = 0;
  // Processor p finished `task`; `enabled` are the tasks that became ready
  // (in the DAG's successor order). p is idle now.
  virtual void taskFinished(Machine &m, ProcId p, TaskId task,
                            const std::vector<TaskId> &enabled) = 0;
  virtual void timer(Machine &, ProcId) {}
  // Processor p's speed changed (already in effect).
  virtual void speedChanged(Machine &, ProcId) {}
};

class Machine {
public:
  Machine(const MachineSpec &spec, std::uint64_t seed, bool recordSegments);

  // Adds an instance of `dag` that arrives at time `arrival` on processor
  // `where`. The DAG must outlive the machine.
  JobId addJob(const Dag &dag, double arrival, ProcId where);
  // Runs until every job finished, or `stopAfter` jobs finished.
  void run(Scheduler &scheduler,
           std::size_t stopAfter = std::numeric_limits<std::size_t>::max());

  // --- for schedulers ---
  double now() const { return now_; }
  unsigned processors() const { return static_cast<unsigned>(procs_.size()); }
  double speed(ProcId p) const { return procs_[p].track.current(); }
  double fullSpeed(ProcId p) const { return procs_[p].track.full(); }
  // Steal/mug interval now: the full-speed interval stretched by slowdowns.
  double interval(ProcId p) const {
    return procs_[p].interval * fullSpeed(p) / speed(p);
  }
  bool busy(ProcId p) const { return procs_[p].task != kNoTask; }
  TaskId running(ProcId p) const { return procs_[p].task; }
  // Work left on the task processor p runs, now.
  double remainingOn(ProcId p) const;
  JobId jobOf(TaskId task) const { return taskJob_[task]; }
  // Starts (or resumes) ready `task` on idle processor p. Counts a migration
  // when the task last was on (or was made ready by) another processor.
  void start(ProcId p, TaskId task);
  // Stops p's task, keeping its remaining work; returns it.
  TaskId preempt(ProcId p);
  // One timer per processor; setting it replaces the previous one.
  void setTimer(ProcId p, double at);
  void cancelTimer(ProcId p);
  Random &rng() { return rng_; }

  // --- results ---
  std::uint64_t migrations() const { return migrations_; }
  double finishTime(JobId j) const { return jobs_[j].finish; }
  double arrivalTime(JobId j) const { return jobs_[j].arrival; }
  const Dag &dagOf(JobId j) const { return *jobs_[j].dag; }
  std::size_t jobCount() const { return jobs_.size(); }
  // Jobs in the order they finished.
  const std::vector<JobId> &finishedJobs() const { return finishedOrder_; }
  // Time the last finished job finished.
  double makespan() const { return lastFinish_; }
  const std::vector<Segment> &segments() const { return segments_; }
  // Seconds of busy time per processor (utilization).
  const std::vector<double> &busyTime() const { return busyTime_; }

private:
  struct Proc {
    SpeedTrack track;
    double interval;
    TaskId task = kNoTask;
    double since = 0;        // when `remaining` of the task was last updated
    double segmentStart = 0; // when the task started here
    std::uint32_t completionVersion = 0;
  };
  struct Job {
    const Dag *dag;
    double arrival;
    ProcId where;
    TaskId base;
    std::size_t left;
    double finish = -1;
  };
  // Timers live in their own heap (they move all the time); these are the
  // other events. At equal times, timers come after all other events: a
  // steal attempt sees what happened at the instant it is made.
  enum class EventKind : std::uint8_t { Arrival, Completion, Speed };
  struct Event {
    double time;
    std::uint64_t sequence; // ties in time keep insertion order
    EventKind kind;
    std::uint32_t subject; // processor or job
    std::uint32_t version;
    bool operator>(const Event &o) const {
      return time != o.time ? time > o.time : sequence > o.sequence;
    }
  };

  void push(double time, EventKind kind, std::uint32_t subject,
            std::uint32_t version = 0);
  void scheduleCompletion(ProcId p);
  void settle(ProcId p); // brings the running task's remaining work to now
  void endSegment(ProcId p);

  std::vector<Proc> procs_;
  std::vector<Job> jobs_;
  std::vector<JobId> taskJob_;
  std::vector<double> remaining_;
  std::vector<unsigned> pendingPreds_;
  std::vector<ProcId> lastProc_; // where the task was, or who enabled it
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  TimerHeap timers_;
  std::uint64_t sequence_ = 0;
  double now_ = 0, lastFinish_ = 0;
  std::uint64_t migrations_ = 0;
  Random rng_;
  bool recordSegments_;
  std::vector<Segment> segments_;
  std::vector<JobId> finishedOrder_;
  std::vector<double> busyTime_;
};

} // namespace cilkpp::sim
