# Runs `cilkpp -c <input>` with a host compiler that never finishes, sends
# the driver (alone, not its process group) signal $1 once the host compiler
# has started (with a fourth argument `twice`, twice at once, as timeout(1)
# signals the driver and then its process group), and prints the driver's
# exit status, whether the host compiler stopped, and whatever is left in the
# temporary directory.
# Usage: bash interrupt-during-compile.sh SIGNAL CILKPP INPUT [twice]
signal=$1 cilkpp=$2 input=$3 twice=$4
rm -rf tmp started && mkdir tmp
cat > slow-cxx.sh <<'CXX'
echo $$ > started.tmp && mv started.tmp started
exec sleep 60
CXX
TMPDIR=$PWD/tmp CXX="sh $PWD/slow-cxx.sh" "$cilkpp" -c "$input" -o out.o &
driver=$!
for _ in $(seq 600); do [ -f started ] && break; sleep 0.05; done
kill -"$signal" "$driver"
[ "$twice" = twice ] && kill -"$signal" "$driver" 2>/dev/null
wait "$driver"
echo "status: $?"
host=$(cat started)
for _ in $(seq 100); do kill -0 "$host" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$host" 2>/dev/null; then echo "host compiler: running"; kill "$host"; else echo "host compiler: stopped"; fi
echo "left:" $(ls -A tmp)
