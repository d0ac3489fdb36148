#!/bin/bash
# Runs fib on two workers until a run's statistics show a frame exposed on a
# thief's request and stolen (at most 10 runs: the second worker may not get
# a CPU in time on a loaded machine). Prints the last total line.
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  total=$(env CILKPP_NWORKERS=2 CILKPP_STATS=1 "$1" 32 2>&1 >/dev/null | grep '^ total')
  read -r _ _ exposed steals _ <<<"$total"
  if [ "$exposed" -gt 0 ] && [ "$steals" -gt 0 ]; then
    echo "exposed and stolen: $total"
    exit 0
  fi
done
echo "never exposed and stolen: $total"
