// The canonical closure format (canonical.h, docs/signatures.md) and the
// function table (signature.h), with signature tables written by hand the
// way the compiler emits them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "cilkpp/rt/canonical.h"
#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/signature.h"
#include "function_table.h"

// Tables take offsetof of members of frames, which derive from Frame and so
// are not standard-layout; generated code does the same.
#pragma GCC diagnostic ignored "-Winvalid-offsetof"

namespace {

using namespace cilkpp::rt;
using namespace cilkpp::rt::canonical;
using Bytes = std::vector<std::uint8_t>;
using K = CanonicalKind;

constexpr std::uint32_t kAlways = ~0u;

template <class T>
constexpr ValueType scalar(K kind) {
  return {kind, sizeof(T)};
}

template <std::size_t N>
constexpr RecordSignature record(const char *name, std::uint32_t size, const FieldSignature (&fields)[N],
                                 void (*construct)(void *) noexcept = nullptr,
                                 void (*destroy)(void *) noexcept = nullptr) {
  return {name, size, N, fields, 0, construct, destroy};
}


// Raw storage that decoding constructs into.
template <class T>
struct Raw {
  alignas(T) unsigned char bytes[sizeof(T)];
  T &value() { return *std::launder(reinterpret_cast<T *>(bytes)); }
};

Bytes encode(const RecordSignature &table, const void *native, ByteOrder order = ByteOrder::little) {
  Bytes out;
  const Status status = encode_record(table, native, order, out);
  EXPECT_TRUE(status) << status.error;
  return out;
}

// Decodes all of `blob` into `native`: "" on success, else the error.
std::string decode(const RecordSignature &table, const Bytes &blob, void *native,
                   ByteOrder order = ByteOrder::little) {
  std::size_t pos = 0;
  const Status status = decode_record(table, blob.data(), blob.size(), &pos, native, order);
  if (status && pos != blob.size())
    return "decoded " + std::to_string(pos) + " of " + std::to_string(blob.size()) + " bytes";
  return status.error;
}

void put(Bytes &bytes, std::size_t at, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) bytes[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
}
void append(Bytes &bytes, std::uint64_t value, int width) {
  bytes.resize(bytes.size() + width);
  put(bytes, bytes.size() - width, value, width);
}

#define EXPECT_ERROR(status_or_text, expected)                                                   \
  do {                                                                                           \
    const std::string error_ = error_of(status_or_text);                                         \
    EXPECT_NE(error_.find(expected), std::string::npos) << "error: \"" << error_ << "\"";       \
  } while (0)

std::string error_of(const Status &status) { return status.error.empty() ? "(no error)" : status.error; }
std::string error_of(const std::string &error) { return error.empty() ? "(no error)" : error; }

// ---------------------------------------------------------------- scalars

enum class Color : std::int16_t { blue = -3, red = 1, green = 2 };
const ValueType kColorUnderlying = scalar<std::int16_t>(K::int16);
const ValueType kColor{K::enumeration, sizeof(Color), &kColorUnderlying};

struct Scalars {
  bool b;
  std::int8_t i8;
  std::uint8_t u8;
  std::int16_t i16;
  std::uint16_t u16;
  std::int32_t i32;
  std::uint32_t u32;
  std::int64_t i64;
  std::uint64_t u64;
  float f32;
  double f64;
  Color color;
  bool operator==(const Scalars &) const = default;
};
const FieldSignature kScalarsFields[] = {
    {"b", scalar<bool>(K::boolean), offsetof(Scalars, b), 1},
    {"i8", scalar<std::int8_t>(K::int8), offsetof(Scalars, i8), 1},
    {"u8", scalar<std::uint8_t>(K::uint8), offsetof(Scalars, u8), 1},
    {"i16", scalar<std::int16_t>(K::int16), offsetof(Scalars, i16), 1},
    {"u16", scalar<std::uint16_t>(K::uint16), offsetof(Scalars, u16), 1},
    {"i32", scalar<std::int32_t>(K::int32), offsetof(Scalars, i32), 1},
    {"u32", scalar<std::uint32_t>(K::uint32), offsetof(Scalars, u32), 1},
    {"i64", scalar<std::int64_t>(K::int64), offsetof(Scalars, i64), 1},
    {"u64", scalar<std::uint64_t>(K::uint64), offsetof(Scalars, u64), 1},
    {"f32", scalar<float>(K::float32), offsetof(Scalars, f32), 1},
    {"f64", scalar<double>(K::float64), offsetof(Scalars, f64), 1},
    {"color", kColor, offsetof(Scalars, color), 1},
};
const RecordSignature kScalars = record("Scalars", sizeof(Scalars), kScalarsFields);
constexpr std::size_t kScalarsCanonicalSize = 1 + 1 + 1 + 2 + 2 + 4 + 4 + 8 + 8 + 4 + 8 + 2;

template <class T>
using lim = std::numeric_limits<T>;

TEST(CanonicalScalars, MinimaAndMaximaRoundTrip) {
  const Scalars minima{false,           lim<std::int8_t>::min(),  0, lim<std::int16_t>::min(), 0,
                       lim<std::int32_t>::min(), 0, lim<std::int64_t>::min(), 0, lim<float>::lowest(),
                       lim<double>::lowest(), Color::blue};
  const Scalars maxima{true,
                       lim<std::int8_t>::max(),
                       lim<std::uint8_t>::max(),
                       lim<std::int16_t>::max(),
                       lim<std::uint16_t>::max(),
                       lim<std::int32_t>::max(),
                       lim<std::uint32_t>::max(),
                       lim<std::int64_t>::max(),
                       lim<std::uint64_t>::max(),
                       lim<float>::max(),
                       lim<double>::max(),
                       Color::green};
  for (const Scalars &value : {minima, maxima}) {
    const Bytes blob = encode(kScalars, &value);
    EXPECT_EQ(blob.size(), kScalarsCanonicalSize);
    Raw<Scalars> decoded;
    ASSERT_EQ(decode(kScalars, blob, decoded.bytes), "");
    EXPECT_EQ(decoded.value(), value);
  }
}

TEST(CanonicalScalars, BytesAreLittleEndianAtFixedWidths) {
  const Scalars value{true, -2, 0xfe, -3, 0x1234, -4, 0x89abcdef, -5, 0x0123456789abcdefull, 1.0f, -2.0, Color::red};
  const Bytes expected = {
      0x01,                                            // b
      0xfe,                                            // i8
      0xfe,                                            // u8
      0xfd, 0xff,                                      // i16
      0x34, 0x12,                                      // u16
      0xfc, 0xff, 0xff, 0xff,                          // i32
      0xef, 0xcd, 0xab, 0x89,                          // u32
      0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  // i64
      0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,  // u64
      0x00, 0x00, 0x80, 0x3f,                          // f32 1.0
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0,  // f64 -2.0
      0x01, 0x00,                                      // color red
  };
  EXPECT_EQ(encode(kScalars, &value), expected);
}

TEST(CanonicalScalars, FloatBitPatternsTravelUnchanged) {
  const float f32s[] = {-0.0f, lim<float>::infinity(), lim<float>::denorm_min(), std::nanf("0x2a")};
  const double f64s[] = {-0.0, -lim<double>::infinity(), lim<double>::denorm_min(), std::nan("0x1234")};
  for (int i = 0; i < 4; ++i) {
    Scalars value{};
    value.f32 = f32s[i];
    value.f64 = f64s[i];
    Raw<Scalars> decoded;
    ASSERT_EQ(decode(kScalars, encode(kScalars, &value), decoded.bytes), "");
    EXPECT_EQ(std::memcmp(&decoded.value().f32, &value.f32, sizeof(float)), 0) << i;
    EXPECT_EQ(std::memcmp(&decoded.value().f64, &value.f64, sizeof(double)), 0) << i;
  }
}

TEST(CanonicalScalars, EnumerationTakesAnyValueOfItsUnderlyingType) {
  for (std::int16_t raw : {std::int16_t(12345), lim<std::int16_t>::min(), std::int16_t(0)}) {
    Scalars value{};
    value.color = static_cast<Color>(raw);
    Raw<Scalars> decoded;
    ASSERT_EQ(decode(kScalars, encode(kScalars, &value), decoded.bytes), "");
    EXPECT_EQ(static_cast<std::int16_t>(decoded.value().color), raw);
  }
}

// A message's bool must be 0 or 1; a frame's may hold any byte before its
// variable is live (`bool ok = spawn f();`), and goes as true.
TEST(CanonicalScalars, BoolOtherThanZeroOrOneIsRejectedByDecodeAndSentAsTrue) {
  Scalars value{};
  Bytes blob = encode(kScalars, &value);
  blob[0] = 7;
  Raw<Scalars> decoded;
  EXPECT_EQ(decode(kScalars, blob, decoded.bytes), "field 'b': bool value 7 is neither 0 nor 1");
  unsigned char native[sizeof(Scalars)] = {};
  native[offsetof(Scalars, b)] = 2;
  Bytes out;
  EXPECT_EQ(encode_record(kScalars, native, ByteOrder::little, out).error, "");
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out[0], 1);
  Raw<Scalars> round_trip;
  EXPECT_EQ(decode(kScalars, out, round_trip.bytes), "");
  EXPECT_TRUE(round_trip.value().b);
}

