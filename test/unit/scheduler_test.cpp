// End to end on the real scheduler, with fib translated by hand exactly as
// the compiler emits it.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "handwritten_fib.h"
#include "runtime.h"

namespace {

using namespace cilkpp::rt;

// The same translation with the leaves replaced by a call through a hook, so
// tests can run arbitrary code (nested root calls, exit) inside parallel
// code: cilk int hfib(int n) { if (n < 2) return leaf_hook(n); ... }
int (*leaf_hook)(int) = nullptr;
struct hfib_frame final : Frame {
  int n;
  int x;
  int y;
};
void hfib_resume(Worker *, Frame *) noexcept;
const FrameInfo hfib_info{"hfib", &hfib_resume, sizeof(hfib_frame), nullptr};

int hfib_fast(Worker *w, Frame *parent, void *slot, int n) noexcept {
  hfib_frame *frame = nullptr;
  if (n < 2) return leaf_hook(n);
  int x, y;
  {
    frame = new_frame<hfib_frame>(w, parent, slot, &hfib_info);
    frame->n = n;
    frame->entry = 1;
    w->push(frame);
    auto r = hfib_fast(w, frame, &frame->x, n - 1);
    if (__builtin_expect(!w->pop(), 0)) {
      parent_stolen(w, frame, &frame->x, r);
      return {};
    }
    x = r;
  }
  {
    frame->x = x;
    frame->entry = 2;
    w->push(frame);
    auto r = hfib_fast(w, frame, &frame->y, n - 2);
    if (__builtin_expect(!w->pop(), 0)) {
      parent_stolen(w, frame, &frame->y, r);
      return {};
    }
    y = r;
  }
  free_frame(w, frame);
  return x + y;
}

void hfib_resume(Worker *w, Frame *base) noexcept {
  auto *const frame = static_cast<hfib_frame *>(base);
  switch (frame->entry) {
    case 1: goto resume_1;
    case 2: goto resume_2;
    case 3: goto resume_3;
    default: __builtin_unreachable();
  }
resume_1:;
  {
    frame->entry = 2;
    w->push(frame);
    auto r = hfib_fast(w, frame, &frame->y, frame->n - 2);
    if (__builtin_expect(!w->pop(), 0)) {
      parent_stolen(w, frame, &frame->y, r);
      return;
    }
    frame->y = r;
  }
resume_2:;
  frame->entry = 3;
  if (!sync(w, frame)) return;
resume_3:;
  complete_frame<int>(w, frame, frame->x + frame->y);
}

int hfib(int n) {
  return run_root<int>([&](Worker *w, Frame *parent, void *slot) noexcept { return hfib_fast(w, parent, slot, n); });
}

int serial_fib(int n) {
  int a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    const int t = a + b;
    a = b;
    b = t;
  }
  return a;
}

WorkerStats total_of(const std::vector<WorkerStats> &v) {
  WorkerStats t;
  for (const WorkerStats &s : v) {
    t.steals += s.steals;
    t.failed_steals += s.failed_steals;
    t.ns_working += s.ns_working;
  }
  return t;
}

class Scheduler : public ::testing::TestWithParam<unsigned> {
 protected:
  void SetUp() override { Runtime::instance().restart_for_testing(GetParam()); }
};

TEST_P(Scheduler, FibOfSmallArguments) {
  ASSERT_EQ(Runtime::instance().num_workers(), GetParam());
  for (int n = 0; n <= 25; ++n) EXPECT_EQ(fib(n), serial_fib(n)) << "fib(" << n << ")";
}

TEST_P(Scheduler, FibOf27) { EXPECT_EQ(fib(27), 196418); }

TEST_P(Scheduler, WorkingTimeIsAccounted) {
  const WorkerStats before = total_of(Runtime::instance().stats_snapshot());
  EXPECT_EQ(fib(24), serial_fib(24));
  const WorkerStats after = total_of(Runtime::instance().stats_snapshot());
  EXPECT_GT(after.ns_working, before.ns_working);
}

TEST_P(Scheduler, ThievesStealFromALargeComputation) {
  const WorkerStats before = total_of(Runtime::instance().stats_snapshot());
  std::uint64_t steals = 0;
  // Retried a few times: on a loaded machine the thieves may not get a core
  // during one run, but stealing must happen eventually.
  for (int attempt = 0; attempt < 50 && steals == 0; ++attempt) {
    ASSERT_EQ(fib(27), 196418);
    steals = total_of(Runtime::instance().stats_snapshot()).steals - before.steals;
    if (GetParam() == 1) break;
  }
  if (GetParam() == 1)
    EXPECT_EQ(steals, 0u) << "a single worker has nobody to steal from";
  else
    EXPECT_GT(steals, 0u);
}

