// The function table behind signature.h's registry functions, with what
// find_frame_signature leaves out: whether two registrations of an index
// disagree (docs/signatures.md, "The function table").
#pragma once

#include <cstdint>
#include <vector>

#include "cilkpp/rt/signature.h"

namespace cilkpp::rt {

struct FunctionLookup {
  // A registration of the index, or nullptr when there is none.
  const FrameSignature *signature = nullptr;
  // Another registration of the same index with a different canonical hash
  // or entry count, or nullptr. When set, the index names no usable
  // procedure: a blob for it could be decoded with either layout.
  const FrameSignature *conflicting = nullptr;
};

FunctionLookup lookup_function(std::uint64_t index) noexcept;

// What program_tables_hash returns for a program that registered exactly
// these signatures, in any order, any of them any number of times.
std::uint64_t tables_hash_of(std::vector<const FrameSignature *> signatures);

}  // namespace cilkpp::rt
