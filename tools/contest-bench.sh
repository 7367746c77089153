#!/usr/bin/env bash
# Measures a contest from sources to its results page: N generated players (the m,n,k starter kits
# of every profiled language in turn, each copy made distinct by a comment so that each is
# built), a Swiss tournament of ROUNDS rounds at 7x7, four in a row; wall time and peak memory
# by /usr/bin/time -v.
#
#     tools/contest-bench.sh [N] [ROUNDS] [JOBS]      # default 200 8 2
#
# REFEREE names the referee executable (default: target/release/referee). Work goes to
# /tmp/referee-contest-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-200} rounds=${2:-8} jobs=${3:-2}
referee=${REFEREE:-target/release/referee}
work=/tmp/referee-contest-bench
rm -rf "$work"
mkdir -p "$work/subs"
languages=(cpp:main.cpp java:Main.java rust:main.rs go:main.go javascript:main.js python:main.py)
for i in $(seq 1 "$players"); do
  entry=${languages[$(( (i - 1) % ${#languages[@]} ))]}
  language=${entry%%:*} file=${entry#*:}
  folder="$work/subs/p$(printf %03d "$i")-$language"
  mkdir -p "$folder"
  if [ "$language" = python ]; then
    source=bots/python/mnk.py comment="#"
  else
    source="bots/$language/mnk/$file" comment="//"
  fi
  { echo "$comment generated player $i"; cat "$source"; } > "$folder/$file"
done
cat > "$work/bench.toml" <<TOML
game = "mnk"
params = { size = 7, line = 4 }
format = "swiss"
rounds = $rounds
games = 2
time = "move=1000"
sources = "$work/subs"
TOML
/usr/bin/time -v "$referee" contest "$work/bench.toml" --out "$work/out" -j "$jobs" \
  > "$work/contest.log" 2> "$work/time.txt"
grep -E "players play|^played" "$work/contest.log"
grep -E "Elapsed \(wall clock\)|Maximum resident set size" "$work/time.txt"
