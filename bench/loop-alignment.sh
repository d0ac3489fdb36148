#!/usr/bin/env bash
# Benchmark (not a test): what the driver's -falign-loops=64 does to the
# programs of examples/. Each is built four ways (serial elision and
# parallel code, with the driver's default and with -fno-cilkpp-align-loops)
# and run on one worker; the four builds take turns, and each time is the
# best wall-clock time of N runs, in milliseconds.
#
# Usage: bench/loop-alignment.sh [-n RUNS] [PROG...]   (default: 9 runs, the
#        programs of bench/run.sh with its default arguments)
# Environment: BUILD_DIR (default build; its bin/cilkpp and bench/timeit,
# which bench/run.sh --build-only makes, are used), CXX (the host compiler).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/.."

command_line="bench/loop-alignment.sh"
(($#)) && command_line+=$(printf ' %q' "$@")
runs=9
if [[ ${1:-} == -n ]]; then runs=${2:-}; shift; (($#)) && shift; fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "loop-alignment: -n needs a positive integer" >&2; exit 2; }
source bench/header.sh
# Each program's first default argument.
declare -A args
for prog in "${corpus_programs[@]}"; do args[$prog]=${corpus_args[$prog]%% *}; done
programs=("$@")
((${#programs[@]})) || programs=("${corpus_programs[@]}")
for prog in "${programs[@]}"; do
  [[ -v args[$prog] ]] || { echo "loop-alignment: unknown program '$prog'" >&2; exit 2; }
done

BUILD_DIR=${BUILD_DIR:-build}
cilkpp=$BUILD_DIR/bin/cilkpp
timeit=$BUILD_DIR/bench/timeit
[[ -x $cilkpp && -x $timeit ]] || { echo "loop-alignment: needs $cilkpp and $timeit (bench/run.sh --build-only)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

bench_header "$command_line" "$cilkpp"
echo "# times:    best of $runs runs on one worker, wall clock, milliseconds"
printf '\n%-18s %9s %9s %9s %9s %8s %8s\n' benchmark TS T1 "TS(a64)" "T1(a64)" T1/TS "(a64)"
export CILKPP_NWORKERS=1
for prog in "${programs[@]}"; do
  builds=()
  for align in default a64; do
    flag=-fno-cilkpp-align-loops
    [[ $align == a64 ]] && flag=
    for mode in serial parallel; do
      serial=
      [[ $mode == serial ]] && serial=--serial
      "$cilkpp" $serial -O2 $flag "examples/$prog.cilkpp" -o "$out/$prog-$mode-$align"
      builds+=("$out/$prog-$mode-$align")
    done
  done
  declare -A best=()
  for ((i = 0; i < runs; i++)); do
    for b in "${builds[@]}"; do
      us=$("$timeit" /dev/null "$b" "${args[$prog]}")
      [[ -z ${best[$b]:-} ]] || ((us < best[$b])) || continue
      best[$b]=$us
    done
  done
  ms() { awk -v us="${best[$1]}" 'BEGIN { printf "%.1f", us / 1000 }'; }
  ratio() { awk -v a="${best[$1]}" -v b="${best[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
  printf '%-18s %9s %9s %9s %9s %8s %8s\n' "$prog(${args[$prog]})" "$(ms "${builds[0]}")" "$(ms "${builds[1]}")" \
    "$(ms "${builds[2]}")" "$(ms "${builds[3]}")" "$(ratio "${builds[1]}" "${builds[0]}")" \
    "$(ratio "${builds[3]}" "${builds[2]}")"
  unset best
done
