// OpenCilk's <cilk/opadd_reducer.h>: a reducer library. cilkpp does not support reducers
// yet (docs/language.md, "Not supported yet"); this header says so by name
// where the include would otherwise only fail to find the file.
#pragma once
#error "cilkpp: reducers are not supported yet (<cilk/opadd_reducer.h>): give each task its own partial result and combine them after the sync"