// ---------------------------------------------------------------- narrowing

// A 64-bit canonical integer held in 4 native bytes, like a `long` on a
// 32-bit machine.
struct Narrow {
  std::int32_t s;
  std::uint32_t u;
};
const FieldSignature kNarrowFields[] = {
    {"s", {K::int64, 4}, offsetof(Narrow, s), 1},
    {"u", {K::uint64, 4}, offsetof(Narrow, u), 1},
};
const RecordSignature kNarrow = record("Narrow", sizeof(Narrow), kNarrowFields);

Bytes narrow_blob(std::int64_t s, std::uint64_t u) {
  Bytes blob;
  append(blob, static_cast<std::uint64_t>(s), 8);
  append(blob, u, 8);
  return blob;
}

TEST(CanonicalNarrowing, EncodeWidensBySignedness) {
  const Narrow value{-5, 4000000000u};
  EXPECT_EQ(encode(kNarrow, &value), narrow_blob(-5, 4000000000u));
}

TEST(CanonicalNarrowing, DecodeAcceptsValuesThatFit) {
  for (auto [s, u] : {std::pair<std::int64_t, std::uint64_t>{lim<std::int32_t>::min(), 0},
                      {lim<std::int32_t>::max(), lim<std::uint32_t>::max()}}) {
    Raw<Narrow> decoded;
    ASSERT_EQ(decode(kNarrow, narrow_blob(s, u), decoded.bytes), "");
    EXPECT_EQ(decoded.value().s, s);
    EXPECT_EQ(decoded.value().u, u);
  }
}

TEST(CanonicalNarrowing, DecodeRejectsValuesThatDoNotFit) {
  Raw<Narrow> decoded;
  EXPECT_EQ(decode(kNarrow, narrow_blob(2147483648, 0), decoded.bytes),
            "field 's': value 2147483648 does not fit in 4 bytes");
  EXPECT_EQ(decode(kNarrow, narrow_blob(-2147483649, 0), decoded.bytes),
            "field 's': value -2147483649 does not fit in 4 bytes");
  EXPECT_EQ(decode(kNarrow, narrow_blob(0, 5000000000), decoded.bytes),
            "field 'u': value 5000000000 does not fit in 4 bytes");
}

TEST(CanonicalNarrowing, EncodeRejectsNativeValuesWiderThanTheirKind) {
  // An `int` of 8 bytes (ILP64) whose value needs more than 32 bits.
  const std::int64_t wide = std::int64_t(1) << 40;
  const FieldSignature fields[] = {{"i", {K::int32, 8}, 0, 1}};
  Bytes out;
  EXPECT_EQ(encode_record(record("Wide", 8, fields), &wide, ByteOrder::little, out).error,
            "field 'i': value 1099511627776 does not fit in 4 bytes");
}

TEST(CanonicalNarrowing, NativeSizesWithoutACanonicalFormAreRejected) {
  const double d = 1;
  const FieldSignature floats[] = {{"d", {K::float64, 4}, 0, 1}};
  const FieldSignature ints[] = {{"i", {K::int32, 3}, 0, 1}};
  Bytes out;
  EXPECT_EQ(encode_record(record("F", 8, floats), &d, ByteOrder::little, out).error,
            "field 'd': a float64 needs 8 native bytes (IEEE 754 binary64)");
  EXPECT_EQ(encode_record(record("I", 8, ints), &d, ByteOrder::little, out).error,
            "field 'i': its native size is not 1, 2, 4 or 8 bytes");
}

// ---------------------------------------------------------------- arrays and records

struct Arrays {
  std::int32_t row[5];
  double grid[2][3];
  Color palette[2];
  bool operator==(const Arrays &) const = default;
};
const FieldSignature kArraysFields[] = {
    {"row", scalar<std::int32_t>(K::int32), offsetof(Arrays, row), 5},
    {"grid", scalar<double>(K::float64), offsetof(Arrays, grid), 6},
    {"palette", kColor, offsetof(Arrays, palette), 2},
};
const RecordSignature kArrays = record("Arrays", sizeof(Arrays), kArraysFields);

TEST(CanonicalArrays, FixedAndTwoDimensionalArraysRoundTripFlattened) {
  const Arrays value{{1, -2, 3, -4, 5}, {{0.5, 1.5, 2.5}, {3.5, 4.5, 5.5}}, {Color::green, Color::blue}};
  const Bytes blob = encode(kArrays, &value);
  ASSERT_EQ(blob.size(), 5 * 4 + 6 * 8 + 2 * 2u);
  double grid_1_0;  // row-major: grid[1][0] is the fourth element
  std::memcpy(&grid_1_0, blob.data() + 20 + 3 * 8, 8);
  EXPECT_EQ(grid_1_0, 3.5);
  Raw<Arrays> decoded;
  ASSERT_EQ(decode(kArrays, blob, decoded.bytes), "");
  EXPECT_EQ(decoded.value(), value);
}

