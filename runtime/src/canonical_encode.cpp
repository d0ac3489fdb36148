// The encoder: native records and frames to the canonical format
// (docs/signatures.md), guided by the signature tables. It refuses what the
// decoder would refuse, so that a frame that cannot travel is found out
// where it can still run.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "canonical_codec.h"
#include "cilkpp/rt/canonical.h"
#include "cilkpp/rt/frame.h"

namespace cilkpp::rt::canonical {

using namespace detail;

namespace {

std::string not_portable_reason(const FieldSignature &field) {
  return std::string("not portable: ") + (field.not_portable ? field.not_portable : "no reason given");
}

// Appends the canonical form of native values to a blob that starts at
// out[start] (a frame's header, or the first byte encode_record appends).
class Encoder {
 public:
  Encoder(ByteOrder order, std::vector<std::uint8_t> &out, std::size_t start)
      : order_(order), out_(out), start_(start) {}

  bool record(const RecordSignature &table, const std::uint8_t *native);
  // After the last record: the check of elements without canonical bytes.
  bool finish();

  Failure failure;

 private:
  bool field(const FieldSignature &field, const std::uint8_t *record);
  bool run(const ValueType &type, const std::uint8_t *first, std::size_t n, bool indexed);
  bool scalars(const ValueType &type, const std::uint8_t *first, std::size_t n, bool indexed);
  bool value(const ValueType &type, const std::uint8_t *native);
  bool string(const std::string &text);
  bool vector(const ValueType &type, const std::uint8_t *native);
  std::uint8_t *grow(std::size_t n);
  bool fail(std::string what) {
    failure.what = std::move(what);
    return false;
  }

  ByteOrder order_;
  std::vector<std::uint8_t> &out_;
  std::size_t start_;
  int depth_ = 0;
  // Elements of vectors whose elements take no canonical bytes.
  std::uint64_t empty_elements_ = 0;
};

bool Encoder::record(const RecordSignature &table, const std::uint8_t *native) {
  if (++depth_ > kMaxNesting) return fail(too_deep());
  for (std::uint32_t i = 0; i < table.field_count; ++i) {
    if (!field(table.fields[i], native)) {
      failure.within_field(table.fields[i].name);
      return false;
    }
  }
  --depth_;
  return true;
}

bool Encoder::finish() {
  // The decoder allows as many elements without canonical bytes (records
  // with no fields) as the blob has bytes, since nothing else bounds what
  // they make it allocate.
  const std::size_t size = out_.size() - start_;
  if (empty_elements_ <= size) return true;
  return fail("vectors hold " + std::to_string(empty_elements_) + " elements without canonical bytes, more than the " +
              std::to_string(size) + " bytes of the blob (the decoder's limit)");
}

bool Encoder::field(const FieldSignature &field, const std::uint8_t *record) {
  // Refused whether alive or not, like why_not_portable: whether a frame can
  // travel does not depend on where it stopped.
  if (field.type.kind == CanonicalKind::not_portable) return fail(not_portable_reason(field));
  if (field.alive_flag_offset != kNoAliveFlag) {
    const std::uint8_t alive = record[field.alive_flag_offset];
    if (alive > 1) return fail("alive flag " + std::to_string(alive) + " is neither 0 nor 1");
    std::uint8_t *presence = grow(1);
    if (!presence) return false;
    *presence = alive;
    if (!alive) return true;
  }
  return run(field.type, record + field.offset, field.count, field.count > 1);
}

// n consecutive native values, as in a fixed array or a vector's buffer.
bool Encoder::run(const ValueType &type, const std::uint8_t *first, std::size_t n, bool indexed) {
  if (scalar_width(scalar_kind(type)) != 0) return scalars(type, first, n, indexed);
  for (std::size_t i = 0; i < n; ++i) {
    if (!value(type, first + i * type.native_size)) {
      if (indexed) failure.within_element(i);
      return false;
    }
  }
  return true;
}

bool Encoder::scalars(const ValueType &type, const std::uint8_t *first, std::size_t n, bool indexed) {
  const CanonicalKind kind = scalar_kind(type);
  const std::uint32_t width = scalar_width(kind);
  if (const char *problem = native_size_problem(kind, type.native_size)) return fail(problem);
  std::uint8_t *to = grow(n * width);
  if (!to) return false;
  // A frame holds its variables before they are live (`bool ok = spawn
  // f();` until the result arrives), with whatever bytes were there: a
  // bool other than 0 or 1 goes as true (a decoder still rejects one).
  if (kind == CanonicalKind::boolean) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t *bytes = first + i * type.native_size;
      to[i] = std::any_of(bytes, bytes + type.native_size, [](std::uint8_t b) { return b != 0; }) ? 1 : 0;
    }
    return true;
  }
  if (native_is_canonical(type, order_)) {
    if (n) std::memcpy(to, first, n * width);
    return true;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!copy_scalar(kind, first + i * type.native_size, type.native_size, order_, to + i * width, width,
                     ByteOrder::little, failure)) {
      if (indexed) failure.within_element(i);
      return false;
    }
  }
  return true;
}

bool Encoder::value(const ValueType &type, const std::uint8_t *native) {
  switch (type.kind) {
    case CanonicalKind::record: return record(*type.record, native);
    case CanonicalKind::string: return string(*reinterpret_cast<const std::string *>(native));
    case CanonicalKind::vector: return vector(type, native);
    default: return fail("not portable");
  }
}

