#!/usr/bin/env python3
"""Each player's time per move and results by colour, from a tournament's game records, to
check that the time was equal and to see where the draws and losses fall.

    python3 benches/openspiel/move_times.py /tmp/openspiel-100/games.jsonl

Times are the referee's own clock (`us` in each move of the records), from the request to the
answer, in milliseconds.
"""

import json
import statistics
import sys


def main():
    times = {}
    results = {}  # (player, side) -> [won, drawn, lost]
    for line in open(sys.argv[1]):
        record = json.loads(line).get("record")
        if record is None:  # a process's epilogue after its last game
            continue
        label = {}
        for side, player in zip(("first", "second"), record["players"]):
            label[side] = player["label"]
            tally = results.setdefault((player["label"], side), [0, 0, 0])
            tally[{1.0: 0, 0.5: 1, 0.0: 2}[player["points"]]] += 1
        for move in record["moves"]:
            times.setdefault(label[move["side"]], []).append(move["us"] / 1000)
    print(f"{'player':<16} {'moves':>6} {'mean ms':>8} {'median ms':>10} {'slowest ms':>11}")
    for player, spent in sorted(times.items()):
        print(f"{player:<16} {len(spent):>6} {statistics.mean(spent):>8.1f} "
              f"{statistics.median(spent):>10.1f} {max(spent):>11.1f}")
    print(f"\n{'player':<16} {'as':<7} {'won':>4} {'drawn':>6} {'lost':>5}")
    for (player, side), (won, drawn, lost) in sorted(results.items()):
        print(f"{player:<16} {side:<7} {won:>4} {drawn:>6} {lost:>5}")


if __name__ == "__main__":
    main()
