#pragma once

namespace sample {
// The sum of i * kScale for i in [lo, hi), divided and conquered in parallel.
long scaled_sum(long lo, long hi);
}
