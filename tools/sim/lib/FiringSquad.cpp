#include "FiringSquad.h"

#include <algorithm>
#include <utility>

#include "Random.h"
#include "TimerHeap.h"

namespace cilkpp::sim {
namespace {

// The unfinished tasks whose predecessors are all done, in buckets: one per
// level for LEVEL, a single one for ALL. Each bucket is a vector and every
// task knows its slot, so a uniform pick and a removal are O(1).
class ReadyPool {
public:
  // `bucketOf` has an entry for every task, and there is at least one.
  explicit ReadyPool(std::vector<unsigned> bucketOf)
      : bucketOf_(std::move(bucketOf)), slot_(bucketOf_.size()),
        buckets_(*std::max_element(bucketOf_.begin(), bucketOf_.end()) + 1) {}

  void add(NodeId task) {
    unsigned b = bucketOf_[task];
    slot_[task] = static_cast<std::uint32_t>(buckets_[b].size());
    buckets_[b].push_back(task);
    lowest_ = std::min(lowest_, b);
  }

  void remove(NodeId task) {
    std::vector<NodeId> &bucket = buckets_[bucketOf_[task]];
    NodeId last = bucket.back();
    bucket[slot_[task]] = last;
    slot_[last] = slot_[task];
    bucket.pop_back();
  }

  // A task of the lowest non-empty bucket, uniformly; the pool must not be
  // empty. The lowest bucket only moves up (a task becomes ready when a
  // predecessor of a lower level finishes), so the scan is amortized O(1).
  NodeId pick(Random &rng) {
    while (buckets_[lowest_].empty())
      ++lowest_;
    const std::vector<NodeId> &bucket = buckets_[lowest_];
    return bucket[rng.below(static_cast<std::uint32_t>(bucket.size()))];
  }

private:
  std::vector<unsigned> bucketOf_;
  std::vector<std::uint32_t> slot_;
  std::vector<std::vector<NodeId>> buckets_;
  unsigned lowest_ = 0;
};

// When a unit task started at `start` on `track` ends. The track must be in
// the speed period containing `start`; it is left in the one containing the
// end, where the processor's next task starts.
double unitTaskEnd(SpeedTrack &track, double start) {
  double now = start, work = 1;
  while (now + work / track.current() > track.nextChange()) {
    work -= track.current() * (track.nextChange() - now);
    now = track.nextChange();
    track.advance();
  }
  return now + work / track.current();
}

// The DAG's progress: which tasks are done, which are ready, and what a
// finished execution changes.
class Progress {
public:
  Progress(const Dag &dag, Enabling enabling)
      : dag_(dag), ready_(enabling == Enabling::Level
                              ? levels(dag)
                              : std::vector<unsigned>(dag.size(), 0)),
        pending_(dag.size()), done_(dag.size(), false),
        unfinished_(dag.size()) {
    for (NodeId n = 0; n < dag.size(); ++n)
      if ((pending_[n] = dag.predecessorCount(n)) == 0)
        ready_.add(n);
  }

  bool finished() const { return unfinished_ == 0; }
  NodeId pick(Random &rng) { return ready_.pick(rng); }

  // Records an execution of `task` that ended; false if it was redundant.
  bool complete(NodeId task) {
    if (done_[task])
      return false;
    done_[task] = true;
    --unfinished_;
    ready_.remove(task);
    for (NodeId s : dag_.successors(task))
      if (--pending_[s] == 0)
        ready_.add(s);
    return true;
  }

private:
  const Dag &dag_;
  ReadyPool ready_;
  std::vector<unsigned> pending_;
  std::vector<bool> done_;
  std::size_t unfinished_;
};

// Equal, constant speeds: every processor starts a task at each multiple of
// 1/speed, so the run is a sequence of lockstep rounds. Same choices, in the
// same order, as the event-driven run below, without its timer heap and speed
// tracks (which at millions of processors cost gigabytes).
FiringSquadResult runRounds(Progress &progress, std::uint32_t processors,
                            double speed, Random &choices,
                            const FiringSquadObserver &observer) {
  FiringSquadResult result;
  std::vector<NodeId> running(processors);
  for (std::uint64_t round = 0;; ++round) {
    const double start = double(round) / speed,
                 end = double(round + 1) / speed;
    for (std::uint32_t proc = 0; proc < processors; ++proc) {
      running[proc] = progress.pick(choices);
      if (observer)
        observer({FiringSquadEvent::Start, proc, running[proc], start});
    }
    for (std::uint32_t proc = 0; proc < processors; ++proc) {
      ++result.executions;
      if (observer)
        observer({FiringSquadEvent::Finish, proc, running[proc], end});
      if (!progress.complete(running[proc]))
        ++result.redundant;
    }
    if (progress.finished()) {
      result.makespan = end;
      return result;
    }
  }
}

// Changing or unequal speeds: processors finish at their own times.
FiringSquadResult runEvents(Progress &progress,
                            const std::vector<double> &speeds,
                            const Slowdown &slowdown, std::uint64_t seed,
                            Random &choices,
                            const FiringSquadObserver &observer) {
  FiringSquadResult result;
  // Processor i's speeds come from stream i + 1, independent of the
  // scheduler's choices, as the oblivious adversary requires.
  const auto processors = static_cast<std::uint32_t>(speeds.size());
  std::vector<SpeedTrack> tracks;
  tracks.reserve(processors);
  for (std::uint32_t i = 0; i < processors; ++i)
    tracks.emplace_back(speeds[i], slowdown, Random::stream(seed, i + 1));

  std::vector<NodeId> running(processors);
  TimerHeap finishes(processors);
  auto startTask = [&](std::uint32_t proc, double now) {
    running[proc] = progress.pick(choices);
    finishes.set(proc, unitTaskEnd(tracks[proc], now));
    if (observer)
      observer({FiringSquadEvent::Start, proc, running[proc], now});
  };

  for (std::uint32_t proc = 0; proc < processors; ++proc)
    startTask(proc, 0);
  std::vector<std::uint32_t> freed;
  for (;;) {
    const double now = finishes.firstTime();
    freed.clear();
    while (finishes.firstTime() == now) {
      std::uint32_t proc = finishes.first();
      finishes.set(proc, TimerHeap::kNever);
      ++result.executions;
      if (observer)
        observer({FiringSquadEvent::Finish, proc, running[proc], now});
      if (!progress.complete(running[proc]))
        ++result.redundant;
      freed.push_back(proc);
    }
    if (progress.finished()) {
      result.makespan = now;
      return result;
    }
    for (std::uint32_t proc : freed)
      startTask(proc, now);
  }
}

} // namespace

FiringSquadResult runFiringSquad(const Dag &dag, Enabling enabling,
                                 const std::vector<double> &speeds,
                                 const Slowdown &slowdown, std::uint64_t seed,
                                 const FiringSquadObserver &observer) {
  if (dag.size() == 0 || speeds.empty())
    return {};
  Progress progress(dag, enabling);
  // Stream 0 makes the scheduler's choices.
  Random choices = Random::stream(seed, 0);
  const bool lockstep =
      !slowdown.active() &&
      std::all_of(speeds.begin(), speeds.end(),
                  [&](double s) { return s == speeds.front(); });
  if (lockstep)
    return runRounds(progress, static_cast<std::uint32_t>(speeds.size()),
                     speeds.front(), choices, observer);
  return runEvents(progress, speeds, slowdown, seed, choices, observer);
}

} // namespace cilkpp::sim
