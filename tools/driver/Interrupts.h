// What the driver does when SIGINT, SIGTERM or SIGHUP interrupts it: the host
// compiler it is running gets the same signal (it would otherwise go on and
// write the output after the driver has gone), the temporary files
// registered with llvm::sys::RemoveFileOnSignal and the temporary directory
// are removed, and the driver dies of the signal.
#pragma once

#include <sys/types.h>

#include "llvm/ADT/StringRef.h"

namespace cilkpp::driver {

// Installs the handlers; once, after llvm::InitLLVM has installed its own,
// which these replace for SIGHUP, SIGINT and SIGTERM (LLVM's stay for
// crashes).
void handleInterrupts();

// The temporary directory to remove (empty by then) on interruption, or
// none for an empty name.
void removeDirectoryOnInterrupt(llvm::StringRef Directory);

// The child process to pass an interruption on to while it runs; 0 for none.
void forwardInterruptsTo(pid_t Child);

}  // namespace cilkpp::driver
