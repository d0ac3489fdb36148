#!/usr/bin/env bash
# Installs every Debian package cilkpp needs to build and test. Idempotent; run as root.
set -euo pipefail

packages=(
  cmake g++ make ninja-build python3
  llvm-19-dev libclang-19-dev clang-19 llvm-19-tools libclang-rt-19-dev
  libfmt-dev libgtest-dev googletest libbenchmark-dev
  gnuplot-nox
  gdb
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: need root to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
