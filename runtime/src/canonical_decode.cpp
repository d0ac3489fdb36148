// The decoder: canonical blobs to native records and frames. Its input comes
// from another process and may be truncated, corrupted or hostile: every
// length is checked against the bytes that remain before anything is
// allocated, and on any failure what was constructed is destroyed again
// (docs/signatures.md, "Errors").
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "canonical_codec.h"
#include "cilkpp/rt/canonical.h"
#include "cilkpp/rt/frame.h"
#include "function_table.h"

namespace cilkpp::rt::canonical {

using namespace detail;

namespace {

// What the memory a value is decoded into holds: nothing yet (a frame's
// state, a record the caller allocated), or an object its owner has already
// value-initialised (the members of a record its construct function made, a
// vector's elements after resize), which decoding assigns to.
enum class Storage { raw, live };

void destroy_string(void *p) noexcept { static_cast<std::string *>(p)->~basic_string(); }

// "0x" and `digits` hexadecimal digits: hashes and indices in messages.
std::string hex(std::uint64_t value, int digits = 16) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(2 + digits, '0');
  text[1] = 'x';
  for (int i = digits + 1; i >= 2; --i, value >>= 4) text[i] = kDigits[value & 15];
  return text;
}

class Decoder {
 public:
  Decoder(const std::uint8_t *bytes, std::size_t size, std::size_t pos, ByteOrder order)
      : bytes_(bytes), size_(size), pos_(pos), order_(order), empty_budget_(size) {}

  bool record(const RecordSignature &table, std::uint8_t *native, Storage storage);
  // Destroys everything constructed so far, newest first.
  void undo() noexcept;
  std::size_t pos() const noexcept { return pos_; }

  Failure failure;

 private:
  bool field(const FieldSignature &field, std::uint8_t *record, Storage storage, std::vector<std::uint8_t> &presence);
  bool alive_flags_agree(const RecordSignature &table, const std::uint8_t *native,
                         const std::vector<std::uint8_t> &presence);
  bool run(const ValueType &type, std::uint8_t *first, std::size_t n, Storage storage, bool indexed);
  bool scalars(const ValueType &type, std::uint8_t *first, std::size_t n, bool indexed);
  bool value(const ValueType &type, std::uint8_t *native, Storage storage);
  bool string(std::uint8_t *native, Storage storage);
  bool vector(const ValueType &type, std::uint8_t *native, Storage storage);
  bool count_fits(const ValueType &element, std::uint64_t count);
  const std::uint8_t *take(std::uint64_t n);
  bool remember(void (*destroy)(void *) noexcept, void *object);
  std::size_t remaining() const noexcept { return size_ - pos_; }
  bool fail(std::string what) {
    failure.what = std::move(what);
    return false;
  }

  // An object decoding constructed in raw storage. Objects constructed in
  // live storage belong to one of these (a record or a vector), never to the
  // log themselves.
  struct Constructed {
    void (*destroy)(void *) noexcept;
    void *object;
  };

