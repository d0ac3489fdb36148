#!/usr/bin/env bash
# Configures and builds cilkpp (Release) in $BUILD_DIR (default: build).
# Idempotent: running it again only rebuilds what changed.
# Extra arguments go to the configure step, e.g. scripts/build.sh -DCILKPP_BUILD_BENCH=OFF
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$BUILD_DIR" -j"$(nproc)"
