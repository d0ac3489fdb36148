#!/usr/bin/env bash
# Fuzzes the canonical decoder (test/fuzz/canonical_decode_fuzzer.cpp) with
# libFuzzer under AddressSanitizer and UndefinedBehaviorSanitizer for
# FUZZ_SECONDS (default 60). Builds the target in $BUILD_DIR-fuzz from the
# runtime sources it needs, checks that the checked-in seed corpus
# (test/fuzz/corpus/canonical_decode) is what the target generates now, and
# fuzzes a copy of it, so the checked-in corpus never grows. Any crash, leak,
# sanitizer report or round-trip mismatch fails the run and leaves the input
# that caused it in $BUILD_DIR-fuzz/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
FUZZ_DIR=$BUILD_DIR-fuzz
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
SEEDS=test/fuzz/corpus/canonical_decode
fuzzer=$FUZZ_DIR/canonical_decode_fuzzer

mkdir -p "$FUZZ_DIR"
clang++-19 -std=c++20 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1 -Wall -Wextra \
  -I runtime/include -I runtime/src \
  test/fuzz/canonical_decode_fuzzer.cpp \
  runtime/src/canonical_decode.cpp runtime/src/canonical_encode.cpp runtime/src/function_table.cpp \
  -o "$fuzzer"

# Seeds are blobs of the target's own frames; a change to its tables (or to
# the format) makes them stale, and then they would only test the header.
rm -rf "$FUZZ_DIR/seeds" "$FUZZ_DIR/corpus"
mkdir "$FUZZ_DIR/seeds"
"$fuzzer" --write-corpus="$FUZZ_DIR/seeds" >/dev/null 2>&1
if ! diff -r "$FUZZ_DIR/seeds" "$SEEDS" >/dev/null; then
  echo "fuzz: $SEEDS is stale; regenerate it with: $fuzzer --write-corpus=$SEEDS" >&2
  exit 1
fi

cp -r "$SEEDS" "$FUZZ_DIR/corpus"
echo "fuzz: canonical_decode_fuzzer for ${FUZZ_SECONDS}s"
"$fuzzer" -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$FUZZ_DIR/" "$FUZZ_DIR/corpus"
echo "fuzz: no crashes"