  const std::uint8_t *bytes_;
  std::size_t size_;
  std::size_t pos_;
  ByteOrder order_;
  int depth_ = 0;
  // How many more elements without canonical bytes may be made: one per byte
  // of the input, which for a frame is the whole blob, as the encoder counts
  // (see count_fits).
  std::uint64_t empty_budget_;
  std::vector<Constructed> undo_;
};

bool Decoder::record(const RecordSignature &table, std::uint8_t *native, Storage storage) {
  if (++depth_ > kMaxNesting) return fail(too_deep());
  if (storage == Storage::raw && table.construct) {
    table.construct(native);
    if (!remember(table.destroy, native)) return false;
    storage = Storage::live;
  }
  std::vector<std::uint8_t> presence;  // of the fields with an alive flag, in order
  for (std::uint32_t i = 0; i < table.field_count; ++i) {
    if (!field(table.fields[i], native, storage, presence)) {
      failure.within_field(table.fields[i].name);
      return false;
    }
  }
  if (!alive_flags_agree(table, native, presence)) return false;
  --depth_;
  return true;
}

bool Decoder::field(const FieldSignature &field, std::uint8_t *record, Storage storage,
                    std::vector<std::uint8_t> &presence) {
  if (field.type.kind == CanonicalKind::not_portable) return fail("not portable: no blob can hold it");
  if (field.alive_flag_offset != kNoAliveFlag) {
    const std::uint8_t *alive = take(1);
    if (!alive) return false;
    if (*alive > 1) return fail("presence byte " + std::to_string(*alive) + " is neither 0 nor 1");
    record[field.alive_flag_offset] = *alive;
    presence.push_back(*alive);
    if (!*alive) return true;
  }
  return run(field.type, record + field.offset, field.count, storage, field.count > 1);
}

// A field's alive flag is a field of the table too, so a blob states it
// twice: as the presence byte before the field and as the flag's own value.
// If they differed, the program would destroy an object that was never
// constructed, or leak one.
bool Decoder::alive_flags_agree(const RecordSignature &table, const std::uint8_t *native,
                                const std::vector<std::uint8_t> &presence) {
  std::size_t next = 0;
  for (std::uint32_t i = 0; i < table.field_count; ++i) {
    const FieldSignature &field = table.fields[i];
    if (field.alive_flag_offset == kNoAliveFlag) continue;
    const std::uint8_t flag = native[field.alive_flag_offset], present = presence[next++];
    if (flag != present) {
      failure.what = "its alive flag is " + std::to_string(flag) + " but its presence byte was " +
                     std::to_string(present);
      failure.within_field(field.name);
      return false;
    }
  }
  return true;
}

bool Decoder::run(const ValueType &type, std::uint8_t *first, std::size_t n, Storage storage, bool indexed) {
  if (scalar_width(scalar_kind(type)) != 0) return scalars(type, first, n, indexed);
  for (std::size_t i = 0; i < n; ++i) {
    if (!value(type, first + i * type.native_size, storage)) {
      if (indexed) failure.within_element(i);
      return false;
    }
  }
  return true;
}

bool Decoder::scalars(const ValueType &type, std::uint8_t *first, std::size_t n, bool indexed) {
  const CanonicalKind kind = scalar_kind(type);
  const std::uint32_t width = scalar_width(kind);
  if (const char *problem = native_size_problem(kind, type.native_size)) return fail(problem);
  const std::uint8_t *from = take(std::uint64_t(n) * width);
  if (!from) return false;
  if (native_is_canonical(type, order_)) {
    if (n) std::memcpy(first, from, n * width);
    return true;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!copy_scalar(kind, from + i * width, width, ByteOrder::little, first + i * type.native_size,
                     type.native_size, order_, failure)) {
      if (indexed) failure.within_element(i);
      return false;
    }
  }
  return true;
}

bool Decoder::value(const ValueType &type, std::uint8_t *native, Storage storage) {
  switch (type.kind) {
    case CanonicalKind::record: return record(*type.record, native, storage);
    case CanonicalKind::string: return string(native, storage);
    case CanonicalKind::vector: return vector(type, native, storage);
    default: return fail("not portable: no blob can hold it");
  }
}

bool Decoder::string(std::uint8_t *native, Storage storage) {
  const std::uint8_t *length_bytes = take(8);
  if (!length_bytes) return false;
  const std::uint64_t length = load(length_bytes, 8, ByteOrder::little);
  if (length > remaining())
    return fail("string of " + std::to_string(length) + " bytes, but only " + std::to_string(remaining()) +
                " bytes remain");
  const char *chars = reinterpret_cast<const char *>(take(length));
  try {
    if (storage == Storage::live) {
      reinterpret_cast<std::string *>(native)->assign(chars, length);
      return true;
    }
    ::new (native) std::string(chars, length);
  } catch (const std::bad_alloc &) {
    return fail("out of memory for a string of " + std::to_string(length) + " bytes");
  }
  return remember(&destroy_string, native);
}

bool Decoder::vector(const ValueType &type, std::uint8_t *native, Storage storage) {
  if (++depth_ > kMaxNesting) return fail(too_deep());
  const std::uint8_t *count_bytes = take(8);
  if (!count_bytes) return false;
  const std::uint64_t count = load(count_bytes, 8, ByteOrder::little);
  if (!count_fits(*type.element, count)) return false;
  if (storage == Storage::raw) {
    type.vector->construct(native);
    if (!remember(type.vector->destroy, native)) return false;
  }
  if (!type.vector->resize(native, count)) return fail("out of memory for " + std::to_string(count) + " elements");
  auto *elements = static_cast<std::uint8_t *>(type.vector->data(native));
  if (!run(*type.element, elements, count, Storage::live, true)) return false;
  --depth_;
  return true;
}

