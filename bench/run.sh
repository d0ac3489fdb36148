#!/usr/bin/env bash
# Benchmark (not a test): the programs of examples/, each built two ways and
# run on several worker counts:
#   TS  serial elision      cilkpp --serial -O2
#   T1  parallel, 1 worker  cilkpp -O2, CILKPP_NWORKERS=1
#   Tp  parallel, p workers cilkpp -O2, CILKPP_NWORKERS=p, for each p of
#                           --workers (default: 2)
# and, to show what p CPUs of this machine give at all (largest p only), p
# copies of the serial elision at once (TS||p): the column pCPU = p TS / TS||p
# is the best T1/Tp the machine allows (p on p idle, unshared cores; less
# when the CPUs are hyperthreads of one core or shared with other tenants).
# Each time is the best wall-clock time of N runs (R times N with
# --rounds R); the configurations alternate run by run. T1/TS is the
# overhead of the parallel code on one worker; T1/Tp the speedup on p.
# The last columns are the same ratios of the time spent in main() and
# the exit handlers (bench/main_timer.h, force-included into every build):
# what the program and the runtime do, without the process's start, which
# costs 2.4 ms here (4.2 ms once the runtime's libstdc++ is loaded).
# Every run's output must equal the serial elision's, or the script fails.
#
# Usage: bench/run.sh [-n RUNS] [--rounds R] [--only "PROG..."] [--PROG "ARG..."]... [--workers "P..."]
#                     [--no-build] [--build-only | --prebuilt]
#   -n RUNS          runs per measurement, best one counts (default 5)
#   --rounds R       measure all the programs R times over, RUNS runs of each
#                    time, and print the best of all R * RUNS (default 1):
#                    each row then samples R stretches of time minutes apart
#   --only "a b"     run only these programs (default: all, in the order below)
#   --PROG "A B"     the program's first argument, one row per value; defaults:
#                    fib 38, nqueens 12, heat 1024 (100 steps), cilksort 4000000,
#                    matmul 512, strassen 1024, knapsack 32, lu 1024, fft 4194304,
#                    uts 100000 (roots of the binomial tree), wordfreq 20000
#   --workers "2 4"  worker counts besides 1, one T and one T1/T column each (default 2)
#   --no-build       use the existing $BUILD_DIR/bin/cilkpp
#   --build-only     build the programs and bench/timeit into $BUILD_DIR/bench, then stop
#   --prebuilt       run what --build-only left in $BUILD_DIR/bench, with no
#                    compiler at all (for a machine that has none: copy the folder)
# Environment: BUILD_DIR (default build), CXX (the host compiler).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/.."

command_line="bench/run.sh"
(($#)) && command_line+=$(printf ' %q' "$@")
runs=5 rounds=1
source bench/header.sh
programs=("${corpus_programs[@]}")
declare -A args
for prog in "${programs[@]}"; do args[$prog]=${corpus_args[$prog]}; done
workers=(2)
build_driver=1 build_only=0 prebuilt=0
# needs_value "$@": the option in $1 has its value in $2.
needs_value() { (($# >= 2)) || { echo "bench: $1 needs a value (see --help)" >&2; exit 2; }; }
while (($#)); do
  case "$1" in
    -n) needs_value "$@"; runs=$2; shift 2 ;;
    --rounds) needs_value "$@"; rounds=$2; shift 2 ;;
    --only) needs_value "$@"; read -r -a programs <<<"$2"; shift 2 ;;
    --workers) needs_value "$@"; read -r -a workers <<<"$2"; shift 2 ;;
    --no-build) build_driver=0; shift ;;
    --build-only) build_only=1; shift ;;
    --prebuilt) prebuilt=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --*) prog=${1#--}
         [[ -v args[$prog] ]] || { echo "bench: unknown program '$prog' (see --help)" >&2; exit 2; }
         needs_value "$@"
         args[$prog]=$2; shift 2 ;;
    *) echo "bench: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for prog in "${programs[@]}"; do
  [[ -v args[$prog] ]] || { echo "bench: unknown program '$prog' (see --help)" >&2; exit 2; }
