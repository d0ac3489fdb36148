// Signature tables (Lu 1995, §3): the layout of every frame and of every user
// type a frame holds, emitted by the compiler, so that the runtime can
// translate a frame to the canonical format (canonical.h) and back without
// knowing the program. docs/signatures.md describes the tables and the format.
//
// Everything here is constant data the compiler emits once per type; none of
// it is touched on the fast path of a spawn.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace cilkpp::rt {

struct FrameInfo;

// The canonical type of a value. The numbers are part of the format (they
// feed the table hash): never renumber, only append.
enum class CanonicalKind : std::uint8_t {
  boolean = 1,    // one byte, 0 or 1
  int8 = 2,       // char, signed char
  uint8 = 3,      // unsigned char, char8_t, std::byte
  int16 = 4,
  uint16 = 5,
  int32 = 6,
  uint32 = 7,
  int64 = 8,      // long and long long are 64-bit in the canonical format
  uint64 = 9,
  float32 = 10,   // IEEE 754 binary32
  float64 = 11,   // IEEE 754 binary64
  enumeration = 12,  // its underlying integer (ValueType::element)
  record = 13,       // a struct or class: its own table (ValueType::record)
  string = 14,       // std::string: u64 length, then the bytes
  vector = 15,       // std::vector<T>: u64 count, then the elements
  not_portable = 16, // FieldSignature::not_portable says why
};

struct RecordSignature;

// How the runtime makes and reaches one std::vector<T>, whatever T is.
struct VectorOps {
  void (*construct)(void *vec) noexcept;  // an empty vector at that address
  void (*destroy)(void *vec) noexcept;
  std::size_t (*size)(const void *vec) noexcept;
  void *(*data)(void *vec) noexcept;
  // Resizes to n value-initialised elements; false if that failed (memory).
  bool (*resize)(void *vec, std::size_t n) noexcept;
};

template <class T>
struct VectorOpsFor {
  static void construct(void *v) noexcept { ::new (v) std::vector<T>(); }
  static void destroy(void *v) noexcept { static_cast<std::vector<T> *>(v)->~vector(); }
  static std::size_t size(const void *v) noexcept { return static_cast<const std::vector<T> *>(v)->size(); }
  static void *data(void *v) noexcept { return static_cast<std::vector<T> *>(v)->data(); }
  static bool resize(void *v, std::size_t n) noexcept {
    try {
      static_cast<std::vector<T> *>(v)->resize(n);
      return true;
    } catch (...) {
      return false;
    }
  }
  static constexpr VectorOps ops{&construct, &destroy, &size, &data, &resize};
};

// What one element of a field is, natively and canonically.
struct ValueType {
  CanonicalKind kind;
  // sizeof one element on this machine (a `long` may be 4 or 8 bytes here; it
  // is 8 canonically, and decoding checks that the value fits).
  std::uint32_t native_size;
  // enumeration: the underlying integer; vector: the element type.
  const ValueType *element = nullptr;
  const RecordSignature *record = nullptr;  // record
  const VectorOps *vector = nullptr;        // vector
};

struct FieldSignature {
  const char *name;
  ValueType type;
  std::uint32_t offset;  // from the start of the record (of the frame struct)
  std::uint32_t count;   // elements of a fixed array (flattened); 1 otherwise
  // A field whose object is constructed and destroyed by the procedure (a
  // string, a vector, a class with a destructor) is not always alive: the
  // frame keeps a bool at this offset that says whether it is. ~0u when the
  // field is always alive.
  std::uint32_t alive_flag_offset = ~0u;
  // Set when type.kind is not_portable: why ("raw pointer", "reference", ...).
  const char *not_portable = nullptr;
};

struct RecordSignature {
  const char *name;     // the C++ type, or "frame of <procedure>"
  std::uint32_t size;   // sizeof the record here
  std::uint32_t field_count;
  const FieldSignature *fields;
  // Hash of the canonical description (names, canonical kinds, counts, nested
  // tables), independent of native sizes and offsets: two builds agree on it
  // exactly when they agree on the canonical format of the record.
  std::uint64_t canonical_hash;
  // Construct a value-initialised object at an address, and destroy it, for
  // records with strings or vectors inside; nullptr for trivially copyable
  // records (decoding writes their bytes in place).
  void (*construct)(void *) noexcept = nullptr;
  void (*destroy)(void *) noexcept = nullptr;
};

// RecordSignature::construct and destroy for a record type T.
template <class T>
void construct_object(void *p) noexcept {
  ::new (p) T();
}
template <class T>
void destroy_object(void *p) noexcept {
  static_cast<T *>(p)->~T();
}

// One entry of the program-wide function table: a cilk procedure, the code
// that resumes it and the layout of its frame.
struct FrameSignature {
  // Stable index: the FNV-1a 64 hash of the procedure's mangled name, so two
  // builds of the same source agree on it whatever the link order.
  std::uint64_t index;
  const char *mangled_name;
  const FrameInfo *info;          // heap frame info: resume path and size
  const RecordSignature *state;   // fields after the Frame header
  std::int32_t entry_count;       // valid continuation points: 1..entry_count
  // Registry link, set by register_frame_signature.
  const FrameSignature *next = nullptr;
};

// Adds a procedure to the function table; generated code calls this from a
// static initializer, once per procedure and translation unit.
void register_frame_signature(FrameSignature *signature) noexcept;

// The procedure with this index, or nullptr; nullptr too when two
// registrations of the index disagree on its tables (docs/signatures.md).
const FrameSignature *find_frame_signature(std::uint64_t index) noexcept;

// Hash of every registered table: what the canonical header carries, so that
// a worker built from different source refuses a blob instead of misreading it.
std::uint64_t program_tables_hash() noexcept;

// The FNV-1a 64 hash the compiler uses for indices and canonical hashes.
constexpr std::uint64_t fnv1a64(const char *text, std::size_t length) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < length; ++i) {
    h ^= static_cast<unsigned char>(text[i]);
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace cilkpp::rt