// Whether a vector of `count` elements can be in the rest of the blob, so
// that memory is allocated only for elements the blob pays for: each takes
// at least min_canonical_size bytes. Elements that take none (records
// without fields) draw instead on a budget of one per byte of the blob,
// which the encoder respects too.
bool Decoder::count_fits(const ValueType &element, std::uint64_t count) {
  const std::uint64_t each = min_canonical_size(element);
  if (each == 0) {
    if (count <= empty_budget_) {
      empty_budget_ -= count;
      return true;
    }
    return fail("vector of " + std::to_string(count) + " elements without canonical bytes, more than the " +
                std::to_string(empty_budget_) + " the blob's size leaves");
  }
  if (count <= remaining() / each) return true;
  return fail("vector of " + std::to_string(count) + " elements of at least " + std::to_string(each) +
              " bytes each, but only " + std::to_string(remaining()) + " bytes remain");
}

const std::uint8_t *Decoder::take(std::uint64_t n) {
  if (n > remaining()) {
    fail("blob truncated: " + std::to_string(n) + " bytes needed at offset " + std::to_string(pos_) + ", " +
         std::to_string(remaining()) + " left");
    return nullptr;
  }
  const std::uint8_t *at = bytes_ + pos_;
  pos_ += n;
  return at;
}

bool Decoder::remember(void (*destroy)(void *) noexcept, void *object) {
  try {
    undo_.push_back({destroy, object});
    return true;
  } catch (const std::bad_alloc &) {
    destroy(object);
    return fail("out of memory");
  }
}

void Decoder::undo() noexcept {
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) it->destroy(it->object);
  undo_.clear();
}

void destroy_values(const ValueType &type, std::uint8_t *first, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint8_t *native = first + i * type.native_size;
    switch (type.kind) {
      case CanonicalKind::string: destroy_string(native); break;
      case CanonicalKind::vector: type.vector->destroy(native); break;
      case CanonicalKind::record: destroy_record(*type.record, native); break;
      default: return;  // scalars; not_portable fields are never decoded
    }
  }
}

// The header's checks that need no tables: the blob is one this runtime can
// parse. Fills *header.
Status check_framing(const std::uint8_t *bytes, std::size_t size, Header *header) {
  if (size < kHeaderSize)
    return {"blob truncated: header needs " + std::to_string(kHeaderSize) + " bytes, got " + std::to_string(size)};
  if (size > kMaxBlobSize)
    return {"blob of " + std::to_string(size) + " bytes exceeds the limit of " + std::to_string(kMaxBlobSize)};
  if (std::memcmp(bytes, kMagic, sizeof kMagic) != 0)
    return {"bad magic " + hex(load(bytes, 4, ByteOrder::big), 8) + ": not a canonical frame (\"CPKF\")"};
  header->version = static_cast<std::uint16_t>(load(bytes + kVersionAt, 2, ByteOrder::little));
  header->flags = static_cast<std::uint16_t>(load(bytes + kFlagsAt, 2, ByteOrder::little));
  header->tables_hash = load(bytes + kTablesHashAt, 8, ByteOrder::little);
  header->function_index = load(bytes + kFunctionIndexAt, 8, ByteOrder::little);
  header->entry = static_cast<std::int32_t>(load(bytes + kEntryAt, 4, ByteOrder::little));
  header->payload_size = static_cast<std::uint32_t>(load(bytes + kPayloadSizeAt, 4, ByteOrder::little));
  if (header->version != kFormatVersion)
    return {"format version " + std::to_string(header->version) + ", this runtime reads version " +
            std::to_string(kFormatVersion)};
  if (header->flags != 0)
    return {"header flags " + hex(header->flags, 4) + " set: no flags are defined in version " +
            std::to_string(kFormatVersion)};
  if (header->payload_size != size - kHeaderSize)
    return {"payload size " + std::to_string(header->payload_size) + " in the header, but " +
            std::to_string(size - kHeaderSize) + " bytes follow it"};
  return {};
}

