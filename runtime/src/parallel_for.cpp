// Out-of-line pieces of cilk_for (include/cilkpp/rt/parallel_for.h).
#include "cilkpp/rt/parallel_for.h"

#include "runtime.h"

namespace cilkpp::rt {

unsigned worker_count(Worker *w) noexcept { return w->runtime().num_workers(); }

void loop_step_error(const char *where, const char *why) noexcept {
  std::fprintf(stderr, "%s: cilkpp: fatal: cilk_for loop: %s\n", where, why);
  std::abort();
}

}  // namespace cilkpp::rt
