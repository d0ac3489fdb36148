#!/usr/bin/env bash
# Benchmark (not a test): real slowness instead of emulated. Two CPU hogs
# are pinned to CPU 1, and so is worker 1 of `tasks pair` (taskset -p on
# its thread, named cilkpp-w1); worker 0 (the main thread) gets CPU 0 to
# itself. Worker 1 then gets about a third of its CPU, measures itself
# accordingly, and under CILKPP_POLICY=ecs is mugged once worker 0 has
# finished its own task. Prints each policy's makespan and statistics.
#
# Usage: bench/hetero/hog.sh [--units U] [--no-build]   (needs 2 CPUs)
set -euo pipefail
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

units=200000
build=1
while (($#)); do
  case "$1" in
    --units) units=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "hog: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $units =~ ^[1-9][0-9]*$ ]] || { echo "hog: --units needs a positive integer" >&2; exit 2; }
(($(nproc) >= 2)) || { echo "hog: needs 2 CPUs" >&2; exit 2; }

BUILD_DIR=${BUILD_DIR:-build}
out=$BUILD_DIR/bench/hetero
cilkpp=$BUILD_DIR/bin/cilkpp
fail() { echo "hog: FAIL: $*" >&2; exit 1; }
if ((build)); then
  mkdir -p "$out"
  bash scripts/build.sh >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; fail "build failed (log above)"; }
fi
mkdir -p "$out"
"$cilkpp" -O2 bench/hetero/tasks.cilkpp -o "$out/tasks" || fail "cannot build tasks.cilkpp"

hogs=()
stop_hogs() { ((${#hogs[@]})) && kill "${hogs[@]}" 2>/dev/null; hogs=(); }
trap stop_hogs EXIT

echo "# bench/hetero/hog.sh --units $units   $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo none)"
for policy in ecs cilk; do
  CILKPP_NWORKERS=2 CILKPP_POLICY=$policy CILKPP_STATS=1 taskset -c 0,1 "$out/tasks" pair "$units" \
    >"$out/hog-$policy.out" 2>&1 &
  pid=$!
  # Once the runtime has started its thread (after the program has timed
  # a task alone): the hogs and worker 1 on CPU 1, the main thread (worker
  # 0) on CPU 0.
  tid=
  for _ in $(seq 5000); do
    tid=$(grep -lx cilkpp-w1 /proc/"$pid"/task/*/comm 2>/dev/null | head -n1 | cut -d/ -f5) || true
    [[ -n $tid ]] && break
    sleep 0.001
  done
  [[ -n $tid ]] || fail "no thread cilkpp-w1 in the program"
  for _ in 1 2; do
    taskset -c 1 bash -c 'while :; do :; done' &
    hogs+=($!)
  done
  taskset -p -c 1 "$tid" >/dev/null
  taskset -p -c 0 "$pid" >/dev/null
  wait "$pid" || fail "tasks pair ($policy) failed: $(cat "$out/hog-$policy.out")"
  stop_hogs
  echo
  echo "## CILKPP_POLICY=$policy"
  grep -v '^(spawns' "$out/hog-$policy.out"
done
