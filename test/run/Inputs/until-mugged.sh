#!/bin/bash
# until-mugged.sh PROGRAM ARGS...: runs PROGRAM (mug-stress) on two workers,
# worker 0 at a quarter of its CPU and beta just above 1, until a run's
# statistics show a mugging (at most 5 runs: on a loaded machine the fast
# worker may find nothing to mug in one). Every run's output must say that
# every leaf ran exactly once; prints the last run's output and mugs.
for attempt in 1 2 3 4 5; do
  out=$(env CILKPP_NWORKERS=2 CILKPP_SPEEDS=0.25,1 CILKPP_BETA=1.01 CILKPP_STATS=1 "$@" 2>"$STATS_FILE") || {
    echo "run failed: $out"; exit 1; }
  case $out in
    *"visited other than once 0, wrong sums 0") ;;
    *) echo "wrong: $out"; exit 1 ;;
  esac
  mugs=$(awk '$1 == "total" { print $10 }' "$STATS_FILE")
  if [ "${mugs:-0}" -gt 0 ]; then
    echo "$out"
    echo "mugged"
    exit 0
  fi
done
echo "$out"
echo "never mugged in 5 runs"
