// cilk_for's runtime half: every iteration the serial loop would run runs
// exactly once, for every comparison, step and index type, on 1 to 4
// workers, and thieves take part.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "cilkpp/runtime.h"
#include "runtime.h"

namespace {

using namespace cilkpp::rt;

// Counts how often each value in [lo, hi] was visited.
class Visits {
 public:
  Visits(long lo, long hi) : lo_(lo), n_(static_cast<std::size_t>(hi - lo + 1)), count_(new std::atomic<int>[n_]) {
    for (std::size_t i = 0; i < n_; ++i) count_[i] = 0;
  }
  void visit(long v) { count_[static_cast<std::size_t>(v - lo_)].fetch_add(1, std::memory_order_relaxed); }
  // The values visited once each, in increasing order; -1000000 marks a value visited more than once.
  std::vector<long> visited() const {
    std::vector<long> out;
    for (std::size_t i = 0; i < n_; ++i) {
      if (count_[i] == 1) out.push_back(lo_ + static_cast<long>(i));
      if (count_[i] > 1) out.push_back(-1000000);
    }
    return out;
  }

 private:
  long lo_;
  std::size_t n_;
  std::unique_ptr<std::atomic<int>[]> count_;
};

std::vector<long> serial_values(long first, long last, long step, LoopTest test) {
  std::vector<long> out;
  auto holds = [&](long i) {
    switch (test) {
      case LoopTest::less: return i < last;
      case LoopTest::less_equal: return i <= last;
      case LoopTest::greater: return i > last;
      case LoopTest::greater_equal: return i >= last;
      case LoopTest::not_equal: return i != last;
    }
    return false;
  };
  for (long i = first; holds(i); i += step) out.push_back(i);
  std::sort(out.begin(), out.end());
  return out;
}

class ParallelFor : public ::testing::TestWithParam<unsigned> {
 protected:
  void SetUp() override { Runtime::instance().restart_for_testing(GetParam()); }
};

TEST_P(ParallelFor, VisitsWhatTheSerialLoopVisits) {
  struct Case {
    long first, last, step;
    LoopTest test;
  };
  const Case cases[] = {
      {0, 10000, 1, LoopTest::less},          {0, 10000, 3, LoopTest::less},
      {-50, 50, 7, LoopTest::less_equal},     {5, 5, 1, LoopTest::less},
      {5, 5, 1, LoopTest::less_equal},        {10000, 0, -1, LoopTest::greater},
      {10000, -3, -4, LoopTest::greater_equal}, {0, 9999, 3, LoopTest::not_equal},
      {9, 0, -3, LoopTest::not_equal},        {7, 3, 1, LoopTest::less},
  };
  for (const Case &c : cases) {
    for (std::uint64_t grain : {0ull, 1ull, 100ull}) {
      Visits visits(-20000, 20000);
      parallel_for(c.first, c.last, c.step, c.test, grain, "test", [&](long i) { visits.visit(i); });
      EXPECT_EQ(visits.visited(), serial_values(c.first, c.last, c.step, c.test))
          << c.first << " .. " << c.last << " step " << c.step << " grain " << grain;
    }
  }
}

TEST_P(ParallelFor, UnsignedIndexCountingDown) {
  std::atomic<unsigned long> sum{0};
  std::atomic<int> count{0};
  parallel_for(100u, 0u, -1, LoopTest::greater, 0, "test", [&](unsigned i) {
    sum += i;
    ++count;
  });
  EXPECT_EQ(count.load(), 100);
  EXPECT_EQ(sum.load(), 5050u);
}

TEST_P(ParallelFor, MixedSignednessFollowsTheSerialComparison) {
  // `int i = 0; i < v.size()` compares as unsigned, like the serial loop.
  std::vector<int> v(1000, 1);
  std::atomic<int> sum{0};
  parallel_for(0, v.size(), 1, LoopTest::less, 0, "test", [&](int i) { sum += v[static_cast<std::size_t>(i)]; });
  EXPECT_EQ(sum.load(), 1000);
}

TEST_P(ParallelFor, RandomAccessIterators) {
  std::vector<int> v(5000);
  parallel_for(v.begin(), v.end(), 1, LoopTest::not_equal, 0, "test", [&](std::vector<int>::iterator it) {
    *it = static_cast<int>(it - v.begin());
  });
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)], i);
  std::atomic<int> every_other{0};
  parallel_for(v.cbegin(), v.cend(), 2, LoopTest::less, 0, "test", [&](std::vector<int>::const_iterator) { ++every_other; });
  EXPECT_EQ(every_other.load(), 2500);
}

TEST_P(ParallelFor, NestedLoopsRunEveryPair) {
  std::vector<std::atomic<int>> cells(300 * 200);
  parallel_for(0, 300, 1, LoopTest::less, 0, "test", [&](int i) {
    parallel_for(0, 200, 1, LoopTest::less, 0, "test", [&](int j) { ++cells[static_cast<std::size_t>(i * 200 + j)]; });
  });
  for (auto &c : cells) ASSERT_EQ(c.load(), 1);
}

TEST_P(ParallelFor, ThievesTakePartWhenThereAreSeveralWorkers) {
  if (GetParam() == 1) GTEST_SKIP() << "one worker";
  const std::uint64_t before = [] {
    std::uint64_t s = 0;
    for (const WorkerStats &w : Runtime::instance().stats_snapshot()) s += w.steals;
    return s;
  }();
  std::uint64_t steals = 0;
  for (int attempt = 0; attempt < 50 && steals == 0; ++attempt) {
    std::atomic<long> sum{0};
    parallel_for(0, 200000, 1, LoopTest::less, 1, "test", [&](int i) {
      volatile long x = i;
      for (int k = 0; k < 20; ++k) x = x + k;
      sum += i;
    });
    ASSERT_EQ(sum.load(), 200000L * 199999 / 2);
    for (const WorkerStats &w : Runtime::instance().stats_snapshot()) steals += w.steals;
    steals -= before;
  }
  EXPECT_GT(steals, 0u);
}

using ParallelForDeathTest = ParallelFor;

TEST_P(ParallelForDeathTest, StepAwayFromTheBoundIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(parallel_for(0, 10, -1, LoopTest::less, 0, "f.cilkpp:3", [](int) {}),
               "f.cilkpp:3: cilkpp: fatal: cilk_for loop: its increment does not move the loop variable toward the bound");
  EXPECT_DEATH(parallel_for(0, 10, 3, LoopTest::not_equal, 0, "f.cilkpp:4", [](int) {}),
               "f.cilkpp:4: cilkpp: fatal: cilk_for loop: the bound is not a whole number of increments away");
}

INSTANTIATE_TEST_SUITE_P(Workers, ParallelFor, ::testing::Values(1u, 2u, 4u),
                         [](const ::testing::TestParamInfo<unsigned> &info) { return std::to_string(info.param) + "Workers"; });
INSTANTIATE_TEST_SUITE_P(Workers, ParallelForDeathTest, ::testing::Values(1u),
                         [](const ::testing::TestParamInfo<unsigned> &info) { return std::to_string(info.param) + "Worker"; });

}  // namespace
