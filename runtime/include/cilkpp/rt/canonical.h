// The canonical closure format (Lu 1995, §3, Mechanism 2): a frame is
// translated to one fixed representation when it is sent and translated to
// the native one when it is received, guided only by the signature tables
// (signature.h). docs/signatures.md gives the format byte by byte.
//
// Every entry point reports bad input (truncated, oversized, corrupted or
// hostile blobs, tables of another program) as an error message; none
// crashes, reads out of bounds or allocates without bound.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cilkpp/rt/signature.h"

namespace cilkpp::rt {

struct Frame;

namespace canonical {

inline constexpr std::uint8_t kMagic[4] = {'C', 'P', 'K', 'F'};
inline constexpr std::uint16_t kFormatVersion = 1;
inline constexpr std::size_t kHeaderSize = 32;
// A blob larger than this is refused before anything is decoded.
inline constexpr std::size_t kMaxBlobSize = std::size_t(1) << 30;

// The byte order of native values: the host's, or another one, for tests that
// play the part of a machine of the other order.
enum class ByteOrder { little, big };
ByteOrder host_byte_order() noexcept;

struct Header {
  std::uint16_t version;
  std::uint16_t flags;
  std::uint64_t tables_hash;
  std::uint64_t function_index;
  std::int32_t entry;
  std::uint32_t payload_size;
};

// Outcome of an encode or decode: empty `error` on success.
struct Status {
  std::string error;
  explicit operator bool() const noexcept { return error.empty(); }
};

// Appends the canonical form of the native record at `native`, of `table`'s
// type, to `out`; fails on a field that is not portable.
Status encode_record(const RecordSignature &table, const void *native, ByteOrder order, std::vector<std::uint8_t> &out);

// Reads one record from `bytes` at `*pos` into raw memory at `native`
// (table.size bytes, suitably aligned), constructing what needs constructing,
// and advances `*pos`. On failure nothing is left constructed.
Status decode_record(const RecordSignature &table, const std::uint8_t *bytes, std::size_t size, std::size_t *pos,
                     void *native, ByteOrder order);

// Destroys what decode_record constructed (strings, vectors, records with a
// destroy function), for a decoded record that is not handed to the program.
void destroy_record(const RecordSignature &table, void *native) noexcept;

// Why a frame of this signature cannot be encoded (the first field that is not
// portable, with its reason), or an empty string.
std::string why_not_portable(const FrameSignature &signature);

// The blob of a frame: header, then its state. The frame's info must carry a
// signature, and the frame must be portable.
Status encode_frame(const Frame &frame, std::vector<std::uint8_t> &out);

// Checks a blob's header against this program (magic, version, tables hash,
// a known function index, a valid entry, the payload size) and returns the
// procedure's signature; its info->size is how much memory decode_frame needs.
Status read_header(const std::uint8_t *bytes, std::size_t size, Header *header, const FrameSignature **signature);

// Decodes a blob that read_header accepted into `memory` (signature->info->size
// bytes, aligned for a frame) and returns the frame ready to resume at its
// entry: header fields set as for a frame the runtime just allocated, no
// parent, no result slot, join count 1.
Status decode_frame(const std::uint8_t *bytes, std::size_t size, void *memory, Frame **frame);

}  // namespace canonical
}  // namespace cilkpp::rt
