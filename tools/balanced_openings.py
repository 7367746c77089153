#!/usr/bin/env python3
"""Makes a deck of balanced openings for a game with the referee's built-in strong bot.

usage: tools/balanced_openings.py GAME CANDIDATES OUT [--time SPEC] [-j N] [--seed N]

GAME is gomoku or uttt. The script draws CANDIDATES random openings (gomoku: three stones,
Black, White, Black, on distinct squares of the central 5x5; uttt: four random legal moves),
plays each one six times with three copies of builtin:strong (a round robin of three players,
each pairing playing it once with each colour, through `referee tournament`), and keeps the
openings after which the first player scored between a third and two thirds of the points:
those that no side wins by itself. OUT gets them, with a header saying how they were made and,
on each line, the first player's points of 6 after it.

The referee is target/release/referee (cargo build --release first). --journal reads the
results of an earlier run (its journal.jsonl) instead of playing the games again.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

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
    args = parser.parse_args()

    rng = random.Random(args.seed)
    draw = gomoku_opening if args.game == "gomoku" else uttt_opening
    candidates = []
    while len(candidates) < args.candidates:
        opening = draw(rng)
        if opening not in candidates:
            candidates.append(opening)

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
