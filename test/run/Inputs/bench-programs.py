"""Runs each bench program built in the given directory with small arguments
(one list, or a list of lists for several runs) on 2 workers and compares
its output with its serial elision's."""
import os
import subprocess
import sys

ARGUMENTS = {
    "big-frame": ["20"],
    "board-search": ["3", "20"],
    "call-fib": ["call", "20"],
    "cilk-for-bodies": ["vector", "12", "2"],
    "deep-chains": [["spawns", "2000"], ["calls", "2000"]],
    "function-objects": [["direct", "20"], ["forwarding", "20"], ["plain", "20"], ["template", "20"], ["self-applied", "20"], ["member-self-applied", "20"]],
    "helper-calls": ["100000"],
    "lambda-spawn": ["lambda", "20"],
    "lambda-template": ["20"],
    "procedure-forms": ["member-reads", "20"],
    "root-calls": ["1000"],
    "spawn-temporaries": [["temporary", "12"], ["named", "12"]],
    "spawning-loop-bodies": [["spawn", "5000", "2"], ["call", "5000", "2"], ["recursive", "5000", "2"]],
    "string-fib": ["15"],
    "tiny-loop-bodies": ["store"],
    "virtual-fib": ["20"],
}

directory = sys.argv[1]
env = dict(os.environ, CILKPP_NWORKERS="2")


def same_output(name, program, args):
    parallel = subprocess.run([program] + args, env=env, capture_output=True, text=True, timeout=120)
    serial = subprocess.run([program + ".serial"] + args, capture_output=True, text=True, timeout=120)
    if parallel.returncode != 0 or parallel.returncode != serial.returncode or parallel.stdout != serial.stdout:
        print(f"bench-programs: {name} {' '.join(args)}: parallel {parallel.returncode} {parallel.stdout!r}, "
              f"serial {serial.returncode} {serial.stdout!r}")
        return False
    return True


failed = False
for name, runs in sorted(ARGUMENTS.items()):
    program = os.path.join(directory, name)
    if not os.path.exists(program):
        print(f"bench-programs: {name} was not built")
        failed = True
        continue
    for args in runs if isinstance(runs[0], list) else [runs]:
        failed |= not same_output(name, program, args)
built = {f for f in os.listdir(directory) if os.access(os.path.join(directory, f), os.X_OK) and "." not in f}
for name in sorted(built - set(ARGUMENTS)):
    print(f"bench-programs: {name} has no arguments in bench-programs.py")
    failed = True
sys.exit(1 if failed else 0)
