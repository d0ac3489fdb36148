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

} // namespace

FiringSquadResult runFiringSquad(const Dag &dag, Enabling enabling,
                                 const std::vector<double> &speeds,
                                 const Slowdown &slowdown, std::uint64_t seed,
                                 const FiringSquadObserver &observer) {
  FiringSquadResult result;
  std::size_t unfinished = dag.size();
  if (unfinished == 0 || speeds.empty())
    return result;

  ReadyPool ready(enabling == Enabling::Level
                      ? levels(dag)
                      : std::vector<unsigned>(dag.size(), 0));
  std::vector<unsigned> pending(dag.size());
  for (NodeId n = 0; n < dag.size(); ++n)
    if ((pending[n] = dag.predecessorCount(n)) == 0)
      ready.add(n);
  std::vector<bool> done(dag.size(), false);

  // Stream 0 makes the scheduler's choices; processor i's speeds come from
  // stream i + 1, independent of them, as the oblivious adversary requires.
  Random choices = Random::stream(seed, 0);
  const auto processors = static_cast<std::uint32_t>(speeds.size());
  std::vector<SpeedTrack> tracks;
  tracks.reserve(processors);
  for (std::uint32_t i = 0; i < processors; ++i)
    tracks.emplace_back(speeds[i], slowdown, Random::stream(seed, i + 1));

  std::vector<NodeId> running(processors);
  TimerHeap finishes(processors);
  auto startTask = [&](std::uint32_t proc, double now) {
    running[proc] = ready.pick(choices);
    finishes.set(proc, unitTaskEnd(tracks[proc], now));
    if (observer)
      observer({FiringSquadEvent::Start, proc, running[proc], now});
  };
  auto finishTask = [&](std::uint32_t proc, double now) {
    NodeId task = running[proc];
    ++result.executions;
    if (observer)
      observer({FiringSquadEvent::Finish, proc, task, now});
    if (done[task]) {
      ++result.redundant;
      return;
    }
    done[task] = true;
    --unfinished;
    ready.remove(task);
    for (NodeId s : dag.successors(task))
      if (--pending[s] == 0)
        ready.add(s);
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
      finishTask(proc, now);
      freed.push_back(proc);
    }
    if (unfinished == 0) {
      result.makespan = now;
      return result;
    }
    for (std::uint32_t proc : freed)
      startTask(proc, now);
  }
}

} // namespace cilkpp::sim
