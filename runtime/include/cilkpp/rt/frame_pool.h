// Per-worker frame pools: segregated free lists, one per size class: 64-byte
// steps up to 2 KiB, then powers of two up to 64 KiB (a frame holding an
// array, say, pays a pool allocation, not the system allocator's).
//
// Allocation and release on the owner are a few instructions and never lock.
// A frame stolen or mugged is freed by whichever worker finishes it, so frames
// drift between pools; a pool that caches too many blocks of a class hands a
// batch to the process-wide reserve, and an empty pool takes a batch back (or
// carves a new chunk) before touching the system allocator. Larger frames come
// from the system allocator, and each pool keeps a few of them for reuse.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cilkpp::rt {

inline constexpr std::size_t kFrameAlign = 64;
inline constexpr std::size_t kLinearClasses = 32;               // blocks up to 2 KiB
inline constexpr std::size_t kSizeClasses = kLinearClasses + 5;  // then 4 KiB to 64 KiB
inline constexpr std::uint32_t kMaxCachedPerClass = 256;
inline constexpr std::size_t kLinearLimit = kLinearClasses * kFrameAlign;

// Classes from kSizeClasses on go to the system allocator.
constexpr std::size_t size_class_of(std::size_t bytes) noexcept {
  if (bytes <= kLinearLimit) return (bytes + kFrameAlign - 1) / kFrameAlign - 1;
  std::size_t cls = kLinearClasses;
  for (std::size_t block = 2 * kLinearLimit; block < bytes; block *= 2) ++cls;
  return cls;
}
constexpr std::size_t class_block_size(std::size_t cls) noexcept {
  return cls < kLinearClasses ? (cls + 1) * kFrameAlign : kLinearLimit << (cls - kLinearClasses + 1);
}

class FramePool {
 public:
  FramePool() = default;
  FramePool(const FramePool &) = delete;
  FramePool &operator=(const FramePool &) = delete;
  ~FramePool();  // returns cached blocks to the reserve

  void *allocate(std::size_t cls) noexcept {
    if (__builtin_expect(cls >= kSizeClasses, 0)) return allocate_large(cls);
    FreeBlock *b = heads_[cls];
    if (__builtin_expect(b != nullptr, 1)) {
      heads_[cls] = b->next;
      --counts_[cls];
      return b;
    }
    return refill(cls);
  }

  void release(void *p, std::size_t cls) noexcept {
    if (__builtin_expect(cls >= kSizeClasses, 0)) return release_large(p, cls);
    auto *b = static_cast<FreeBlock *>(p);
    b->next = heads_[cls];
    heads_[cls] = b;
    if (__builtin_expect(++counts_[cls] > kMaxCachedPerClass, 0)) spill(cls);
  }

  std::uint32_t cached(std::size_t cls) const noexcept { return counts_[cls]; }
  std::uint32_t large_kept() const noexcept { return large_count_; }

  // Large blocks a pool keeps: at most kLargeKept of them, of at most
  // kLargeKeptBytes together (a recursion holds one per level it is deep).
  static constexpr std::uint32_t kLargeKept = 32;
  static constexpr std::size_t kLargeKeptBytes = std::size_t{4} << 20;

 private:
  struct FreeBlock {
    FreeBlock *next;
  };

  void *refill(std::size_t cls) noexcept;
  void spill(std::size_t cls) noexcept;
  void *allocate_large(std::size_t cls) noexcept;
  void release_large(void *p, std::size_t cls) noexcept;

  FreeBlock *heads_[kSizeClasses] = {};
  std::uint32_t counts_[kSizeClasses] = {};
  // Without them a recursion whose frames are larger than the classes asked
  // the system for each call's frame, and glibc gave the top of its heap back
  // at each free and faulted it in again at the next call (15 times slower).
  struct KeptLarge {
    void *block;
    std::size_t cls;
  };
  KeptLarge large_[kLargeKept] = {};
  std::uint32_t large_count_ = 0;
  std::size_t large_bytes_ = 0;
};

}  // namespace cilkpp::rt
