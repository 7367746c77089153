#!/usr/bin/env python3
"""A bot for the referee's integration tests: plays m,n,k games legally (first free square),
or any game from the referee's `legal` line (first legal move) when the match sends one, and
misbehaves on purpose in the way named by its first argument.

usage: scripted.py MODE [MARKER]
MARKER is ignored; tests pass a unique word so they can find leftover processes.
"""
import os
import signal
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
param = None
if ":" in mode:
    mode, param = mode.split(":", 1)


if mode == "no-flush":
    # A block-buffered stdout, whatever PYTHONUNBUFFERED says, as a C or Java bot has on a pipe.
    sys.stdout = open(sys.stdout.fileno(), "w", buffering=8192, closefd=False)


def send(line):
    sys.stdout.write(line + "\n")
    # plain-print: Python's own buffering, which PYTHONUNBUFFERED=1 turns off.
    if mode not in ("no-flush", "plain-print"):
        sys.stdout.flush()


width = height = 3
taken = set()
moves_made = 0
legal = []
offered = False
# Dots and boxes (no-extra-move): the lines drawn, and whether the bot moved since the
# opponent did.
lines = set()
moved_last = False
print("pid %d" % os.getpid(), file=sys.stderr, flush=True)
if mode == "crash-at-once":
    sys.exit(1)
if mode == "crash-noisy":
    # Dies as a buggy bot does, its last words holding bytes no terminal should get.
    sys.stderr.write("Traceback: \x1b[2Jboom\x07\n\nValueError: bad move\n")
    sys.exit(1)
if mode == "fds":
    # Descriptors open at start-up (listdir's own shows up as one more).
    print("fds %s" % sorted(int(fd) for fd in os.listdir("/proc/self/fd")), file=sys.stderr, flush=True)
if mode == "cpus":
    # The processors this bot may run on (as /proc lists them), into a file of its own in PARAM.
    with open("/proc/self/status") as status:
        allowed = [l.split(":", 1)[1].strip() for l in status if l.startswith("Cpus_allowed_list:")]
    with open(os.path.join(param, "%d.%s" % (os.getpid(), os.urandom(4).hex())), "w") as out:
        out.write(allowed[0])
ready_line = "ready scripted 1" + (" multi" if mode in ("multi", "multi-once") else "")

def completes_box(move):
    """Whether the dots line `move` ('h x y' or 'v x y') draws the last side of a box."""
    kind, x, y = move.split()
    x, y = int(x), int(y)
    drawn = lines | {move}
    boxes = [(x, y - 1), (x, y)] if kind == "h" else [(x - 1, y), (x, y)]
    return any(
        {"h %d %d" % (bx, by), "h %d %d" % (bx, by + 1), "v %d %d" % (bx, by), "v %d %d" % (bx + 1, by)}
        <= drawn
        for bx, by in boxes
    )


