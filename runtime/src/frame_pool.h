// Introspection of the process-wide frame reserve, for tests.
#pragma once

#include <cstddef>

namespace cilkpp::rt::detail {

// Blocks of size class cls currently held by the reserve.
std::size_t reserve_blocks(std::size_t cls) noexcept;
// Blocks of size class cls ever carved from chunks.
std::size_t carved_blocks(std::size_t cls) noexcept;

}  // namespace cilkpp::rt::detail
