#!/usr/bin/env python3
"""Makes a deck of balanced openings for a game, judged by the built-in strong bot or an engine.

usage: tools/balanced_openings.py GAME CANDIDATES OUT [--time SPEC] [-j N] [--seed N]
       tools/balanced_openings.py gomoku CANDIDATES OUT --judge ENGINE [--judge-time MS]
                                  [--margin N] [-j N] [--seed N]

GAME is gomoku or uttt. The script draws CANDIDATES random openings (gomoku: three stones,
Black, White, Black, on distinct squares of the central 5x5; uttt: four random legal moves),
plays each one six times with three copies of builtin:strong (a round robin of three players,
each pairing playing it once with each colour, through `referee tournament`), and keeps the
openings after which the first player scored between a third and two thirds of the points:
those that no side wins by itself. OUT gets them, with a header saying how they were made and,
on each line, the first player's points of 6 after it.

The referee is target/release/referee (cargo build --release first). --journal reads the
results of an earlier run (its journal.jsonl) instead of playing the games again.

With --judge, a Gomocup engine judges instead (gomoku only): it is shown each candidate (White
to move, freestyle, 64 MiB, --judge-time a move) and its evaluation is read from the `Eval N`
of its MESSAGE lines (as Rapfi prints them: N from the side to move's view, 0 even); the
openings kept are those with |N| <= --margin. Openings balanced for the strong bot at play
against itself are not balanced for a stronger player: Rapfi at 1 s gives White the worse
side after 34 of the 35 in openings/gomoku.txt (a median of -120).
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFEREE = os.path.join(ROOT, "target", "release", "referee")


def gomoku_opening(rng):
    squares = [(x, y) for x in range(5, 10) for y in range(5, 10)]
    return ["%d %d" % square for square in rng.sample(squares, 3)]


def uttt_opening(rng):
    """Four legal moves: no small board can be won or filled so early, so the forced board
    (the previous move's square within its small board) is always open."""
    taken, moves, forced = set(), [], None
    for _ in range(4):
        if forced is None:
            free = [(x, y) for x in range(9) for y in range(9)]
        else:
            bx, by = forced
            free = [(3 * bx + i, 3 * by + j) for i in range(3) for j in range(3)]
        x, y = rng.choice([square for square in free if square not in taken])
        taken.add((x, y))
        moves.append("%d %d" % (x, y))
        forced = (x % 3, y % 3)
    return moves


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["gomoku", "uttt"])
    parser.add_argument("candidates", type=int)
    parser.add_argument("out")
    parser.add_argument("--time", default="move=50")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal", help="the journal of an earlier run with the same arguments")
    parser.add_argument("--judge", help="a Gomocup engine (its executable) that judges instead")
    parser.add_argument("--judge-time", type=int, default=1000, help="the judge's time, ms")
    parser.add_argument("--margin", type=int, default=25, help="the largest |Eval| kept")
    args = parser.parse_args()
    if args.judge and args.game != "gomoku":
        parser.error("--judge judges gomoku openings only")

    rng = random.Random(args.seed)
    draw = gomoku_opening if args.game == "gomoku" else uttt_opening
    candidates = []
    while len(candidates) < args.candidates:
        opening = draw(rng)
        if opening not in candidates:
            candidates.append(opening)

    if args.judge:
        return judged(args, candidates)
    journal = args.journal or play(args, candidates)

    # The first player's points after each opening.
    points = {}
    with open(journal) as f:
        next(f)
        for line in f:
            entry = json.loads(line)
            key = ",".join(entry["opening"])
            won = {"first": 1.0, "second": 0.0, None: 0.5}[entry["winner"]]
            games, total = points.get(key, (0, 0.0))
            points[key] = (games + 1, total + won)

    kept = [
        (key, total)
        for key, (games, total) in points.items()
        if games == 6 and 2.0 <= total <= 4.0
    ]
    kept.sort(key=lambda item: candidates.index(item[0].split(",")))
    first_player = lambda items: 100 * sum(t for _, t in items) / max(1, 6 * len(items))
    everything = [(key, total) for key, (_, total) in points.items()]
    with open(args.out, "w") as f:
        f.write(
            "# Balanced %s openings, made by tools/balanced_openings.py %s %d %s --time %s "
            "--seed %d:\n" % (args.game, args.game, args.candidates, args.out, args.time, args.seed)
        )
        if args.game == "gomoku":
            f.write("# %d random openings of three stones (Black, White, Black) on the central 5x5,\n" % args.candidates)
        else:
            f.write("# %d random openings of four legal moves,\n" % args.candidates)
        f.write(
            "# each played 6 times by three copies of builtin:strong (%s a move, every pairing\n"
            "# with both colours); kept: the %d after which the first player scored 2 to 4 points\n"
            "# of 6. The first player scored %.1f%% after all the candidates, %.1f%% after those kept.\n"
            "# First player's points after the '#' on each line. One opening per line, the\n"
            "# moves 'x y' separated by commas, as --opening takes them.\n"
            % (args.time, len(kept), first_player(everything), first_player(kept))
        )
        for key, total in kept:
            f.write("%s  # %g/6\n" % (key, total))
    print("%d of %d openings kept" % (len(kept), len(candidates)), file=sys.stderr)


