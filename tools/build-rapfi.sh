#!/bin/sh
# Builds Rapfi, a public Gomocup engine (https://github.com/dhbloo/rapfi, GPL-3.0), from a
# checkout of its source with g++ alone, for machines without CMake: the gomoku strength
# benchmark's stronger opponent (benches/gomoku_strength.rs, docs/builtin-bots.md).
#
#   git clone https://github.com/dhbloo/rapfi /tmp/rapfi    # measured at commit 3aedf3a2
#   tools/build-rapfi.sh /tmp/rapfi /tmp/pbrain-rapfi
#   referee match gomoku builtin:strong gomocup:/tmp/pbrain-rapfi --time move=1000 \
#       --gomocup-memory-mb 64 --opening "5 6,6 6,9 9" --games 2
#
# It compiles the sources Rapfi's CMakeLists.txt names as its core (no command modules, no
# ONNX), with the SIMD the build machine has, on every core. Built without network weights,
# Rapfi plays its classical evaluation, on one thread unless told otherwise. Needs g++ and gcc
# (Debian: g++); takes a minute or two on two cores.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 RAPFI_CHECKOUT [OUTPUT]   (OUTPUT defaults to ./pbrain-rapfi)" >&2
  exit 2
fi
checkout=$(cd "$1" && pwd -P)
output=$(realpath -m "${2:-pbrain-rapfi}")
source_dir=$checkout/Rapfi
if [ ! -f "$source_dir/CMakeLists.txt" ]; then
  echo "$1 is not a checkout of Rapfi: $source_dir/CMakeLists.txt is missing" >&2
  exit 2
fi

# The core sources: the lines between 'set(CORE_SOURCES' and the next ')'.
sources=$(sed -n '/^set(CORE_SOURCES/,/)/p' "$source_dir/CMakeLists.txt" |
  grep -o '[A-Za-z0-9_/]*\.cpp')
if [ -z "$sources" ]; then
  echo "no CORE_SOURCES found in $source_dir/CMakeLists.txt (a newer layout?)" >&2
  exit 1
fi

defines="-DNDEBUG -DMULTI_THREADING"
arch=""
case $(uname -m) in
  x86_64)
    defines="$defines -DUSE_SSE"
    flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
    if echo "$flags" | grep -qw avx2 && echo "$flags" | grep -qw fma; then
      defines="$defines -DUSE_AVX2"
    fi
    if echo "$flags" | grep -qw bmi2; then
      defines="$defines -DUSE_BMI2"
    fi
    arch="-march=native"
    ;;
esac
includes="-I. -Iexternal/cpptoml/include -Iexternal/cxxopts/include -Iexternal/lz4/include -Iexternal/simde/include"

objects=$(mktemp -d)
trap 'rm -rf "$objects"' EXIT
jobs=$(nproc)
cd "$source_dir"
{
  for file in external/lz4/src/*.c; do
    echo "gcc -O2 -Iexternal/lz4/include -c $file -o $objects/$(echo "$file" | tr / _).o"
  done
  for file in $sources; do
    echo "g++ -std=c++17 -O2 $arch -pthread $defines $includes -c $file -o $objects/$(echo "$file" | tr / _).o"
  done
} | xargs -P "$jobs" -I{} sh -c '{}'
g++ -pthread "$objects"/*.o -o "$output"
echo "built $output ($(echo "$sources" | wc -l) sources;$defines)"
