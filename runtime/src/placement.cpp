// Moving a thief off a CPU another worker runs on; see placement.h.
#include "placement.h"

namespace cilkpp::rt {

CpuPlacement::CpuPlacement(unsigned nworkers)
    : noted_(std::make_unique<NotedCpu[]>(nworkers)), nworkers_(nworkers) {}

void CpuPlacement::note(unsigned w) noexcept { noted_[w].cpu.store(sched_getcpu(), std::memory_order_relaxed); }

bool CpuPlacement::separate(unsigned w) noexcept {
  const int mine = sched_getcpu();
  noted_[w].cpu.store(mine, std::memory_order_relaxed);
  if (mine < 0) return false;
  bool crowded = false;
  cpu_set_t taken;
  CPU_ZERO(&taken);
  for (unsigned i = 0; i < nworkers_; ++i) {
    const int cpu = noted_[i].cpu.load(std::memory_order_relaxed);
    if (i == w || cpu < 0 || cpu >= CPU_SETSIZE) continue;
    CPU_SET(cpu, &taken);
    crowded |= cpu == mine;
  }
  if (!crowded) return false;
  // Read the mask now rather than at start: the user (taskset -p) may have
  // changed it since.
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return false;
  CPU_SET(mine, &taken);
  const int target = free_cpu(allowed, taken);
  if (target < 0) return false;
  cpu_set_t only;
  CPU_ZERO(&only);
  CPU_SET(target, &only);
  // The kernel migrates the thread before the first call returns; widening
  // the mask again does not move it back.
  if (sched_setaffinity(0, sizeof only, &only) != 0) return false;
  sched_setaffinity(0, sizeof allowed, &allowed);
  noted_[w].cpu.store(target, std::memory_order_relaxed);
  return true;
}

int free_cpu(const cpu_set_t &allowed, const cpu_set_t &taken) noexcept {
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed) && !CPU_ISSET(cpu, &taken)) return cpu;
  return -1;
}

}  // namespace cilkpp::rt
