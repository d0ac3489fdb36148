// Cilk Plus's <cilk/reducer.h>: a reducer library. cilkpp does not support reducers
// yet (docs/language.md, "Not supported yet"); this header says so by name
// where the include would otherwise only fail to find the file.
#pragma once
#error "cilkpp: reducers are not supported yet (<cilk/reducer.h>): give each task its own partial result and combine them after the sync"
