#!/usr/bin/env python3
"""A theaigames.com (2016) or riddles.io (2017) ultimate tic-tac-toe bot for the referee's
integration tests, written to those engines' protocol: `settings ...` once, then before each
of its moves `update game round`, (theaigames) `update game move`, `update game field`,
`update game macroboard`, and `action move MS`, answered `place_move X Y` (column, row). It
takes its legal moves from the field and the macroboard alone (an empty cell of a board marked
-1) and plays one at random (seeded by its process id); it misbehaves on purpose in the way
named by its second argument.

usage: riddles_uttt.py DIALECT MODE [MARKER]
DIALECT: theaigames (ids 1 and 2, empty 0) or riddles (ids 0 and 1, empty .)
MODE: good, crlf (CR LF line ends), wrong (answers 'X Y' without place_move at its third
move), startup:MS (uses MS ms of CPU before it reads anything, as a JVM starting up does),
nomem (writes, as a JVM that cannot reserve its memory does, 'Error occurred during
initialization of VM' on stdout before anything is asked, and exits a second later), disc
(answers 'place_disc X Y', Four in a Row's command, at its third move), twice (answers 'X Y'
at its third and fourth request: a theaigames engine asks twice), taken (answers a square
already taken at its third request), decimal (answers every move 'place_move X.0 Y.0 extra'),
slow:MS (sleeps before each move), bank (sleeps a quarter of the bank left, at most 120 ms, so
the bank moves), no-flush (never flushes its output: it comes out as the bot exits), stderr
(writes its moves to stderr only).
MARKER is ignored; tests pass a unique word so they can find leftover processes.
Every settings line is repeated on stderr, and every `action move` reported as `bank MS`.
"""
import os
import random
import sys
import time

dialect = sys.argv[1]
mode = sys.argv[2] if len(sys.argv) > 2 else "good"
param = None
if ":" in mode:
    mode, param = mode.split(":", 1)
EMPTY = "0" if dialect == "theaigames" else "."
rng = random.Random(os.getpid())
end_of_line = "\r\n" if mode == "crlf" else "\n"
if mode == "startup":
    until = time.process_time() + int(param) / 1000.0
    while time.process_time() < until:
        pass
if mode == "nomem":
    sys.stdout.write("Error occurred during initialization of VM\n")
    sys.stdout.flush()
    time.sleep(1)
    sys.exit(1)
field = []
macroboard = []
moves_made = 0
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "settings":
        print("settings " + " ".join(words[1:]), file=sys.stderr, flush=True)
    elif words[:3] == ["update", "game", "field"]:
        field = words[3].split(",")
    elif words[:3] == ["update", "game", "macroboard"]:
        macroboard = words[3].split(",")
    elif words[:2] == ["action", "move"]:
        bank = int(words[2])
        print("bank %d" % bank, file=sys.stderr, flush=True)
        moves_made += 1
        if mode == "slow":
            time.sleep(int(param) / 1000.0)
        elif mode == "bank":
            time.sleep(min(120, bank // 4) / 1000.0)
        legal = [
            (x, y)
            for y in range(9)
            for x in range(9)
            if field[y * 9 + x] == EMPTY and macroboard[(y // 3) * 3 + x // 3] == "-1"
        ]
        x, y = rng.choice(legal)
        if (mode == "wrong" and moves_made == 3) or (mode == "twice" and moves_made in (3, 4)):
            line = "%d %d" % (x, y)
        elif mode == "taken" and moves_made == 3:
            taken = [i for i, cell in enumerate(field) if cell != EMPTY]
            line = "place_move %d %d" % (taken[0] % 9, taken[0] // 9)
        elif mode == "decimal":
            line = "place_move %d.0 %d.0 extra" % (x, y)
        elif mode == "disc" and moves_made == 3:
            line = "place_disc %d %d" % (x, y)
        else:
            line = "place_move %d %d" % (x, y)
        if mode == "stderr":
            print(line, file=sys.stderr, flush=True)
            continue
        sys.stdout.write(line + end_of_line)
        if mode != "no-flush":
            sys.stdout.flush()
