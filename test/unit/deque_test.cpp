// The THE deque: sequential order and, under concurrent thieves, that every
// pushed item is taken exactly once, with the array compacted and grown.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <ostream>
#include <random>
#include <thread>
#include <vector>

#include "cilkpp/rt/deque.h"

namespace {

using cilkpp::rt::TheDeque;

struct Item {
  int id;
};

TEST(DequeSequential, PopTakesNewestStealTakesOldest) {
  TheDeque<Item> d(4);
  Item a{1}, b{2}, c{3};
  d.push(&a);
  d.push(&b);
  d.push(&c);
  EXPECT_EQ(d.size(), 3);
  EXPECT_TRUE(d.pop());  // c
  EXPECT_EQ(d.steal(), &a);
  EXPECT_TRUE(d.pop());  // b
  EXPECT_EQ(d.size(), 0);
  EXPECT_EQ(d.steal(), nullptr);
}

TEST(DequeSequential, StealsComeInPushOrder) {
  TheDeque<Item> d(4);
  std::vector<Item> items(10);
  for (int i = 0; i < 10; ++i) {
    items[i].id = i;
    d.push(&items[i]);
  }
  for (int i = 0; i < 10; ++i) {
    Item *got = d.steal();
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->id, i);
  }
  EXPECT_EQ(d.steal(), nullptr);
}

TEST(DequeSequential, PopFailsOnceEverythingWasStolen) {
  TheDeque<Item> d(4);
  Item a{1}, b{2};
  d.push(&a);
  d.push(&b);
  int on_steal_calls = 0;
  EXPECT_EQ(d.steal([&](Item *) { ++on_steal_calls; }), &a);
  EXPECT_EQ(d.steal([&](Item *) { ++on_steal_calls; }), &b);
  EXPECT_EQ(on_steal_calls, 2);
  EXPECT_FALSE(d.pop());
  EXPECT_FALSE(d.pop());
  // The deque stays usable after failed pops.
  d.push(&a);
  EXPECT_TRUE(d.pop());
  EXPECT_EQ(d.size(), 0);
}

TEST(DequeSequential, CompactsWhenTheTailReachesTheEnd) {
  TheDeque<Item> d(2);  // 4 slots
  std::vector<Item> items(100);
  for (int i = 0; i < 100; ++i) {
    items[i].id = i;
    d.push(&items[i]);
    d.push(&items[i]);
    EXPECT_EQ(d.steal(), &items[i]);
    EXPECT_TRUE(d.pop());
  }
  EXPECT_EQ(d.capacity(), 4u) << "one live item never needs a larger array";
}

TEST(DequeSequential, GrowsWhenMoreThanHalfFull) {
  TheDeque<Item> d(2);  // 4 slots
  std::vector<Item> items(1000);
  for (int i = 0; i < 1000; ++i) {
    items[i].id = i;
    d.push(&items[i]);
  }
  EXPECT_EQ(d.size(), 1000);
  EXPECT_GE(d.capacity(), 1000u);
  EXPECT_EQ(d.steal(), &items[0]);
  for (int i = 999; i >= 1; --i) EXPECT_TRUE(d.pop());
  EXPECT_FALSE(d.pop());
  EXPECT_EQ(d.size(), 0);
}

// The owner runs a random push/pop sequence that keeps the deque short (so
// pops race with steals on the last item often) while thieves steal.
// Items record who took them; each must be taken exactly once.
struct StressParam {
  int thieves;
  // The owner keeps at most this many items; above the initial 4 slots the
  // array is compacted and grown while thieves steal.
  std::size_t max_depth;
};

void PrintTo(const StressParam &p, std::ostream *os) {
  *os << p.thieves << " thieves, depth " << p.max_depth;
}

class DequeStress : public ::testing::TestWithParam<StressParam> {};

TEST_P(DequeStress, EveryItemIsTakenExactlyOnce) {
  constexpr int kItems = 200000;
  std::vector<Item> items(kItems);
  std::unique_ptr<std::atomic<int>[]> taken(new std::atomic<int>[kItems]);
  std::unique_ptr<std::atomic<int>[]> marked_under_lock(new std::atomic<int>[kItems]);
  for (int i = 0; i < kItems; ++i) {
    items[i].id = i;
    taken[i] = 0;
    marked_under_lock[i] = 0;
  }
  TheDeque<Item> d(2);
  std::atomic<bool> done{false};
  std::atomic<long> stolen{0};

  std::vector<std::thread> thieves;
  for (int t = 0; t < GetParam().thieves; ++t)
    thieves.emplace_back([&] {
      long mine = 0;
      while (!done.load(std::memory_order_acquire)) {
        Item *it = d.steal([&](Item *x) { marked_under_lock[x->id].fetch_add(1, std::memory_order_relaxed); });
        if (it) {
          taken[it->id].fetch_add(1, std::memory_order_relaxed);
          ++mine;
        } else {
          std::this_thread::yield();
        }
      }
      stolen += mine;
    });

  std::mt19937 rng(12345);
  std::vector<int> mirror;  // what the owner believes is in its deque
  long popped = 0, failed_pops = 0;
  int next = 0;
  while (next < kItems || !mirror.empty()) {
    const bool do_push = next < kItems && (mirror.empty() || (mirror.size() < GetParam().max_depth && rng() % 2 == 0));
    if (do_push) {
      d.push(&items[next]);
      mirror.push_back(next++);
      continue;
    }
    if (d.pop()) {
      // Success means the newest item was still ours.
      taken[mirror.back()].fetch_add(1, std::memory_order_relaxed);
      mirror.pop_back();
      ++popped;
    } else {
      // Failure means thieves took everything that was in the deque.
      mirror.clear();
      ++failed_pops;
    }
  }
  done.store(true, std::memory_order_release);
  for (std::thread &t : thieves) t.join();

  EXPECT_EQ(d.size(), 0);
  EXPECT_EQ(d.steal(), nullptr);
  long wrong = 0;
  for (int i = 0; i < kItems; ++i) {
    if (taken[i].load() != 1 || marked_under_lock[i].load() > 1) ++wrong;
  }
  EXPECT_EQ(wrong, 0) << "items taken zero or several times";
  EXPECT_EQ(popped + stolen.load(), kItems);
  long marked = 0;
  for (int i = 0; i < kItems; ++i) marked += marked_under_lock[i].load();
  EXPECT_EQ(marked, stolen.load()) << "on_steal must run once per stolen item";
  RecordProperty("stolen", std::to_string(stolen.load()));
  RecordProperty("failed_pops", std::to_string(failed_pops));
}

INSTANTIATE_TEST_SUITE_P(Modes, DequeStress,
                         ::testing::Values(StressParam{1, 4}, StressParam{2, 4}, StressParam{3, 4}, StressParam{2, 64}),
                         [](const ::testing::TestParamInfo<StressParam> &info) {
                           return std::to_string(info.param.thieves) + "ThievesDepth" +
                                  std::to_string(info.param.max_depth);
                         });

}  // namespace
