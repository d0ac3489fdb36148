#!/usr/bin/env bash
# Benchmark (not a test): the Enhanced Cilk Scheduler (CILKPP_POLICY=ecs)
# against classic stealing (cilk) on two workers of different speeds,
# CILKPP_SPEEDS=0.25,1: worker 0, which starts the program's root call, runs
# at a quarter of its CPU (duty-cycle emulation, docs/runtime.md). Each case
# runs with both policies, alternating, N times; the table shows the best
# and the median.
#
#   fanout    1 task -> 50 tasks -> 1 task (bench/hetero/tasks.cilkpp). Bound:
#             first and last task at speed 1, the middle 50 at speed 1.25.
#             Target: ecs <= 1.05 x bound and faster than cilk.
#   pair      two equal tasks spawned together. Bound: 2 tasks / 1.25.
#             Target: ecs <= 1.15 x bound (cilk: about 2.5, the slow worker
#             keeps its task).
#   fib, nqueens  examples/, whole-process time ecs / cilk. Target: <= 1.02.
#
# A task's time at speed 1 is measured by the program itself, serially and
# outside the runtime, in the same run.
#
# Usage: bench/hetero/run.sh [-n RUNS] [--units U] [--no-build]
#   -n RUNS      runs per policy and case (default 5)
#   --units U    units per task (default 200000, about 80 ms at speed 1)
#   --no-build   use the existing $BUILD_DIR/bin/cilkpp
set -euo pipefail
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

command_line="bench/hetero/run.sh"
(($#)) && command_line+=$(printf ' %q' "$@")
runs=5
units=200000
build=1
while (($#)); do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    --units) units=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "hetero: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "hetero: -n needs a positive integer" >&2; exit 2; }
[[ $units =~ ^[1-9][0-9]*$ ]] || { echo "hetero: --units needs a positive integer" >&2; exit 2; }

BUILD_DIR=${BUILD_DIR:-build}
out=$BUILD_DIR/bench/hetero
cilkpp=$BUILD_DIR/bin/cilkpp
unset CILKPP_STATS CILKPP_POLICY CILKPP_BETA
export CILKPP_NWORKERS=2 CILKPP_SPEEDS=0.25,1

fail() { echo "hetero: FAIL: $*" >&2; exit 1; }

if ((build)); then
  mkdir -p "$out"
  bash scripts/build.sh >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; fail "build failed (log above)"; }
fi
[[ -x $cilkpp ]] || fail "no driver at $cilkpp (build first, or drop --no-build)"
mkdir -p "$out"

source bench/header.sh
bench_header "$command_line" "$cilkpp"
echo "# speeds:   CILKPP_SPEEDS=$CILKPP_SPEEDS (worker 0 starts the root call), $runs runs per policy"

"$cilkpp" -O2 bench/hetero/tasks.cilkpp -o "$out/tasks" || fail "cannot build tasks.cilkpp"
for prog in fib nqueens; do
  "$cilkpp" -O2 "examples/$prog.cilkpp" -o "$out/$prog" || fail "cannot build $prog"
done
timeit=$out/timeit
"${CXX:-c++}" -O2 bench/timeit.cpp -o "$timeit" || fail "cannot build bench/timeit.cpp"

# best_and_median "v1 v2 ...": prints "best median".
best_and_median() {
  tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f", v[1], m }'
}

printf '\n%-10s %-24s %-24s %s\n' case 'ecs: best median' 'cilk: best median' target

# Task cases: ratio makespan / bound per run.
task_case() {
  local name=$1 target=$2 ecs="" cilk="" policy line makespan task bound result reference=""
  shift 2
  for ((i = 0; i < runs; i++)); do
    for policy in ecs cilk; do
      line=$(CILKPP_POLICY=$policy "$out/tasks" "$@") || fail "tasks $* ($policy) failed"
      makespan=$(sed -n 's/.*makespan_ms=\([0-9.]*\).*/\1/p' <<<"$line")
      task=$(sed -n 's/.*task_ms=\([0-9.]*\).*/\1/p' <<<"$line")
      result=${line##*result=}
      [[ -z $reference || $result == "$reference" ]] || fail "tasks $* ($policy): result $result, earlier $reference"
      reference=$result
      if [[ $1 == fanout ]]; then
        bound=$(awk -v t="$task" -v n="$2" 'BEGIN { print t * (2 + n / 1.25) }')
      else
        bound=$(awk -v t="$task" 'BEGIN { print 2 * t / 1.25 }')
      fi
      ratio=$(awk -v m="$makespan" -v b="$bound" 'BEGIN { printf "%.4f", m / b }')
      if [[ $policy == ecs ]]; then ecs+=" $ratio"; else cilk+=" $ratio"; fi
    done
  done
  printf '%-10s %-24s %-24s %s\n' "$name" "$(best_and_median "$ecs")" "$(best_and_median "$cilk")" "$target"
}
task_case fanout 'makespan/bound: ecs <= 1.05, < cilk' fanout 50 "$units"
task_case pair 'makespan/bound: ecs <= 1.15' pair "$units"

# Programs: whole-process time of each policy; ratio ecs / cilk of the bests
# and of the medians.
program_case() {
  local prog=$1 arg=$2 ecs="" cilk="" policy us
  for ((i = 0; i < runs; i++)); do
    for policy in ecs cilk; do
      us=$(CILKPP_POLICY=$policy "$timeit" "$out/output" "$out/$prog" "$arg") || fail "$prog $arg ($policy) failed"
      if [[ $policy == ecs ]]; then ecs+=" $us"; else cilk+=" $us"; fi
    done
  done
  read -r eb em <<<"$(best_and_median "$ecs")"
  read -r cb cm <<<"$(best_and_median "$cilk")"
  printf '%-10s %-24s %-24s %s\n' "$prog($arg)" "$(awk -v a="$eb" -v b="$em" 'BEGIN { printf "%.1f %.1f ms", a / 1000, b / 1000 }')" \
    "$(awk -v a="$cb" -v b="$cm" 'BEGIN { printf "%.1f %.1f ms", a / 1000, b / 1000 }')" \
    "$(awk -v eb="$eb" -v cb="$cb" -v em="$em" -v cm="$cm" 'BEGIN { printf "ecs/cilk %.3f best, %.3f median (<= 1.02)", eb / cb, em / cm }')"
}
program_case fib 34
program_case nqueens 11
