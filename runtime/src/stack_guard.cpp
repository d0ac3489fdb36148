// See stack_guard.h.
#include "stack_guard.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace cilkpp::rt {
namespace {

constexpr std::size_t kAltStackBytes = 64 * 1024;
// A large frame can skip past the guard page: a fault up to this far into
// it counts as an overflow.
constexpr std::uintptr_t kSlackBytes = 1 << 20;

std::atomic<bool> installed{false};

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
// The handler judges a fault by the interrupted stack pointer, so a thread
// need not learn its stack's bounds (for the main thread glibc reads and
// parses /proc/self/maps to find them).
constexpr bool kNeedsStackLow = false;

// Code writes at most this far below its stack pointer: pushes and calls,
// x86-64's 128-byte red zone, aarch64's pre-indexed stores (the kernel once
// allowed stack growth as far below it).
constexpr std::uintptr_t kBelowSpBytes = 64 * 1024;

// An overflowing thread faults just below its stack pointer (a push, a
// call) or inside the frame it just made. Any other fault that close to
// the stack pointer would lie past the stack's top; a null or wild pointer
// lies far from it.
bool is_overflow(std::uintptr_t at, const void *context, std::uintptr_t) noexcept {
  const auto &mc = static_cast<const ucontext_t *>(context)->uc_mcontext;
#if defined(__x86_64__)
  const auto sp = static_cast<std::uintptr_t>(mc.gregs[REG_RSP]);
#else
  const auto sp = static_cast<std::uintptr_t>(mc.sp);
#endif
  return at + kBelowSpBytes >= sp && at < sp + kSlackBytes;
}
#else
constexpr bool kNeedsStackLow = true;

// Just below the stack's lowest address, or in its guard page.
bool is_overflow(std::uintptr_t at, const void *, std::uintptr_t low) noexcept {
  return low != 0 && at < low + 4096 && at + kSlackBytes >= low;
}
#endif

// Each thread's alternate stack is given back by this key's destructor when
// the thread ends. A thread_local with a destructor would cost more:
// registering it mallocs, which in a new thread makes glibc create a malloc
// arena (4 system calls), and the main thread would give its stack back at
// exit (2 more), where key destructors do not run.
pthread_key_t alternate_key;

void give_back(void *alternate) {
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  sigaltstack(&off, nullptr);
  munmap(alternate, kAltStackBytes);
}

thread_local std::uintptr_t this_stack_low = 0;  // where kNeedsStackLow

// The lowest address of this thread's stack, or 0.
std::uintptr_t stack_low() noexcept {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void *base = nullptr;
  std::size_t size = 0;
  const bool known = pthread_attr_getstack(&attr, &base, &size) == 0;
  pthread_attr_destroy(&attr);
  return known ? reinterpret_cast<std::uintptr_t>(base) : 0;
}

void write_line(const char *text) noexcept {
  const std::size_t n = std::strlen(text);
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, text, n);
}

void on_segv(int, siginfo_t *info, void *context) noexcept {
  if (is_overflow(reinterpret_cast<std::uintptr_t>(info->si_addr), context, this_stack_low))
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
  if (pthread_key_create(&alternate_key, give_back) != 0) return;
  struct sigaction sa {};
  sa.sa_sigaction = &on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, nullptr) == 0) installed.store(true, std::memory_order_release);
}

void guard_this_thread() noexcept {
  if (!installed.load(std::memory_order_acquire) || pthread_getspecific(alternate_key) != nullptr) return;
  const std::uintptr_t low = kNeedsStackLow ? stack_low() : 0;
  if (kNeedsStackLow && low == 0) return;
  void *alternate = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (alternate == MAP_FAILED) return;
  stack_t ss{};
  ss.ss_sp = alternate;
  ss.ss_size = kAltStackBytes;
  if (sigaltstack(&ss, nullptr) != 0) {
    munmap(alternate, kAltStackBytes);
    return;
  }
  if (pthread_setspecific(alternate_key, alternate) != 0) {
    give_back(alternate);
    return;
  }
  this_stack_low = low;
}

}  // namespace cilkpp::rt
