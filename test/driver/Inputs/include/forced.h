// Included with -include before the source.
#pragma once
#define CILKPP_FORCED 17
