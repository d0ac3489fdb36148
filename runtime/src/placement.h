// Keeping workers on CPUs of their own.
//
// With no more workers than usable CPUs each worker should have a CPU to
// itself, but Linux may start or wake a worker thread on the CPU of the
// thread that created or woke it, and on our VMs the load balancer then took
// up to 25 ms to move one of the two away. A thief spinning beside a working
// victim takes half of the victim's CPU and cannot steal (the victim is not
// running to expose work): nqueens(11) on 2 workers took 30-35 ms instead of
// 14 in two runs of eight, slower than on one worker. So every worker notes
// the CPU it last saw itself on, and a thief that finds another worker noted
// on its own CPU moves itself to an allowed CPU where no worker is noted,
// then lets the kernel place it freely again.
#pragma once

#include <sched.h>

#include <atomic>
#include <memory>

namespace cilkpp::rt {

class CpuPlacement {
 public:
  explicit CpuPlacement(unsigned nworkers);

  // Notes the CPU the calling thread, worker w, runs on.
  void note(unsigned w) noexcept;

  // For the calling thief w: notes its CPU; if another worker is noted
  // there, moves to a free CPU. True if it moved.
  bool separate(unsigned w) noexcept;

 private:
  struct alignas(64) NotedCpu {
    std::atomic<int> cpu{-1};
  };
  std::unique_ptr<NotedCpu[]> noted_;
  const unsigned nworkers_;
};

// The lowest CPU in `allowed` that is not in `taken`, or -1.
int free_cpu(const cpu_set_t &allowed, const cpu_set_t &taken) noexcept;

}  // namespace cilkpp::rt
