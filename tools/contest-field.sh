#!/usr/bin/env bash
# Makes a contest day's field of 21 source folders in 7 languages, as contestants really send
# them: the ultimate tic-tac-toe starter kits of every profiled language (two changed a little),
# and thirteen broken ways (a compile error in C, Rust and JavaScript; a missing module; a Java
# class in a package; bot.py for main.py; a Makefile with its sources in src/; two languages in
# one folder; a missing flush; a crash at move 3; a slow bot; a build that never ends; a build
# that forks without end). Then plays it: cold, resumed, after one resubmission (the missing
# module fixed), each timed, with what was rebuilt and played.
#
#     tools/contest-field.sh [DIR]        # default /tmp/referee-contest-field
#
# REFEREE names the referee executable (default: target/release/referee). Needs g++, gcc, a JDK,
# Go, Node.js and rustc in /usr (Debian's g++ default-jdk-headless golang-go nodejs rustc) and
# bubblewrap.
set -euo pipefail
cd "$(dirname "$0")/.."
referee=$(realpath "${REFEREE:-target/release/referee}")
work=${1:-/tmp/referee-contest-field}
rm -rf "$work"
subs="$work/subs"
put() { mkdir -p "$subs/$1"; cat > "$subs/$1/$2"; }

for language in cpp java rust go javascript; do
  file=$(basename bots/$language/uttt/*)
  put "$language-kit" "$file" < bots/$language/uttt/$file
done
put python-kit main.py < bots/python/uttt.py
{ echo "# changed a little"; cat bots/python/uttt.py; } | put python-tweak main.py
{ echo "// changed a little"; cat bots/cpp/uttt/main.cpp; } | put cpp-tweak main.cpp

echo 'int main(void) { return 0 }' | put c-typo main.c
echo 'fn main() { let x: u32 = "no"; }' | put rust-typo main.rs
echo 'function ( {' | put js-typo main.js
{ echo "import numpy_is_not_installed"; cat bots/python/uttt.py; } | put py-module main.py
{ echo "package contest;"; cat bots/java/uttt/Main.java; } | put java-package Main.java
put py-botpy bot.py < bots/python/uttt.py
mkdir -p "$subs/c-make/src"
printf 'all:\n\tcc -O2 -o bot src/bot.c\n' > "$subs/c-make/Makefile"
echo 'int main(void) { return 0; }' > "$subs/c-make/src/bot.c"
put two-languages main.py < bots/python/uttt.py
put two-languages main.js < bots/javascript/uttt/main.js
sed 's/flush=True//; s/sys.stdout.flush()//' bots/python/uttt.py | put py-noflush main.py
python3 - "$subs" <<'PY'
import pathlib, sys
kit = pathlib.Path("bots/python/uttt.py").read_text()
subs = pathlib.Path(sys.argv[1])
# A crash at its third move, and a bot slower than the clock from its second.
for name, hook in [("py-crash", "if MOVES[0] >= 2: raise SystemExit('crashed on purpose')"),
                   ("py-slow", "if MOVES[0] >= 1: time.sleep(2)")]:
    folder = subs / name
    folder.mkdir(parents=True)
    wrapper = f"""
def choose_move(*args, **kwargs):
    {hook}
    MOVES[0] += 1
    return _choose_move(*args, **kwargs)


if __name__ == "__main__":"""
    text = "import time\nMOVES = [0]\n" + kit.replace(
        "def choose_move(", "def _choose_move(", 1).replace('\nif __name__ == "__main__":', wrapper, 1)
    (folder / "main.py").write_text(text)
PY
put slow-build main.slow <<< "never built"
put fork-build main.bomb <<< "forks"

cat > "$work/field.toml" <<TOML
name = "field"
game = "uttt"
format = "round-robin"
games = 2
time = "move=1000,first=3000"
sources = "$subs"
build_timeout_s = 20
[languages.slow]
detect = ["*.slow"]
compile = "sleep 600"
run = "{dir}/main.slow"
[languages.bomb]
detect = ["*.bomb"]
compile = "bomb() { bomb | bomb & }; bomb; sleep 5; exit 1"
run = "{dir}/main.bomb"
TOML
grep -q 'def choose_move(' bots/python/uttt.py || { echo "bots/python/uttt.py has no choose_move" >&2; exit 1; }

run() {
  local what=$1
  shift
  local started=$(date +%s.%N)
  "$referee" contest "$work/field.toml" --out "$work/out" "$@" > "$work/$what.log" 2>&1
  local ended=$(date +%s.%N)
  printf '%-14s %6.1f s  built: %2d  cached: %2d  %s\n' "$what" "$(echo "$ended - $started" | bc)" \
    "$(grep -c ', built in ' "$work/$what.log" || true)" "$(grep -c ', cached' "$work/$what.log" || true)" \
    "$(grep -o 'played [0-9]* games' "$work/$what.log" | tail -1)"
}
run cold -j 2
run resumed -j 2 --resume
{ echo "# fixed: no numpy"; cat bots/python/uttt.py; } > "$subs/py-module/main.py"
run resubmitted -j 2 --resume
grep -E 'new or changed players' "$work/resubmitted.log" || true
echo "players: $work/out/players.txt; logs: $work/*.log"
