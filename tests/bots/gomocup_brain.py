#!/usr/bin/env python3
"""A Gomocup (piskvork) brain for the referee's integration tests, written to the protocol's
description (plastovicka.github.io/protocl2en.htm): START/RECTSTART, RESTART, INFO, BEGIN,
TURN, BOARD ... DONE, ABOUT, END. It plays five in a row plainly: complete a five, else block
the opponent's four, else extend its own longest line, else play near the centre. It
misbehaves on purpose in the way named by its first argument.

usage: gomocup_brain.py MODE [MARKER]
MODE: good, noise (MESSAGE and DEBUG lines and empty lines before every answer), trailing (a
MESSAGE line right after every answer, in the same write, as pbrain-figrid does after OK), crlf, cr
(line ends), refuse-size (ERROR to START), no-restart (UNKNOWN to RESTART), wrong (answers
'x y' instead of 'x,y' at its third move, and nothing more), junk (before every move, lines
that are not moves: a MESSAGE split by a raw CR and a byte that is not UTF-8, ERROR, UNKNOWN,
OK, '7,8,1'), chatty (40 MESSAGE lines of 1000 characters before every move), occupied (plays the opponent's last square at its third move), slow:MS (sleeps before each move),
slow-chatter:MS (writes a MESSAGE at once, then sleeps before each move), suggest (answers
SUGGEST x,y and then plays what PLAY says), hash (allocates a hash table of the size told by
INFO max_memory, and writes 'ERROR Failed to allocate ...' if it cannot), norule (answers
INFO rule with a value other than 0, 1 and 4 as Rapfi does: 'ERROR Unknown rule id: N. Rule
is reset to freestyle...'), no-flush (never flushes its output: it comes out as the brain exits),
no-newline (writes its first move without a line end, and flushes), stderr (writes its moves
to stderr only), choose:swap,
choose:stay, choose:more (its answer to SWAP2BOARD at a choice: SWAP; a White stone; on three
stones two stones, White then Black, and on five a White stone). In every other mode it answers
SWAP2BOARD on the empty board with three stones at the centre and a White stone at a choice,
except no-swap2, which answers it UNKNOWN.
MARKER is ignored; tests pass a unique word so they can find leftover processes.
Each START or RESTART is reported on stderr with the process id, and each INFO line too; a
line from the manager that does not end in CR LF is reported as 'not CR LF: LINE'.
"""
import os
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
# Which process this is, for the tests: the pid alone does not tell, as every bot has pid 2 in
# a PID namespace of its own.
PROCESS = "%d-%s" % (os.getpid(), os.urandom(4).hex())
param = None
if ":" in mode:
    mode, param = mode.split(":", 1)

END_OF_LINE = {"crlf": "\r\n", "cr": "\r"}.get(mode, "\n")

width = height = 0
board = {}  # (x, y) -> 1 (own) or 2 (opponent)
moves_made = 0
last_opponent = None


def send(line):
    if mode == "noise":
        sys.stdout.write("MESSAGE thinking hard" + END_OF_LINE)
        sys.stdout.write(END_OF_LINE)
        sys.stdout.write("DEBUG eval=0.5 depth=3" + END_OF_LINE)
    sys.stdout.write(line + END_OF_LINE)
    if mode == "trailing":
        sys.stdout.write("MESSAGE config: hash=16MB depth=20" + END_OF_LINE)
    if mode != "no-flush":
        sys.stdout.flush()


def log(text):
    print(text, file=sys.stderr, flush=True)


def run_length(x, y, dx, dy, who):
    n = 0
    x, y = x + dx, y + dy
    while 0 <= x < width and 0 <= y < height and board.get((x, y)) == who:
        n += 1
        x, y = x + dx, y + dy
    return n


def longest_through(x, y, who):
    return max(
        1 + run_length(x, y, dx, dy, who) + run_length(x, y, -dx, -dy, who)
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1))
    )


