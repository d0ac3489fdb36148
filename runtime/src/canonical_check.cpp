#include "canonical_check.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cilkpp/rt/canonical.h"
#include "cilkpp/rt/frame.h"

namespace cilkpp::rt::canonical_check {
namespace {

bool is_enabled = false;
std::atomic<std::uint64_t> frames_moved{0};

[[noreturn]] void fail(const Frame &frame, const std::string &what) noexcept {
  std::fprintf(stderr, "cilkpp: canonical check failed for a frame of %s: %s\n", frame.info->name, what.c_str());
  std::abort();
}

}  // namespace

void enable() noexcept { is_enabled = true; }
bool enabled() noexcept { return is_enabled; }
std::uint64_t moved() noexcept { return frames_moved.load(std::memory_order_relaxed); }

bool move(const Frame &from, void *memory) noexcept {
  const FrameSignature *signature = from.info->signature;
  if (!signature || !canonical::why_not_portable(*signature).empty()) return false;
  try {
    std::vector<std::uint8_t> blob, again;
    if (canonical::Status s = canonical::encode_frame(from, blob); !s) fail(from, "encode: " + s.error);
    canonical::Header header;
    const FrameSignature *found = nullptr;
    if (canonical::Status s = canonical::read_header(blob.data(), blob.size(), &header, &found); !s)
      fail(from, "header: " + s.error);
    // Several translation units may register one procedure; any of their
    // identical tables may be the one found.
    if (found->index != signature->index || found->state->canonical_hash != signature->state->canonical_hash)
      fail(from, "the function index resolves to another procedure");
    Frame *copy = nullptr;
    if (canonical::Status s = canonical::decode_frame(blob.data(), blob.size(), memory, &copy); !s)
      fail(from, "decode: " + s.error);
    if (canonical::Status s = canonical::encode_frame(*copy, again); !s) fail(from, "encode of the copy: " + s.error);
    if (again != blob) fail(from, "the decoded copy encodes differently");
  } catch (const std::bad_alloc &) {
    fail(from, "out of memory");
  }
  frames_moved.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace cilkpp::rt::canonical_check
