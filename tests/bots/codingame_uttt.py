#!/usr/bin/env python3
"""A CodinGame ultimate tic-tac-toe bot for the referee's integration tests, written to the
puzzle's statement: each turn it reads `opponentRow opponentCol` (-1 -1 when it opens), the
number of valid actions and the actions as `row col`, and prints `row col`. It plays a valid
action at random (seeded by its process id), and misbehaves on purpose in the way named by its
first argument.

usage: codingame_uttt.py MODE [MARKER]
MODE: good, first (plays the first valid action, as some real bots do), message (a message
after the move), crlf (CR LF line ends), wrong (answers
'row,col' at its third move), illegal (answers a square that is not a valid action, in a
row and column that differ, at its third move), slow:MS (sleeps before each move),
late-read:MS[:THINK] (after each answer, stays busy MS before reading its next input, then
thinks THINK ms, 50 by default, timed from its own read, as CodinGame bots time themselves), slow-start:MS (sleeps MS before
reading anything, as a slow interpreter starting up, then answers every turn at once),
late:MS:N (sleeps MS before its answers to turns 2 to N+1, as a bot over CodinGame's limit on N
turns), no-flush (never flushes its output: it comes out as the bot exits), stderr (writes its
moves to stderr only, as a bot that prints with printErr or System.err).
MARKER is ignored; tests pass a unique word so they can find leftover processes.
"""
import os
import random
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
param = None
if ":" in mode:
    mode, param = mode.split(":", 1)
rng = random.Random(os.getpid())
end_of_line = "\r\n" if mode == "crlf" else "\n"


def read_line():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)  # the game is over: CodinGame stops its bots
    return line


if mode == "slow-start":
    time.sleep(int(param) / 1000.0)

turn = 0
while True:
    opponent_row, opponent_col = [int(i) for i in read_line().split()]
    count = int(read_line())
    actions = [tuple(int(i) for i in read_line().split()) for _ in range(count)]
    read_at = time.monotonic()
    turn += 1
    if mode == "slow":
        time.sleep(int(param) / 1000.0)
    elif mode == "late" and 2 <= turn <= int(param.split(":")[1]) + 1:
        time.sleep(int(param.split(":")[0]) / 1000.0)
    elif mode == "late-read" and turn > 1:
        think = int(param.split(":")[1]) if ":" in param else 50
        time.sleep(max(0.0, read_at + think / 1000.0 - time.monotonic()))
    row, col = actions[0] if mode == "first" else rng.choice(actions)
    if mode == "wrong" and turn == 3:
        line = "%d,%d" % (row, col)
    elif mode == "illegal" and turn == 3:
        # Row and column differ, so the referee's 'x y' is not the same text.
        row, col = next(
            (r, c) for r in range(9) for c in range(9) if (r, c) not in actions and r != c
        )
        line = "%d %d" % (row, col)
    elif mode == "message":
        line = "%d %d gl hf" % (row, col)
    else:
        line = "%d %d" % (row, col)
    if mode == "stderr":
        print(line, file=sys.stderr, flush=True)
        continue
    sys.stdout.write(line + end_of_line)
    if mode != "no-flush":
        sys.stdout.flush()
    if mode == "late-read":
        time.sleep(int(param.split(":")[0]) / 1000.0)
