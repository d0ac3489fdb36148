#!/usr/bin/env bash
# Benchmark (not a test): the programs of examples/, each built two ways and
# run three ways:
#   TS  serial elision      cilkpp --serial -O2
#   T1  parallel, 1 worker  cilkpp -O2, CILKPP_NWORKERS=1
#   T2  parallel, 2 workers cilkpp -O2, CILKPP_NWORKERS=2
# and, to show what two CPUs of this machine give at all, two copies of the
# serial elision at once (TS||): the column 2CPU = 2 TS / TS|| is the best
# T1/T2 the machine allows (2 on two idle, unshared cores; less when the
# CPUs are hyperthreads of one core or shared with other tenants).
# Each time is the best wall-clock time of N runs; the three configurations
# alternate run by run. T1/TS is the overhead of
# the parallel code on one worker; T1/T2 the speedup on two.
# The last two columns are the same ratios of the time spent in main() and
# the exit handlers (bench/main_timer.h, force-included into every build):
# what the program and the runtime do, without the process's start, which
# costs 2.4 ms here (4.2 ms once the runtime's libstdc++ is loaded).
# Every run's output must equal the serial elision's, or the script fails.
#
# Usage: bench/run.sh [-n RUNS] [--only "PROG..."] [--PROG "ARG..."]... [--no-build]
#   -n RUNS          runs per measurement, best one counts (default 5)
#   --only "a b"     run only these programs (default: all, in the order below)
#   --PROG "A B"     the program's first argument, one row per value; defaults:
#                    fib "38 30", nqueens 11, heat 1024 (100 steps), cilksort 4000000,
#                    matmul 512, strassen 1024, knapsack 32, lu 1024, fft 4194304,
#                    uts 100000 (roots of the binomial tree), wordfreq 20000
#   --no-build       use the existing $BUILD_DIR/bin/cilkpp
# Environment: BUILD_DIR (default build), CXX (the host compiler).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/.."

command_line="bench/run.sh"
(($#)) && command_line+=$(printf ' %q' "$@")
runs=5
programs=(fib nqueens heat cilksort matmul strassen knapsack lu fft uts wordfreq)
declare -A args=([fib]="38 30" [nqueens]=11 [heat]=1024 [cilksort]=4000000 [matmul]=512
                 [strassen]=1024 [knapsack]=32 [lu]=1024 [fft]=4194304 [uts]=100000 [wordfreq]=20000)
build=1
while (($#)); do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    --only) read -r -a programs <<<"$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --*) prog=${1#--}
         [[ -v args[$prog] ]] || { echo "bench: unknown program '$prog' (see --help)" >&2; exit 2; }
         args[$prog]=$2; shift 2 ;;
    *) echo "bench: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for prog in "${programs[@]}"; do
  [[ -v args[$prog] ]] || { echo "bench: unknown program '$prog' (see --help)" >&2; exit 2; }
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: -n needs a positive integer" >&2; exit 2; }

BUILD_DIR=${BUILD_DIR:-build}
out=$BUILD_DIR/bench
cilkpp=$BUILD_DIR/bin/cilkpp
# The measured programs must not print statistics or inherit a worker count.
unset CILKPP_STATS CILKPP_NWORKERS

fail() { echo "bench: FAIL: $*" >&2; exit 1; }

if ((build)); then
  mkdir -p "$out"
  bash scripts/build.sh >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; fail "build failed (log above)"; }
fi
[[ -x $cilkpp ]] || fail "no driver at $cilkpp (build first, or drop --no-build)"
mkdir -p "$out"

source bench/header.sh
bench_header "$command_line" "$cilkpp"
echo "# times:    best of $runs runs, wall clock, seconds"
(($(nproc) >= 2)) || echo "# warning:  fewer than 2 CPUs, T2 cannot show a speedup"

timeit=$out/timeit
"${CXX:-c++}" -O2 bench/timeit.cpp -o "$timeit" || fail "cannot build bench/timeit.cpp"

# Build each program as serial elision and as parallel code.
main_timer=$PWD/bench/main_timer.h
for prog in "${programs[@]}"; do
  "$cilkpp" --serial -O2 -include "$main_timer" "examples/$prog.cilkpp" -o "$out/$prog-serial" ||
    fail "cannot build $prog (serial)"
  "$cilkpp" -O2 -include "$main_timer" "examples/$prog.cilkpp" -o "$out/$prog-parallel" ||
    fail "cannot build $prog (parallel)"
done

# time_once WORKERS PROGRAM ARG: one run's wall-clock time in microseconds,
# measured by bench/timeit (bash's own fork would be timed too otherwise),
# then the time of its main() as main_timer.h wrote it. The run must print
# $expected. An empty WORKERS leaves CILKPP_NWORKERS unset; WORKERS "both"
# runs two copies at once (and reports no main() time).
time_once() {
  local workers=$1 us output status main_us=0
  shift
  rm -f "$out/main-time"
  if [[ $workers == both ]]; then
    us=$("$timeit" -j 2 "$out/output" "$@") && status=0 || status=$?
  elif [[ -n $workers ]]; then
    us=$(CILKPP_NWORKERS=$workers BENCH_MAIN_TIME_FILE=$out/main-time "$timeit" "$out/output" "$@") &&
      status=0 || status=$?
  else
    us=$(BENCH_MAIN_TIME_FILE=$out/main-time "$timeit" "$out/output" "$@") && status=0 || status=$?
  fi
  ((status == 0)) || fail "'$*' (workers: ${workers:-n/a}) exited with status $status"
  output=$(<"$out/output")
  [[ $output == "$expected" ]] ||
    fail "'$*' (workers: ${workers:-n/a}) printed '$output', the serial elision printed '$expected'"
  if [[ $workers != both ]]; then
    main_us=$(<"$out/main-time") || fail "'$*' wrote no main() time (built without bench/main_timer.h?)"
  fi
  echo "$us $main_us"
}

# keep_min VAR VALUE: VAR = min(VAR, VALUE); an empty VAR takes VALUE.
keep_min() {
  local -n best=$1
  if [[ -z $best ]] || (($2 < best)); then best=$2; fi
}

seconds() { printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)); }

