// Included by the .cilkpp sources; found only through sample_config's
// include directory, and only compiles when SAMPLE_SCALE is defined.
#pragma once

#ifndef SAMPLE_SCALE
#error "SAMPLE_SCALE must come from sample_config's compile definitions"
#endif

namespace sample {
constexpr long kScale = SAMPLE_SCALE;
}