def choose():
    empty = [(x, y) for y in range(height) for x in range(width) if (x, y) not in board]
    centre = (width // 2, height // 2)

    def score(square):
        x, y = square
        own, theirs = longest_through(x, y, 1), longest_through(x, y, 2)
        if own >= 5:
            return (3, 0, 0)
        if theirs >= 5:
            return (2, 0, 0)
        distance = abs(x - centre[0]) + abs(y - centre[1])
        return (1, max(own, theirs), -distance)

    return max(empty, key=score)


def move():
    global moves_made
    moves_made += 1
    if mode == "slow":
        time.sleep(int(param) / 1000.0)
    if mode == "slow-chatter":
        sys.stdout.write("MESSAGE let me think" + END_OF_LINE)
        sys.stdout.flush()
        time.sleep(int(param) / 1000.0)
    if mode == "chatty":
        for n in range(40):
            sys.stdout.write("MESSAGE %d %s" % (n, "x" * 1000) + END_OF_LINE)
        sys.stdout.flush()
    if mode == "junk":
        sys.stdout.buffer.write(b"MESSAGE caf\xe9 eval\r 12.5 nodes" + END_OF_LINE.encode())
        for line in ("ERROR Unknown command", "UNKNOWN", "OK", "7,8,1"):
            sys.stdout.write(line + END_OF_LINE)
        sys.stdout.flush()
    x, y = choose()
    if mode == "occupied" and moves_made == 3:
        x, y = last_opponent
    board[(x, y)] = 1
    if mode == "wrong" and moves_made == 3:
        send("%d %d" % (x, y))
    elif mode == "suggest":
        send("SUGGEST %d,%d" % (x, y))
        del board[(x, y)]
    elif mode == "no-newline":
        sys.stdout.write("%d,%d" % (x, y))
        sys.stdout.flush()
    elif mode == "stderr":
        log("%d,%d" % (x, y))
    else:
        send("%d,%d" % (x, y))


def read_line():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if not line.endswith("\r\n"):
        log("not CR LF: %r" % line)
    return line.strip()


while True:
    line = read_line()
    if not line:
        continue
    command, _, rest = line.partition(" ")
    command = command.upper()
    if command in ("START", "RECTSTART"):
        log("pid %s %s" % (PROCESS, line))
        if mode == "refuse-size":
            send("ERROR unsupported size")
            continue
        if command == "START":
            width = height = int(rest)
        else:
            width, height = (int(v) for v in rest.split(","))
        board = {}
        moves_made = 0
        send("OK")
    elif command == "RESTART":
        log("pid %s %s" % (PROCESS, line))
        if mode == "no-restart":
            send("UNKNOWN RESTART is not implemented")
            continue
        board = {}
        moves_made = 0
        send("OK")
    elif command == "ABOUT":
        send('name="gomocup-test", version="1.0", author="referee tests", country="CZ"')
    elif command == "INFO":
        log(line)
        key, _, value = rest.partition(" ")
        if mode == "hash" and key == "max_memory" and int(value) > 0:
            try:
                table = bytearray(int(value))
                del table
            except MemoryError:
                send("ERROR Failed to allocate %s bytes" % value)
        if mode == "norule" and key == "rule" and value not in ("0", "1", "4"):
            send("ERROR Unknown rule id: %s. Rule is reset to freestyle..." % value)
    elif command == "BEGIN":
        move()
    elif command == "TURN":
        x, y = (int(v) for v in rest.split(","))
        board[(x, y)] = 2
        last_opponent = (x, y)
        move()
    elif command == "PLAY":
        x, y = (int(v) for v in rest.split(","))
        board[(x, y)] = 1
        sys.stdout.write("%d,%d" % (x, y) + END_OF_LINE)
        sys.stdout.flush()
    elif command == "SWAP2BOARD" and mode != "no-swap2":
        stones = []
        while True:
            entry = read_line()
            if entry.upper() == "DONE":
                break
            stones.append(tuple(int(v) for v in entry.split(",")))
        log("swap2 %s" % " ".join("%d,%d" % stone for stone in stones))
        cx, cy = width // 2, height // 2
        if not stones:
            send("%d,%d %d,%d %d,%d" % (cx, cy, cx + 1, cy + 1, cx, cy + 1))
            continue
        # Asked to choose: about to play White, Black's stones are the opponent's.
        board = {stone: 2 if n % 2 == 0 else 1 for n, stone in enumerate(stones)}
        if param == "swap":
            send("SWAP")
        elif param == "more" and len(stones) == 3:
            white = choose()
            board[white] = 1
            black = next((x, y) for y in range(height) for x in range(width) if (x, y) not in board)
            send("%d,%d %d,%d" % (white + black))
        else:
            send("%d,%d" % choose())
        board = {}
    elif command == "BOARD":
        board = {}
        while True:
            entry = read_line()
            if entry.upper() == "DONE":
                break
            x, y, field = (int(v) for v in entry.split(","))
            board[(x, y)] = field
        move()
    elif command == "END":
        sys.exit(0)
    else:
        send("UNKNOWN " + command)
