// cilk_for: the runtime half of the parallel loop.
//
// The compiler turns
//   cilk_for (T i = first; i < last; i += step) body
// into
//   { T __cilkpp_first_i = first; ::cilkpp::rt::parallel_for(__cilkpp_first_i, last,
//       static_cast<std::int64_t>(step), LoopTest::less, grain, "file:line",
//       [&](decltype(__cilkpp_first_i) i) body); }
// The loop runs as a cilk procedure written against abi.h the way the
// compiler would write it: a range of iteration numbers [lo, hi) is halved,
// the lower half spawned and the upper half kept, until at most `grain`
// iterations are left, which run serially. Thieves therefore steal the
// largest remaining halves first.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <mutex>
#include <type_traits>

#include "cilkpp/rt/abi.h"

namespace cilkpp::rt {

// How the loop condition compares the loop variable with the bound (the
// variable on the left, after the compiler normalised `n > i` to `i < n`).
enum class LoopTest { less, less_equal, greater, greater_equal, not_equal };

// The condition of the copy of a cilk_for's header that the compiler checks
// and never runs (LoopLowering.cpp); not constexpr, so that no compiler
// treats the copy as dead code and leaves it unchecked.
inline bool never() noexcept { return false; }

// Number of workers of the runtime w belongs to.
unsigned worker_count(Worker *w) noexcept;

[[noreturn]] void loop_step_error(const char *where, const char *why) noexcept;

namespace loop_detail {

template <class T, class = void>
struct has_random_access_category : std::false_type {};
template <class T>
struct has_random_access_category<T, std::void_t<typename std::iterator_traits<T>::iterator_category>>
    : std::is_base_of<std::random_access_iterator_tag, typename std::iterator_traits<T>::iterator_category> {};

// A random-access iterator: by its category, or in C++20 by the concept it
// models (an iota view's iterator has an input category).
template <class T>
constexpr bool is_random_access() {
#if __cplusplus >= 202002L
  if constexpr (std::random_access_iterator<T>) return true;
#endif
  return has_random_access_category<T>::value;
}

// Body: (*body)(lo, hi) runs the iterations [lo, hi) in order (parallel_for's
// chunk).
template <class Body>
struct LoopFrame final : Frame {
  Body *body;
  std::uint64_t lo;  // the continuation's range: [lo, hi)
  std::uint64_t hi;
  std::uint64_t grain;
};

template <class Body>
void resume(Worker *, Frame *) noexcept;
template <class Body>
inline const FrameInfo heap_info{"cilk_for", &resume<Body>, sizeof(LoopFrame<Body>), nullptr};
template <class Body>
inline const FrameInfo stack_info{"cilk_for", &resume<Body>, sizeof(LoopFrame<Body>), &heap_info<Body>};

// The fast clone: runs iterations [lo, hi).
template <class Body>
void fast(Worker *w, Frame *parent, Body *body, std::uint64_t lo, std::uint64_t hi, std::uint64_t grain) noexcept {
  StackFrame<LoopFrame<Body>> storage;
  LoopFrame<Body> *frame = nullptr;
  while (hi - lo > grain) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (!frame) {
      frame = init_stack_frame(storage, parent, nullptr, &stack_info<Body>);
      // Chunks may run plain code for long: the loop exposes every split.
      frame->visibility = Visibility::eager;
      frame->body = body;
      frame->grain = grain;
    }
    frame->lo = mid;
    frame->hi = hi;
    frame->entry = 1;
    if (spawns_counted()) count_spawn(w);
    w->push(frame);
    fast(w, frame, body, lo, mid, grain);
    if (__builtin_expect(!w->pop(), 0)) {
      parent_stolen(w, frame);
      return;
    }
    lo = mid;
  }
  (*body)(lo, hi);
}

// The resume clone: continues a stolen or suspended loop frame.
template <class Body>
void resume(Worker *w, Frame *base) noexcept {
  auto *const frame = static_cast<LoopFrame<Body> *>(base);
  switch (frame->entry) {
    case 1: goto resume_after_spawn;
    case 2: goto resume_after_sync;
    default: __builtin_unreachable();
  }
  while (frame->hi - frame->lo > frame->grain) {
    {
      const std::uint64_t lo = frame->lo;
      const std::uint64_t mid = lo + (frame->hi - lo) / 2;
      frame->lo = mid;
      frame->entry = 1;
      if (spawns_counted()) count_spawn(w);
      w->push(frame);
      fast(w, frame, frame->body, lo, mid, frame->grain);
      if (__builtin_expect(!w->pop(), 0)) {
        parent_stolen(w, frame);
        return;
      }
    }
  resume_after_spawn:;
  }
  (*frame->body)(frame->lo, frame->hi);
  frame->entry = 2;
  if (!sync(w, frame)) return;
resume_after_sync:
  complete_frame(w, frame);
}

// Whether `first OP last` holds for the loop's test. A bound of another type
// than the variable (a view's sentinel, `it != view.end()`) may have only
// the comparison the loop makes: the others are never asked for.
#define CILKPP_COMPARISON(Name, Op)                                                                        \
  template <class A, class B, class = void>                                                                \
  struct Name : std::false_type {};                                                                        \
  template <class A, class B>                                                                              \
  struct Name<A, B, std::void_t<decltype(std::declval<const A &>() Op std::declval<const B &>())>> : std::true_type {};
CILKPP_COMPARISON(has_less, <)
CILKPP_COMPARISON(has_less_equal, <=)
CILKPP_COMPARISON(has_greater, >)
CILKPP_COMPARISON(has_greater_equal, >=)
CILKPP_COMPARISON(has_not_equal, !=)
CILKPP_COMPARISON(has_difference, -)
#undef CILKPP_COMPARISON

template <class Index, class Bound>
bool test_holds(const Index &first, const Bound &last, LoopTest test) {
  switch (test) {
    case LoopTest::less:
      if constexpr (has_less<Index, Bound>::value) return first < last;
      break;
    case LoopTest::less_equal:
      if constexpr (has_less_equal<Index, Bound>::value) return first <= last;
      break;
    case LoopTest::greater:
      if constexpr (has_greater<Index, Bound>::value) return first > last;
      break;
    case LoopTest::greater_equal:
      if constexpr (has_greater_equal<Index, Bound>::value) return first >= last;
      break;
    case LoopTest::not_equal:
      if constexpr (has_not_equal<Index, Bound>::value) return first != last;
      break;
  }
  std::abort();  // (the loop's own test compiled)
}

// The trip count once the bounds are in the comparison's type. Wrap is the
// loop variable's type: a `!=` loop over an unsigned variable may wrap around
// in it (`unsigned i = 9; i != UINT_MAX; --i`).
template <class Wrap, class Index, class Bound>
std::uint64_t count_steps(const Index &first, const Bound &last, std::int64_t step, LoopTest test, const char *where) {
  // (A loop that does not run terminates whatever its step.)
  if (!test_holds(first, last, test)) return 0;
  const bool up = test == LoopTest::less || test == LoopTest::less_equal;
  const bool down = test == LoopTest::greater || test == LoopTest::greater_equal;
  if ((up && !(step > 0)) || (down && !(step < 0)) || step == 0)
    loop_step_error(where, "its increment does not move the loop variable toward the bound");
  // The distance travelled toward the bound, and the step's size.
  std::uint64_t distance;
  if constexpr (std::is_integral_v<Index>) {
    if constexpr (std::is_integral_v<Wrap> && std::is_unsigned_v<Wrap> && sizeof(Wrap) < sizeof(std::uint64_t)) {
      if (test == LoopTest::not_equal) {
        if (static_cast<Index>(static_cast<Wrap>(last)) != last)
          loop_step_error(where, "the bound is outside the loop variable's range, so '!=' never becomes false");
        const auto a = static_cast<Wrap>(first), b = static_cast<Wrap>(last);
        distance = static_cast<Wrap>(step > 0 ? b - a : a - b);  // modular in the variable's type
      } else {
        const auto a = static_cast<std::uint64_t>(first), b = static_cast<std::uint64_t>(last);
        distance = step > 0 ? b - a : a - b;
      }
    } else {
      const auto a = static_cast<std::uint64_t>(first);
      const auto b = static_cast<std::uint64_t>(last);
      distance = step > 0 ? b - a : a - b;  // modular: exact because the test held
    }
  } else if constexpr (has_difference<Bound, Index>::value) {
    const auto d = last - first;
    distance = static_cast<std::uint64_t>(step > 0 ? d : -d);
  } else {
    static_assert(!std::is_same_v<Bound, Bound>,
                  "cilkpp: a cilk_for divides its iterations by their number, the distance 'bound - variable', "
                  "which this loop's bound does not have (a sentinel of a view of unknown size): iterate over "
                  "indices instead");
    distance = 0;
  }
  const std::uint64_t stride = step > 0 ? static_cast<std::uint64_t>(step) : 0 - static_cast<std::uint64_t>(step);
  switch (test) {
    case LoopTest::less:
    case LoopTest::greater: return (distance - 1) / stride + 1;
    case LoopTest::less_equal:
    case LoopTest::greater_equal: return distance / stride + 1;
    case LoopTest::not_equal:
      if (distance % stride != 0)
        loop_step_error(where, "the bound is not a whole number of increments away, so '!=' never becomes false");
      return distance / stride;
  }
  return 0;
}

// Iterations of `first OP last` stepping by `step`, or a fatal error when
// the step never reaches the bound (the serial loop would not terminate).
template <class Index, class Bound>
std::uint64_t trip_count(const Index &first, const Bound &last, std::int64_t step, LoopTest test, const char *where) {
  if constexpr (std::is_integral_v<Index> && std::is_integral_v<Bound>) {
    // Compared and subtracted in the type the serial comparison uses.
    using Common = std::common_type_t<Index, Bound>;
    return count_steps<Index>(static_cast<Common>(first), static_cast<Common>(last), step, test, where);
  } else {
    return count_steps<Index>(first, last, step, test, where);
  }
}

// The loop variable's value in iteration k.
template <class Index>
Index nth_value(const Index &first, std::int64_t step, std::uint64_t k) {
  if constexpr (std::is_integral_v<Index>) {
    return static_cast<Index>(static_cast<std::uint64_t>(first) + k * static_cast<std::uint64_t>(step));
  } else {
    using Difference = typename std::iterator_traits<Index>::difference_type;
    return first + static_cast<Difference>(k) * static_cast<Difference>(step);
  }
}

// The loop variable's value in the next iteration: `value += step`, as the
// serial loop computes it (also after a chunk's last iteration: a value the
// serial loop reaches too).
template <class Index, class Step>
void step_forward(Index &value, Step step) {
  if constexpr (std::is_integral_v<Index>)
    value = static_cast<Index>(value + static_cast<Index>(step));
  else
    value += static_cast<typename std::iterator_traits<Index>::difference_type>(step);
}

// The exception of the first iteration, in serial order, that threw. Later
// chunks that have not started are skipped, as the serial loop would not run
// them; earlier ones run, and may replace it.
class FirstError {
 public:
  bool skips(std::uint64_t k) const noexcept { return k > first_.load(std::memory_order_relaxed); }
  void record(std::uint64_t k, std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (k >= first_.load(std::memory_order_relaxed)) return;
    error_ = std::move(error);
    first_.store(k, std::memory_order_relaxed);
  }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::atomic<std::uint64_t> first_{UINT64_MAX};
  std::mutex mutex_;
  std::exception_ptr error_;
};

// Default grain: about 8 chunks per worker, at most 2048 iterations each, so
// thieves find work while each chunk still amortises a spawn.
inline std::uint64_t default_grain(std::uint64_t count, unsigned workers) noexcept {
  const std::uint64_t chunks = 8 * std::uint64_t{workers};
  const std::uint64_t grain = (count + chunks - 1) / chunks;
  return grain < 1 ? 1 : grain > 2048 ? 2048 : grain;
}

// The step as the loop variable's type adds it: `i += 255` moves an
// unsigned char down by one, `i += UINT_MAX` an int.
template <class Index>
std::int64_t step_in_type(std::int64_t step) noexcept {
  if constexpr (std::is_integral_v<Index> && !std::is_same_v<Index, bool> && sizeof(Index) < sizeof(std::int64_t))
    return static_cast<std::make_signed_t<Index>>(static_cast<std::make_unsigned_t<Index>>(step));
  else
    return step;
}

// parallel_for, for an index it can split.
template <class Index, class Bound, class Body>
void split_loop(const Index &first, const Bound &last, std::int64_t written_step, LoopTest test, std::uint64_t grain,
                const char *where, Body &&body) {
  const std::int64_t step = step_in_type<Index>(written_step);
  const std::uint64_t count = loop_detail::trip_count(first, last, step, test, where);
  if (count == 0) return;
  // A body that may throw: the first exception in serial order leaves the
  // loop once every iteration that started has finished. A chunk looks for
  // an earlier exception once and runs its iterations in one try block
  // (once per iteration, a gather over std::vector ran 3 times slower than
  // the serial loop: docs/performance.md, "cilk_for bodies").
  constexpr bool may_throw = !std::is_nothrow_invocable_v<Body &, Index>;
  FirstError error;
  // Local copies of first and step: the body's stores might reach `first`
  // itself, which was then loaded again in every iteration.
  // The loop variable advances by the step, as in the serial loop (an
  // induction variable the compiler can strength-reduce; computing each
  // value from the iteration's number left a multiplication in the loop).
  auto iterations = [&](std::uint64_t lo, std::uint64_t hi, const Index &first_value, auto step_value) {
    Index value = loop_detail::nth_value(first_value, step_value, lo);
    std::uint64_t k = lo;
    if constexpr (may_throw) {
      if (error.skips(lo)) return;
      try {
        for (; k < hi; ++k, loop_detail::step_forward(value, step_value)) body(value);
      } catch (...) {
        error.record(k, std::current_exception());
      }
    } else {
      for (; k < hi; ++k, loop_detail::step_forward(value, step_value)) body(value);
    }
  };
  auto chunk = [&](std::uint64_t lo, std::uint64_t hi) {
    const Index first_value = first;
    // A unit step, by far the commonest, as a constant: the compiler then
    // walks the loop as it does the serial one (docs/performance.md,
    // "cilk_for with a unit step").
    if (step == 1)
      iterations(lo, hi, first_value, std::integral_constant<std::int64_t, 1>{});
    else
      iterations(lo, hi, first_value, std::int64_t{step});
  };
  using Chunk = decltype(chunk);
  if (grain != 0 && count <= grain) {
    chunk(0, count);
  } else {
    run_root<void>([&](Worker *w, Frame *parent, void *) noexcept {
      const std::uint64_t g = grain != 0 ? grain : loop_detail::default_grain(count, worker_count(w));
      loop_detail::fast<Chunk>(w, parent, &chunk, 0, count, g);
    });
  }
  if constexpr (may_throw) error.rethrow();
}

}  // namespace loop_detail

// Runs body(i) for every i the serial loop `for (i = first; i TEST last; i
// += step)` would visit, in parallel; returns when all have run. grain == 0
// chooses one from the trip count and the number of workers. `last` and
// `step` are evaluated once, before the first iteration.
template <class Index, class Bound, class Body>
void parallel_for(const Index &first, const Bound &last, std::int64_t step, LoopTest test, std::uint64_t grain,
                  const char *where, Body &&body) {
  // (Only this error for another index: the rest would add its own.)
  if constexpr (std::is_integral_v<Index> || loop_detail::is_random_access<Index>())
    loop_detail::split_loop(first, last, step, test, grain, where, static_cast<Body &&>(body));
  else
    static_assert(!std::is_same_v<Index, Index>,
                  "cilkpp: the loop variable of a cilk_for must be an integer or a random-access iterator "
                  "(of a range-based cilk_for, the range's iterators must be random-access)");
}

}  // namespace cilkpp::rt
