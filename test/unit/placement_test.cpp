// CpuPlacement: a thief noted on the CPU of another worker moves to a CPU no
// worker is noted on, and keeps the affinity mask it had.
#include "placement.h"

#include <gtest/gtest.h>

#include <thread>

using cilkpp::rt::CpuPlacement;
using cilkpp::rt::free_cpu;

namespace {

cpu_set_t cpus(std::initializer_list<int> list) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : list) CPU_SET(c, &set);
  return set;
}

// Runs body on a new thread pinned to `start`, with `mask` restored once it
// runs there; the thread starts where the test wants it.
template <class Body>
void on_thread_started_at(int start, const cpu_set_t &mask, Body body) {
  std::thread t([&] {
    cpu_set_t only = cpus({start});
    ASSERT_EQ(sched_setaffinity(0, sizeof only, &only), 0);
    ASSERT_EQ(sched_getcpu(), start);
    ASSERT_EQ(sched_setaffinity(0, sizeof mask, &mask), 0);
    body();
  });
  t.join();
}

// Two CPUs this process may use, or a skip.
bool two_cpus(int &a, int &b, cpu_set_t &allowed) {
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return false;
  a = b = -1;
  for (int c = 0; c < CPU_SETSIZE && b < 0; ++c)
    if (CPU_ISSET(c, &allowed)) (a < 0 ? a : b) = c;
  return b >= 0;
}

}  // namespace

TEST(FreeCpu, PicksTheLowestAllowedCpuNotTaken) {
  EXPECT_EQ(free_cpu(cpus({0, 1, 2, 3}), cpus({0, 1})), 2);
  EXPECT_EQ(free_cpu(cpus({1, 3}), cpus({1})), 3);
  EXPECT_EQ(free_cpu(cpus({2}), cpus({})), 2);
}

TEST(FreeCpu, NoneWhenEveryAllowedCpuIsTaken) {
  EXPECT_EQ(free_cpu(cpus({0, 1}), cpus({0, 1, 2})), -1);
  EXPECT_EQ(free_cpu(cpus({}), cpus({})), -1);
}

TEST(CpuPlacement, ThiefOnAnotherWorkersCpuMovesToAFreeOneAndKeepsItsMask) {
  int a, b;
  cpu_set_t allowed;
  if (!two_cpus(a, b, allowed)) GTEST_SKIP() << "needs two usable CPUs";
  CpuPlacement placement(2);
  on_thread_started_at(a, allowed, [&] { placement.note(0); });  // worker 0 on a
  on_thread_started_at(a, allowed, [&] {
    EXPECT_TRUE(placement.separate(1));
    EXPECT_EQ(sched_getcpu(), b);
    cpu_set_t now;
    ASSERT_EQ(sched_getaffinity(0, sizeof now, &now), 0);
    EXPECT_TRUE(CPU_EQUAL(&now, &allowed));
  });
}

TEST(CpuPlacement, ThiefAloneOnItsCpuStays) {
  int a, b;
  cpu_set_t allowed;
  if (!two_cpus(a, b, allowed)) GTEST_SKIP() << "needs two usable CPUs";
  CpuPlacement placement(2);
  on_thread_started_at(a, allowed, [&] { placement.note(0); });
  on_thread_started_at(b, allowed, [&] { EXPECT_FALSE(placement.separate(1)); });
}

TEST(CpuPlacement, ThiefStaysWhenNoCpuIsFree) {
  int a, b;
  cpu_set_t allowed;
  if (!two_cpus(a, b, allowed)) GTEST_SKIP() << "needs two usable CPUs";
  // Only a and b allowed, worker 0 noted on a, worker 2 on b.
  const cpu_set_t two = cpus({a, b});
  CpuPlacement placement(3);
  on_thread_started_at(a, two, [&] { placement.note(0); });
  on_thread_started_at(b, two, [&] { placement.note(2); });
  on_thread_started_at(a, two, [&] {
    EXPECT_FALSE(placement.separate(1));
    EXPECT_EQ(sched_getcpu(), a);
  });
}
