// Next to main.cilkpp and included with quotes: the translation, compiled in
// the build tree, must still find it there.
#pragma once

constexpr long kDepth = 1000;
