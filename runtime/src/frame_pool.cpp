// The slow paths of the per-worker frame pools and the process-wide reserve.
//
// Pools trade blocks with the reserve in batches, so the reserve's mutex is
// taken once per kBatch allocations at worst and never on the fast path.
// Blocks come from chunks that are never returned to the system: frames
// drift between workers, and a chunk can only be freed once every block of
// it is back, which nobody tracks. The chunks stay reachable from the
// reserve (a global with a trivial destructor, so it outlives every pool and
// leak checkers see the blocks as reachable).
#include "frame_pool.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <type_traits>

#include "cilkpp/rt/frame_pool.h"

namespace cilkpp::rt {
namespace {

constexpr std::uint32_t kBatch = 32;
constexpr std::size_t kChunkBytes = 64 * 1024;

// The first block of every chunk links the chunks together.
struct ChunkHeader {
  ChunkHeader *next;
};
static_assert(sizeof(ChunkHeader) <= kFrameAlign);

struct Reserve {
  std::mutex mutex;
  // Lists of FramePool::FreeBlock (private to FramePool, so the helpers
  // below take the block type as a template argument).
  void *heads[kSizeClasses];
  std::size_t counts[kSizeClasses];
  std::size_t carved[kSizeClasses];
  // The not yet carved rest of each class's newest chunk. Blocks are carved
  // a batch at a time, so a chunk's pages are touched only as its blocks are
  // used: a page fault costs 15-20 us on some VMs, and a short program would
  // otherwise pay for 16 of them per class at its first spawn.
  unsigned char *fresh[kSizeClasses];
  unsigned char *fresh_end[kSizeClasses];
  ChunkHeader *chunks;
};
// constinit with a trivial destructor: usable during static destruction.
constinit Reserve reserve{};
static_assert(std::is_trivially_destructible_v<Reserve>);

[[noreturn]] void out_of_memory(std::size_t bytes) noexcept {
  std::fprintf(stderr, "cilkpp: fatal: out of memory allocating %zu bytes for frames\n", bytes);
  std::abort();
}

// A chunk holds its header and at least four blocks of its class.
constexpr std::size_t chunk_bytes(std::size_t cls) noexcept {
  return kFrameAlign + 4 * class_block_size(cls) > kChunkBytes ? kFrameAlign + 4 * class_block_size(cls) : kChunkBytes;
}

// Makes a new chunk the fresh region of class cls. Caller holds reserve.mutex.
void add_chunk(std::size_t cls) noexcept {
  const std::size_t bytes = chunk_bytes(cls);
  void *mem = ::operator new(bytes, std::align_val_t{kFrameAlign}, std::nothrow);
  if (!mem) out_of_memory(bytes);
  auto *header = static_cast<ChunkHeader *>(mem);
  header->next = reserve.chunks;
  reserve.chunks = header;
  reserve.fresh[cls] = static_cast<unsigned char *>(mem) + kFrameAlign;
  reserve.fresh_end[cls] = static_cast<unsigned char *>(mem) + bytes;
}

// Carves up to n blocks of class cls from its fresh region, in address
// order, and returns them as a list (null if the region is used up).
// Caller holds reserve.mutex.
template <class Block>
Block *carve(std::size_t cls, std::uint32_t n) noexcept {
  const std::size_t block = class_block_size(cls);
  Block *first = nullptr;
  Block **link = &first;
  for (; n && reserve.fresh[cls] + block <= reserve.fresh_end[cls]; --n) {
    auto *b = ::new (reserve.fresh[cls]) Block{nullptr};
    reserve.fresh[cls] += block;
    ++reserve.carved[cls];
    *link = b;
    link = &b->next;
  }
  return first;
}

}  // namespace

void *FramePool::refill(std::size_t cls) noexcept {
  std::lock_guard<std::mutex> guard(reserve.mutex);
  // Released blocks first (cache-warm, pages already touched), then fresh ones.
  auto *first = static_cast<FreeBlock *>(reserve.heads[cls]);
  if (first) {
    // Keep the first block for the caller, cache up to kBatch - 1 more.
    FreeBlock *last = first;
    std::uint32_t taken = 1;
    while (taken < kBatch && last->next) {
      last = last->next;
      ++taken;
    }
    reserve.heads[cls] = last->next;
    reserve.counts[cls] -= taken;
    last->next = nullptr;
    counts_[cls] = taken - 1;
  } else {
    first = carve<FreeBlock>(cls, kBatch);
    if (!first) {
      add_chunk(cls);
      first = carve<FreeBlock>(cls, kBatch);
    }
    std::uint32_t taken = 1;
    for (FreeBlock *b = first->next; b; b = b->next) ++taken;
    counts_[cls] = taken - 1;
  }
  // The local list is empty (refill is only called then).
  heads_[cls] = first->next;
  return first;
}

void FramePool::spill(std::size_t cls) noexcept {
  // Keep the most recently released (cache-warm) half; hand over the rest.
  const std::uint32_t keep = counts_[cls] / 2;
  FreeBlock *last_kept = heads_[cls];
  for (std::uint32_t i = 1; i < keep; ++i) last_kept = last_kept->next;
  FreeBlock *first = keep ? last_kept->next : heads_[cls];
  FreeBlock *last = first;
  while (last->next) last = last->next;
  if (keep)
    last_kept->next = nullptr;
  else
    heads_[cls] = nullptr;
  const std::uint32_t moved = counts_[cls] - keep;
  counts_[cls] = keep;
  std::lock_guard<std::mutex> guard(reserve.mutex);
  last->next = static_cast<FreeBlock *>(reserve.heads[cls]);
  reserve.heads[cls] = first;
  reserve.counts[cls] += moved;
}

// Frames too large for a size class: the system allocator, aligned like the
// classes so generated frames may hold over-aligned members up to 64; the
// newest kept block of the class first.
void *FramePool::allocate_large(std::size_t cls) noexcept {
  for (std::uint32_t i = large_count_; i-- > 0;)
    if (large_[i].cls == cls) {
      void *p = large_[i].block;
      large_bytes_ -= class_block_size(cls);
      large_[i] = large_[--large_count_];
      return p;
    }
  const std::size_t bytes = class_block_size(cls);
  void *p = ::operator new(bytes, std::align_val_t{kFrameAlign}, std::nothrow);
  if (!p) out_of_memory(bytes);
  return p;
}

void FramePool::release_large(void *p, std::size_t cls) noexcept {
  const std::size_t bytes = class_block_size(cls);
  if (bytes > kLargeKeptBytes) return ::operator delete(p, std::align_val_t{kFrameAlign});
  // A full pool gives back its oldest blocks.
  std::uint32_t dropped = 0;
  while (large_count_ - dropped == kLargeKept || large_bytes_ + bytes > kLargeKeptBytes) {
    ::operator delete(large_[dropped].block, std::align_val_t{kFrameAlign});
    large_bytes_ -= class_block_size(large_[dropped].cls);
    ++dropped;
  }
  if (dropped) {
    for (std::uint32_t i = dropped; i < large_count_; ++i) large_[i - dropped] = large_[i];
    large_count_ -= dropped;
  }
  large_[large_count_++] = {p, cls};
  large_bytes_ += bytes;
}

FramePool::~FramePool() {
  while (large_count_) ::operator delete(large_[--large_count_].block, std::align_val_t{kFrameAlign});
  std::lock_guard<std::mutex> guard(reserve.mutex);
  for (std::size_t cls = 0; cls < kSizeClasses; ++cls) {
    while (FreeBlock *b = heads_[cls]) {
      heads_[cls] = b->next;
      b->next = static_cast<FreeBlock *>(reserve.heads[cls]);
      reserve.heads[cls] = b;
      ++reserve.counts[cls];
    }
    counts_[cls] = 0;
  }
}

namespace detail {

std::size_t reserve_blocks(std::size_t cls) noexcept {
  std::lock_guard<std::mutex> guard(reserve.mutex);
  return reserve.counts[cls];
}

std::size_t carved_blocks(std::size_t cls) noexcept {
  std::lock_guard<std::mutex> guard(reserve.mutex);
  return reserve.carved[cls];
}

}  // namespace detail
}  // namespace cilkpp::rt
