// What the canonical encoder (canonical_encode.cpp) and decoder
// (canonical_decode.cpp) share: the header layout, scalar conversion between
// native and canonical widths and byte orders, and error messages that name
// the field they are about. docs/signatures.md describes the format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "cilkpp/rt/canonical.h"
#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/signature.h"

namespace cilkpp::rt::canonical::detail {

// Byte offsets of the header's fields.
inline constexpr std::size_t kVersionAt = 4;
inline constexpr std::size_t kFlagsAt = 6;
inline constexpr std::size_t kTablesHashAt = 8;
inline constexpr std::size_t kFunctionIndexAt = 16;
inline constexpr std::size_t kEntryAt = 24;
inline constexpr std::size_t kPayloadSizeAt = 28;

// Records and vectors nested deeper than this are refused on both sides. The
// compiler's tables are acyclic (it refuses recursive types), but a table
// written by hand may hold a vector of its own record, and then only the data
// bounds the recursion: a hostile blob must not be able to exhaust the stack.
inline constexpr int kMaxNesting = 64;

// What a record or vector deeper than kMaxNesting fails with.
inline std::string too_deep() {
  return "records and vectors nested more than " + std::to_string(kMaxNesting) + " deep";
}

inline constexpr std::uint32_t kNoAliveFlag = ~0u;

// The kind a scalar travels as: an enumeration as its underlying integer.
inline CanonicalKind scalar_kind(const ValueType &type) noexcept {
  return type.kind == CanonicalKind::enumeration ? type.element->kind : type.kind;
}

// Canonical bytes of one scalar of this kind; 0 for the other kinds.
constexpr std::uint32_t scalar_width(CanonicalKind kind) noexcept {
  switch (kind) {
    case CanonicalKind::boolean:
    case CanonicalKind::int8:
    case CanonicalKind::uint8: return 1;
    case CanonicalKind::int16:
    case CanonicalKind::uint16: return 2;
    case CanonicalKind::int32:
    case CanonicalKind::uint32:
    case CanonicalKind::float32: return 4;
    case CanonicalKind::int64:
    case CanonicalKind::uint64:
    case CanonicalKind::float64: return 8;
    default: return 0;
  }
}

constexpr bool is_signed_integer(CanonicalKind kind) noexcept {
  return kind == CanonicalKind::int8 || kind == CanonicalKind::int16 || kind == CanonicalKind::int32 ||
         kind == CanonicalKind::int64;
}

constexpr bool is_float(CanonicalKind kind) noexcept {
  return kind == CanonicalKind::float32 || kind == CanonicalKind::float64;
}

// An unsigned integer of `width` bytes (1 to 8) in the given byte order.
inline std::uint64_t load(const std::uint8_t *p, std::uint32_t width, ByteOrder order) noexcept {
  std::uint64_t value = 0;
  for (std::uint32_t i = 0; i < width; ++i) {
    const std::uint32_t significance = order == ByteOrder::little ? i : width - 1 - i;
    value |= std::uint64_t(p[i]) << (8 * significance);
  }
  return value;
}

inline void store(std::uint8_t *p, std::uint32_t width, std::uint64_t value, ByteOrder order) noexcept {
  for (std::uint32_t i = 0; i < width; ++i) {
    const std::uint32_t significance = order == ByteOrder::little ? i : width - 1 - i;
    p[i] = static_cast<std::uint8_t>(value >> (8 * significance));
  }
}

// Whether n native values of this type are, byte for byte, their canonical
// form, so that a run of them is one memcpy. Booleans never are: their bytes
// must be checked to be 0 or 1.
inline bool native_is_canonical(const ValueType &type, ByteOrder order) noexcept {
  const CanonicalKind kind = scalar_kind(type);
  return order == ByteOrder::little && kind != CanonicalKind::boolean && scalar_width(kind) != 0 &&
         type.native_size == scalar_width(kind);
}

// The fewest canonical bytes a value of this type takes: a count read from a
// blob is checked against it before anything is allocated. Records contain
// records only by value, which C++ keeps acyclic; vectors end the descent.
inline std::uint64_t min_canonical_size(const ValueType &type) noexcept {
  switch (type.kind) {
    case CanonicalKind::record: {
      std::uint64_t sum = 0;
      for (std::uint32_t i = 0; i < type.record->field_count; ++i) {
        const FieldSignature &field = type.record->fields[i];
        sum += field.alive_flag_offset != kNoAliveFlag ? 1 : field.count * min_canonical_size(field.type);
      }
      return sum;
    }
    case CanonicalKind::string:
    case CanonicalKind::vector: return 8;  // the length or count
    case CanonicalKind::not_portable: return 0;
    default: return scalar_width(scalar_kind(type));
  }
}

// An error on its way up from the value it is about: the path of that value
// ("items[3].name") is built one level at a time, and only on failure.
struct Failure {
  std::string path;
  std::string what;

