// What each side of the deque's Dekker pair would cost with each kind of
// barrier: a full fence or a compiler barrier per pop, and membarrier(2)
// per steal while another thread of the process runs (the victim it
// interrupts). The numbers behind the runtime's choice of plain fences on
// both sides (docs/runtime.md, "The deque"; docs/performance.md, "Fences").
#include <benchmark/benchmark.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <thread>

namespace {

std::atomic<std::int64_t> tail{0}, head{0};

template <class Barrier>
void store_then_load(benchmark::State &state, Barrier barrier) {
  std::int64_t t = 0, sum = 0;
  for (auto _ : state) {
    tail.store(++t, std::memory_order_relaxed);
    barrier();
    sum += head.load(std::memory_order_relaxed);
  }
  benchmark::DoNotOptimize(sum);
}

void BM_SeqCstFence(benchmark::State &state) {
  store_then_load(state, [] { std::atomic_thread_fence(std::memory_order_seq_cst); });
}
void BM_CompilerBarrierOnly(benchmark::State &state) {
  store_then_load(state, [] { std::atomic_signal_fence(std::memory_order_seq_cst); });
}

void BM_MembarrierWithARunningPeer(benchmark::State &state) {
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) {
    state.SkipWithError("membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) failed");
    return;
  }
  std::atomic<bool> stop{false};
  std::thread peer([&] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  for (auto _ : state) syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
  stop.store(true, std::memory_order_relaxed);
  peer.join();
}

BENCHMARK(BM_SeqCstFence);
BENCHMARK(BM_CompilerBarrierOnly);
BENCHMARK(BM_MembarrierWithARunningPeer)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
