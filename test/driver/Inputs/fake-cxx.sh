# Stands in for the host compiler (run as CXX="sh fake-cxx.sh"): prints
# "fake-cxx:" and each argument on its own line, then exits with
# $FAKE_CXX_STATUS (default 0).
echo "fake-cxx:"
for arg in "$@"; do
  printf '%s\n' "$arg"
done
exit "${FAKE_CXX_STATUS:-0}"