struct Inner {
  char c;    // then 7 bytes of padding
  double d;
  short s;   // then 6
  bool operator==(const Inner &) const = default;
};
struct Outer {
  Inner first;
  std::uint8_t tag;
  Inner pair[2];
  std::int32_t tail;
  bool operator==(const Outer &) const = default;
};
const FieldSignature kInnerFields[] = {
    {"c", scalar<char>(K::int8), offsetof(Inner, c), 1},
    {"d", scalar<double>(K::float64), offsetof(Inner, d), 1},
    {"s", scalar<short>(K::int16), offsetof(Inner, s), 1},
};
const RecordSignature kInner = record("Inner", sizeof(Inner), kInnerFields);
const ValueType kInnerType{K::record, sizeof(Inner), nullptr, &kInner};
const FieldSignature kOuterFields[] = {
    {"first", kInnerType, offsetof(Outer, first), 1},
    {"tag", scalar<std::uint8_t>(K::uint8), offsetof(Outer, tag), 1},
    {"pair", kInnerType, offsetof(Outer, pair), 2},
    {"tail", scalar<std::int32_t>(K::int32), offsetof(Outer, tail), 1},
};
const RecordSignature kOuter = record("Outer", sizeof(Outer), kOuterFields);

TEST(CanonicalRecords, NestedRecordsWithPaddingRoundTripWithoutThePadding) {
  const Outer value{{'a', 1.25, -7}, 200, {{'b', -2.5, 8}, {'\0', 1e300, -32768}}, -1};
  const Bytes blob = encode(kOuter, &value);
  EXPECT_EQ(blob.size(), 11 + 1 + 2 * 11 + 4u);
  Raw<Outer> decoded;
  std::memset(decoded.bytes, 0xab, sizeof decoded.bytes);
  ASSERT_EQ(decode(kOuter, blob, decoded.bytes), "");
  EXPECT_EQ(decoded.value(), value);
}

TEST(CanonicalRecords, ErrorsNameThePathToTheValue) {
  Outer value{};
  Bytes blob = encode(kOuter, &value);
  Raw<Outer> decoded;
  EXPECT_EQ(decode(kOuter, Bytes(blob.begin(), blob.begin() + 20), decoded.bytes),
            "field 'pair[0].d': blob truncated: 8 bytes needed at offset 13, 7 left");
}

// ---------------------------------------------------------------- strings and vectors

struct Texts {
  std::string empty;
  std::string with_nul;
  std::string long_text;
  std::int32_t after;
  bool operator==(const Texts &) const = default;
};
const ValueType kString{K::string, sizeof(std::string)};
const FieldSignature kTextsFields[] = {
    {"empty", kString, offsetof(Texts, empty), 1},
    {"with_nul", kString, offsetof(Texts, with_nul), 1},
    {"long_text", kString, offsetof(Texts, long_text), 1},
    {"after", scalar<std::int32_t>(K::int32), offsetof(Texts, after), 1},
};
const RecordSignature kTexts = record("Texts", sizeof(Texts), kTextsFields, &construct_object<Texts>, &destroy_object<Texts>);

TEST(CanonicalStrings, EmptyEmbeddedNulAndLongStringsRoundTrip) {
  const Texts value{"", std::string("a\0b\0", 4), std::string(1000, 'x'), 42};
  const Bytes blob = encode(kTexts, &value);
  EXPECT_EQ(blob.size(), 8 + (8 + 4) + (8 + 1000) + 4u);
  EXPECT_EQ(Bytes(blob.begin() + 8, blob.begin() + 20), (Bytes{4, 0, 0, 0, 0, 0, 0, 0, 'a', 0, 'b', 0}));
  Raw<Texts> decoded;
  ASSERT_EQ(decode(kTexts, blob, decoded.bytes), "");
  EXPECT_EQ(decoded.value(), value);
  destroy_record(kTexts, decoded.bytes);
}

// Counts its live objects, so that tests can see decoding leave none behind.
int live_objects = 0;
struct LiveCount {
  LiveCount() noexcept { ++live_objects; }
  LiveCount(const LiveCount &) noexcept { ++live_objects; }
  LiveCount &operator=(const LiveCount &) = default;
  ~LiveCount() { --live_objects; }
};

// A record that needs constructing; `count` is not in its table.
struct Named {
  std::string name;
  std::int32_t id = 0;
  LiveCount count;
  bool operator==(const Named &other) const { return name == other.name && id == other.id; }
};
const FieldSignature kNamedFields[] = {
    {"name", kString, offsetof(Named, name), 1},
    {"id", scalar<std::int32_t>(K::int32), offsetof(Named, id), 1},
};
const RecordSignature kNamed = record("Named", sizeof(Named), kNamedFields, &construct_object<Named>, &destroy_object<Named>);
const ValueType kNamedType{K::record, sizeof(Named), nullptr, &kNamed};

const ValueType kInt32 = scalar<std::int32_t>(K::int32);
const ValueType kDouble = scalar<double>(K::float64);
template <class T>
constexpr ValueType vector_of(const ValueType &element) {
  return {K::vector, sizeof(std::vector<T>), &element, nullptr, &VectorOpsFor<T>::ops};
}
const ValueType kIntVector = vector_of<std::int32_t>(kInt32);
const ValueType kStringVector = vector_of<std::string>(kString);
const ValueType kNamedVector = vector_of<Named>(kNamedType);
const ValueType kRowsVector = vector_of<std::vector<std::int32_t>>(kIntVector);
const ValueType kDoubleVector = vector_of<double>(kDouble);

struct Collections {
  std::vector<std::int32_t> ints;
  std::vector<std::string> names;
  std::vector<Named> people;
  std::vector<std::vector<std::int32_t>> rows;
  std::vector<double> none;
  bool operator==(const Collections &) const = default;
};
const FieldSignature kCollectionsFields[] = {
    {"ints", kIntVector, offsetof(Collections, ints), 1},
    {"names", kStringVector, offsetof(Collections, names), 1},
    {"people", kNamedVector, offsetof(Collections, people), 1},
    {"rows", kRowsVector, offsetof(Collections, rows), 1},
    {"none", kDoubleVector, offsetof(Collections, none), 1},
};
const RecordSignature kCollections =
    record("Collections", sizeof(Collections), kCollectionsFields, &construct_object<Collections>, &destroy_object<Collections>);

Collections sample_collections() {
  return {{1, -2, lim<std::int32_t>::max()},
          {"", "one", std::string(40, 'z')},
          {{"ada", 1, {}}, {"", -1, {}}},
          {{}, {7}, {8, 9}},
          {}};
}

TEST(CanonicalVectors, VectorsOfIntsStringsRecordsAndVectorsRoundTrip) {
  const Collections value = sample_collections();
  const Bytes blob = encode(kCollections, &value);
  EXPECT_EQ(Bytes(blob.begin(), blob.begin() + 12), (Bytes{3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}));
  const int live_before = live_objects;
  {
    Raw<Collections> decoded;
    ASSERT_EQ(decode(kCollections, blob, decoded.bytes), "");
    EXPECT_EQ(decoded.value(), value);
    destroy_record(kCollections, decoded.bytes);
  }
  EXPECT_EQ(live_objects, live_before);
}

