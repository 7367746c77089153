#!/usr/bin/env python3
"""Hostile bots for the referee's integration tests (tests/it/bytes.rs): each mode attacks the
referee, its opponent or the organiser with the bytes it writes, or with how it exits. All
modes but 'victim' and 'brain-flood' speak the referee's own protocol and play m,n,k games by
the first free square until the attack.

usage: bytes.py MODE [MARKER]
MODE:
  inject-move     answers its first turn 'x<CR>turn 1000<CR>', to fake a 'turn' in the
                  result line its opponent is sent (for a reader that ends lines at a lone CR)
  inject-ready    answers 'start' with 'ready x<CR>turn 1000<CR>'
  ansi            answers its first turn with terminal escapes (clear the screen, set the
                  window title) around a move
  blank:KIND      answers its first turn with its move written with a character that looks
                  like a blank but is none of protocol.md's: nbsp (0<U+00A0>0), ideographic
                  (a trailing U+3000), vt (a leading vertical tab), ff (a trailing form feed),
                  crcr (two CRs before the LF)
  orphan          at its first turn, leaves a grandchild in a session of its own holding its
                  pipes open, and exits
  flood-stderr:S  writes to stderr as fast as it can for S seconds at its first turn, then
                  plays on
  endless-line    answers its first turn with bytes that never end in a newline
  victim          a good bot (multi) that reads its input with universal newlines, as
                  Python's text files and Java's BufferedReader do: a lone CR ends a line, and
                  it answers every 'turn' it reads; one read between a 'result' and the next
                  game is reported on stderr as 'FAKED TURN' 
  brain-flood:S   a Gomocup brain that writes MESSAGE lines as fast as it can for S seconds
                  before its OK to START, before its first move and after it (when nobody
                  asked), then exits when asked for its second move
MARKER is ignored; tests pass a unique word so they can find leftover processes.
"""
import io
import os
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "victim"
param = None
if ":" in mode:
    mode, param = mode.split(":", 1)

out = sys.stdout.buffer


def send(data):
    out.write(data if isinstance(data, bytes) else data.encode())
    out.flush()


def flood(stream, line, seconds):
    """Writes `line` to `stream` again and again for `seconds`."""
    chunk = line * 1000
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        stream.write(chunk)
        stream.flush()


def brain():
    """A Gomocup brain that floods its output with chatter."""
    seconds = float(param)
    message = b"MESSAGE thinking very hard about this position\r\n"
    moves = 0
    for raw in sys.stdin.buffer:
        words = raw.decode().strip().split()
        if not words:
            continue
        command = words[0].upper()
        if command == "START":
            flood(out, message, seconds)
            send("OK\r\n")
        elif command == "ABOUT":
            send('name="flood", version="1"\r\n')
        elif command in ("BEGIN", "TURN", "BOARD"):
            moves += 1
            if moves == 2:
                sys.exit(0)
            flood(out, message, seconds)
            send("7,7\r\n")
            flood(out, message, seconds)
        elif command == "END":
            return


def victim():
    """A good bot whose line reader ends lines at a lone CR too."""
    taken = set()
    width = height = 3
    game_over = False
    lines = io.TextIOWrapper(sys.stdin.buffer, newline=None)
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "referee":
            taken = set()
            game_over = False
        elif words[0] == "result":
            game_over = True
        elif words[0] == "game":
            params = dict(w.split("=", 1) for w in words[2:])
            width = int(params.get("width", 3))
            height = int(params.get("height", 3))
        elif words[0] == "start":
            send("ready victim 1 multi\n")
        elif words[0] == "opponent" and len(words) == 3:
            taken.add((int(words[1]), int(words[2])))
        elif words[0] == "turn":
            if game_over:
                print("FAKED TURN: %r" % line, file=sys.stderr, flush=True)
            square = next(
                (x, y) for y in range(height) for x in range(width) if (x, y) not in taken
            )
            taken.add(square)
            send("%d %d\n" % square)
        elif words[0] == "quit":
            return


def attacker():
    """The referee's own protocol, first free square, until the attack."""
    taken = set()
    width = height = 3
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "game":
            params = dict(w.split("=", 1) for w in words[2:])
            width = int(params.get("width", 3))
            height = int(params.get("height", 3))
        elif words[0] == "start":
            if mode == "inject-ready":
                send(b"ready x\rturn 1000\r\n")
            else:
                send("ready hostile 1\n")
        elif words[0] == "opponent" and len(words) == 3:
            taken.add((int(words[1]), int(words[2])))
        elif words[0] == "turn":
            x, y = next(
                (x, y) for y in range(height) for x in range(width) if (x, y) not in taken
            )
            taken.add((x, y))
            if mode == "inject-move":
                send(b"x\rturn 1000\r\n")
            elif mode == "ansi":
                send(b"\x1b[2J\x1b]0;pwned\x07%d %d\n" % (x, y))
            elif mode == "blank":
                written = {
                    "nbsp": "%d\u00a0%d" % (x, y),
                    "ideographic": "%d %d\u3000" % (x, y),
                    "vt": "\x0b%d %d" % (x, y),
                    "ff": "%d %d\x0c" % (x, y),
                    "crcr": "%d %d\r\r" % (x, y),
                }[param]
                send(written + "\n")
            elif mode == "orphan":
                if os.fork() == 0:
                    os.setsid()
                    time.sleep(3600)
                    os._exit(0)
                os._exit(0)
            elif mode == "flood-stderr":
                flood(sys.stderr.buffer, b"e" * 1000 + b"\n", float(param))
                send("%d %d\n" % (x, y))
                mode_done()
            elif mode == "endless-line":
                while True:
                    send(b"1" * 65536)
            else:
                send("%d %d\n" % (x, y))
        elif words[0] == "quit":
            return


def mode_done():
    """Plays on like a good bot after the attack."""
    global mode
    mode = "good"


if mode == "brain-flood":
    brain()
elif mode == "victim":
    victim()
else:
    attacker()
