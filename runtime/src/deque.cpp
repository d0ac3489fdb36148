// Out-of-line pieces of the work deque.
#include <cstdio>
#include <cstdlib>

#include "cilkpp/rt/deque.h"

namespace cilkpp::rt {

// The deque is a fixed ring: growing it would need the owner to coordinate
// with thieves that hold slot indices. Spawn depth beyond the capacity is
// reported rather than silently corrupting the ring.
void deque_overflow(std::size_t capacity) noexcept {
  std::fprintf(stderr, "cilkpp: fatal: spawn depth exceeds the deque capacity (%zu frames)\n", capacity);
  std::abort();
}

}  // namespace cilkpp::rt
