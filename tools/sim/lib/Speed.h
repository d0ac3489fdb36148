// Processor speeds over time: fixed, or Jovanović's alternating renewal
// process (Exp 3): full speed for an exponential time, then a uniformly
// drawn fraction of it for an exponential time, and again.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "Random.h"

namespace cilkpp::sim {

struct Slowdown {
  double meanFull = 50;    // mean length of a full-speed period
  double meanSlow = 50;    // mean length of a reduced period
  double minFraction = 1;  // reduced speed is uniform in
  double maxFraction = 1;  // [minFraction, maxFraction] x full speed
  bool active() const { return minFraction < 1 || maxFraction < 1; }
};

struct MachineSpec {
  std::vector<double> speeds; // full speed of each processor, work/time
  // Steal/mug interval of each processor at full speed (slowed processors
  // attempt proportionally less often).
  std::vector<double> intervals;
  Slowdown slowdown;
};

// One processor's speed, piecewise constant; changes come as events.
class SpeedTrack {
public:
  SpeedTrack(double full, const Slowdown &slowdown, Random rng);

  double current() const { return current_; }
  double full() const { return full_; }
  // When the speed changes next (infinity if never).
  double nextChange() const { return nextChange_; }
  // Moves to the next period; call at nextChange().
  void advance();

private:
  double full_, current_;
  Slowdown slowdown_;
  Random rng_;
  bool slow_ = false;
  double nextChange_ = std::numeric_limits<double>::infinity();
};

// "100, 200, 400x3" style lists (used by --speeds and the experiments).
std::vector<double> repeatList(std::initializer_list<std::pair<double, unsigned>>);

} // namespace cilkpp::sim
