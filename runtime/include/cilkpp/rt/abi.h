// The interface between code emitted by the cilkpp compiler and the runtime.
//
// Generated fast clones have the signature
//   R fast(Worker *w, Frame *parent, void *result_slot, params...) noexcept
// and generated resume paths the signature ResumeFn. docs/translation.md shows
// how the calls below fit together.
#pragma once

#include <atomic>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "cilkpp/rt/exceptions.h"
#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/worker.h"

namespace cilkpp::rt {

// Names any type as a simple type specifier (arrays, function pointers).
template <class T>
using id = T;

template <class T>
struct nondeduced {
  using type = T;
};

// The pointer, as an expression whose type depends on Tag: the clones that a
// class template declares for a member with a deduced result name the
// result through it (`decltype(deferred<__cilkpp_deferred>(__this)->
// __cilkpp_f_serial(n))`), so that it is deduced where a clone is used,
// once the class is complete, not while the class is being instantiated.
// Never called.
template <int Tag, class T>
T *deferred(T *p) noexcept;

// Bracket the generated clones, where three of GCC's warnings report the
// translation rather than the program; the serial elision (`cilkpp
// --serial`) still reports the program's. -Wmaybe-uninitialized gives up on
// the clones' control flow (every spawn adds a branch for "stolen", and its
// predicate analysis stops at six control dependences) and then warns about
// locals the serial program initialises exactly where it reads them. Clang
// checks uninitialised reads on the source and needs nothing here.
// -Wuseless-cast sees a template's `T(n)` in an instantiation's clone, a
// plain function, where T is the type of n. And -Wsubobject-linkage sees a
// cilk_for body's lambda in a template's clone capture the frame, whose
// type has internal linkage (the #line directives hide that it is the main
// file's).
#if defined(__GNUC__) && !defined(__clang__)
#define CILKPP_CLONES_BEGIN                                   \
  _Pragma("GCC diagnostic push")                              \
  _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"") \
  _Pragma("GCC diagnostic ignored \"-Wuseless-cast\"")        \
  _Pragma("GCC diagnostic ignored \"-Wsubobject-linkage\"")
#define CILKPP_CLONES_END _Pragma("GCC diagnostic pop")
#else
#define CILKPP_CLONES_BEGIN
#define CILKPP_CLONES_END
#endif

// On the definition of a resume clone whose switch jumps into a loop: g++
// 12's basic-block vectorizer then built vectors at the function's entry
// from values loaded only inside the loop (a stolen quadtree split handed
// children empty vectors at -O2 -std=c++20), so g++ compiles such clones
// without it (ProcedureEmitter's resumeCloneAttributes).
#if defined(__GNUC__) && !defined(__clang__)
#define CILKPP_RESUME_CLONE __attribute__((__optimize__("no-tree-slp-vectorize")))
#else
#define CILKPP_RESUME_CLONE
#endif

// The copies of a recursive procedure's fast clone that its spawns of itself
// call (compiler/lib/CodeGen/RecursionInlining.h): inlined where the host
// compiler optimises, plain functions in a debug build (-O0), where inlining
// would only make the code larger.
#if defined(__OPTIMIZE__)
#define CILKPP_INLINED_RECURSION __attribute__((__always_inline__)) inline
#else
#define CILKPP_INLINED_RECURSION inline
#endif

