// The part of OpenCilk's <cilk/cilk_api.h> that programs use to report how
// they ran, implemented by the cilkpp runtime.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// The number of workers (CILKPP_NWORKERS, default: the CPUs this process
// may use). Starts the runtime if it has not started.
unsigned __cilkrts_get_nworkers(void);

// The calling thread's worker, 0 to __cilkrts_get_nworkers() - 1; 0 on a
// thread that is not a worker (as in OpenCilk), also for a root call that
// runs serially on its own thread while another thread's holds the workers.
unsigned __cilkrts_get_worker_number(void);

#ifdef __cplusplus
}
#endif