bool Encoder::string(const std::string &text) {
  std::uint8_t *to = grow(8 + text.size());
  if (!to) return false;
  store(to, 8, text.size(), ByteOrder::little);
  std::memcpy(to + 8, text.data(), text.size());
  return true;
}

bool Encoder::vector(const ValueType &type, const std::uint8_t *native) {
  if (++depth_ > kMaxNesting) return fail(too_deep());
  // VectorOps::data is shared with the decoder, which writes through it.
  void *vec = const_cast<std::uint8_t *>(native);
  const std::size_t count = type.vector->size(vec);
  std::uint8_t *to = grow(8);
  if (!to) return false;
  store(to, 8, count, ByteOrder::little);
  if (min_canonical_size(*type.element) == 0) empty_elements_ += count;
  if (!run(*type.element, static_cast<const std::uint8_t *>(type.vector->data(vec)), count, true)) return false;
  --depth_;
  return true;
}

// Room for n more bytes at the end of the blob, or nullptr (and a failure)
// when the blob would outgrow what a decoder accepts.
std::uint8_t *Encoder::grow(std::size_t n) {
  const std::size_t used = out_.size() - start_;
  if (n > kMaxBlobSize - used) {
    fail("the blob would exceed " + std::to_string(kMaxBlobSize) + " bytes");
    return nullptr;
  }
  out_.resize(out_.size() + n);
  return out_.data() + out_.size() - n;
}

// Whether a value of this type may hold a field that is not portable; the
// failure names the first one, depth first in table order. Deeper than
// kMaxNesting nothing can be encoded anyway, which also ends the search in a
// table that holds a vector of its own record.
bool not_portable_in(const ValueType &type, int depth, Failure &failure) {
  if (depth > kMaxNesting) return false;
  switch (type.kind) {
    case CanonicalKind::not_portable: failure.what = "not portable"; return true;
    case CanonicalKind::vector:
      if (!not_portable_in(*type.element, depth + 1, failure)) return false;
      failure.within_element_of_any();
      return true;
    case CanonicalKind::record:
      for (std::uint32_t i = 0; i < type.record->field_count; ++i) {
        const FieldSignature &field = type.record->fields[i];
        if (!not_portable_in(field.type, depth + 1, failure)) continue;
        if (field.type.kind == CanonicalKind::not_portable) failure.what = not_portable_reason(field);
        failure.within_field(field.name);
        return true;
      }
      return false;
    default: return false;
  }
}

// A stack frame's info sends promotions to the heap info; the compiler puts
// the signature on both, a hand-written frame may have it on either.
const FrameSignature *signature_of(const FrameInfo &info) noexcept {
  if (info.signature) return info.signature;
  return info.promote_to ? info.promote_to->signature : nullptr;
}

void write_header(std::uint8_t *at, const FrameSignature &signature, std::int32_t entry, std::size_t payload_size) {
  std::memcpy(at, kMagic, sizeof kMagic);
  store(at + kVersionAt, 2, kFormatVersion, ByteOrder::little);
  store(at + kFlagsAt, 2, 0, ByteOrder::little);
  store(at + kTablesHashAt, 8, program_tables_hash(), ByteOrder::little);
  store(at + kFunctionIndexAt, 8, signature.index, ByteOrder::little);
  store(at + kEntryAt, 4, static_cast<std::uint32_t>(entry), ByteOrder::little);
  store(at + kPayloadSizeAt, 4, payload_size, ByteOrder::little);
}

}  // namespace

ByteOrder host_byte_order() noexcept {
  static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);
  return std::endian::native == std::endian::little ? ByteOrder::little : ByteOrder::big;
}

Status encode_record(const RecordSignature &table, const void *native, ByteOrder order,
                     std::vector<std::uint8_t> &out) {
  const std::size_t start = out.size();
  Encoder encoder(order, out, start);
  if (encoder.record(table, static_cast<const std::uint8_t *>(native)) && encoder.finish()) return {};
  out.resize(start);
  return {encoder.failure.message()};
}

std::string why_not_portable(const FrameSignature &signature) {
  Failure failure;
  const ValueType state{CanonicalKind::record, signature.state->size, nullptr, signature.state};
  return not_portable_in(state, 0, failure) ? failure.message() : std::string();
}

Status encode_frame(const Frame &frame, std::vector<std::uint8_t> &out) {
  const FrameSignature *signature = signature_of(*frame.info);
  if (!signature) return {std::string("frame of '") + frame.info->name + "' has no signature table"};
  if (std::string why = why_not_portable(*signature); !why.empty())
    return {procedure_name(*signature) + " cannot travel: " + why};
  if (frame.entry < 1 || frame.entry > signature->entry_count)
    return {"frame of " + procedure_name(*signature) + " is at entry " + std::to_string(frame.entry) +
            ", not at a continuation point (1.." + std::to_string(signature->entry_count) + ")"};
  const std::size_t start = out.size();
  out.resize(start + kHeaderSize);
  Encoder encoder(host_byte_order(), out, start);
  if (!encoder.record(*signature->state, reinterpret_cast<const std::uint8_t *>(&frame)) || !encoder.finish()) {
    out.resize(start);
    return {encoder.failure.message()};
  }
  write_header(out.data() + start, *signature, frame.entry, out.size() - start - kHeaderSize);
  return {};
}

}  // namespace cilkpp::rt::canonical