TEST(CanonicalVectors, FailureAtAnyByteDestroysWhatDecodingConstructed) {
  const Collections value = sample_collections();
  const Bytes blob = encode(kCollections, &value);
  const int live_before = live_objects;
  for (std::size_t size = 0; size < blob.size(); ++size) {
    Raw<Collections> decoded;
    EXPECT_NE(decode(kCollections, Bytes(blob.begin(), blob.begin() + size), decoded.bytes), "") << size;
    EXPECT_EQ(live_objects, live_before) << size;
  }
}

TEST(CanonicalVectors, HugeCountIsRejectedBeforeAllocating) {
  Bytes blob;
  append(blob, std::uint64_t(1) << 60, 8);
  Raw<Collections> decoded;
  EXPECT_EQ(decode(kCollections, blob, decoded.bytes),
            "field 'ints': vector of 1152921504606846976 elements of at least 4 bytes each, but only 0 bytes remain");
  // Nine bytes hold two int32s, not three.
  blob.assign(8, 0);
  put(blob, 0, 3, 8);
  blob.resize(17);
  EXPECT_EQ(decode(kCollections, blob, decoded.bytes),
            "field 'ints': vector of 3 elements of at least 4 bytes each, but only 9 bytes remain");
}

TEST(CanonicalStrings, HugeLengthIsRejectedBeforeAllocating) {
  Bytes blob;
  append(blob, std::uint64_t(1) << 60, 8);
  append(blob, 0, 8);
  Raw<Texts> decoded;
  EXPECT_EQ(decode(kTexts, blob, decoded.bytes),
            "field 'empty': string of 1152921504606846976 bytes, but only 8 bytes remain");
}

TEST(CanonicalRecords, TrailingBytesAreLeftForTheCaller) {
  const Scalars value{};
  Bytes blob = encode(kScalars, &value);
  blob.push_back(0xee);
  Raw<Scalars> decoded;
  std::size_t pos = 0;
  ASSERT_TRUE(decode_record(kScalars, blob.data(), blob.size(), &pos, decoded.bytes, ByteOrder::little));
  EXPECT_EQ(pos, blob.size() - 1);
  pos = blob.size() + 1;
  EXPECT_ERROR(decode_record(kScalars, blob.data(), blob.size(), &pos, decoded.bytes, ByteOrder::little),
               "past the end");
}

// A record without fields takes no canonical bytes: a vector of them is
// bounded by the blob's size instead.
struct Empty {};
const RecordSignature kEmpty{"Empty", sizeof(Empty), 0, nullptr, 0};
const ValueType kEmptyType{K::record, sizeof(Empty), nullptr, &kEmpty};
const ValueType kEmptyVector = vector_of<Empty>(kEmptyType);
struct Tags {
  std::vector<Empty> tags;
};
const FieldSignature kTagsFields[] = {{"tags", kEmptyVector, offsetof(Tags, tags), 1}};
const RecordSignature kTags = record("Tags", sizeof(Tags), kTagsFields, &construct_object<Tags>, &destroy_object<Tags>);

TEST(CanonicalVectors, ElementsWithoutCanonicalBytesAreBoundedByTheBlobSize) {
  Tags value{std::vector<Empty>(8)};
  const Bytes blob = encode(kTags, &value);
  ASSERT_EQ(blob.size(), 8u);
  Raw<Tags> decoded;
  ASSERT_EQ(decode(kTags, blob, decoded.bytes), "");
  EXPECT_EQ(decoded.value().tags.size(), 8u);
  destroy_record(kTags, decoded.bytes);

  value.tags.resize(9);
  Bytes out;
  EXPECT_ERROR(encode_record(kTags, &value, ByteOrder::little, out), "9 elements without canonical bytes");
  Bytes hostile(8);
  put(hostile, 0, std::uint64_t(1) << 60, 8);
  EXPECT_ERROR(decode(kTags, hostile, decoded.bytes), "elements without canonical bytes, more than the 8");
}

// ---------------------------------------------------------------- managed fields

// Like a frame: class-type state in anonymous unions, constructed only while
// the procedure has it in scope, with a flag that says so.
struct Managed {
  std::int32_t before;
  union {
    Named item;
  };
  union {
    std::vector<std::int32_t> numbers;
  };
  bool item_alive;
  bool numbers_alive;
  Managed() {}
  ~Managed() {}
};
const FieldSignature kManagedFields[] = {
    {"before", kInt32, offsetof(Managed, before), 1},
    {"item", kNamedType, offsetof(Managed, item), 1, offsetof(Managed, item_alive)},
    {"numbers", kIntVector, offsetof(Managed, numbers), 1, offsetof(Managed, numbers_alive)},
    {"item_alive", scalar<bool>(K::boolean), offsetof(Managed, item_alive), 1},
    {"numbers_alive", scalar<bool>(K::boolean), offsetof(Managed, numbers_alive), 1},
};
const RecordSignature kManaged = record("Managed", sizeof(Managed), kManagedFields);

// item alive, numbers not.
struct ManagedSample {
  Managed m;
  ManagedSample() {
    m.before = 7;
    ::new (&m.item) Named{"hello", 3, {}};
    m.item_alive = true;
    m.numbers_alive = false;
  }
  ~ManagedSample() { m.item.~Named(); }
};

TEST(CanonicalManaged, FieldTravelsOnlyWhileAlive) {
  const ManagedSample sample;
  const Bytes blob = encode(kManaged, &sample.m);
  const Bytes expected = {7, 0, 0, 0,                                     // before
                          1, 5, 0, 0, 0, 0, 0, 0, 0, 'h', 'e', 'l', 'l', 'o', 3, 0, 0, 0,  // item
                          0,                                              // numbers: absent
                          1, 0};                                          // the flags
  EXPECT_EQ(blob, expected);
  const int live_before = live_objects;
  Raw<Managed> decoded;
  ASSERT_EQ(decode(kManaged, blob, decoded.bytes), "");
  EXPECT_EQ(live_objects, live_before + 1);
  EXPECT_EQ(decoded.value().before, 7);
  EXPECT_TRUE(decoded.value().item_alive);
  EXPECT_EQ(decoded.value().item, sample.m.item);
  EXPECT_FALSE(decoded.value().numbers_alive);
  destroy_record(kManaged, decoded.bytes);
  EXPECT_EQ(live_objects, live_before);
}

TEST(CanonicalManaged, AliveFlagThatContradictsThePresenceByteIsRejected) {
  const ManagedSample sample;
  const int live_before = live_objects;
  for (std::size_t flag : {std::size_t(0), std::size_t(1)}) {
    Bytes blob = encode(kManaged, &sample.m);
    blob[blob.size() - 2 + flag] ^= 1;
    Raw<Managed> decoded;
    EXPECT_EQ(decode(kManaged, blob, decoded.bytes),
              flag == 0 ? "field 'item': its alive flag is 0 but its presence byte was 1"
                        : "field 'numbers': its alive flag is 1 but its presence byte was 0");
    EXPECT_EQ(live_objects, live_before);
  }
}

TEST(CanonicalManaged, PresenceByteOtherThanZeroOrOneIsRejected) {
  const ManagedSample sample;
  Bytes blob = encode(kManaged, &sample.m);
  blob[4] = 2;
  Raw<Managed> decoded;
  EXPECT_EQ(decode(kManaged, blob, decoded.bytes), "field 'item': presence byte 2 is neither 0 nor 1");
}