// What tells two registrations of one index apart, for the conflict message.
std::string describe_tables(const FrameSignature &signature) {
  return "canonical hash " + hex(signature.state->canonical_hash) + ", entries 1.." +
         std::to_string(signature.entry_count);
}

// The header's checks against this program's function table.
Status find_procedure(const Header &header, const FrameSignature **signature) {
  const std::uint64_t ours = program_tables_hash();
  if (header.tables_hash != ours)
    return {"tables hash " + hex(header.tables_hash) + " does not match this program's " + hex(ours) +
            ": built from different source"};
  const FunctionLookup found = lookup_function(header.function_index);
  if (!found.signature) return {"unknown function index " + hex(header.function_index)};
  if (found.conflicting)
    return {"function index " + hex(header.function_index) + ", " + procedure_name(*found.signature) +
            ", is registered with different tables (" + describe_tables(*found.signature) + "; " +
            describe_tables(*found.conflicting) + "): translation units built from different source"};
  const FrameSignature &procedure = *found.signature;
  if (header.entry < 1 || header.entry > procedure.entry_count)
    return {"entry " + std::to_string(header.entry) + " is not a continuation point of " +
            procedure_name(procedure) + " (1.." + std::to_string(procedure.entry_count) + ")"};
  if (std::string why = why_not_portable(procedure); !why.empty())
    return {procedure_name(procedure) + " cannot travel: " + why};
  *signature = &procedure;
  return {};
}

}  // namespace

Status decode_record(const RecordSignature &table, const std::uint8_t *bytes, std::size_t size, std::size_t *pos,
                     void *native, ByteOrder order) {
  if (*pos > size)
    return {"position " + std::to_string(*pos) + " is past the end of " + std::to_string(size) + " bytes"};
  Decoder decoder(bytes, size, *pos, order);
  if (!decoder.record(table, static_cast<std::uint8_t *>(native), Storage::raw)) {
    decoder.undo();
    return {decoder.failure.message()};
  }
  *pos = decoder.pos();
  return {};
}

void destroy_record(const RecordSignature &table, void *native) noexcept {
  if (table.destroy) {
    table.destroy(native);
    return;
  }
  auto *bytes = static_cast<std::uint8_t *>(native);
  for (std::uint32_t i = 0; i < table.field_count; ++i) {
    const FieldSignature &field = table.fields[i];
    if (field.alive_flag_offset != kNoAliveFlag && !bytes[field.alive_flag_offset]) continue;
    destroy_values(field.type, bytes + field.offset, field.count);
  }
}

Status read_header(const std::uint8_t *bytes, std::size_t size, Header *header, const FrameSignature **signature) {
  *signature = nullptr;
  if (Status framing = check_framing(bytes, size, header); !framing) return framing;
  return find_procedure(*header, signature);
}

Status decode_frame(const std::uint8_t *bytes, std::size_t size, void *memory, Frame **frame) {
  *frame = nullptr;
  Header header;
  const FrameSignature *signature;
  if (Status checked = read_header(bytes, size, &header, &signature); !checked) return checked;
  // The header as new_frame (abi.h) sets it, but eager: the runtime pushes a
  // received frame on a deque, where thieves may take it.
  auto *f = ::new (memory) Frame;
  f->info = signature->info;
  f->parent = nullptr;
  f->result_slot = nullptr;
  f->entry = header.entry;
  f->visibility = Visibility::eager;
  f->join.store(1, std::memory_order_relaxed);
  f->next_ready = nullptr;
  f->promoted = nullptr;
  f->pending = nullptr;
  Decoder decoder(bytes, size, kHeaderSize, host_byte_order());
  if (!decoder.record(*signature->state, static_cast<std::uint8_t *>(memory), Storage::raw)) {
    decoder.undo();
    return {decoder.failure.message()};
  }
  if (decoder.pos() != size) {
    decoder.undo();
    return {"trailing bytes: the state ends at byte " + std::to_string(decoder.pos()) + " of " +
            std::to_string(size)};
  }
  *frame = f;
  return {};
}

}  // namespace cilkpp::rt::canonical
