// The heavy half of the deque's asymmetric Dekker fence.
//
// With expedited membarrier(2) registered, a thief's membarrier forces a
// full barrier on every running thread of the process, so owners can get by
// with a compiler barrier in pop(). Registration happens once, before any
// worker thread starts, and is never undone: owners run fence-less from then
// on, so a thief can never fall back to a plain fence later.
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "cilkpp/rt/deque.h"

#if defined(__SANITIZE_THREAD__)
#define CILKPP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CILKPP_TSAN 1
#endif
#endif

namespace cilkpp::rt::barrier {

bool asymmetric = false;

#ifndef CILKPP_TSAN
namespace {
// Whether registration succeeded; asymmetric may be cleared again (tests do,
// between runs) but the process stays registered.
bool registered = false;

bool env_disabled() noexcept {
  const char *v = std::getenv("CILKPP_MEMBARRIER");
  return v && v[0] == '0' && v[1] == '\0';
}
}  // namespace
#endif

void init_asymmetric() noexcept {
#ifdef CILKPP_TSAN
  // ThreadSanitizer does not model membarrier: it would report every
  // fence-less pop as racing with steals.
  return;
#else
  if (asymmetric || env_disabled()) return;
  if (!registered)
    registered = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  asymmetric = registered;
#endif
}

void thief_side() noexcept {
  if (asymmetric) {
    if (__builtin_expect(syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0, 0)) {
      // Cannot happen after a successful registration; owners are already
      // running without fences, so continuing would be unsound.
      std::fputs("cilkpp: fatal: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed\n", stderr);
      std::abort();
    }
    return;
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

}  // namespace cilkpp::rt::barrier