// ---------------------------------------------------------------- not portable, nesting

struct WithPointer {
  std::int32_t a;
  int *p;
};
const FieldSignature kWithPointerFields[] = {
    {"a", kInt32, offsetof(WithPointer, a), 1},
    {"p", {K::not_portable, sizeof(int *)}, offsetof(WithPointer, p), 1, kAlways,
     "a raw pointer into this process's memory"},
};
const RecordSignature kWithPointer = record("WithPointer", sizeof(WithPointer), kWithPointerFields);

TEST(CanonicalNotPortable, FieldIsRefusedByNameAndReason) {
  const WithPointer value{1, nullptr};
  Bytes out;
  EXPECT_EQ(encode_record(kWithPointer, &value, ByteOrder::little, out).error,
            "field 'p': not portable: a raw pointer into this process's memory");
  EXPECT_TRUE(out.empty());
  Bytes blob(12);
  Raw<WithPointer> decoded;
  EXPECT_EQ(decode(kWithPointer, blob, decoded.bytes), "field 'p': not portable: no blob can hold it");
}

// A type that holds a vector of itself: legal C++, refused by the compiler,
// possible in a table written by hand. Only the data bounds its depth.
struct Node {
  std::int32_t value = 0;
  std::vector<Node> children;
};
extern const RecordSignature kNode;
const ValueType kNodeType{K::record, sizeof(Node), nullptr, &kNode};
const ValueType kChildren = vector_of<Node>(kNodeType);
const FieldSignature kNodeFields[] = {
    {"value", kInt32, offsetof(Node, value), 1},
    {"children", kChildren, offsetof(Node, children), 1},
};
const RecordSignature kNode = record("Node", sizeof(Node), kNodeFields, &construct_object<Node>, &destroy_object<Node>);

Node chain(int depth) {
  Node root;
  Node *at = &root;
  for (int i = 1; i < depth; ++i) {
    at->children.resize(1);
    at = &at->children[0];
    at->value = i;
  }
  return root;
}

TEST(CanonicalNesting, RecursiveTypeRoundTripsWithinTheLimit) {
  const Node value = chain(30);
  Raw<Node> decoded;
  ASSERT_EQ(decode(kNode, encode(kNode, &value), decoded.bytes), "");
  const Node *at = &decoded.value();
  for (int i = 1; i < 30; ++i) at = &at->children.at(0);
  EXPECT_EQ(at->value, 29);
  destroy_record(kNode, decoded.bytes);
}

TEST(CanonicalNesting, TooDeepIsRefusedBothWays) {
  const Node value = chain(40);
  Bytes out;
  EXPECT_ERROR(encode_record(kNode, &value, ByteOrder::little, out), "nested more than 64 deep");
  // A hostile blob: a hundred thousand levels of "value 0, one child".
  Bytes blob;
  for (int i = 0; i < 100000; ++i) {
    append(blob, 0, 4);
    append(blob, 1, 8);
  }
  Raw<Node> decoded;
  EXPECT_ERROR(decode(kNode, blob, decoded.bytes), "nested more than 64 deep");
}

// ---------------------------------------------------------------- byte order

// The same record on two machines: this one, and a 32-bit big-endian one
// whose `long` has 4 bytes and whose native image is written out by hand.
struct Reading {
  std::int16_t level;
  std::int32_t count;
  long total;
  std::uint64_t mask;
  double mean;
  float scale;
  bool valid;
  Color color;
  std::int32_t samples[3];
  bool operator==(const Reading &) const = default;
};
const FieldSignature kReadingHostFields[] = {
    {"level", scalar<std::int16_t>(K::int16), offsetof(Reading, level), 1},
    {"count", kInt32, offsetof(Reading, count), 1},
    {"total", scalar<long>(K::int64), offsetof(Reading, total), 1},
    {"mask", scalar<std::uint64_t>(K::uint64), offsetof(Reading, mask), 1},
    {"mean", kDouble, offsetof(Reading, mean), 1},
    {"scale", scalar<float>(K::float32), offsetof(Reading, scale), 1},
    {"valid", scalar<bool>(K::boolean), offsetof(Reading, valid), 1},
    {"color", kColor, offsetof(Reading, color), 1},
    {"samples", kInt32, offsetof(Reading, samples), 3},
};
const RecordSignature kReadingHost = record("Reading", sizeof(Reading), kReadingHostFields);
// The big-endian machine's layout: offsets and sizes as its compiler has them.
const FieldSignature kReadingBigEndianFields[] = {
    {"level", {K::int16, 2}, 0, 1},  {"count", {K::int32, 4}, 4, 1},    {"total", {K::int64, 4}, 8, 1},
    {"mask", {K::uint64, 8}, 16, 1}, {"mean", {K::float64, 8}, 24, 1},  {"scale", {K::float32, 4}, 32, 1},
    {"valid", {K::boolean, 1}, 36, 1}, {"color", kColor, 38, 1},        {"samples", {K::int32, 4}, 40, 3},
};
const RecordSignature kReadingBigEndian = record("Reading", 56, kReadingBigEndianFields);

const Reading kReading{-2, 100000, -5, 0x0123456789abcdefull, 1.5, -0.25f, true, Color::blue, {1, -1, 0x7fffffff}};

// kReading in the big-endian machine's memory (0x5a: padding).
const Bytes kReadingBigEndianImage = {
    0xff, 0xfe, 0x5a, 0x5a,                          // level -2, padding
    0x00, 0x01, 0x86, 0xa0,                          // count 100000
    0xff, 0xff, 0xff, 0xfb, 0x5a, 0x5a, 0x5a, 0x5a,  // total -5, padding
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,  // mask
    0x3f, 0xf8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // mean 1.5
    0xbe, 0x80, 0x00, 0x00,                          // scale -0.25
    0x01, 0x5a, 0xff, 0xfd,                          // valid, padding, color blue (-3)
    0x00, 0x00, 0x00, 0x01,                          // samples
    0xff, 0xff, 0xff, 0xff,                          //
    0x7f, 0xff, 0xff, 0xff,                          //
    0x5a, 0x5a, 0x5a, 0x5a,                          // tail padding
};

// The canonical form of kReading: checked in, the contract between the two.
const Bytes kReadingCanonical = {
    0xfe, 0xff,                                      // level
    0xa0, 0x86, 0x01, 0x00,                          // count
    0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  // total, widened to 8 bytes
    0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,  // mask
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f,  // mean
    0x00, 0x00, 0x80, 0xbe,                          // scale
    0x01,                                            // valid
    0xfd, 0xff,                                      // color
    0x01, 0x00, 0x00, 0x00,                          // samples
    0xff, 0xff, 0xff, 0xff,                          //
    0xff, 0xff, 0xff, 0x7f,                          //
};

TEST(CanonicalByteOrder, BigEndianImageEncodesToTheCheckedInBlob) {
  ASSERT_EQ(kReadingBigEndianImage.size(), kReadingBigEndian.size);
  EXPECT_EQ(encode(kReadingBigEndian, kReadingBigEndianImage.data(), ByteOrder::big), kReadingCanonical);
}