TEST_P(Scheduler, ManyRootCallsInARow) {
  int wrong = 0;
  for (int i = 0; i < 10000; ++i)
    if (fib(10) != 55) ++wrong;
  EXPECT_EQ(wrong, 0);
}

TEST_P(Scheduler, RootCallsFromTwoThreadsAtOnce) {
  std::atomic<int> wrong{0};
  auto caller = [&](int n, int times) {
    for (int i = 0; i < times; ++i)
      if (fib(n) != serial_fib(n)) ++wrong;
  };
  std::thread a(caller, 22, 30), b(caller, 18, 200);
  a.join();
  b.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(Worker::current(), nullptr);
}

TEST_P(Scheduler, RootCallsNestInsideParallelCode) {
  // Every leaf makes a root call of its own, on whichever worker runs it.
  leaf_hook = [](int n) { return fib(12) == 144 && Worker::current() != nullptr ? n : -1000000; };
  EXPECT_EQ(hfib(20), serial_fib(20));
  EXPECT_EQ(hfib(22), serial_fib(22));
  leaf_hook = nullptr;
  EXPECT_EQ(Worker::current(), nullptr);
}

TEST_P(Scheduler, RootCallFromAThreadThatParallelCodeJoinsCompletes) {
  // The thread cannot have worker 0 while this root call holds it; waiting
  // for it would wait for this call, which waits for the thread.
  static std::atomic<int> leaves, wrong;
  leaves = 0;
  wrong = 0;
  leaf_hook = [](int n) {
    if (leaves.fetch_add(1) % 64 != 0) return n;
    int inner = -1;
    std::thread t([&inner] { inner = fib(15); });
    t.join();
    if (inner != 610) ++wrong;
    return n;
  };
  EXPECT_EQ(hfib(18), serial_fib(18));
  leaf_hook = nullptr;
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(Worker::current(), nullptr);
  // The workers are free again: the next root call gets them.
  EXPECT_EQ(fib(20), serial_fib(20));
}

TEST_P(Scheduler, WorkerThreadsAreBoundToTheirWorkers) {
  static std::atomic<int> misbound;
  misbound = 0;
  leaf_hook = [](int n) {
    Worker *w = Worker::current();
    if (!w || &Runtime::instance().worker(w->index()) != w) ++misbound;
    return n;
  };
  EXPECT_EQ(hfib(22), serial_fib(22));
  leaf_hook = nullptr;
  EXPECT_EQ(misbound.load(), 0);
}

TEST_P(Scheduler, RootCallWhileEscapingLeavesTheUnwindIntact) {
  // Destructors of a fast clone's locals run while its worker unwinds a
  // stolen continuation (escaping set); they may make root calls.
  static std::atomic<int> wrong;
  wrong = 0;
  leaf_hook = [](int n) {
    Worker *w = Worker::current();
    const bool saved = w->escaping;
    w->escaping = true;  // as during an unwind
    if (fib(15) != 610) ++wrong;
    if (!w->escaping) ++wrong;  // the unwind must go on afterwards
    w->escaping = saved;
    return n;
  };
  EXPECT_EQ(hfib(18), serial_fib(18));
  leaf_hook = nullptr;
  EXPECT_EQ(wrong.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(Workers, Scheduler, ::testing::Values(1u, 2u, 4u),
                         [](const ::testing::TestParamInfo<unsigned> &info) {
                           return std::to_string(info.param) + "Workers";
                         });

TEST(SchedulerDeathTest, ExitInsideParallelCodeDoesNotHang) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Runtime::instance().restart_for_testing(4);
        static std::atomic<int> leaves{0};
        leaf_hook = [](int n) {
          if (leaves.fetch_add(1) == 5000) std::exit(3);
          return n;
        };
        hfib(25);
      },
      ::testing::ExitedWithCode(3), "");
}

TEST(SchedulerDeathTest, StatisticsArePrintedAtExitWhenEnabled) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        // First use of the runtime in the child: the variables apply.
        setenv("CILKPP_STATS", "1", 1);
        setenv("CILKPP_NWORKERS", "3", 1);
        if (fib(20) != 6765) std::exit(1);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "cilkpp stats: 3 workers on [0-9]+ CPUs?[^\n]*\n\\(spawns are counted in code built with "
                  "[^\n]*\nworker .*\n     0 .*\n     1 .*\n     2 .*\n total ");
}

}  // namespace
