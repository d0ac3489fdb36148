#include "worker_thread.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/resource.h>

#include "cilkpp/rt/worker.h"

namespace cilkpp::rt {
namespace {

void *run_worker(void *w) {
  static_cast<Worker *>(w)->thread_main();
  return nullptr;
}

int create(pthread_t &thread, Worker &w, std::size_t stack_size) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  int error = stack_size ? pthread_attr_setstacksize(&attr, stack_size) : 0;
  if (error == 0) error = pthread_create(&thread, &attr, run_worker, &w);
  pthread_attr_destroy(&attr);
  return error;
}

}  // namespace

std::size_t worker_stack_size() noexcept {
  rlimit limit;
  if (getrlimit(RLIMIT_STACK, &limit) != 0) return 0;
  if (limit.rlim_cur == RLIM_INFINITY) return std::size_t{1} << 30;
  return static_cast<std::size_t>(limit.rlim_cur);
}

pthread_t start_worker_thread(Worker &w) noexcept {
  pthread_t thread;
  int error = create(thread, w, worker_stack_size());
  if (error != 0) error = create(thread, w, 0);
  if (error != 0) {
    std::fprintf(stderr, "cilkpp: error: cannot start a worker thread: %s\n", std::strerror(error));
    std::exit(2);
  }
  return thread;
}

}  // namespace cilkpp::rt