// Stores a value into a frame field of trivially copyable type T. Arrays and
// classes without a usable copy assignment (a const member) are byte-copied;
// the rest are assigned, which GCC's -Wstringop-overflow also understands.
// A spawn saves every local live across it, also one the serial program
// initialises only on some paths and reads only on those: the copy may read
// an indeterminate value, harmless here (it is only stored and read back).
// Clang's -Wsometimes-uninitialized does not look through the reference;
// GCC's -Wmaybe-uninitialized is silenced where the copy is written.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
template <class T>
[[__gnu__::__always_inline__]] inline void init_field(T &field, const typename nondeduced<T>::type &value) noexcept {
  // (Or what a byte copy needs: g++ in C++20 says std::pair<const K, V>,
  // whose assignment is deleted, is not trivially copyable; the translator's
  // clang says it is.)
  static_assert(std::is_trivially_copyable_v<T> ||
                (std::is_trivially_copy_constructible_v<T> && std::is_trivially_destructible_v<T>));
  if constexpr (std::is_trivially_copy_assignable_v<T>)
    field = value;
  else
    std::memcpy(static_cast<void *>(__builtin_addressof(field)), static_cast<const void *>(__builtin_addressof(value)), sizeof(T));
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
// A character array initialised from a string literal that may be shorter
// (`char buf[64] = "hi";`): the literal's characters, then zeros, as the
// declaration does. (A temporary array of the field's type made from the
// literal is no help: g++ keeps only the literal's bytes of it.)
template <class C, std::size_t N, class L, std::size_t M>
inline void init_string_field(C (&field)[N], const L (&literal)[M]) noexcept {
  static_assert(M <= N, "the string literal is longer than the array");
  for (std::size_t i = 0; i < N; ++i) field[i] = i < M ? static_cast<C>(literal[i]) : C();
}

// A local saved into its frame at a spawn, which the program may not have
// set yet: Clang's -Wuninitialized-const-reference would blame the spawn
// (the program's own read of the unset local still warns).
#if defined(__clang__)
#define CILKPP_SAVE_UNSET(field, local)                                                \
  _Pragma("clang diagnostic push")                                                     \
  _Pragma("clang diagnostic ignored \"-Wuninitialized-const-reference\"")                \
  ::cilkpp::rt::init_field(field, local);                                              \
  _Pragma("clang diagnostic pop")
#else
#define CILKPP_SAVE_UNSET(field, local) ::cilkpp::rt::init_field(field, local);
#endif

// Spawn counting for CILKPP_STATS, in code built with -fcilkpp-count-spawns:
// each spawn calls count_spawn, and each such translation unit calls
// count_spawns_in_stats once at start-up so the report shows the column.
inline void count_spawn(Worker *w) noexcept { ++w->spawns; }
bool count_spawns_in_stats() noexcept;
namespace detail {
extern std::atomic<bool> spawns_counted;
}
// Whether any code counts spawns; cilk_for's splits are counted then too.
inline bool spawns_counted() noexcept { return detail::spawns_counted.load(std::memory_order_relaxed); }

// Allocates and initialises a fast clone's frame of generated type F from w's
// pool (a frame whose state must not move when it is stolen).
template <class F>
inline F *new_frame(Worker *w, Frame *parent, void *result_slot, const FrameInfo *info) noexcept {
  static_assert(std::is_base_of_v<Frame, F>);
  constexpr std::size_t cls = size_class_of(sizeof(F));
  F *f = ::new (w->pool().allocate(cls)) F;
  f->info = info;
  f->parent = parent;
  f->result_slot = result_slot;
  f->join.store(1, std::memory_order_relaxed);
  f->pending = nullptr;
  f->visibility = Visibility::latent;
  return f;
}

// Raw storage for a frame on the fast clone's C stack; constructed by
// init_stack_frame at the procedure's first spawn, so leaves never touch it.
// Both start latent: invisible to thieves until one asks (exposure.h).
template <class F>
struct StackFrame {
  alignas(F) unsigned char bytes[sizeof(F)];
};

// The address of the object an xvalue names, which a reference in the frame
// holds (`auto &&r = std::move(x);` refers to x).
template <class T>
inline T *address_of_xvalue(T &&object) noexcept {
  return __builtin_addressof(object);
}

template <class F>
inline F *init_stack_frame(StackFrame<F> &storage, Frame *parent, void *result_slot, const FrameInfo *info) noexcept {
  F *f = ::new (static_cast<void *>(storage.bytes)) F;
  f->info = info;
  f->parent = parent;
  f->result_slot = result_slot;
  f->visibility = Visibility::latent;
  return f;
}

// Ends the lifetime of a frame field whose construction the generated code
// did itself (a class-type variable that lives across a continuation point).
template <class T>
inline void destroy_field(T &field) noexcept {
  field.~T();
}
// A C array of class objects: its elements, last first.
template <class T, std::size_t N>
inline void destroy_field(T (&field)[N]) noexcept {
  for (std::size_t i = N; i-- > 0;) destroy_field(field[i]);
}

template <class F>
inline void free_frame(Worker *w, F *f) noexcept {
  constexpr std::size_t cls = size_class_of(sizeof(F));
  f->~F();
  w->pool().release(f, cls);
}

// Frees a frame whose type is known only through its FrameInfo.
inline void free_frame_generic(Worker *w, Frame *f) noexcept {
  w->pool().release(f, size_class_of(f->info->size));
}

// A child that completed asynchronously hands its parent one count back.
inline void child_done(Worker *w, Frame *parent) noexcept {
  if (parent->join.fetch_sub(1, std::memory_order_acq_rel) == 1) w->make_ready(parent);
}

// Called when a pop after a spawned call fails: the parent's continuation was
// stolen. If the child returned normally its result goes to the parent's slot
// and the parent gets its count back; if the child itself escaped, the child
// will do both when it completes. Either way the caller returns at once.
// A class result comes by rvalue reference (the clones move it): its type
// may be assignable but neither copyable nor movable, `T x; x = spawn f();`.
// Any other comes by value, which keeps it in a register on the fast path.
template <class R>
using stolen_result_t = std::conditional_t<std::is_trivially_copyable_v<R>, R, R &&>;
template <class R>
[[__gnu__::__noinline__, __gnu__::__cold__]] void parent_stolen(Worker *w, Frame *parent, R *slot,
                                                 stolen_result_t<R> value) noexcept {
  if (w->escaping) return;
  Frame *target = current_location(parent);
  *static_cast<R *>(relocate_slot(slot, parent, target)) = static_cast<stolen_result_t<R> &&>(value);
  w->escaping = true;
  child_done(w, target);
}
// The same for a result converted into a target of another type (a plain
// callee's, returned by value: it never escapes).
template <class T, class R>
[[__gnu__::__noinline__, __gnu__::__cold__]] void parent_stolen_converting(Worker *w, Frame *parent, T *slot, R value) noexcept {
  Frame *target = current_location(parent);
  *static_cast<T *>(relocate_slot(slot, parent, target)) = static_cast<T>(value);
  w->escaping = true;
  child_done(w, target);
}
inline void parent_stolen(Worker *w, Frame *parent) noexcept {
  if (w->escaping) return;
  w->escaping = true;
  child_done(w, current_location(parent));
}

// sync on the fast path: every child has returned (a steal would have ended
// the fast clone), so nothing is outstanding. A call all the same, so that
// at -O0 the sync's line has code a debugger can stop at; optimised, nothing.
inline void fast_sync() noexcept {}

// sync on the resume path. True: every child has completed, go on. False: the
// frame is suspended; the worker that completes the last child resumes it.
inline bool sync(Worker *, Frame *f) noexcept {
  if (f->join.load(std::memory_order_acquire) == 1) return true;
  if (f->join.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    f->join.store(1, std::memory_order_relaxed);
    return true;
  }
  return false;
}

// Completes a frame on the resume path: delivers the result, frees the frame,
// and hands the parent its count back.
inline void complete_frame(Worker *w, Frame *f) noexcept {
  Frame *parent = f->parent;
  free_frame_generic(w, f);
  const bool parent_is_root = parent->info->resume == nullptr;
  if (parent->join.fetch_sub(1, std::memory_order_acq_rel) == 1 && !parent_is_root)
    w->make_ready(parent);
}

template <class R>
inline void complete_frame(Worker *w, Frame *f, typename nondeduced<R>::type value) noexcept {
  if (void *slot = f->result_slot) *static_cast<std::remove_cv_t<R> *>(slot) = std::move(value);
  complete_frame(w, f);
}

// Where a root procedure that completes asynchronously writes its result.
// Results are delivered by (move) assignment, so a slot
// holds a live object: raw bytes are one for a trivially copyable type; a
// class type is value-initialised first.
template <class T, bool = std::is_trivially_copyable_v<T>>
class ResultStorage {
 public:
  T *slot() noexcept { return reinterpret_cast<T *>(storage_); }
  T take() noexcept { return *slot(); }

 private:
  alignas(T) unsigned char storage_[sizeof(T)] = {};
};

template <class T>
class ResultStorage<T, false> {
 public:
  T *slot() noexcept { return __builtin_addressof(value_); }
  T take() noexcept { return std::move(value_); }

 private:
  T value_{};
};

// The object of a spawned `std::move(o).m()`, which & cannot take the
// address of (an xvalue); the object itself outlives the call.
template <class T>
constexpr std::remove_reference_t<T> *object_address(T &&object) noexcept {
  return __builtin_addressof(object);
}

// A root call: a cilk procedure called from ordinary code (main, a library,
// or a plain function that a cilk procedure called). On a thread that is not
// a worker it starts the runtime if needed and binds the thread as worker 0
// for the duration of the call, or, while another thread's root call holds
// worker 0, as a private worker that nobody steals from (the call then runs
// serially); on a worker it nests. The worker's escaping
// flag is saved and cleared for the call and restored after it: a nested
// call may come from a destructor that runs while the worker unwinds a
// stolen continuation.
class RootScope {
 public:
  RootScope() noexcept {
    if (Worker *w = Worker::current()) {
      // A root call from code a worker runs: nest on that worker. Waiting for
      // it (if it escapes) runs other frames on top of the current C stack.
      worker_ = w;
      binding_ = Binding::nested;
      // run_root reads escaping to learn whether *this* call's root procedure
      // escaped, so a stale true from an unwind in progress must not leak in
      // (it would wait forever for a count nobody hands back) and the call
      // must not clear it for the unwind either.
      saved_escaping_ = w->escaping;
      w->escaping = false;
    } else {
      bind_thread();
    }
  }
  ~RootScope() {
    worker_->escaping = saved_escaping_;
    if (binding_ != Binding::nested) unbind_thread();
  }
  RootScope(const RootScope &) = delete;
  RootScope &operator=(const RootScope &) = delete;

  Worker *worker() const noexcept { return worker_; }
  // The root procedure escaped: work until its frame has completed, then
  // rethrow what it threw, if anything.
  void wait(RootFrame &root);

 private:
  // A thread that is not a worker: becomes worker 0 or a private worker.
  void bind_thread() noexcept;
  void unbind_thread() noexcept;

  enum class Binding : std::uint8_t { nested, worker0, private_worker };
  Worker *worker_;
  Binding binding_;
  bool saved_escaping_;
};

template <class R, class Fast>
inline R run_root(Fast &&fast) {
  RootScope scope;
  Worker *w = scope.worker();
  RootFrame root;
  if constexpr (std::is_void_v<R>) {
    fast(w, &root, nullptr);
    if (__builtin_expect(w->escaping, 0)) scope.wait(root);
  } else {
    ResultStorage<std::remove_cv_t<R>> result;
    R value = fast(w, &root, result.slot());
    if (__builtin_expect(!w->escaping, 1)) return value;
    scope.wait(root);
    return result.take();
  }
}

}  // namespace cilkpp::rt
