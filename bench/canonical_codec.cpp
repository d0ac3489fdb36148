// What translating a frame to the canonical format and back costs
// (canonical.h): a frame like fib's (an int and two longs) and one with a
// vector of 1000 doubles and a string of 100 characters. Encoding appends to
// a buffer that is reused, as a worker sending frames would; decoding
// constructs the frame and destroys what it made.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "cilkpp/rt/canonical.h"
#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/signature.h"

#pragma GCC diagnostic ignored "-Winvalid-offsetof"

namespace {

using namespace cilkpp::rt;
using K = CanonicalKind;

void resume(Worker *, Frame *) noexcept {}

struct SmallFrame : Frame {
  int n;
  long x;
  long y;
};
const FieldSignature kSmallFields[] = {
    {"n", {K::int32, sizeof(int)}, offsetof(SmallFrame, n), 1},
    {"x", {K::int64, sizeof(long)}, offsetof(SmallFrame, x), 1},
    {"y", {K::int64, sizeof(long)}, offsetof(SmallFrame, y), 1},
};
const RecordSignature kSmallState{"frame of fib", sizeof(SmallFrame), 3, kSmallFields, 1};
extern FrameSignature small_signature;
const FrameInfo small_info{"fib", &resume, sizeof(SmallFrame), nullptr, &small_signature};
FrameSignature small_signature{fnv1a64("_Z3fibi", 7), "_Z3fibi", &small_info, &kSmallState, 3};

struct LargeFrame : Frame {
  int i;
  union {
    std::vector<double> values;
  };
  union {
    std::string text;
  };
  bool values_alive;
  bool text_alive;
  LargeFrame() {}
  ~LargeFrame() {}
};
const ValueType kDouble{K::float64, sizeof(double)};
const FieldSignature kLargeFields[] = {
    {"i", {K::int32, sizeof(int)}, offsetof(LargeFrame, i), 1},
    {"values", {K::vector, sizeof(std::vector<double>), &kDouble, nullptr, &VectorOpsFor<double>::ops},
     offsetof(LargeFrame, values), 1, offsetof(LargeFrame, values_alive)},
    {"text", {K::string, sizeof(std::string)}, offsetof(LargeFrame, text), 1, offsetof(LargeFrame, text_alive)},
    {"values_alive", {K::boolean, sizeof(bool)}, offsetof(LargeFrame, values_alive), 1},
    {"text_alive", {K::boolean, sizeof(bool)}, offsetof(LargeFrame, text_alive), 1},
};
const RecordSignature kLargeState{"frame of large", sizeof(LargeFrame), 5, kLargeFields, 2};
extern FrameSignature large_signature;
const FrameInfo large_info{"large", &resume, sizeof(LargeFrame), nullptr, &large_signature};
FrameSignature large_signature{fnv1a64("_Z5largev", 9), "_Z5largev", &large_info, &kLargeState, 2};

[[maybe_unused]] const bool registered =
    (register_frame_signature(&small_signature), register_frame_signature(&large_signature), true);

struct Small {
  SmallFrame f;
  Small() {
    f.info = &small_info;
    f.entry = 2;
    f.n = 30;
    f.x = 832040;
    f.y = 514229;
  }
};

struct Large {
  LargeFrame f;
  Large() {
    f.info = &large_info;
    f.entry = 1;
    f.i = 7;
    ::new (&f.values) std::vector<double>(1000, 0.5);
    ::new (&f.text) std::string(100, 't');
    f.values_alive = f.text_alive = true;
  }
  ~Large() {
    f.values.~vector();
    f.text.~basic_string();
  }
};

void encode(benchmark::State &state, const Frame &frame) {
  std::vector<std::uint8_t> out;
  for (auto _ : state) {
    out.clear();
    if (!canonical::encode_frame(frame, out)) state.SkipWithError("encode_frame failed");
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
}

void decode(benchmark::State &state, const Frame &frame, const RecordSignature &table) {
  std::vector<std::uint8_t> blob;
  if (!canonical::encode_frame(frame, blob)) state.SkipWithError("encode_frame failed");
  alignas(std::max_align_t) unsigned char memory[sizeof(LargeFrame) + sizeof(SmallFrame)];
  for (auto _ : state) {
    Frame *decoded;
    if (!canonical::decode_frame(blob.data(), blob.size(), memory, &decoded)) {
      state.SkipWithError("decode_frame failed");
      break;
    }
    benchmark::DoNotOptimize(decoded);
    canonical::destroy_record(table, decoded);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * blob.size()));
}

void BM_EncodeSmallFrame(benchmark::State &state) { encode(state, Small().f); }
void BM_DecodeSmallFrame(benchmark::State &state) { decode(state, Small().f, kSmallState); }
void BM_EncodeLargeFrame(benchmark::State &state) { encode(state, Large().f); }
void BM_DecodeLargeFrame(benchmark::State &state) { decode(state, Large().f, kLargeState); }

}  // namespace

BENCHMARK(BM_EncodeSmallFrame);
BENCHMARK(BM_DecodeSmallFrame);
BENCHMARK(BM_EncodeLargeFrame);
BENCHMARK(BM_DecodeLargeFrame);
BENCHMARK_MAIN();