for raw in sys.stdin:
    line = raw.rstrip("\n")
    words = line.split()
    if not words:
        continue
    if words[0] == "referee":
        taken = set()
        moves_made = 0
        lines = set()
        moved_last = False
    elif words[0] == "game":
        params = dict(w.split("=", 1) for w in words[2:])
        width = int(params.get("width", 3))
        height = int(params.get("height", 3))
    elif words[0] == "start":
        if mode == "never-ready":
            time.sleep(3600)
        if mode == "bad-ready":
            send("hello")
            continue
        if mode == "bom":
            # As C#'s Console with Encoding.UTF8 writes it: a byte order mark first.
            sys.stdout.buffer.write(b"\xef\xbb\xbf" + ready_line.encode() + b"\n")
            sys.stdout.flush()
            continue
        if mode == "early":
            # One write, so the extra line is there before the referee can ask anything.
            send(ready_line + "\n0 0")
        else:
            send(ready_line)
    elif words[0] in ("opponent", "played"):
        if len(words) == 3 and words[1].isdigit():
            taken.add((int(words[1]), int(words[2])))
        lines.add(line.split(" ", 1)[1])
        moved_last = False
    elif words[0] == "legal":
        legal = line[len("legal "):].split(",")
    elif line == "offer draw":
        offered = True
        if mode == "exit-on-offer":
            # A bot that knows no draw offers and gives up on a line it does not know.
            print("unknown line: %s" % line, file=sys.stderr, flush=True)
            sys.exit(2)
    elif words[0] == "turn":
        moves_made += 1
        if mode == "algebraic":
            # A checkers move in the notation of a chess board, not PDN's square numbers.
            send("c3-d4")
            continue
        if mode == "thinks-aloud":
            # A line of stderr at each move, as bots log their search.
            print("move %d" % moves_made, file=sys.stderr, flush=True)
        if mode == "evaluates":
            # Its evaluation, as protocol.md says to report one: 10 at its first move, then 20...
            print("info depth 1 score %d" % (10 * moves_made), file=sys.stderr, flush=True)
        if mode == "needs-legal" and not legal:
            # A beginner's bot that plays from the `legal` line, run without one.
            legal[0]
        if mode == "reads-ahead":
            # Reads a line more than it is sent before answering: blocked until the result.
            sys.stdin.readline()
        if mode == "debug-stdout":
            # Debug output on the wrong stream, before the move.
            send("thinking about move %d" % moves_made)
        if mode == "slow":
            time.sleep(int(param) / 1000.0)
        elif mode == "gate":
            # Plays its first move at once; each later one waits for the file named by the
            # parameter to exist, then thinks 300 ms: a game that stays live until a test lets
            # it go on.
            if moves_made > 1:
                while not os.path.exists(param):
                    time.sleep(0.02)
                time.sleep(0.3)
        elif mode == "slow-once" and moves_made == 1:
            # Slow on the first move of each process only.
            time.sleep(int(param) / 1000.0)
        elif mode == "once-silent" and not os.path.exists(param):
            # The first time any process of this bot is asked for a move, it creates the file
            # named by the parameter (so the test knows it is thinking) and never answers;
            # afterwards it plays like a good bot.
            open(param, "w").close()
            time.sleep(3600)
        elif mode == "silent":
            time.sleep(3600)
        elif mode == "partial":
            # Keeps writing without ever ending the line.
            for _ in range(3600):
                sys.stdout.write("1")
                sys.stdout.flush()
                time.sleep(0.05)
        elif mode == "garbage":
            send("banana")
            continue
        elif mode == "offboard":
            send("%d 0" % width)
            continue
        elif mode == "occupied" and taken:
            send("%d %d" % next(iter(taken)))
            continue
        elif mode == "long-line":
            send("7" * 10000)
            continue
        elif mode == "resign":
            send("resign")
            continue
        elif mode == "exit":
            sys.exit(3)
        elif mode == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif mode == "close-stdout":
            os.close(1)
            time.sleep(3600)
        elif mode == "fork":
            if os.fork() == 0:
                time.sleep(3600)
                os._exit(0)
        elif mode == "setsid-escape" and moves_made == 1:
            if os.fork() == 0:
                os.setsid()
                time.sleep(3600)
                os._exit(0)
        elif mode == "memory":
            hoard = []
            while True:
                hoard.append(b"x" * 1000000)
        elif mode == "spin":
            while True:
                pass
        elif mode == "many-children" and moves_made == 1:
            for _ in range(50):
                if os.fork() == 0:
                    time.sleep(3600)
                    os._exit(0)
        elif mode == "fork-loop":
            # Forks until refused, reports how far it got, then hangs like a bot whose helper
            # never started.
            started = 0
            try:
                while started < 10000:
                    if os.fork() == 0:
                        time.sleep(3600)
                        os._exit(0)
                    started += 1
            except OSError as error:
                print("fork refused after %d: %s" % (started, error), file=sys.stderr, flush=True)
            time.sleep(3600)
        elif mode == "flood-stderr" and moves_made == 1:
            chunk = "e" * 65536 + "\n"
            for _ in range(160):
                sys.stderr.write(chunk)
            sys.stderr.flush()
        elif mode == "binary":
            sys.stdout.buffer.write(bytes(range(256)) + b"\n")
            sys.stdout.flush()
            continue
        elif mode == "huge-line":
            sys.stdout.write("7" * 10000000 + "\n")
            sys.stdout.flush()
            continue
        elif mode == "net" and moves_made == 1:
            import socket
            try:
                socket.create_connection(("127.0.0.1", int(param)), timeout=1).close()
                print("network: open", file=sys.stderr, flush=True)
            except OSError as error:
                print("network: blocked (%s)" % error, file=sys.stderr, flush=True)
        elif mode == "write-outside" and moves_made == 1:
            try:
                with open(param, "w") as f:
                    f.write("escaped")
                print("write: allowed", file=sys.stderr, flush=True)
            except OSError as error:
                print("write: refused (%s)" % error, file=sys.stderr, flush=True)
            scratch = os.path.join(os.environ.get("TMPDIR", "/tmp"), "notes.txt")
            with open(scratch, "w") as f:
                f.write("mine")
            print("scratch: ok", file=sys.stderr, flush=True)
        elif mode == "kill-referee" and moves_made == 1:
            # Only ever run inside the sandbox: outside it, this kills the referee.
            hits = 0
            for entry in os.listdir("/proc"):
                if entry.isdigit() and int(entry) != os.getpid():
                    try:
                        with open("/proc/%s/cmdline" % entry, "rb") as f:
                            cmdline = f.read()
                    except OSError:
                        continue
                    if b"referee" in cmdline and b"match" in cmdline:
                        hits += 1
                        try:
                            os.kill(int(entry), signal.SIGKILL)
                        except OSError:
                            pass
            print("referees seen: %d" % hits, file=sys.stderr, flush=True)
        elif mode == "accept" and offered:
            send("draw")
            continue
        elif mode == "accept-unoffered":
            send("draw")
            continue
        offered = False
        if mode == "no-extra-move" and legal:
            # Dots and boxes: completes a box when it can, but never answers a turn that
            # follows its own move, as if a box gave no extra move.
            if moved_last:
                continue
            move = next((m for m in legal if completes_box(m)), legal[0])
            lines.add(move)
            moved_last = True
            legal = []
            send(move)
            continue
        if legal:
            send(legal[0] + (" draw" if mode == "offer" else ""))
            legal = []
            continue
        square = next(
            (x, y) for y in range(height) for x in range(width) if (x, y) not in taken
        )
        taken.add(square)
        if mode == "offer":
            send("%d %d draw" % square)
        elif mode == "crlf":
            sys.stdout.write("%d %d\r\n" % square)
            sys.stdout.flush()
        elif mode == "no-newline":
            # Flushed, but the line never ended.
            sys.stdout.write("%d %d" % square)
            sys.stdout.flush()
        elif mode == "swapped":
            send("%d %d" % (square[1], square[0]))
        elif mode == "stderr":
            # Its move on the wrong stream, after a line of debug output and an illegal move
            # (the taken square of the opponent's, when there is one).
            others = sorted(taken - {square})
            illegal = "%d %d" % others[0] if others else "9 9"
            for line in ("eval 35", illegal, "%d %d" % square):
                print(line, file=sys.stderr, flush=True)
        elif mode == "unasked":
            # One write, so the extra line is there before the referee asks again.
            send("%d %d\n0 0" % square)
        else:
            send("%d %d" % square)
        if mode == "fork":
            time.sleep(3600)
    elif words[0] == "result" and mode == "multi-once":
        # Declares 'multi', yet ends with its first game, as a one-game bot does.
        break
    elif words[0] == "quit":
        if mode == "farewell":
            print("farewell after %d moves" % moves_made, file=sys.stderr, flush=True)
        if mode == "linger":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            time.sleep(3600)
        break
