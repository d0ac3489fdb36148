// Randomized work stealing: classic Cilk (Bender–Rabin Fig. 1), the
// Enhanced Cilk Scheduler with muggings (Fig. 2, in Jovanović's form), and
// our variant ECS+swap.
//
// Each processor has a ready deque (and, for streams of jobs, a waiting
// queue of newly arrived jobs, Jovanović Exp 4). An idle processor attempts
// a steal once per steal/mug interval at a victim chosen uniformly at
// random: the top of its ready deque, else the top of its waiting queue,
// else, with mugging, the task it runs if it is more than beta times slower.
//
// Failed attempts change nothing, so by default they are not simulated one
// by one: between two changes of the system the attempts of an idle
// processor are Bernoulli trials with success probability (good victims) /
// (p - 1), and the first success is drawn from the geometric distribution on
// the processor's grid of attempt times. This gives the same distribution of schedules as simulating every
// attempt (--exact-attempts does, and a test compares the two), in time
// proportional to the number of successes.
//
// An idle processor makes its first attempt the moment it becomes idle and
// then one per interval (with this, Tables 1 and 3 come out within 1% at
// every interval; attempting first after one interval is up to 5% slower at
// the largest intervals).
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "Machine.h"

namespace cilkpp::sim {

struct StealingOptions {
  bool mugging = true; // false: classic Cilk
  double beta = 1;     // mug only if speed(thief) > beta * speed(victim)
  bool exactAttempts = false;
  // ECS+swap: a busy processor with an empty deque probes a random victim
  // every swapFactor intervals; if the victim is slower and could finish
  // the prober's task no later than the prober could finish the victim's,
  // they exchange tasks. Fast processors thus end up on the tasks with the
  // most work left and pairs finish together, as in the optimal preemptive
  // schedule, decided pairwise without central control.
  bool swap = false;
  double swapFactor = 4;
};

struct StealingCounters {
  std::uint64_t steals = 0, muggings = 0, swaps = 0;
};

class WorkStealing : public Scheduler {
public:
  WorkStealing(const Machine &m, StealingOptions options);

  void jobArrived(Machine &m, JobId job, ProcId where,
                  const std::vector<TaskId> &sources) override;
  void taskFinished(Machine &m, ProcId p, TaskId task,
                    const std::vector<TaskId> &enabled) override;
  void timer(Machine &m, ProcId p) override;
  void speedChanged(Machine &m, ProcId p) override;

  const StealingCounters &counters() const { return counters_; }

private:
  // What a thief can see of a victim at an attempt.
  struct Visible {
    bool queued = false; // ready deque or waiting queue not empty
    bool busy = false;
    double speed = 0;
    bool operator==(const Visible &) const = default;
  };
  bool isTarget(const Machine &m, ProcId thief, const Visible &victim) const;
  Visible visible(const Machine &m, ProcId p) const;

  void runNext(Machine &m, ProcId p);   // p is idle: find it local work
  void begin(Machine &m, ProcId p, TaskId task);
  void becomeIdle(Machine &m, ProcId p);
  void attempt(Machine &m, ProcId thief);
  void probeForSwap(Machine &m, ProcId prober);
  void touch(ProcId p) { touched_.push_back(p); }
  // Brings the thieves' target counts up to date after a change and redraws
  // the next successful attempt of every idle processor whose count moved.
  void settle(Machine &m);
  void scheduleAttempt(Machine &m, ProcId p);
  double nextGridPoint(const Machine &m, ProcId p,
                       bool afterAttempt = false) const;

  StealingOptions options_;
  StealingCounters counters_;
  std::vector<std::deque<TaskId>> ready_, waiting_;
  std::vector<Visible> seen_;     // last Visible state accounted for
  std::vector<unsigned> targets_; // per idle processor: good victims
  std::vector<bool> recount_, redraw_;
  std::vector<double> gridStart_; // when the processor became idle
  std::vector<ProcId> touched_;
};

} // namespace cilkpp::sim