TEST(CanonicalByteOrder, CheckedInBlobDecodesOnThisHost) {
  ASSERT_EQ(host_byte_order(), ByteOrder::little) << "the expectations below are for a little-endian host";
  Raw<Reading> decoded;
  ASSERT_EQ(decode(kReadingHost, kReadingCanonical, decoded.bytes, host_byte_order()), "");
  EXPECT_EQ(decoded.value(), kReading);
}

TEST(CanonicalByteOrder, HostRecordDecodesToTheBigEndianImage) {
  const Bytes blob = encode(kReadingHost, &kReading, host_byte_order());
  EXPECT_EQ(blob, kReadingCanonical);
  Bytes image(kReadingBigEndian.size, 0x5a);
  ASSERT_EQ(decode(kReadingBigEndian, blob, image.data(), ByteOrder::big), "");
  EXPECT_EQ(image, kReadingBigEndianImage);
}

TEST(CanonicalByteOrder, ValueTooWideForTheBigEndianLongIsRejected) {
  Reading wide = kReading;
  wide.total = std::int64_t(1) << 40;
  Bytes image(kReadingBigEndian.size);
  EXPECT_EQ(decode(kReadingBigEndian, encode(kReadingHost, &wide), image.data(), ByteOrder::big),
            "field 'total': value 1099511627776 does not fit in 4 bytes");
}

// ---------------------------------------------------------------- frames

void fib_resume(Worker *, Frame *) noexcept {}
void words_resume(Worker *, Frame *) noexcept {}

// fib's frame as the compiler lays it out, with both of its infos.
struct FibFrame : Frame {
  std::int32_t n;
  long x;
  long y;
};
const FieldSignature kFibFields[] = {
    {"n", kInt32, offsetof(FibFrame, n), 1},
    {"x", scalar<long>(K::int64), offsetof(FibFrame, x), 1},
    {"y", scalar<long>(K::int64), offsetof(FibFrame, y), 1},
};
const RecordSignature kFibState{"frame of fib", sizeof(FibFrame), 3, kFibFields, 0xf1b0f1b0f1b0f1b0ull};
extern FrameSignature fib_signature;
const FrameInfo fib_heap_info{"fib", &fib_resume, sizeof(FibFrame), nullptr, &fib_signature};
const FrameInfo fib_stack_info{"fib", &fib_resume, sizeof(FibFrame), &fib_heap_info, &fib_signature};
FrameSignature fib_signature{fnv1a64("_Z3fibi", 7), "_Z3fibi", &fib_heap_info, &kFibState, 3};
[[maybe_unused]] const bool fib_registered = (register_frame_signature(&fib_signature), true);

// A frame with managed state: a string and a vector, each alive or not.
struct WordsFrame : Frame {
  std::int32_t i;
  union {
    std::string word;
  };
  union {
    std::vector<double> weights;
  };
  bool word_alive;
  bool weights_alive;
  WordsFrame() {}
  ~WordsFrame() {}
};
const FieldSignature kWordsFields[] = {
    {"i", kInt32, offsetof(WordsFrame, i), 1},
    {"word", kString, offsetof(WordsFrame, word), 1, offsetof(WordsFrame, word_alive)},
    {"weights", kDoubleVector, offsetof(WordsFrame, weights), 1, offsetof(WordsFrame, weights_alive)},
    {"word_alive", scalar<bool>(K::boolean), offsetof(WordsFrame, word_alive), 1},
    {"weights_alive", scalar<bool>(K::boolean), offsetof(WordsFrame, weights_alive), 1},
};
const RecordSignature kWordsState{"frame of words", sizeof(WordsFrame), 5, kWordsFields, 0x3003300330033003ull};
extern FrameSignature words_signature;
const FrameInfo words_info{"words", &words_resume, sizeof(WordsFrame), nullptr, &words_signature};
FrameSignature words_signature{fnv1a64("_Z5wordsv", 9), "_Z5wordsv", &words_info, &kWordsState, 2};
[[maybe_unused]] const bool words_registered = (register_frame_signature(&words_signature), true);

// A frame that holds a pointer: registered, never portable.
struct PointerFrame : Frame {
  int *p;
};
const FieldSignature kPointerFields[] = {
    {"p", {K::not_portable, sizeof(int *)}, offsetof(PointerFrame, p), 1, kAlways, "a raw pointer"},
};
const RecordSignature kPointerState{"frame of pointer", sizeof(PointerFrame), 1, kPointerFields, 0x77ull};
extern FrameSignature pointer_signature;
const FrameInfo pointer_info{"pointer", &fib_resume, sizeof(PointerFrame), nullptr, &pointer_signature};
FrameSignature pointer_signature{fnv1a64("_Z7pointerv", 11), "_Z7pointerv", &pointer_info, &kPointerState, 1};
[[maybe_unused]] const bool pointer_registered = (register_frame_signature(&pointer_signature), true);

// Memory for a decoded frame, released with what decoding constructed.
struct FrameMemory {
  alignas(std::max_align_t) unsigned char bytes[256];
};

Bytes fib_blob(std::int32_t entry = 2) {
  FibFrame f;
  f.info = &fib_stack_info;
  f.entry = entry;
  f.n = 30;
  f.x = 514229;
  f.y = -1;
  Bytes out;
  const Status status = encode_frame(f, out);
  EXPECT_TRUE(status) << status.error;
  return out;
}

// A frame blob with this program's tables hash around a payload written by hand.
Bytes blob_with(std::uint64_t index, std::int32_t entry, const Bytes &payload) {
  Bytes blob(kHeaderSize);
  std::memcpy(blob.data(), kMagic, 4);
  put(blob, 4, kFormatVersion, 2);
  put(blob, 8, program_tables_hash(), 8);
  put(blob, 16, index, 8);
  put(blob, 24, static_cast<std::uint32_t>(entry), 4);
  put(blob, 28, payload.size(), 4);
  blob.insert(blob.end(), payload.begin(), payload.end());
  return blob;
}

TEST(CanonicalFrame, RoundTripKeepsStateEntryAndResumePath) {
  const Bytes blob = fib_blob();
  ASSERT_EQ(blob.size(), kHeaderSize + 4 + 8 + 8);
  Header header;
  const FrameSignature *signature = nullptr;
  ASSERT_TRUE(read_header(blob.data(), blob.size(), &header, &signature));
  EXPECT_EQ(signature->state, &kFibState);
  EXPECT_EQ(header.function_index, fnv1a64("_Z3fibi", 7));
  EXPECT_EQ(header.entry, 2);
  EXPECT_EQ(header.payload_size, 20u);
  EXPECT_EQ(header.tables_hash, program_tables_hash());
  ASSERT_LE(signature->info->size, sizeof(FrameMemory));
  FrameMemory memory;
  Frame *frame = nullptr;
  const Status status = decode_frame(blob.data(), blob.size(), memory.bytes, &frame);
  ASSERT_TRUE(status) << status.error;
  auto *fib = static_cast<FibFrame *>(frame);
  EXPECT_EQ(fib->n, 30);
  EXPECT_EQ(fib->x, 514229);
  EXPECT_EQ(fib->y, -1);
  EXPECT_EQ(frame->entry, 2);
  EXPECT_EQ(frame->info, &fib_heap_info);
  EXPECT_EQ(frame->info->resume, &fib_resume);
}

