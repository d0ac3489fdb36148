// libFuzzer target for the canonical decoder (canonical.h): any input goes
// through read_header and decode_frame against frames whose tables hold every
// kind of value. Besides the sanitizers' checks, a blob the decoder accepts
// must encode back to itself: the canonical form of a value is unique.
//
// `canonical_decode_fuzzer --write-corpus=DIR` writes the seed corpus
// (valid blobs of these frames) to DIR; scripts/fuzz.sh builds and runs this.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include "cilkpp/rt/canonical.h"
#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/signature.h"

// Frames are not standard-layout (they derive from Frame); generated tables
// take offsetof of their members all the same.
#pragma GCC diagnostic ignored "-Winvalid-offsetof"

namespace {

using namespace cilkpp::rt;
using K = CanonicalKind;

constexpr std::uint32_t kAlways = ~0u;

template <class T>
constexpr ValueType scalar(K kind) {
  return {kind, sizeof(T)};
}
template <class T>
constexpr ValueType vector_of(const ValueType &element) {
  return {K::vector, sizeof(std::vector<T>), &element, nullptr, &VectorOpsFor<T>::ops};
}

void resume(Worker *, Frame *) noexcept {}

// fib's frame.
struct FibFrame : Frame {
  std::int32_t n;
  long x;
  long y;
};
const FieldSignature kFibFields[] = {
    {"n", scalar<std::int32_t>(K::int32), offsetof(FibFrame, n), 1},
    {"x", scalar<long>(K::int64), offsetof(FibFrame, x), 1},
    {"y", scalar<long>(K::int64), offsetof(FibFrame, y), 1},
};
const RecordSignature kFibState{"frame of fib", sizeof(FibFrame), 3, kFibFields, 0x1001};
extern FrameSignature fib_signature;
const FrameInfo fib_info{"fib", &resume, sizeof(FibFrame), nullptr, &fib_signature};
FrameSignature fib_signature{fnv1a64("_Z3fibi", 7), "_Z3fibi", &fib_info, &kFibState, 3};

// A frame with one of everything.
enum class Mode : std::uint8_t { off, on };
struct Point {  // trivially copyable, with padding
  double x;
  std::int16_t tag;
  double y;
};
struct Person {  // needs constructing
  std::string name;
  std::vector<std::int32_t> scores;
  Point home;
};
struct Empty {};

const ValueType kInt32 = scalar<std::int32_t>(K::int32);
const ValueType kDouble = scalar<double>(K::float64);
const ValueType kString{K::string, sizeof(std::string)};
const ValueType kModeUnderlying = scalar<std::uint8_t>(K::uint8);
const ValueType kMode{K::enumeration, sizeof(Mode), &kModeUnderlying};
const FieldSignature kPointFields[] = {
    {"x", kDouble, offsetof(Point, x), 1},
    {"tag", scalar<std::int16_t>(K::int16), offsetof(Point, tag), 1},
    {"y", kDouble, offsetof(Point, y), 1},
};
const RecordSignature kPoint{"Point", sizeof(Point), 3, kPointFields, 0x2001};
const ValueType kPointType{K::record, sizeof(Point), nullptr, &kPoint};
const ValueType kIntVector = vector_of<std::int32_t>(kInt32);
const FieldSignature kPersonFields[] = {
    {"name", kString, offsetof(Person, name), 1},
    {"scores", kIntVector, offsetof(Person, scores), 1},
    {"home", kPointType, offsetof(Person, home), 1},
};
const RecordSignature kPerson{"Person", sizeof(Person), 3, kPersonFields, 0x2002, &construct_object<Person>,
                              &destroy_object<Person>};
const ValueType kPersonType{K::record, sizeof(Person), nullptr, &kPerson};
const RecordSignature kEmpty{"Empty", sizeof(Empty), 0, nullptr, 0x2003};
const ValueType kEmptyType{K::record, sizeof(Empty), nullptr, &kEmpty};
const ValueType kStringVector = vector_of<std::string>(kString);
const ValueType kPersonVector = vector_of<Person>(kPersonType);
const ValueType kRowsVector = vector_of<std::vector<std::int32_t>>(kIntVector);
const ValueType kEmptyVector = vector_of<Empty>(kEmptyType);

struct RichFrame : Frame {
  std::int32_t i;
  std::uint64_t u;
  bool flag;
  Mode mode;
  std::int16_t grid[2][3];
  std::int32_t small_long;  // a `long` of 4 bytes: decoding narrows
  float ratio;
  Point where;
  union {
    std::string title;
  };
  union {
    std::vector<std::int32_t> ints;
  };
  union {
    std::vector<std::string> words;
  };
  union {
    std::vector<Person> people;
  };
  union {
    std::vector<std::vector<std::int32_t>> rows;
  };
  union {
    std::vector<Empty> tags;
  };
  union {
    Person owner;
  };
  bool title_alive, ints_alive, words_alive, people_alive, rows_alive, tags_alive, owner_alive;
  RichFrame() {}
  ~RichFrame() {}
};
#define MANAGED(member, type) \
  {#member, type, offsetof(RichFrame, member), 1, offsetof(RichFrame, member##_alive)}
#define FLAG(member) \
  {#member "_alive", scalar<bool>(K::boolean), offsetof(RichFrame, member##_alive), 1}
const FieldSignature kRichFields[] = {
    {"i", kInt32, offsetof(RichFrame, i), 1},
    {"u", scalar<std::uint64_t>(K::uint64), offsetof(RichFrame, u), 1},
    {"flag", scalar<bool>(K::boolean), offsetof(RichFrame, flag), 1},
    {"mode", kMode, offsetof(RichFrame, mode), 1},
    {"grid", scalar<std::int16_t>(K::int16), offsetof(RichFrame, grid), 6},
    {"small_long", {K::int64, 4}, offsetof(RichFrame, small_long), 1},
    {"ratio", scalar<float>(K::float32), offsetof(RichFrame, ratio), 1},
    {"where", kPointType, offsetof(RichFrame, where), 1},
    MANAGED(title, kString),
    MANAGED(ints, kIntVector),
    MANAGED(words, kStringVector),
    MANAGED(people, kPersonVector),
    MANAGED(rows, kRowsVector),
    MANAGED(tags, kEmptyVector),
    MANAGED(owner, kPersonType),
    FLAG(title),
    FLAG(ints),
    FLAG(words),
    FLAG(people),
    FLAG(rows),
    FLAG(tags),
    FLAG(owner),
};
#undef MANAGED
#undef FLAG
const RecordSignature kRichState{"frame of rich", sizeof(RichFrame), sizeof kRichFields / sizeof kRichFields[0],
                                 kRichFields, 0x1002};
extern FrameSignature rich_signature;
const FrameInfo rich_info{"rich", &resume, sizeof(RichFrame), nullptr, &rich_signature};
FrameSignature rich_signature{fnv1a64("_Z4richv", 8), "_Z4richv", &rich_info, &kRichState, 4};

// A frame that cannot travel: every blob naming it must be refused.
struct PointerFrame : Frame {
  int *p;
};
const FieldSignature kPointerFields[] = {
    {"p", {K::not_portable, sizeof(int *)}, offsetof(PointerFrame, p), 1, kAlways, "a raw pointer"},
};
const RecordSignature kPointerState{"frame of pointer", sizeof(PointerFrame), 1, kPointerFields, 0x1003};
extern FrameSignature pointer_signature;
const FrameInfo pointer_info{"pointer", &resume, sizeof(PointerFrame), nullptr, &pointer_signature};
FrameSignature pointer_signature{fnv1a64("_Z7pointerv", 11), "_Z7pointerv", &pointer_info, &kPointerState, 1};

[[maybe_unused]] const bool registered = (register_frame_signature(&fib_signature),
                                          register_frame_signature(&rich_signature),
                                          register_frame_signature(&pointer_signature), true);

constexpr std::size_t kFrameMemory = sizeof(RichFrame) > sizeof(FibFrame) ? sizeof(RichFrame) : sizeof(FibFrame);

[[noreturn]] void die(const std::string &why) {
  std::fprintf(stderr, "canonical_decode_fuzzer: %s\n", why.c_str());
  std::abort();
}

// ---------------------------------------------------------------- the seed corpus

std::vector<std::uint8_t> encode(const Frame &frame) {
  std::vector<std::uint8_t> blob;
  if (canonical::Status status = canonical::encode_frame(frame, blob); !status) die("seed: " + status.error);
  return blob;
}

void write(const std::string &dir, const std::string &name, const std::vector<std::uint8_t> &blob) {
  std::ofstream out(dir + "/" + name, std::ios::binary);
  out.write(reinterpret_cast<const char *>(blob.data()), static_cast<std::streamsize>(blob.size()));
  if (!out) die("cannot write " + dir + "/" + name);
}

// A RichFrame whose managed members are all alive (and filled when `full`),
// or all dead.
struct RichSample {
  RichFrame f;
  bool alive;

  RichSample(bool alive, bool full) : alive(alive) {
    f.info = &rich_info;
    f.entry = full ? 3 : 1;
    f.i = -7;
    f.u = 0xfedcba9876543210u;
    f.flag = true;
    f.mode = Mode::on;
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c) f.grid[r][c] = static_cast<std::int16_t>(r * 10 - c);
    f.small_long = -123456;
    f.ratio = 0.75f;
    f.where = {1.5, -2, -3.25};
    f.title_alive = f.ints_alive = f.words_alive = f.people_alive = f.rows_alive = f.tags_alive = f.owner_alive =
        alive;
    if (!alive) return;
    ::new (&f.title) std::string();
    ::new (&f.ints) std::vector<std::int32_t>();
    ::new (&f.words) std::vector<std::string>();
    ::new (&f.people) std::vector<Person>();
    ::new (&f.rows) std::vector<std::vector<std::int32_t>>();
    ::new (&f.tags) std::vector<Empty>();
    ::new (&f.owner) Person{"", {9}, {0, 1, 2}};
    if (!full) return;
    f.title = "a title";
    f.ints = {1, -1, 65536};
    f.words = {"", "two", std::string("n\0l", 3)};
    f.people = {Person{}, Person{"ada", {3, 2, 1}, {4, 5, 6}}};
    f.rows = {{}, {4, 5}};
    f.tags.resize(3);
    f.owner.name = "owner";
  }
  ~RichSample() {
    if (!alive) return;
    f.title.~basic_string();
    f.ints.~vector();
    f.words.~vector();
    f.people.~vector();
    f.rows.~vector();
    f.tags.~vector();
    f.owner.~Person();
  }
};

void write_corpus(const std::string &dir) {
  for (std::int32_t entry = 1; entry <= 3; ++entry) {
    FibFrame f;
    f.info = &fib_info;
    f.entry = entry;
    f.n = 30 - entry;
    f.x = 832040;
    f.y = -514229;
    write(dir, "fib-entry" + std::to_string(entry), encode(f));
  }
  write(dir, "rich-full", encode(RichSample(true, true).f));
  write(dir, "rich-empty", encode(RichSample(true, false).f));
  write(dir, "rich-dead", encode(RichSample(false, false).f));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  const std::string flag = "--write-corpus=";
  for (int i = 1; i < *argc; ++i) {
    if (std::strncmp((*argv)[i], flag.c_str(), flag.size()) != 0) continue;
    write_corpus((*argv)[i] + flag.size());
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  canonical::Header header;
  const FrameSignature *signature;
  if (!canonical::read_header(data, size, &header, &signature)) return 0;
  if (signature->info->size > kFrameMemory) die("a registered frame does not fit the fuzzer's frame memory");
  alignas(std::max_align_t) static unsigned char memory[kFrameMemory];
  Frame *frame;
  if (!canonical::decode_frame(data, size, memory, &frame)) return 0;
  std::vector<std::uint8_t> again;
  const canonical::Status encoded = canonical::encode_frame(*frame, again);
  canonical::destroy_record(*signature->state, frame);
  if (!encoded) die("a decoded frame does not encode: " + encoded.error);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
    die("a decoded frame encodes to other bytes than it was decoded from");
  return 0;
}