  void within_field(const char *name) { prepend(name); }
  void within_element(std::size_t index) {
    // Appended piecewise: GCC 12's -Wrestrict misfires on "[" + std::string.
    std::string segment(1, '[');
    segment += std::to_string(index);
    segment += ']';
    prepend(segment);
  }
  // In some element of a vector: for what the tables say, not a value.
  void within_element_of_any() { prepend("[]"); }
  std::string message() const { return path.empty() ? what : "field '" + path + "': " + what; }

 private:
  void prepend(const std::string &segment) {
    path = path.empty() || path[0] == '[' ? segment + path : segment + "." + path;
  }
};

// A procedure in messages: its name and the mangled name its index hashes.
inline std::string procedure_name(const FrameSignature &signature) {
  return std::string("'") + signature.info->name + "' (" + signature.mangled_name + ")";
}

// Why native values of this size cannot hold the kind, or nullptr.
inline const char *native_size_problem(CanonicalKind kind, std::uint32_t native_size) noexcept {
  if (is_float(kind)) {
    if (native_size == scalar_width(kind)) return nullptr;
    return kind == CanonicalKind::float32 ? "a float32 needs 4 native bytes (IEEE 754 binary32)"
                                          : "a float64 needs 8 native bytes (IEEE 754 binary64)";
  }
  if (native_size == 1 || native_size == 2 || native_size == 4 || native_size == 8) return nullptr;
  return "its native size is not 1, 2, 4 or 8 bytes";
}

// Copies one scalar of the given kind from `from_width` bytes in `from_order`
// to `to_width` bytes in `to_order`. Integers are sign- or zero-extended by
// the kind's signedness and must fit their destination; booleans must be 0 or
// 1; floats (equal widths, checked by native_size_problem) keep their bits.
inline bool copy_scalar(CanonicalKind kind, const std::uint8_t *from, std::uint32_t from_width, ByteOrder from_order,
                        std::uint8_t *to, std::uint32_t to_width, ByteOrder to_order, Failure &failure) {
  std::uint64_t value = load(from, from_width, from_order);
  if (kind == CanonicalKind::boolean) {
    if (value > 1) {
      failure.what = "bool value " + std::to_string(value) + " is neither 0 nor 1";
      return false;
    }
  } else if (is_signed_integer(kind)) {
    const unsigned unused = 64 - 8 * from_width;
    const std::int64_t extended = static_cast<std::int64_t>(value << unused) >> unused;
    const unsigned kept = 64 - 8 * to_width;
    if (to_width < 8 && (static_cast<std::int64_t>(std::uint64_t(extended) << kept) >> kept) != extended) {
      failure.what = "value " + std::to_string(extended) + " does not fit in " + std::to_string(to_width) + " bytes";
      return false;
    }
    value = static_cast<std::uint64_t>(extended);
  } else if (!is_float(kind) && to_width < 8 && value >> (8 * to_width) != 0) {
    failure.what = "value " + std::to_string(value) + " does not fit in " + std::to_string(to_width) + " bytes";
    return false;
  }
  store(to, to_width, value, to_order);
  return true;
}

}  // namespace cilkpp::rt::canonical::detail