TEST(CanonicalFrame, DecodedHeaderIsThatOfAFreshUnparentedFrame) {
  const Bytes blob = fib_blob();
  FrameMemory memory;
  std::memset(memory.bytes, 0xcd, sizeof memory.bytes);
  Frame *frame = nullptr;
  ASSERT_TRUE(decode_frame(blob.data(), blob.size(), memory.bytes, &frame));
  EXPECT_EQ(frame, reinterpret_cast<Frame *>(memory.bytes));
  EXPECT_EQ(frame->parent, nullptr);
  EXPECT_EQ(frame->result_slot, nullptr);
  EXPECT_EQ(frame->join.load(), 1);
  EXPECT_EQ(frame->visibility, Visibility::eager);
  EXPECT_EQ(frame->next_ready, nullptr);
  EXPECT_EQ(frame->promoted, nullptr);
  EXPECT_EQ(frame->pending, nullptr);
}

TEST(CanonicalFrame, ManagedStateRoundTripsAliveOrNot) {
  for (bool word_alive : {false, true}) {
    WordsFrame f;
    f.info = &words_info;
    f.entry = 1;
    f.i = -9;
    f.word_alive = word_alive;
    if (word_alive) ::new (&f.word) std::string("canonical");
    ::new (&f.weights) std::vector<double>{0.5, -1.0};
    f.weights_alive = true;
    Bytes blob;
    ASSERT_TRUE(encode_frame(f, blob));
    FrameMemory memory;
    Frame *frame = nullptr;
    const Status status = decode_frame(blob.data(), blob.size(), memory.bytes, &frame);
    ASSERT_TRUE(status) << status.error;
    auto *words = static_cast<WordsFrame *>(frame);
    EXPECT_EQ(words->i, -9);
    EXPECT_EQ(words->word_alive, word_alive);
    if (word_alive) {
      EXPECT_EQ(words->word, "canonical");
    }
    ASSERT_TRUE(words->weights_alive);
    EXPECT_EQ(words->weights, (std::vector<double>{0.5, -1.0}));
    destroy_record(kWordsState, frame);
    if (word_alive) f.word.~basic_string();
    f.weights.~vector();
  }
}

TEST(CanonicalFrame, EncodeRefusesFramesThatCannotTravel) {
  FibFrame f;
  f.n = 0;
  f.x = f.y = 0;
  const FrameInfo no_tables{"runtime's own", &fib_resume, sizeof(FibFrame), nullptr};
  f.info = &no_tables;
  f.entry = 1;
  Bytes out;
  EXPECT_EQ(encode_frame(f, out).error, "frame of 'runtime's own' has no signature table");
  f.info = &fib_heap_info;
  for (std::int32_t entry : {0, 4}) {
    f.entry = entry;
    EXPECT_EQ(encode_frame(f, out).error, "frame of 'fib' (_Z3fibi) is at entry " + std::to_string(entry) +
                                              ", not at a continuation point (1..3)");
  }
  PointerFrame p;
  p.info = &pointer_info;
  p.entry = 1;
  p.p = nullptr;
  EXPECT_EQ(encode_frame(p, out).error,
            "'pointer' (_Z7pointerv) cannot travel: field 'p': not portable: a raw pointer");
  EXPECT_TRUE(out.empty());
}

TEST(CanonicalFrame, WhyNotPortableNamesTheFirstFieldThatCannotTravel) {
  EXPECT_EQ(why_not_portable(fib_signature), "");
  EXPECT_EQ(why_not_portable(pointer_signature), "field 'p': not portable: a raw pointer");
  const ValueType with_pointer{K::record, sizeof(WithPointer), nullptr, &kWithPointer};
  const ValueType pointers = vector_of<WithPointer>(with_pointer);
  const FieldSignature fields[] = {{"n", kInt32, 0, 1}, {"items", pointers, 8, 1}};
  const RecordSignature state{"frame of items", 40, 2, fields, 0};
  const FrameSignature items{1, "items", &fib_heap_info, &state, 1};
  EXPECT_EQ(why_not_portable(items),
            "field 'items[].p': not portable: a raw pointer into this process's memory");
}

// ---------------------------------------------------------------- header errors

Status read(const Bytes &blob) {
  Header header;
  const FrameSignature *signature = nullptr;
  Status status = read_header(blob.data(), blob.size(), &header, &signature);
  EXPECT_EQ(status.error.empty(), signature != nullptr);
  return status;
}

TEST(CanonicalHeader, EveryBadFieldIsRejectedByName) {
  const Bytes good = fib_blob();
  ASSERT_TRUE(read(good));
  auto with = [&](std::size_t at, std::uint64_t value, int width) {
    Bytes blob = good;
    put(blob, at, value, width);
    return blob;
  };
  EXPECT_EQ(read(with(0, 'X', 1)).error, "bad magic 0x58504b46: not a canonical frame (\"CPKF\")");
  EXPECT_EQ(read(with(4, 2, 2)).error, "format version 2, this runtime reads version 1");
  EXPECT_EQ(read(with(6, 1, 2)).error, "header flags 0x0001 set: no flags are defined in version 1");
  EXPECT_ERROR(read(with(8, program_tables_hash() ^ 1, 8)),
               "does not match this program's 0x");
  EXPECT_ERROR(read(with(8, program_tables_hash() ^ 1, 8)), ": built from different source");
  EXPECT_EQ(read(with(16, 0x1234, 8)).error, "unknown function index 0x0000000000001234");
  EXPECT_EQ(read(with(24, 0, 4)).error, "entry 0 is not a continuation point of 'fib' (_Z3fibi) (1..3)");
  EXPECT_EQ(read(with(24, 4, 4)).error, "entry 4 is not a continuation point of 'fib' (_Z3fibi) (1..3)");
  EXPECT_EQ(read(with(24, 0xffffffff, 4)).error, "entry -1 is not a continuation point of 'fib' (_Z3fibi) (1..3)");
  EXPECT_EQ(read(with(28, 21, 4)).error, "payload size 21 in the header, but 20 bytes follow it");
}

TEST(CanonicalHeader, OversizedBlobIsRejectedBeforeItIsRead) {
  const Bytes good = fib_blob();
  Header header;
  const FrameSignature *signature;
  EXPECT_EQ(read_header(good.data(), kMaxBlobSize + 1, &header, &signature).error,
            "blob of 1073741825 bytes exceeds the limit of 1073741824");
}

TEST(CanonicalHeader, NotPortableProcedureIsRejected) {
  EXPECT_EQ(read(blob_with(pointer_signature.index, 1, Bytes(8))).error,
            "'pointer' (_Z7pointerv) cannot travel: field 'p': not portable: a raw pointer");
}

TEST(CanonicalHeader, EveryTruncationIsAnErrorNotACrash) {
  const Bytes good = fib_blob();
  for (std::size_t size = 0; size < good.size(); ++size) {
    const Bytes cut(good.begin(), good.begin() + size);
    if (size < kHeaderSize)
      EXPECT_EQ(read(cut).error, "blob truncated: header needs 32 bytes, got " + std::to_string(size));
    else
      EXPECT_ERROR(read(cut), "payload size 20 in the header");
    FrameMemory memory;
    Frame *frame = reinterpret_cast<Frame *>(1);
    EXPECT_FALSE(decode_frame(cut.data(), cut.size(), memory.bytes, &frame)) << size;
    EXPECT_EQ(frame, nullptr);
  }
}

