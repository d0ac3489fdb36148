# Sourced by the bench scripts. bench_header COMMAND_LINE CILKPP prints what
# ran where: the command, the date, the machine (bench_machine), the
# compilers and the commit (bench_build, the commit marked "(modified)" when
# the work tree differs from it).
# The corpus (examples/), in the order the tables list it, and each program's
# default argument: sizes that run 50 ms or more, so that the process's own
# start (2 to 5 ms, serial) does not cap the speedup that the rows measure.
corpus_programs=(fib nqueens heat cilksort matmul strassen knapsack lu fft uts wordfreq)
declare -A corpus_args=([fib]=38 [nqueens]=12 [heat]=1024 [cilksort]=4000000 [matmul]=512
                        [strassen]=1024 [knapsack]=32 [lu]=1024 [fft]=4194304 [uts]=100000 [wordfreq]=20000)

bench_machine() {
  local cpu
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
  echo "# $1"
  echo "# date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "# machine:  $(nproc) CPUs, ${cpu:-unknown CPU}"
}

bench_build() {
  local commit
  echo "# compiler: $("$1" --version | head -n1); host: $(${CXX:-c++} --version | head -n1)"
  if commit=$(git rev-parse --short HEAD 2>/dev/null); then
    git diff --quiet HEAD 2>/dev/null || commit+=" (modified)"
  else
    commit="none"
  fi
  echo "# commit:   $commit"
}

bench_header() {
  bench_machine "$1"
  bench_build "$2"
}
