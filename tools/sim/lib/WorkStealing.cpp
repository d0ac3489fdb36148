#include "WorkStealing.h"

#include <cassert>
#include <algorithm>
#include <cmath>

namespace cilkpp::sim {

WorkStealing::WorkStealing(const Machine &m, StealingOptions options)
    : options_(options), ready_(m.processors()), waiting_(m.processors()),
      seen_(m.processors()), targets_(m.processors(), 0),
      recount_(m.processors(), true), redraw_(m.processors(), false),
      gridStart_(m.processors(), 0.0) {
  for (ProcId p = 0; p < m.processors(); ++p)
    touch(p);
}

WorkStealing::Visible WorkStealing::visible(const Machine &m, ProcId p) const {
  return Visible{!ready_[p].empty() || !waiting_[p].empty(), m.busy(p),
                 m.speed(p)};
}

bool WorkStealing::isTarget(const Machine &m, ProcId thief,
                            const Visible &victim) const {
  return victim.queued || (options_.mugging && victim.busy &&
                           m.speed(thief) > options_.beta * victim.speed);
}

double WorkStealing::nextGridPoint(const Machine &m, ProcId p,
                                   bool afterAttempt) const {
  // A processor attempts the moment it becomes idle, then once per interval.
  // An attempt due at the very instant of a change sees the change (the
  // machine runs timers after other events of the same instant), so it is
  // still ahead unless it was just made. The epsilon absorbs rounding.
  double step = m.interval(p);
  double k = std::ceil((m.now() - gridStart_[p]) / step - 1e-9);
  if (afterAttempt)
    k = std::floor((m.now() - gridStart_[p]) / step + 1e-9) + 1;
  return gridStart_[p] + std::max(k, 0.0) * step;
}

void WorkStealing::scheduleAttempt(Machine &m, ProcId p) {
  if (targets_[p] == 0) {
    m.cancelTimer(p);
    return;
  }
  double q = double(targets_[p]) / (m.processors() - 1);
  std::uint64_t trials = m.rng().geometric(q);
  m.setTimer(p, nextGridPoint(m, p) + double(trials - 1) * m.interval(p));
}

void WorkStealing::settle(Machine &m) {
  const unsigned n = m.processors();
  if (options_.exactAttempts) {
    // Every attempt is an event; a (newly) idle processor starts its grid.
    touched_.clear();
    for (ProcId i = 0; i < n; ++i)
      if (!m.busy(i) && recount_[i]) {
        recount_[i] = false;
        m.setTimer(i, nextGridPoint(m, i));
      }
    return;
  }
  for (ProcId j : touched_) {
    Visible now = visible(m, j);
    if (now == seen_[j])
      continue;
    for (ProcId i = 0; i < n; ++i) {
      if (i == j || m.busy(i) || recount_[i])
        continue;
      int delta = int(isTarget(m, i, now)) - int(isTarget(m, i, seen_[j]));
      if (delta != 0) {
        targets_[i] += delta;
        redraw_[i] = true;
      }
    }
    seen_[j] = now;
  }
  touched_.clear();
  for (ProcId i = 0; i < n; ++i) {
    if (m.busy(i))
      continue;
    if (recount_[i]) {
      targets_[i] = 0;
      for (ProcId j = 0; j < n; ++j)
        targets_[i] += j != i && isTarget(m, i, seen_[j]);
      recount_[i] = false;
      redraw_[i] = true;
    }
    if (redraw_[i]) {
      redraw_[i] = false;
      scheduleAttempt(m, i);
    }
  }
}

void WorkStealing::begin(Machine &m, ProcId p, TaskId task) {
  m.start(p, task);
  touch(p);
  if (options_.swap)
    m.setTimer(p, m.now() + options_.swapFactor * m.interval(p));
  else
    m.cancelTimer(p);
}

void WorkStealing::becomeIdle(Machine &m, ProcId p) {
  gridStart_[p] = m.now();
  recount_[p] = true;
  redraw_[p] = false;
  touch(p);
  m.cancelTimer(p); // settle() schedules the next attempt
}

void WorkStealing::runNext(Machine &m, ProcId p) {
  if (!ready_[p].empty()) {
    TaskId t = ready_[p].back();
    ready_[p].pop_back();
    begin(m, p, t);
  } else if (!waiting_[p].empty()) {
    TaskId t = waiting_[p].front();
    waiting_[p].pop_front();
    begin(m, p, t);
  } else {
    becomeIdle(m, p);
  }
}

void WorkStealing::jobArrived(Machine &m, JobId, ProcId where,
                              const std::vector<TaskId> &sources) {
  if (!m.busy(where)) {
    ready_[where].insert(ready_[where].end(), sources.begin(),
                         sources.end() - 1);
    begin(m, where, sources.back());
  } else {
    waiting_[where].insert(waiting_[where].end(), sources.begin(),
                           sources.end());
    touch(where);
  }
  settle(m);
}

void WorkStealing::taskFinished(Machine &m, ProcId p, TaskId,
                                const std::vector<TaskId> &enabled) {
  // Jovanović's rule for k enabled tasks: the first k-1 go to the bottom of
  // the deque in order, the processor runs the last (for k = 2 in a Cilk
  // DAG, the continuation is pushed and the spawned child runs).
  if (!enabled.empty()) {
    ready_[p].insert(ready_[p].end(), enabled.begin(), enabled.end() - 1);
    begin(m, p, enabled.back());
  } else {
    runNext(m, p);
  }
  settle(m);
}

void WorkStealing::timer(Machine &m, ProcId p) {
  if (m.busy(p))
    probeForSwap(m, p);
  else
    attempt(m, p);
  settle(m);
}

void WorkStealing::attempt(Machine &m, ProcId thief) {
  const unsigned n = m.processors();
  ProcId victim = thief;
  if (options_.exactAttempts) {
    victim = m.rng().below(n - 1);
    victim += victim >= thief;
    if (!isTarget(m, thief, visible(m, victim))) {
      m.setTimer(thief, nextGridPoint(m, thief, /*afterAttempt=*/true));
      return;
    }
  } else {
    // The draw that scheduled this timer decided that the attempt succeeds;
    // its victim is uniform among the good ones.
    assert(targets_[thief] > 0);
    unsigned k = m.rng().below(targets_[thief]);
    for (ProcId j = 0; j < n; ++j)
      if (j != thief && isTarget(m, thief, seen_[j]) && k-- == 0) {
        victim = j;
        break;
      }
    assert(victim != thief);
  }

  TaskId task;
  if (!ready_[victim].empty()) {
    task = ready_[victim].front();
    ready_[victim].pop_front();
    ++counters_.steals;
  } else if (!waiting_[victim].empty()) {
    task = waiting_[victim].front();
    waiting_[victim].pop_front();
    ++counters_.steals;
  } else {
    task = m.preempt(victim);
    ++counters_.muggings;
    becomeIdle(m, victim);
  }
  touch(victim);
  begin(m, thief, task);
}

void WorkStealing::probeForSwap(Machine &m, ProcId prober) {
  const double every = options_.swapFactor * m.interval(prober);
  if (ready_[prober].empty()) {
    ProcId victim = m.rng().below(m.processors() - 1);
    victim += victim >= prober;
    if (m.busy(victim) && m.speed(prober) > m.speed(victim)) {
      // Exchange once the victim could finish the prober's task no later
      // than the prober can finish the victim's: from then on the pair
      // ends together, as in the optimal preemptive schedule of two tasks
      // (Jovanović §2.2). Exchanging earlier only adds migrations: until
      // that point both are busy anyway.
      double mine = m.remainingOn(prober), theirs = m.remainingOn(victim);
      if (mine / m.speed(victim) <= theirs / m.speed(prober)) {
        TaskId a = m.preempt(prober), b = m.preempt(victim);
        m.start(prober, b);
        m.start(victim, a);
        ++counters_.swaps;
        touch(victim);
      }
    }
  }
  m.setTimer(prober, m.now() + every);
}

void WorkStealing::speedChanged(Machine &m, ProcId p) {
  touch(p);
  if (!m.busy(p)) {
    // The attempt grid restarts at the new pace.
    gridStart_[p] = m.now();
    recount_[p] = true;
  }
  // Idle thieves compare their speed with p's: settle() recounts them.
  settle(m);
}

} // namespace cilkpp::sim
