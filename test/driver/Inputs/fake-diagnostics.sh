# Stands in for the host compiler (run as CXX="sh fake-diagnostics.sh"):
# prints the file $FAKE_DIAGNOSTICS to stderr and fails, so that tests can
# check how the driver rewrites a host compiler's diagnostics.
cat "$FAKE_DIAGNOSTICS" >&2
exit 1
