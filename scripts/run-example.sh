#!/usr/bin/env bash
# Builds cilkpp, compiles examples/fib.cilkpp with it and runs fib(30) on two
# workers with scheduler statistics, spawns counted (expected result:
# fib(30) = 832040).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
bash scripts/install-deps.sh
bash scripts/build.sh

mkdir -p "$BUILD_DIR/examples"
"$BUILD_DIR/bin/cilkpp" -O2 -fcilkpp-count-spawns examples/fib.cilkpp -o "$BUILD_DIR/examples/fib"
CILKPP_NWORKERS=2 CILKPP_STATS=1 "$BUILD_DIR/examples/fib" 30
