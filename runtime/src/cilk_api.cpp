#include "cilk/cilk_api.h"

#include "runtime.h"

using cilkpp::rt::Runtime;
using cilkpp::rt::Worker;

unsigned __cilkrts_get_nworkers(void) { return Runtime::instance().num_workers(); }

unsigned __cilkrts_get_worker_number(void) {
  const Worker *w = Worker::current();
  // (A serial root call's private worker has an index of its own.)
  return w && w->index() < Runtime::instance().num_workers() ? w->index() : 0;
}