// ---------------------------------------------------------------- hostile payloads

Bytes words_payload(bool word_alive, std::uint64_t length, bool weights_alive, std::uint64_t count) {
  Bytes payload;
  append(payload, 5, 4);
  append(payload, word_alive, 1);
  if (word_alive) {
    append(payload, length, 8);
    for (std::uint64_t i = 0; i < length && i < 16; ++i) payload.push_back('w');
  }
  append(payload, weights_alive, 1);
  if (weights_alive) {
    append(payload, count, 8);
    for (std::uint64_t i = 0; i < count && i < 16; ++i) append(payload, 0x3ff0000000000000, 8);
  }
  append(payload, word_alive, 1);
  append(payload, weights_alive, 1);
  return payload;
}

std::string decode_words(const Bytes &payload) {
  const Bytes blob = blob_with(words_signature.index, 1, payload);
  FrameMemory memory;
  Frame *frame = nullptr;
  const Status status = decode_frame(blob.data(), blob.size(), memory.bytes, &frame);
  if (frame) destroy_record(kWordsState, frame);
  return status.error;
}

TEST(CanonicalHostile, WellFormedPayloadIsAccepted) { EXPECT_EQ(decode_words(words_payload(true, 3, true, 2)), ""); }

TEST(CanonicalHostile, HugeStringLengthFailsFast) {
  EXPECT_EQ(decode_words(words_payload(true, std::uint64_t(1) << 60, true, 1)),
            "field 'word': string of 1152921504606846976 bytes, but only 35 bytes remain");
}

TEST(CanonicalHostile, HugeVectorCountFailsFast) {
  EXPECT_EQ(decode_words(words_payload(false, 0, true, std::uint64_t(1) << 60)),
            "field 'weights': vector of 1152921504606846976 elements of at least 8 bytes each, but only 130 bytes "
            "remain");
}

TEST(CanonicalHostile, BoolSevenIsRejected) {
  Bytes payload = words_payload(false, 0, false, 0);
  payload.back() = 7;
  EXPECT_EQ(decode_words(payload), "field 'weights_alive': bool value 7 is neither 0 nor 1");
}

TEST(CanonicalHostile, TrailingGarbageIsRejected) {
  Bytes payload = words_payload(true, 3, true, 2);
  payload.push_back(0);
  EXPECT_EQ(decode_words(payload), "trailing bytes: the state ends at byte 75 of 76");
}

TEST(CanonicalHostile, TruncatedPayloadAtEveryLengthIsAnError) {
  const Bytes payload = words_payload(true, 3, true, 2);
  for (std::size_t size = 0; size < payload.size(); ++size)
    EXPECT_NE(decode_words(Bytes(payload.begin(), payload.begin() + size)), "") << size;
}

// ---------------------------------------------------------------- the function table

TEST(FunctionTable, FindsRegisteredProcedures) {
  // fib may also be registered a second time (SameProcedureFromAnotherUnit...).
  const FrameSignature *fib = find_frame_signature(fib_signature.index);
  ASSERT_NE(fib, nullptr);
  EXPECT_EQ(fib->state, &kFibState);
  EXPECT_EQ(find_frame_signature(words_signature.index), &words_signature);
  EXPECT_EQ(find_frame_signature(0x5eed), nullptr);
}

TEST(FunctionTable, SameProcedureFromAnotherUnitIsOneEntry) {
  const std::uint64_t before = program_tables_hash();
  // What a second translation unit that instantiates fib registers.
  static FrameSignature again{fib_signature.index, "_Z3fibi", &fib_heap_info, &kFibState, 3};
  register_frame_signature(&again);
  register_frame_signature(&again);  // twice the same object: harmless too
  EXPECT_EQ(program_tables_hash(), before);
  const FrameSignature *found = find_frame_signature(fib_signature.index);
  EXPECT_TRUE(found == &fib_signature || found == &again);
  EXPECT_TRUE(read(fib_blob()));
}

TEST(FunctionTable, ConflictingRegistrationMakesTheIndexUnusable) {
  static const FieldSignature fields[] = {{"a", kInt32, sizeof(Frame), 1}};
  static const RecordSignature one{"frame of clash", sizeof(Frame) + 8, 1, fields, 0x1111};
  static const RecordSignature other{"frame of clash", sizeof(Frame) + 8, 1, fields, 0x2222};
  static const FrameInfo info{"clash", &fib_resume, sizeof(Frame) + 8, nullptr};
  const std::uint64_t index = fnv1a64("_Z5clashv", 9);
  static FrameSignature first{index, "_Z5clashv", &info, &one, 1};
  static FrameSignature second{index, "_Z5clashv", &info, &other, 1};
  register_frame_signature(&first);
  EXPECT_EQ(find_frame_signature(index), &first);
  register_frame_signature(&second);
  EXPECT_EQ(find_frame_signature(index), nullptr);
  EXPECT_EQ(read(blob_with(index, 1, Bytes(4))).error,
            "function index 0x5a7b4eed0ed20e9e, 'clash' (_Z5clashv), is registered with different tables "
            "(canonical hash 0x0000000000001111, entries 1..1; canonical hash 0x0000000000002222, entries 1..1): "
            "translation units built from different source");
  EXPECT_TRUE(read(fib_blob())) << "other procedures are unaffected";
}

TEST(FunctionTable, TablesHashIgnoresOrderAndDuplicates) {
  const std::uint64_t hash = tables_hash_of({&fib_signature, &words_signature, &pointer_signature});
  EXPECT_EQ(tables_hash_of({&pointer_signature, &fib_signature, &words_signature}), hash);
  EXPECT_EQ(tables_hash_of({&words_signature, &fib_signature, &pointer_signature, &fib_signature}), hash);
  EXPECT_NE(tables_hash_of({&fib_signature, &words_signature}), hash);
  FrameSignature more_entries = fib_signature;
  more_entries.entry_count = 4;
  EXPECT_NE(tables_hash_of({&more_entries, &words_signature, &pointer_signature}), hash);
}

TEST(FunctionTable, TablesHashIsStableAcrossBuilds) {
  // FNV-1a of the sorted (index, canonical hash, entry count) triples,
  // little-endian: a blob written by one build is read by the next.
  EXPECT_EQ(tables_hash_of({}), 0xcbf29ce484222325ull);
  EXPECT_EQ(tables_hash_of({&fib_signature, &words_signature}), 0xa4f4d953930d7ea7ull);
}

TEST(FunctionTable, NewProcedureChangesTheProgramHash) {
  const std::uint64_t before = program_tables_hash();
  static FrameSignature late{fnv1a64("_Z4latev", 8), "_Z4latev", &fib_heap_info, &kFibState, 3};
  register_frame_signature(&late);
  EXPECT_NE(program_tables_hash(), before);
  EXPECT_EQ(find_frame_signature(late.index), &late);
}

}  // namespace
