// What the owner's side of the deque's Dekker pair costs per pop, with each
// kind of barrier: the reason pop uses a compiler barrier when the process
// has membarrier(2) (docs/runtime.md).
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>

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

BENCHMARK(BM_SeqCstFence);
BENCHMARK(BM_CompilerBarrierOnly);

}  // namespace

BENCHMARK_MAIN();
