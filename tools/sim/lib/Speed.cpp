#include "Speed.h"

namespace cilkpp::sim {

SpeedTrack::SpeedTrack(double full, const Slowdown &slowdown, Random rng)
    : full_(full), current_(full), slowdown_(slowdown), rng_(std::move(rng)) {
  if (slowdown_.active())
    nextChange_ = rng_.exponential(slowdown_.meanFull);
}

void SpeedTrack::advance() {
  slow_ = !slow_;
  if (slow_) {
    current_ = full_ * rng_.uniform(slowdown_.minFraction, slowdown_.maxFraction);
    nextChange_ += rng_.exponential(slowdown_.meanSlow);
  } else {
    current_ = full_;
    nextChange_ += rng_.exponential(slowdown_.meanFull);
  }
}

std::vector<double>
repeatList(std::initializer_list<std::pair<double, unsigned>> groups) {
  std::vector<double> out;
  for (auto [value, count] : groups)
    out.insert(out.end(), count, value);
  return out;
}

} // namespace cilkpp::sim