done
((!build_only || !prebuilt)) || { echo "bench: --build-only and --prebuilt exclude each other" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: -n needs a positive integer" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench: --rounds needs a positive integer" >&2; exit 2; }
((${#workers[@]})) || { echo "bench: --workers needs at least one worker count" >&2; exit 2; }
for p in "${workers[@]}"; do
  [[ $p =~ ^[1-9][0-9]*$ ]] && ((p >= 2 && p <= 64)) ||
    { echo "bench: --workers takes worker counts from 2 to 64, not '$p'" >&2; exit 2; }
done
widest=${workers[-1]}
for p in "${workers[@]}"; do ((p > widest)) && widest=$p; done

BUILD_DIR=${BUILD_DIR:-build}
out=$BUILD_DIR/bench
cilkpp=$BUILD_DIR/bin/cilkpp
# The measured programs must not print statistics or inherit a worker count.
unset CILKPP_STATS CILKPP_NWORKERS

fail() { echo "bench: FAIL: $*" >&2; exit 1; }

timeit=$out/timeit
main_timer=$PWD/bench/main_timer.h
if ((!prebuilt)); then
  if ((build_driver)); then
    mkdir -p "$out"
    bash scripts/build.sh >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; fail "build failed (log above)"; }
  fi
  [[ -x $cilkpp ]] || fail "no driver at $cilkpp (build first, or drop --no-build)"
  mkdir -p "$out"
  "${CXX:-c++}" -O2 bench/timeit.cpp -o "$timeit" || fail "cannot build bench/timeit.cpp"
  # Each program as serial elision and as parallel code.
  for prog in "${programs[@]}"; do
    "$cilkpp" --serial -O2 -include "$main_timer" "examples/$prog.cilkpp" -o "$out/$prog-serial" ||
      fail "cannot build $prog (serial)"
    "$cilkpp" -O2 -include "$main_timer" "examples/$prog.cilkpp" -o "$out/$prog-parallel" ||
      fail "cannot build $prog (parallel)"
  done
  bench_build "$cilkpp" >"$out/build-info"
  if ((build_only)); then
    echo "bench: built ${programs[*]} into $out; run them with --prebuilt"
    exit 0
  fi
fi
for prog in "${programs[@]}"; do
  for build in serial parallel; do
    [[ -x $out/$prog-$build ]] || fail "no $out/$prog-$build (build it with --build-only first)"
  done
done
[[ -x $timeit ]] || fail "no $timeit (build it with --build-only first)"

bench_machine "$command_line"
cat "$out/build-info" 2>/dev/null || echo "# compiler: unknown (no $out/build-info)"
if ((rounds == 1)); then
  echo "# times:    best of $runs runs, wall clock, seconds"
else
  echo "# times:    best of $((rounds * runs)) runs ($rounds rounds over the programs, $runs run$( ((runs == 1)) || echo s) each), wall clock, seconds"
fi
(($(nproc) >= widest)) || echo "# warning:  fewer than $widest CPUs, T$widest cannot show a speedup of $widest"

# time_once WORKERS PROGRAM ARG: one run's wall-clock time in microseconds,
# measured by bench/timeit (bash's own fork would be timed too otherwise),
# then the time of its main() as main_timer.h wrote it. The run must print
# $expected. An empty WORKERS leaves CILKPP_NWORKERS unset; WORKERS "copiesN"
# runs N copies at once (and reports no main() time).
time_once() {
  local workers=$1 us output status main_us=0
  shift
  rm -f "$out/main-time"
  if [[ $workers == copies* ]]; then
    us=$("$timeit" -j "${workers#copies}" "$out/output" "$@") && status=0 || status=$?
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
  if [[ $workers != copies* ]]; then
    main_us=$(<"$out/main-time") || fail "'$*' wrote no main() time (built without bench/main_timer.h?)"
  fi
  echo "$us $main_us"
}

# keep_min VAR VALUE: VAR = min(VAR, VALUE); an empty VAR takes VALUE.
keep_min() {
  local -n slot=$1
  if [[ -z $slot ]] || (($2 < slot)); then slot=$2; fi
}

# seconds MICROSECONDS, ratio A B: the numbers as the table prints them.
seconds() { awk -v us="$1" 'BEGIN { printf "%.3f", us / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# The columns: times, whole-process ratios, then the main() ratios.
header=$(printf '%-18s %-28s %8s %8s' benchmark result TS T1)
main_header="main(): T1/TS"
for p in "${workers[@]}"; do header+=$(printf ' %8s' "T$p"); done
header+=$(printf ' %6s' T1/TS)
for p in "${workers[@]}"; do
  header+=$(printf ' %7s' "T1/T$p")
  main_header+=" T1/T$p"
done
header+=$(printf ' %6s' "${widest}CPU")
# The configurations take turns, so a burst of load from elsewhere on the
# machine hits one round of all of them rather than one configuration; and
# with --rounds R the whole list of programs is measured R times over, so
# that a row's runs come from R stretches of time minutes apart (load from
# other tenants of these VMs comes and goes in spells of minutes).
declare -A best=() best_main=() reference=()
measure() {
  local prog=$1 arg=$2 key="$1 $2" config us main
  local configs=(serial 1 "${workers[@]}" "copies$widest")
  # The serial elision's output is the reference; this first run also warms up.
  [[ -v reference[$key] ]] || reference[$key]=$("$out/$prog-serial" "$arg") ||
    fail "'$out/$prog-serial $arg' failed"
  expected=${reference[$key]}
  for ((i = 0; i < runs; i++)); do
    for config in "${configs[@]}"; do
      case $config in
        serial) read -r us main < <(time_once "" "$out/$prog-serial" "$arg") ;;
        copies*) read -r us main < <(time_once "$config" "$out/$prog-serial" "$arg") ;;
        *) read -r us main < <(time_once "$config" "$out/$prog-parallel" "$arg") ;;
      esac
      [[ -n $us ]] || exit 1
      keep_min "best[$key/$config]" "$us"
      keep_min "best_main[$key/$config]" "$main"
    done
  done
}
row() {
  local key="$1 $2" summary line p config
  local -A t=() t_main=()
  for config in serial 1 "${workers[@]}" "copies$widest"; do
    t[$config]=${best[$key/$config]}
    t_main[$config]=${best_main[$key/$config]}
  done
  # The last line of the output, shortened to fit its column.
  summary=${reference[$key]##*$'\n'}
  ((${#summary} <= 28)) || summary="${summary:0:25}..."
  line=$(printf '%-18s %-28s %8s %8s' "$1($2)" "$summary" "$(seconds "${t[serial]}")" "$(seconds "${t[1]}")")
  for p in "${workers[@]}"; do line+=$(printf ' %8s' "$(seconds "${t[$p]}")"); done
  line+=$(printf ' %6s' "$(ratio "${t[1]}" "${t[serial]}")")
  for p in "${workers[@]}"; do line+=$(printf ' %7s' "$(ratio "${t[1]}" "${t[$p]}")"); done
  line+=$(printf ' %6s' "$(ratio "$((widest * t[serial]))" "${t[copies$widest]}")")
  line+=$(printf '  %13s' "$(ratio "${t_main[1]}" "${t_main[serial]}")")
  for p in "${workers[@]}"; do
    line+=$(printf ' %*s' $((${#p} + 4)) "$(ratio "${t_main[1]}" "${t_main[$p]}")")
  done
  echo "$line"
}
# The last round prints each row as soon as it is measured.
for ((round = 1; round <= rounds; round++)); do
  ((round < rounds)) || printf '\n%s  %s\n' "$header" "$main_header"
  for prog in "${programs[@]}"; do
    for n in ${args[$prog]}; do
      measure "$prog" "$n"
      ((round < rounds)) || row "$prog" "$n"
    done
  done
  ((round == rounds)) || echo "bench: round $round of $rounds done ($(date -u +%H:%M:%S) UTC)" >&2
done
