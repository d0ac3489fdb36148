// Per-worker frame pools and the process-wide reserve behind them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "cilkpp/rt/frame_pool.h"
#include "frame_pool.h"

namespace {

using namespace cilkpp::rt;

bool aligned(void *p) { return reinterpret_cast<std::uintptr_t>(p) % kFrameAlign == 0; }

TEST(FramePool, SizeClassesCoverTheirSizes) {
  EXPECT_EQ(size_class_of(1), 0u);
  EXPECT_EQ(size_class_of(64), 0u);
  EXPECT_EQ(size_class_of(65), 1u);
  for (std::size_t bytes = 1; bytes <= 2048; ++bytes) {
    EXPECT_GE(class_block_size(size_class_of(bytes)), bytes);
    EXPECT_LT(class_block_size(size_class_of(bytes)), bytes + kFrameAlign);
  }
  // Above 2 KiB, powers of two.
  EXPECT_EQ(class_block_size(size_class_of(2049)), 4096u);
  for (std::size_t bytes = 2049; bytes <= 200000; bytes += 7) {
    EXPECT_GE(class_block_size(size_class_of(bytes)), bytes);
    EXPECT_LT(class_block_size(size_class_of(bytes)), 2 * bytes);
  }
  EXPECT_EQ(size_class_of(65536), kSizeClasses - 1);
  EXPECT_EQ(size_class_of(65537), kSizeClasses);
}

TEST(FramePool, FramesUpTo64KiBComeFromThePoolAndAreReused) {
  FramePool pool;
  for (std::size_t bytes : {2049u, 5000u, 65536u}) {
    const std::size_t cls = size_class_of(bytes);
    ASSERT_LT(cls, kSizeClasses);
    void *p = pool.allocate(cls);
    ASSERT_TRUE(aligned(p));
    std::memset(p, 0x5a, bytes);
    pool.release(p, cls);
    EXPECT_EQ(pool.allocate(cls), p);
    pool.release(p, cls);
  }
}

TEST(FramePool, ReleasedBlockIsReusedFirst) {
  FramePool pool;
  void *a = pool.allocate(0);
  void *b = pool.allocate(0);
  EXPECT_NE(a, b);
  pool.release(a, 0);
  EXPECT_EQ(pool.allocate(0), a);
  pool.release(b, 0);
  pool.release(a, 0);
  EXPECT_EQ(pool.allocate(0), a);
  EXPECT_EQ(pool.allocate(0), b);
  pool.release(a, 0);
  pool.release(b, 0);
}

TEST(FramePool, BlocksAreAlignedAndUsableToTheirFullSize) {
  FramePool pool;
  for (std::size_t cls = 0; cls < kSizeClasses; ++cls) {
    std::vector<void *> blocks;
    for (int i = 0; i < 40; ++i) {  // more than one batch
      void *p = pool.allocate(cls);
      ASSERT_TRUE(aligned(p)) << "class " << cls;
      std::memset(p, 0xab, class_block_size(cls));
      blocks.push_back(p);
    }
    std::set<void *> distinct(blocks.begin(), blocks.end());
    EXPECT_EQ(distinct.size(), blocks.size());
    for (void *p : blocks) pool.release(p, cls);
  }
}

TEST(FramePool, BlockReleasedOnAnotherPoolIsReusedThere) {
  FramePool a, b;
  void *p = a.allocate(2);
  std::thread([&] { b.release(p, 2); }).join();
  EXPECT_EQ(b.cached(2), 1u);
  EXPECT_EQ(b.allocate(2), p);
  a.release(p, 2);
}

TEST(FramePool, SpillAndRefillKeepEveryBlockAccounted) {
  // A class no other test here uses, so the reserve's counts are ours.
  constexpr std::size_t cls = 7;
  constexpr int kBlocks = 10000;
  const std::size_t carved_before = detail::carved_blocks(cls);
  const std::size_t reserve_before = detail::reserve_blocks(cls);
  ASSERT_EQ(carved_before, reserve_before) << "class " << cls << " used elsewhere";

  FramePool a, b, c;
  std::vector<void *> blocks;
  for (int i = 0; i < kBlocks; ++i) blocks.push_back(a.allocate(cls));
  EXPECT_EQ(std::set<void *>(blocks.begin(), blocks.end()).size(), std::size_t{kBlocks});
  auto accounted = [&](std::size_t in_use) {
    return detail::reserve_blocks(cls) + a.cached(cls) + b.cached(cls) + c.cached(cls) + in_use;
  };
  EXPECT_EQ(detail::carved_blocks(cls), accounted(kBlocks));

  // Released on another worker's pool: it keeps a bounded cache and spills
  // the rest to the reserve.
  std::thread([&] {
    for (void *p : blocks) b.release(p, cls);
  }).join();
  EXPECT_LE(b.cached(cls), kMaxCachedPerClass);
  EXPECT_EQ(detail::carved_blocks(cls), accounted(0));

  // A third pool gets them back from the reserve before carving new chunks.
  const std::size_t carved_mid = detail::carved_blocks(cls);
  std::vector<void *> again;
  for (int i = 0; i < kBlocks; ++i) again.push_back(c.allocate(cls));
  EXPECT_EQ(std::set<void *>(again.begin(), again.end()).size(), std::size_t{kBlocks});
  EXPECT_EQ(detail::carved_blocks(cls), accounted(kBlocks));
  EXPECT_LE(detail::carved_blocks(cls) - carved_mid, kMaxCachedPerClass + 1024u);
  for (void *p : again) c.release(p, cls);
  EXPECT_EQ(detail::carved_blocks(cls), accounted(0));
}

TEST(FramePool, NewChunkIsCarvedOnlyAsItsBlocksAreTaken) {
  // Carving a whole 64 KiB chunk at once would touch all its pages (1023
  // blocks of class 0); a batch at a time touches only what is used.
  constexpr std::size_t cls = 0;
  constexpr int kBlocks = 40;
  // Empty the reserve first, so that the pool below must carve.
  FramePool drain;
  std::vector<void *> drained;
  while (detail::reserve_blocks(cls) > 0) drained.push_back(drain.allocate(cls));
  const std::size_t carved_before = detail::carved_blocks(cls);
  FramePool pool;
  std::vector<void *> blocks;
  for (int i = 0; i < kBlocks; ++i) blocks.push_back(pool.allocate(cls));
  EXPECT_GT(detail::carved_blocks(cls), carved_before);
  EXPECT_LE(detail::carved_blocks(cls) - carved_before, std::size_t{kBlocks} + 32);
  for (void *p : blocks) pool.release(p, cls);
  for (void *p : drained) drain.release(p, cls);
}

TEST(FramePool, DestroyedPoolReturnsItsBlocksToTheReserve) {
  constexpr std::size_t cls = 9;
  std::size_t cached = 0;
  const std::size_t before = detail::reserve_blocks(cls);
  const std::size_t carved_before = detail::carved_blocks(cls);
  {
    FramePool pool;
    std::vector<void *> blocks;
    for (int i = 0; i < 100; ++i) blocks.push_back(pool.allocate(cls));
    for (void *p : blocks) pool.release(p, cls);
    cached = pool.cached(cls);
    EXPECT_GE(cached, 100u);
  }
  // Every block the pool took (from the reserve or new chunks) is back.
  EXPECT_EQ(detail::reserve_blocks(cls), before + (detail::carved_blocks(cls) - carved_before));
}

TEST(FramePool, LargeFramesComeFromTheSystemAllocator) {
  FramePool pool;
  for (std::size_t bytes : {65537u, 100000u, 300000u}) {
    const std::size_t cls = size_class_of(bytes);
    ASSERT_GE(cls, kSizeClasses);
    void *p = pool.allocate(cls);
    ASSERT_TRUE(aligned(p));
    std::memset(p, 0x5a, bytes);
    pool.release(p, cls);
  }
}

TEST(FramePool, LargeBlockReleasedIsReusedForItsClassOnly) {
  FramePool pool;
  const std::size_t cls = size_class_of(100000);
  void *p = pool.allocate(cls);
  pool.release(p, cls);
  EXPECT_EQ(pool.large_kept(), 1u);
  void *other = pool.allocate(size_class_of(300000));
  EXPECT_NE(other, p);
  EXPECT_EQ(pool.allocate(cls), p);
  EXPECT_EQ(pool.large_kept(), 0u);
  pool.release(p, cls);
  pool.release(other, size_class_of(300000));
  EXPECT_EQ(pool.large_kept(), 2u);
}

TEST(FramePool, KeepsAFewLargeBlocksAndNoneAboveTheLargestKeptClass) {
  FramePool pool;
  const std::size_t cls = size_class_of(100000);
  std::vector<void *> blocks;
  ASSERT_LE(FramePool::kLargeKept * class_block_size(cls), FramePool::kLargeKeptBytes);
  for (std::uint32_t i = 0; i < FramePool::kLargeKept + 3; ++i) blocks.push_back(pool.allocate(cls));
  for (void *p : blocks) pool.release(p, cls);
  EXPECT_EQ(pool.large_kept(), FramePool::kLargeKept);
  // The newest are kept: they come back last released first.
  for (std::uint32_t i = 0; i < FramePool::kLargeKept; ++i) EXPECT_EQ(pool.allocate(cls), blocks[blocks.size() - 1 - i]);
  for (std::uint32_t i = 0; i < FramePool::kLargeKept; ++i) pool.release(blocks[blocks.size() - 1 - i], cls);

  const std::size_t huge = size_class_of(FramePool::kLargeKeptBytes + 1);
  void *h = pool.allocate(huge);
  ASSERT_TRUE(aligned(h));
  pool.release(h, huge);
  EXPECT_EQ(pool.large_kept(), FramePool::kLargeKept);
}

TEST(FramePool, LargeBlocksKeptTogetherStayWithinTheirBytes) {
  FramePool pool;
  const std::size_t cls = size_class_of(FramePool::kLargeKeptBytes / 3);
  ASSERT_GE(cls, kSizeClasses);
  void *blocks[3] = {pool.allocate(cls), pool.allocate(cls), pool.allocate(cls)};
  for (void *p : blocks) pool.release(p, cls);
  // Each is half the budget (its class rounds up): the newest two stay.
  EXPECT_EQ(pool.large_kept(), 2u);
  EXPECT_EQ(pool.allocate(cls), blocks[2]);
  EXPECT_EQ(pool.allocate(cls), blocks[1]);
  EXPECT_EQ(pool.large_kept(), 0u);
  pool.release(blocks[1], cls);
  pool.release(blocks[2], cls);
}

}  // namespace
