#!/usr/bin/env python3
"""Compares the referee's renju forbidden points with GomocupJudge's, point by point.

GomocupJudge (github.com/Gomocup/GomocupJudge), the manager of Gomocup's tournaments, judges
Black's forbidden moves with client/check_forbid.py, Piskvork's logic ported to Python; Rapfi
agrees with it on every position (issue 34). This tool makes renju positions with Black to
move, asks the referee for Black's forbidden points (benches/renju_judges.rs) and asks
GomocupJudge's check_forbid about every empty point of each, and lists where they differ.

The positions (every one with Black to move, from the first stone on, in each game):
  --random N    N seeded random games, each move a legal point within two of the last one;
  --dense N     N seeded random games inside the central 9x9 square (stones crowd, lines cross);
  --selfplay N  N games of the referee's strongest built-in bot against itself (`referee match
                gomoku -p rule=renju builtin:strong builtin:strong`, 100 ms a move).

GomocupJudge is not part of this repository: fetch its sources and give the folder that holds
check_forbid.py (`--gomocupjudge ~/GomocupJudge/client`). Needs cargo (it builds the bench and,
for --selfplay, the referee) and Python 3. Exits 1 when a point is judged differently.

usage: tools/renju-compare.py --gomocupjudge DIR [--random N] [--dense N] [--selfplay N]
                              [--seed S] [--show N]
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

SIZE = 15
REPO = pathlib.Path(__file__).resolve().parent.parent


def referee_positions(args, games_file):
    """The referee's verdicts: (moves, set of forbidden points) for each position."""
    command = ["cargo", "bench", "--profile", "dev", "--bench", "renju_judges", "--", "seed",
               str(args.seed), "random", str(args.random), "dense", str(args.dense)]
    if games_file:
        command += ["games", games_file]
    output = subprocess.run(command, cwd=REPO, check=True, capture_output=True, text=True)
    positions = []
    for line in output.stdout.splitlines():
        moves, _, forbidden = line.partition("\t")
        points = {tuple(map(int, p.split())) for p in forbidden.split(",") if p}
        positions.append(([tuple(map(int, m.split())) for m in moves.split(",")], points))
    return positions


def selfplay_games(count, seed):
    """The moves of `count` games of the strongest built-in bot against itself, one line each."""
    records = tempfile.mkdtemp(prefix="renju-selfplay-")
    subprocess.run(
        ["cargo", "run", "--quiet", "--", "match", "gomoku", "-p", "rule=renju",
         "builtin:strong", "builtin:strong", "--games", str(count), "--seed", str(seed),
         "--time", "move=100", "--record", records],
        cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    lines = []
    for name in sorted(os.listdir(records)):
        if name.endswith(".json"):
            record = json.load(open(os.path.join(records, name)))
            moves = record["opening"] + [move["move"] for move in record["moves"]]
            lines.append(",".join(moves))
    games_file = os.path.join(records, "games.txt")
    with open(games_file, "w") as out:
        out.write("\n".join(lines) + "\n")
    return games_file


def near_black_stones(board, x, y):
    """Black stones within five points of (x, y) either way: a forbidden shape needs four."""
    return sum(board[i][j] == 1
               for i in range(max(0, x - 5), min(SIZE, x + 6))
               for j in range(max(0, y - 5), min(SIZE, y + 6)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gomocupjudge", required=True, help="folder with check_forbid.py")
    parser.add_argument("--random", type=int, default=0)
    parser.add_argument("--dense", type=int, default=0)
    parser.add_argument("--selfplay", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="disagreements shown in full")
    args = parser.parse_args()
    sys.path.insert(0, args.gomocupjudge)
    from check_forbid import check_forbid

    games_file = selfplay_games(args.selfplay, args.seed) if args.selfplay else None
    positions = referee_positions(args, games_file)
    points = 0
    differing = []
    for moves, referee in positions:
        board = [[0] * SIZE for _ in range(SIZE)]
        for index, (x, y) in enumerate(moves):
            board[x][y] = 1 if index % 2 == 0 else 2
        judge = set()
        for x in range(SIZE):
            for y in range(SIZE):
                if board[x][y] != 0:
                    continue
                points += 1
                if near_black_stones(board, x, y) >= 4 and check_forbid(board, x, y):
                    judge.add((x, y))
        if judge != referee:
            differing.append((moves, referee - judge, judge - referee))
    distinct = {(tuple(m[:-1]), p) for m, only_referee, only_judge in differing
                for p in only_referee | only_judge}
    print(f"{len(positions)} positions with Black to move ({args.random} random games, "
          f"{args.dense} dense, {args.selfplay} self-play; seed {args.seed}), {points} empty "
          f"points judged by both")
    print(f"they differ on {len(differing)} positions ({len(distinct)} points)")
    for moves, only_referee, only_judge in differing[:args.show]:
        opening = ",".join(f"{x} {y}" for x, y in moves)
        print(f"  --opening \"{opening}\" -p rule=renju")
        print(f"    forbidden for the referee only: {sorted(only_referee)}; "
              f"for GomocupJudge only: {sorted(only_judge)}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
