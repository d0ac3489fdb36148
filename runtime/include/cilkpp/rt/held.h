// Temporaries of a spawn's arguments, held until the child is done with them.
//
// C++ destroys the temporaries of a call's arguments when the statement ends.
// A spawned cilk procedure may still use them after that: once a thief has
// taken its own continuation, its fast clone returns early, the parent's
// statement ends, and the child goes on elsewhere with a reference into the
// dead temporary (`spawn count(s + "a")` with a `const std::string &`
// parameter). So the generated code materializes such a temporary here, in a
// block from the worker's frame pool, instead of on the C stack:
//
//   - While the arguments are evaluated and the child runs synchronously, the
//     spawn's statement owns its temporaries (HeldScope); they die when the
//     statement ends, latest first, as in the serial elision.
//   - Before the parent's frame can be stolen, the statement lends them to
//     the frame (HeldTemporaries, a member of the generated frame). If the
//     child returns to a frame that is still ours, the statement takes them
//     back; if not, whoever resumes the frame owns them, and its next sync,
//     which waits for the child, destroys them.
//
// Only the worker that runs the frame's code touches either list, so neither
// needs atomics: a thief sees the lent list through the deque's
// synchronisation, as it sees the rest of the frame.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "cilkpp/rt/frame_pool.h"
#include "cilkpp/rt/worker.h"

namespace cilkpp::rt {

struct HeldTemporary {
  HeldTemporary *next;
  // Destroys the object and gives the block back to w's pool.
  void (*destroy)(Worker *w, HeldTemporary *self) noexcept;
};

namespace detail {

template <class T>
struct HeldBlock {
  HeldTemporary header;
  union {
    std::remove_cv_t<T> object;
  };
  HeldBlock() noexcept {}
  ~HeldBlock() {}
};

// Blocks come from the frame pools (64-byte aligned); anything aligned more
// strictly comes from the system allocator.
template <class T>
inline constexpr bool pooled_block = alignof(HeldBlock<T>) <= kFrameAlign;

template <class T>
void *allocate_block(Worker *w) {
  if constexpr (pooled_block<T>)
    return w->pool().allocate(size_class_of(sizeof(HeldBlock<T>)));
  else
    return ::operator new(sizeof(HeldBlock<T>), std::align_val_t{alignof(HeldBlock<T>)});
}

template <class T>
void free_block(Worker *w, HeldBlock<T> *block) noexcept {
  block->~HeldBlock();
  if constexpr (pooled_block<T>)
    w->pool().release(block, size_class_of(sizeof(HeldBlock<T>)));
  else
    ::operator delete(block, std::align_val_t{alignof(HeldBlock<T>)});
}

template <class T>
void destroy_held(Worker *w, HeldTemporary *self) noexcept {
  auto *block = reinterpret_cast<HeldBlock<T> *>(self);
  using Object = std::remove_cv_t<T>;
  block->object.~Object();
  free_block(w, block);
}

inline void destroy_chain(Worker *w, HeldTemporary *newest, HeldTemporary *end) noexcept {
  while (newest != end) {
    HeldTemporary *next = newest->next;
    newest->destroy(w, newest);
    newest = next;
  }
}

}  // namespace detail

// A frame's temporaries lent by spawns whose children may still use them.
// Trivially copyable: a stolen stack frame's copy takes the list along.
struct HeldTemporaries {
  HeldTemporary *newest = nullptr;

  // At a sync of the resume clone, once every child has completed.
  void release(Worker *w) noexcept {
    detail::destroy_chain(w, newest, nullptr);
    newest = nullptr;
  }
};

// The temporaries of one spawn statement, latest first.
class HeldScope {
 public:
  explicit HeldScope(Worker *w) noexcept : w_(w) {}
  HeldScope(const HeldScope &) = delete;
  HeldScope &operator=(const HeldScope &) = delete;
  ~HeldScope() { detail::destroy_chain(w_, newest_, oldest_ ? oldest_->next : nullptr); }

  // Materializes make()'s result (of type T, which make returns by value, so
  // the object is constructed in place) and names it as the temporary would
  // be named: an xvalue.
  template <class Make>
  std::invoke_result_t<Make &> &&hold(Make &&make) {
    return hold<std::invoke_result_t<Make &>>(std::forward<Make>(make));
  }
  template <class T, class Make>
  T &&hold(Make &&make) {
    void *memory = detail::allocate_block<T>(w_);
    auto *block = ::new (memory) detail::HeldBlock<T>;
    try {
      ::new (static_cast<void *>(__builtin_addressof(block->object))) T(std::forward<Make>(make)());
    } catch (...) {
      detail::free_block(w_, block);
      throw;
    }
    block->header.destroy = &detail::destroy_held<T>;
    block->header.next = newest_;
    if (!oldest_) oldest_ = &block->header;
    newest_ = &block->header;
    return static_cast<T &&>(block->object);
  }

  // Before the frame can be stolen: the temporaries go on the frame's list.
  void lend(HeldTemporaries &frame) noexcept {
    if (!newest_) return;
    oldest_->next = frame.newest;
    frame.newest = newest_;
    lent_to_ = &frame;
  }
  // The child returned to a frame that is still ours (or threw while it
  // was): the temporaries come off the frame's list, to die with the
  // statement.
  void take_back() noexcept {
    if (!lent_to_) return;
    lent_to_->newest = oldest_->next;
    oldest_->next = nullptr;
    lent_to_ = nullptr;
  }
  // The frame was stolen: the temporaries are its now.
  void disown() noexcept {
    newest_ = oldest_ = nullptr;
    lent_to_ = nullptr;
  }

 private:
  Worker *w_;
  HeldTemporary *newest_ = nullptr;
  HeldTemporary *oldest_ = nullptr;
  HeldTemporaries *lent_to_ = nullptr;
};

}  // namespace cilkpp::rt
