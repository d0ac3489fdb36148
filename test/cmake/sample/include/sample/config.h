// Included by the .cilkpp sources; found only through sample_config's
// include directory, and only compiles with its definitions and options.
#pragma once

#ifndef SAMPLE_SCALE
#error "SAMPLE_SCALE must come from sample_config's compile definitions"
#endif
#ifndef SAMPLE_FROM_OPTIONS
#error "SAMPLE_FROM_OPTIONS must come from sample_config's compile options"
#endif
#ifndef SAMPLE_FROM_SHELL_OPTION
#error "SAMPLE_FROM_SHELL_OPTION must come from sample_config's SHELL: compile option"
#endif
// Definitions whose values hold quotes and a backslash arrive as written.
static_assert(SAMPLE_QUOTE == '\'' && sizeof(SAMPLE_BACKSLASH) == 2 && SAMPLE_BACKSLASH[0] == '\\',
              "SAMPLE_QUOTE and SAMPLE_BACKSLASH must arrive unchanged");
// sample_config asks for C++20 (a compile feature it passes on).
static_assert(__cplusplus >= 202002L, "sample_config's cxx_std_20 must reach the translation");

namespace sample {
constexpr long kScale = SAMPLE_SCALE;
}