def judged(args, candidates):
    """Keeps the candidates the engine judges even, in the order drawn."""
    with ThreadPoolExecutor(args.jobs) as pool:
        evals = list(pool.map(lambda opening: engine_eval(args, opening), candidates))
    kept = [(o, e) for o, e in zip(candidates, evals) if abs(e) <= args.margin]
    name = os.path.basename(args.judge)
    with open(args.out, "w") as f:
        f.write(
            "# Balanced gomoku openings, made by tools/balanced_openings.py gomoku %d %s --judge %s\n"
            "# --judge-time %d --margin %d --seed %d: %d random openings of three stones (Black,\n"
            "# White, Black) on the central 5x5, each shown to %s (White to move, freestyle,\n"
            "# %d ms); kept: the %d it judged within %d of even. Its evaluation of all of them\n"
            "# had a median of %d (White's view). Its evaluation after the '#' on each line.\n"
            % (args.candidates, args.out, name, args.judge_time, args.margin, args.seed,
               len(candidates), name, args.judge_time, len(kept), args.margin,
               sorted(evals)[len(evals) // 2])
        )
        for opening, value in kept:
            f.write("%s  # %+d\n" % (",".join(opening), value))
    print("%d of %d openings kept" % (len(kept), len(candidates)), file=sys.stderr)


def engine_eval(args, opening):
    """The judge's evaluation of `opening`, the side to move's (a win announced counts as
    far beyond any margin)."""
    try:
        engine = subprocess.Popen([args.judge], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
    except OSError as error:
        sys.exit("cannot start the judge %s: %s" % (args.judge, error))
    lines = ["START 15", "INFO max_memory 67108864", "INFO rule 0",
             "INFO timeout_turn %d" % args.judge_time, "INFO timeout_match 1000000000", "BOARD"]
    # In BOARD, 1 marks the stones of the side to move, 2 the other side's.
    to_move = len(opening) % 2
    lines += ["%s,%d" % (mv.replace(" ", ","), 1 if i % 2 == to_move else 2)
              for i, mv in enumerate(opening)]
    try:
        engine.stdin.write("\n".join(lines + ["DONE"]) + "\n")
        engine.stdin.flush()
    except BrokenPipeError:
        pass  # it stopped at once: it answers nothing, which is said below
    # An engine that never answers is stopped: its evaluation is then missing.
    timer = threading.Timer(args.judge_time / 1000 + 10, engine.kill)
    timer.start()
    value = None
    for line in engine.stdout:
        found = re.search(r"\bEval ([-+]?)(M?)(\d+)", line)
        if found:
            sign, mate, number = found.groups()
            value = (10 ** 6 if mate else int(number)) * (-1 if sign == "-" else 1)
        if re.match(r"^\d+,\d+\s*$", line):
            break
    timer.cancel()
    try:
        engine.stdin.write("END\n")
        engine.stdin.close()
    except BrokenPipeError:
        pass
    engine.wait(timeout=10)
    if value is None:
        sys.exit("%s answered no move with an 'Eval N' in its MESSAGE lines within %d ms "
                 "and 10 s: it cannot judge" % (args.judge, args.judge_time))
    return value


def play(args, candidates):
    """Plays every candidate six times with three copies of the strong bot; returns the
    journal."""
    work = tempfile.mkdtemp(prefix="openings-")
    deck = os.path.join(work, "candidates.txt")
    with open(deck, "w") as f:
        for opening in candidates:
            f.write(",".join(opening) + "\n")
    config = os.path.join(work, "balance.toml")
    with open(config, "w") as f:
        f.write('game = "%s"\n' % args.game)
        f.write("games = %d\n" % (2 * len(candidates)))
        f.write('openings = { file = "%s", order = "file" }\n' % deck)
        f.write('time = "%s"\nseed = %d\nrecords = false\n' % (args.time, args.seed))
        for n in (1, 2, 3):
            f.write('[[players]]\nname = "strong%d"\nbuiltin = "strong"\n' % n)
    out_dir = os.path.join(work, "results")
    subprocess.run(
        [REFEREE, "tournament", config, "--out", out_dir, "-j", str(args.jobs)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return os.path.join(out_dir, "journal.jsonl")


if __name__ == "__main__":
    main()
