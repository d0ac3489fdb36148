// Included by the .cilkpp sources; found only through sample_config's
// include directory, and only compiles with its definitions and options.
#pragma once

#ifndef SAMPLE_SCALE
#error "SAMPLE_SCALE must come from sample_config's compile definitions"
#endif
#ifndef SAMPLE_FROM_OPTIONS
#error "SAMPLE_FROM_OPTIONS must come from sample_config's compile options"
#endif

namespace sample {
constexpr long kScale = SAMPLE_SCALE;
}
