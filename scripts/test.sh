#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (googletest unit tests
# and the lit suite) through ctest, then the runtime's ThreadSanitizer checks
# (scripts/tsan.sh) and a minute of fuzzing the canonical decoder
# (scripts/fuzz.sh, FUZZ_SECONDS). Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
bash scripts/install-deps.sh
bash scripts/build.sh
# --no-tests=error: a configuration that registered no tests is a failure too.
ctest --test-dir "$BUILD_DIR" --output-on-failure --no-tests=error
# The runtime again, under ThreadSanitizer (unit tests and two programs).
bash scripts/tsan.sh
# The canonical decoder on hostile input, under libFuzzer with ASan and UBSan.
bash scripts/fuzz.sh
