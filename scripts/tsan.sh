#!/usr/bin/env bash
# ThreadSanitizer checks of the runtime: builds the runtime and its unit
# tests with -fsanitize=thread in $BUILD_DIR-tsan and runs them, then
# translates some programs with the regular build's driver, compiles them
# against the sanitized runtime and runs them with one worker emulated slow,
# so that steals and muggings happen throughout. Any report fails the run
# (ThreadSanitizer exits with status 66). Needs scripts/build.sh done first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
TSAN_DIR=$BUILD_DIR-tsan
BUILD_DIR=$TSAN_DIR bash scripts/build.sh -DCILKPP_BUILD_COMPILER=OFF -DCILKPP_BUILD_BENCH=OFF \
  "-DCMAKE_CXX_FLAGS=-fsanitize=thread -g -Wno-tsan"
ctest --test-dir "$TSAN_DIR" --output-on-failure --no-tests=error

export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
run() {  # run NAME ARGS...: a translated test program under ThreadSanitizer
  local name=$1
  shift
  local src=test/run/Inputs/$name.cilkpp out=$TSAN_DIR/programs/$name
  mkdir -p "$TSAN_DIR/programs"
  "$BUILD_DIR/bin/cilkpp" -E "$src" >"$out.cpp"
  "${CXX:-c++}" -std=c++17 -O1 -g -fsanitize=thread -Wno-tsan -I runtime/include -iquote test/run/Inputs \
    "$out.cpp" "$TSAN_DIR/lib/libcilkpp_rt.a" -lpthread -o "$out"
  # Four workers on CI's two CPUs: preempted victims and thieves meet in
  # orders two workers rarely produce.
  for speeds in 0.25,1 1,0.1 1,0.1,1,0.1; do
    local workers=$(($(tr -cd , <<<"$speeds" | wc -c) + 1))
    echo "tsan: $name $* (CILKPP_NWORKERS=$workers CILKPP_SPEEDS=$speeds)"
    CILKPP_NWORKERS=$workers CILKPP_SPEEDS=$speeds CILKPP_BETA=1.01 "$out" "$@" >/dev/null
  done
}
run mug-stress 14 16
run poll-points
run root-calls-from-threads
run call-points 16 50000
run throws-under-steals 10 1
echo "tsan: no reports"
