#include "Interrupts.h"

#include <csignal>
#include <cstring>

#include <unistd.h>

#include "llvm/Support/Signals.h"

namespace cilkpp::driver {
namespace {

constexpr int InterruptSignals[] = {SIGHUP, SIGINT, SIGTERM};

// Read by the handler: plain storage, written before it can matter.
char DirectoryToRemove[4096];
volatile sig_atomic_t ChildToInterrupt = 0;

// In place of LLVM's handler for these signals (which removes the files but
// never a directory): it removes LLVM's files, then the directory. LLVM's
// handler, which let the signal through while it removed files, died of a
// second one midway (timeout(1) signals the driver, then its process group),
// leaving files behind; this one blocks the three signals while it runs.
void onInterrupt(int Signal) {
  if (const pid_t Child = ChildToInterrupt) kill(Child, Signal);
  llvm::sys::RunInterruptHandlers();
  if (DirectoryToRemove[0]) rmdir(DirectoryToRemove);
  std::signal(Signal, SIG_DFL);
  std::raise(Signal);  // delivered with the default action when this returns
}

}  // namespace

void handleInterrupts() {
  for (int Signal : InterruptSignals) {
    struct sigaction Action = {};
    Action.sa_handler = onInterrupt;
    sigemptyset(&Action.sa_mask);
    for (int Other : InterruptSignals) sigaddset(&Action.sa_mask, Other);
    sigaction(Signal, &Action, nullptr);
  }
}

void removeDirectoryOnInterrupt(llvm::StringRef Directory) {
  if (Directory.size() >= sizeof(DirectoryToRemove)) return;
  // (A signal between the directory's removal and the clearing finds no
  // directory; nothing else is removed.)
  std::memcpy(DirectoryToRemove, Directory.data(), Directory.size());
  DirectoryToRemove[Directory.size()] = '\0';
}

void forwardInterruptsTo(pid_t Child) { ChildToInterrupt = Child; }

}  // namespace cilkpp::driver
