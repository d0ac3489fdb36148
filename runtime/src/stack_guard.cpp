// See stack_guard.h.
#include "stack_guard.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace cilkpp::rt {
namespace {

constexpr std::size_t kAltStackBytes = 64 * 1024;
// Faults this far below the stack's lowest address count as an overflow
// (a large frame can skip past the guard page).
constexpr std::uintptr_t kSlackBytes = 1 << 20;

std::atomic<bool> installed{false};

// The thread's stack, and its alternate stack for the handler (given back
// when the thread ends).
struct ThreadStack {
  std::uintptr_t low = 0;
  void *alternate = nullptr;
  ~ThreadStack() {
    if (!alternate) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    munmap(alternate, kAltStackBytes);
  }
};
thread_local ThreadStack this_thread;

void write_line(const char *text) noexcept {
  const std::size_t n = std::strlen(text);
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, text, n);
}

void on_segv(int, siginfo_t *info, void *) noexcept {
  const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const ThreadStack &s = this_thread;
  if (s.low != 0 && at < s.low + 4096 && at + kSlackBytes >= s.low)
    write_line(
        "cilkpp: fatal: stack overflow: nested spawns and calls used up this thread's C stack (each nesting "
        "level keeps its frame there); raise the limit (ulimit -s) or nest less deeply\n");
  // The fault repeats under the default action and ends the process.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGSEGV, &dfl, nullptr);
}

}  // namespace

void install_stack_overflow_report() noexcept {
  struct sigaction current {};
  if (sigaction(SIGSEGV, nullptr, &current) != 0) return;
  if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler != SIG_DFL) return;
  if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction != nullptr) return;
  struct sigaction sa {};
  sa.sa_sigaction = &on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, nullptr) == 0) installed.store(true, std::memory_order_release);
}

void guard_this_thread() noexcept {
  ThreadStack &s = this_thread;
  if (s.alternate != nullptr || !installed.load(std::memory_order_acquire)) return;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void *base = nullptr;  // the lowest address
  std::size_t size = 0;
  const bool known = pthread_attr_getstack(&attr, &base, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!known) return;
  void *alternate = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (alternate == MAP_FAILED) return;
  stack_t ss{};
  ss.ss_sp = alternate;
  ss.ss_size = kAltStackBytes;
  if (sigaltstack(&ss, nullptr) != 0) {
    munmap(alternate, kAltStackBytes);
    return;
  }
  s.alternate = alternate;
  s.low = reinterpret_cast<std::uintptr_t>(base);
}

}  // namespace cilkpp::rt
