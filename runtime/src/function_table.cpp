// The program-wide function table (Lu 1995, §3): every cilk procedure's
// signature, by index. Generated translation units register their procedures
// from static initializers; the same procedure may come from several units
// (templates, inline functions), each with its own FrameSignature object.
#include "function_table.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

namespace cilkpp::rt {
namespace {

// Two registrations describe the same procedure exactly when they agree on
// these; registrations of one index that do not are a conflict.
bool same_entry(const FrameSignature *a, const FrameSignature *b) noexcept {
  return a->index == b->index && a->state->canonical_hash == b->state->canonical_hash &&
         a->entry_count == b->entry_count;
}

bool entry_before(const FrameSignature *a, const FrameSignature *b) noexcept {
  if (a->index != b->index) return a->index < b->index;
  if (a->state->canonical_hash != b->state->canonical_hash)
    return a->state->canonical_hash < b->state->canonical_hash;
  return a->entry_count < b->entry_count;
}

void append_little_endian(std::string &bytes, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) bytes += static_cast<char>(value >> (8 * i));
}

// Sorts by (index, canonical hash, entry count) and keeps one of each.
void sort_distinct(std::vector<const FrameSignature *> &signatures) {
  std::sort(signatures.begin(), signatures.end(), entry_before);
  signatures.erase(std::unique(signatures.begin(), signatures.end(), same_entry), signatures.end());
}

// FNV-1a over the distinct entries in sorted order: independent of link and
// registration order and of how many units registered a procedure, and
// stable across runs (indices and canonical hashes are hashes of source).
std::uint64_t hash_of_distinct(const std::vector<const FrameSignature *> &sorted) {
  std::string bytes;
  bytes.reserve(sorted.size() * 20);
  for (const FrameSignature *s : sorted) {
    append_little_endian(bytes, s->index, 8);
    append_little_endian(bytes, s->state->canonical_hash, 8);
    append_little_endian(bytes, static_cast<std::uint32_t>(s->entry_count), 4);
  }
  return fnv1a64(bytes.data(), bytes.size());
}

// Registration links signatures into a list and does nothing else, so that it
// is safe in any static initializer. The sorted index and the program hash
// are built from the list on the first lookup after a registration (a shared
// library loaded later registers more).
class FunctionTable {
 public:
  void add(FrameSignature *signature) noexcept {
    std::lock_guard lock(mutex_);
    // A linked signature's next is never nullptr (the list ends in kEnd), so
    // registering one object twice cannot make the list a cycle.
    if (signature->next) return;
    signature->next = head_;
    head_ = signature;
    ++registered_;
  }

  FunctionLookup lookup(std::uint64_t index) noexcept {
    std::lock_guard lock(mutex_);
    refresh();
    const auto at = std::lower_bound(sorted_.begin(), sorted_.end(), index,
                                     [](const FrameSignature *s, std::uint64_t i) { return s->index < i; });
    FunctionLookup found;
    if (at == sorted_.end() || (*at)->index != index) return found;
    found.signature = *at;
    // sorted_ holds distinct entries only: a second one of the index differs.
    if (at + 1 != sorted_.end() && at[1]->index == index) found.conflicting = at[1];
    return found;
  }

  std::uint64_t tables_hash() noexcept {
    std::lock_guard lock(mutex_);
    refresh();
    return tables_hash_;
  }

 private:
  // Rebuilds the index when something was registered since the last build.
  // Allocation failure here terminates (noexcept): the table is a few bytes
  // per procedure.
  void refresh() noexcept {
    if (indexed_ == registered_) return;
    sorted_.clear();
    for (const FrameSignature *s = head_; s != &kEnd; s = s->next) sorted_.push_back(s);
    sort_distinct(sorted_);
    tables_hash_ = hash_of_distinct(sorted_);
    indexed_ = registered_;
  }

  static inline const FrameSignature kEnd{};

  std::mutex mutex_;
  const FrameSignature *head_ = &kEnd;
  std::size_t registered_ = 0;
  std::size_t indexed_ = 0;
  std::vector<const FrameSignature *> sorted_;
  std::uint64_t tables_hash_ = fnv1a64(nullptr, 0);
};

// Constructed on first use: registrations run in other units' static
// initializers, in an order this unit does not control.
FunctionTable &function_table() noexcept {
  static FunctionTable table;
  return table;
}

}  // namespace

void register_frame_signature(FrameSignature *signature) noexcept { function_table().add(signature); }

FunctionLookup lookup_function(std::uint64_t index) noexcept { return function_table().lookup(index); }

const FrameSignature *find_frame_signature(std::uint64_t index) noexcept {
  const FunctionLookup found = lookup_function(index);
  return found.conflicting ? nullptr : found.signature;
}

std::uint64_t program_tables_hash() noexcept { return function_table().tables_hash(); }

std::uint64_t tables_hash_of(std::vector<const FrameSignature *> signatures) {
  sort_distinct(signatures);
  return hash_of_distinct(signatures);
}

}  // namespace cilkpp::rt
