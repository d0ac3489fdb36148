// One pending time per processor in a binary heap indexed by processor, so
// that moving a processor's timer (a redrawn steal attempt) is O(log p) and
// leaves no stale entry behind.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace cilkpp::sim {

class TimerHeap {
public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  explicit TimerHeap(std::uint32_t processors)
      : time_(processors, kNever), heap_(processors), slot_(processors) {
    for (std::uint32_t p = 0; p < processors; ++p)
      heap_[p] = slot_[p] = p;
  }

  // Sets (kNever: clears) processor p's timer.
  void set(std::uint32_t p, double time) {
    double old = time_[p];
    time_[p] = time;
    if (time < old)
      up(slot_[p]);
    else
      down(slot_[p]);
  }
  double time(std::uint32_t p) const { return time_[p]; }
  // The processor whose timer is due first, and when.
  std::uint32_t first() const { return heap_[0]; }
  double firstTime() const { return time_[heap_[0]]; }

private:
  bool before(std::uint32_t a, std::uint32_t b) const {
    // Ties go to the lower processor number: runs are reproducible.
    return time_[a] != time_[b] ? time_[a] < time_[b] : a < b;
  }
  void place(std::size_t i, std::uint32_t p) {
    heap_[i] = p;
    slot_[p] = static_cast<std::uint32_t>(i);
  }
  void up(std::size_t i) {
    std::uint32_t p = heap_[i];
    while (i > 0 && before(p, heap_[(i - 1) / 2])) {
      place(i, heap_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    place(i, p);
  }
  void down(std::size_t i) {
    std::uint32_t p = heap_[i];
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= heap_.size())
        break;
      if (c + 1 < heap_.size() && before(heap_[c + 1], heap_[c]))
        ++c;
      if (!before(heap_[c], p))
        break;
      place(i, heap_[c]);
      i = c;
    }
    place(i, p);
  }

  std::vector<double> time_;
  std::vector<std::uint32_t> heap_, slot_;
};

} // namespace cilkpp::sim
