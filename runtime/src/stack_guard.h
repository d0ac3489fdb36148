// A message instead of a bare SIGSEGV when a thread running cilk code
// overflows its C stack (deep spawn nesting keeps every level's frame on it).
//
// Installed only where the program left SIGSEGV at its default action
// (sanitizers and debuggers install their own handlers first). The handler
// runs on an alternate signal stack of the thread's own; it prints one line
// when the faulting address lies next to the interrupted stack pointer (on
// Linux x86-64 and aarch64; elsewhere, just below the thread's stack), then
// restores the default action so that the fault kills the process as
// before (core dump, status 139).
#pragma once

namespace cilkpp::rt {

// Once per process, before the first guarded thread.
void install_stack_overflow_report() noexcept;

// On each thread that runs cilk code: worker threads, root callers.
// Idempotent per thread.
void guard_this_thread() noexcept;

}  // namespace cilkpp::rt
