# Sourced by the bench scripts. bench_header COMMAND_LINE CILKPP prints what
# ran where: the command, the date, the machine, the compilers and the
# commit (marked "(modified)" when the work tree differs from it).
bench_header() {
  local cpu commit
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
  echo "# $1"
  echo "# date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "# machine:  $(nproc) CPUs, ${cpu:-unknown CPU}"
  echo "# compiler: $("$2" --version | head -n1); host: $(${CXX:-c++} --version | head -n1)"
  if commit=$(git rev-parse --short HEAD 2>/dev/null); then
    git diff --quiet HEAD 2>/dev/null || commit+=" (modified)"
  else
    commit="none"
  fi
  echo "# commit:   $commit"
}
