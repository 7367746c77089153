#!/usr/bin/env bash
# Plays a fixed set of deterministic matches and a tournament with the referee binary BIN and
# writes their records, journals, standings and every command's --help into OUT, with times and
# dates blanked, so that two builds can be compared with `diff -r`:
#
#   tools/same-results.sh OLD_BIN /tmp/before && tools/same-results.sh NEW_BIN /tmp/after
#   diff -r /tmp/before /tmp/after
#
# Only built-in random/greedy bots (seeded) and the scripted test bot play, so every move and
# verdict is the same from run to run.
set -euo pipefail
bin=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
mkdir -p "$out"
cd "$here"
scripted="python3 tests/bots/scripted.py"

m() { # NAME GAME A B [options...]
  local name=$1; shift
  "$bin" match "$@" --record "$out/$name" >"$out/$name.out" 2>&1 || echo "exit $?" >>"$out/$name.out"
}
m ttt tictactoe builtin:random builtin:greedy --games 6 --seed 7
m gomoku gomoku builtin:greedy builtin:random --games 2 --seed 3 --opening "7 7,8 8"
m uttt uttt builtin:random builtin:greedy --games 4 --seed 5
m checkers checkers builtin:greedy builtin:random --games 2 --seed 2 --opening "9-13,21-17,5-9"
m dots dots builtin:random builtin:greedy --games 4 --seed 4 -p size=2
m draw-offer checkers "$scripted offer" "$scripted accept" --games 2 --legal-moves
for mode in slow:600 silent garbage offboard occupied long-line resign exit segv close-stdout \
  never-ready bad-ready early unasked crlf swapped accept-unoffered crash-at-once binary huge-line; do
  m "verdict-${mode%%:*}" tictactoe "$scripted $mode" "$scripted good" --games 2 \
    --time move=300 --startup-ms 1000
done
m memory tictactoe "$scripted memory" "$scripted good" --games 1 --limits memory=200
m sprt tictactoe builtin:greedy builtin:random --sprt elo0=0,elo1=200 --games 20 --seed 9

config=$(mktemp --suffix .toml)
cat >"$config" <<TOML
name = "same"
game = "tictactoe"
games = 4
openings = { plies = 1 }
time = "move=300"
seed = 11
reuse_processes = false
concurrency = 1
output = "$out/tournament"

[[players]]
name = "random"
builtin = "random"

[[players]]
name = "greedy"
builtin = "greedy"

[[players]]
name = "garbage"
command = "$scripted garbage"

[[players]]
name = "good"
command = "$scripted good"
TOML
"$bin" tournament "$config" >"$out/tournament.out" 2>&1 || echo "exit $?" >>"$out/tournament.out"
"$bin" standings "$out/tournament/journal.jsonl" --json "$out/standings.json" --csv "$out/standings.csv" \
  >"$out/standings.out" 2>&1 || echo "exit $?" >>"$out/standings.out"

# The command line's help, whole: every command's.
"$bin" --help >"$out/help.out" 2>&1
for command in $("$bin" --help | sed -n '/^Commands:/,/^$/p' | grep -E '^  [a-z]+ ' | awk '$1 != "help" { print $1 }'); do
  "$bin" "$command" --help >"$out/help-$command.out" 2>&1 || echo "exit $?" >>"$out/help-$command.out"
done

# Blank what differs from run to run: times, dates, process ids and the output path.
find "$out" -type f -print0 | xargs -0 sed -i -E \
  -e 's/"(us|cpu_us|at_us|elapsed_us|ms)": ?[0-9]+/"\1":T/g' \
  -e 's/"(started|ended|date|time_stamp)": ?"[^"]*"/"\1":"D"/g' \
  -e 's/^\[ *[0-9.]+( ms| s)?\]/[T]/' \
  -e 's/^ *[0-9]+\.[0-9]+ /T /' \
  -e 's/[0-9]+(\.[0-9]+)? ?(ms|µs|us|s)\b/Tms/g' \
  -e 's/pid [0-9]+/pid P/g' \
  -e 's/[0-9]+(\.[0-9]+)? games\/s/N games\/s/g' \
  -e "s#$out#OUT#g"
# Who held the journal's lock, and since when.
find "$out" -name '*.lock' -print0 | xargs -0 -r sed -i -E 's/^pid P on .*/LOCKED/'
# A bot that crashes at once may die before or after the referee writes its setup lines (a
# race no build decides): those lines are left out of its transcripts.
sed -i -E '/^\+Tms A> /d' "$out"/verdict-crash-at-once/*.transcript.txt
# When each stderr line was written: a list, on lines of its own in pretty JSON.
find "$out" -type f -print0 | xargs -0 perl -0pi -e 's/"stderr_at_us": ?\[[^\]]*\]/"stderr_at_us":T/g'
