// The threads of workers 1..n-1: pthreads with a stack as large as the main
// thread's limit. glibc gives new threads the RLIMIT_STACK soft limit when
// it is finite, but only 2 MiB under `ulimit -s unlimited`, so raising the
// limit made deep spawn nesting overflow sooner on the workers.
#pragma once

#include <cstddef>

#include <pthread.h>

namespace cilkpp::rt {

class Worker;

// The stack a worker thread gets: the RLIMIT_STACK soft limit, or 1 GiB of
// address space (used as it is touched) when that limit is unlimited.
std::size_t worker_stack_size() noexcept;

// Starts a thread running w.thread_main(). If a stack of that size cannot be
// had, the thread gets the system's default one; if no thread can be
// started, prints a one-line error and exits with status 2.
pthread_t start_worker_thread(Worker &w) noexcept;

}  // namespace cilkpp::rt
