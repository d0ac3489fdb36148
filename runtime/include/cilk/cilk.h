// OpenCilk's <cilk/cilk.h>, so that programs written for OpenCilk build
// unchanged. cilkpp predefines cilk_spawn, cilk_sync, cilk_for and
// cilk_scope in the file it translates (docs/language.md, "Keywords"), so
// there is nothing left to declare here.
#pragma once
