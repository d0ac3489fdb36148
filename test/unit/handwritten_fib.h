// fib as the cilkpp compiler translates
//
//   cilk int fib(int n) {
//     if (n < 2) return n;
//     int x, y;
//     x = spawn fib(n - 1);
//     y = spawn fib(n - 2);
//     sync;
//     return x + y;
//   }
//
// written by hand: the reference for the compiler's output and the
// end-to-end fixture of the runtime tests. Include it in one file only.
#pragma once

#include <cilkpp/runtime.h>
namespace {
struct fib_frame final : ::cilkpp::rt::Frame { int n; int x; int y; };
void fib_resume(::cilkpp::rt::Worker *, ::cilkpp::rt::Frame *) noexcept;
const ::cilkpp::rt::FrameInfo fib_info{"fib", &fib_resume, sizeof(fib_frame), nullptr};
}
int fib_fast(::cilkpp::rt::Worker *__w, ::cilkpp::rt::Frame *__parent, void *__slot, int n) noexcept {
  fib_frame *__frame = nullptr;
  if (n < 2) { if (__frame) ::cilkpp::rt::free_frame(__w, __frame); return n; }
  int x, y;
  { int __a0 = n - 1;
    if (!__frame) __frame = ::cilkpp::rt::new_frame<fib_frame>(__w, __parent, __slot, &fib_info);
    __frame->n = n; __frame->entry = 1; __w->push(__frame);
    auto __r = fib_fast(__w, __frame, &__frame->x, __a0);
    if (__builtin_expect(!__w->pop(), 0)) { ::cilkpp::rt::parent_stolen(__w, __frame, &__frame->x, __r); return {}; }
    x = __r; }
  { int __a0 = n - 2;
    if (!__frame) __frame = ::cilkpp::rt::new_frame<fib_frame>(__w, __parent, __slot, &fib_info);
    __frame->x = x; __frame->entry = 2; __w->push(__frame);
    auto __r = fib_fast(__w, __frame, &__frame->y, __a0);
    if (__builtin_expect(!__w->pop(), 0)) { ::cilkpp::rt::parent_stolen(__w, __frame, &__frame->y, __r); return {}; }
    y = __r; }
  ;  // sync: nothing can be outstanding on the fast path
  { if (__frame) ::cilkpp::rt::free_frame(__w, __frame); return x + y; }
}
namespace {
void fib_resume(::cilkpp::rt::Worker *__w, ::cilkpp::rt::Frame *__base) noexcept {
  auto *const __frame = static_cast<fib_frame *>(__base);
  switch (__frame->entry) {
    case 1: goto __cilkpp_resume_1;
    case 2: goto __cilkpp_resume_2;
    case 3: goto __cilkpp_resume_3;
    default: __builtin_unreachable();
  }
  if (__frame->n < 2) { ::cilkpp::rt::complete_frame<int>(__w, __frame, __frame->n); return; }
  { int __a0 = __frame->n - 1; __frame->entry = 1; __w->push(__frame);
    auto __r = fib_fast(__w, __frame, &__frame->x, __a0);
    if (__builtin_expect(!__w->pop(), 0)) { ::cilkpp::rt::parent_stolen(__w, __frame, &__frame->x, __r); return; }
    __frame->x = __r; }
  __cilkpp_resume_1:;
  { int __a0 = __frame->n - 2; __frame->entry = 2; __w->push(__frame);
    auto __r = fib_fast(__w, __frame, &__frame->y, __a0);
    if (__builtin_expect(!__w->pop(), 0)) { ::cilkpp::rt::parent_stolen(__w, __frame, &__frame->y, __r); return; }
    __frame->y = __r; }
  __cilkpp_resume_2:;
  { __frame->entry = 3; if (!::cilkpp::rt::sync(__w, __frame)) return; }
  __cilkpp_resume_3:;
  { ::cilkpp::rt::complete_frame<int>(__w, __frame, __frame->x + __frame->y); return; }
}
}
int fib(int n) {
  return ::cilkpp::rt::run_root<int>([&](::cilkpp::rt::Worker *__w, ::cilkpp::rt::Frame *__parent, void *__slot) noexcept { return fib_fast(__w, __parent, __slot, n); });
}