printf '\n%-18s %-28s %8s %8s %8s %6s %6s %6s  %s\n' benchmark result TS T1 T2 T1/TS T1/T2 2CPU \
  'main(): T1/TS T1/T2'
# The three configurations take turns, so a burst of load from elsewhere on
# the machine hits one round of all three rather than one configuration.
row() {
  local prog=$1 arg=$2 ts="" t1="" t2="" ts2="" ms="" m1="" m2="" us main summary
  # The serial elision's output is the reference; this first run also warms up.
  expected=$("$out/$prog-serial" "$arg") || fail "'$out/$prog-serial $arg' failed"
  for ((i = 0; i < runs; i++)); do
    read -r us main < <(time_once "" "$out/$prog-serial" "$arg") && [[ -n $us ]] || exit 1
    keep_min ts "$us"; keep_min ms "$main"
    read -r us main < <(time_once 1 "$out/$prog-parallel" "$arg") && [[ -n $us ]] || exit 1
    keep_min t1 "$us"; keep_min m1 "$main"
    read -r us main < <(time_once 2 "$out/$prog-parallel" "$arg") && [[ -n $us ]] || exit 1
    keep_min t2 "$us"; keep_min m2 "$main"
    read -r us main < <(time_once both "$out/$prog-serial" "$arg") && [[ -n $us ]] || exit 1
    keep_min ts2 "$us"
  done
  # The last line of the output, shortened to fit its column.
  summary=${expected##*$'\n'}
  ((${#summary} <= 28)) || summary="${summary:0:25}..."
  awk -v name="$prog($arg)" -v res="$summary" -v ts="$(seconds "$ts")" -v t1="$(seconds "$t1")" \
      -v t2="$(seconds "$t2")" -v ts2="$(seconds "$ts2")" -v ms="$ms" -v m1="$m1" -v m2="$m2" 'BEGIN {
    printf "%-18s %-28s %8.3f %8.3f %8.3f %6.2f %6.2f %6.2f  %13.2f %5.2f\n", name, res, ts, t1, t2,
           (ts > 0 ? t1 / ts : 0), (t2 > 0 ? t1 / t2 : 0), (ts2 > 0 ? 2 * ts / ts2 : 0),
           (ms > 0 ? m1 / ms : 0), (m2 > 0 ? m1 / m2 : 0) }'
}
for prog in "${programs[@]}"; do
  for n in ${args[$prog]}; do row "$prog" "$n"; done
done
