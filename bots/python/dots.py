#!/usr/bin/env python3
"""Starter bot for dots and boxes (`dots`).

It speaks protocol v1 of the referee (see protocol.md at the root of the repository) on its
standard input and output, and uses nothing but the Python 3 standard library.

The board has `rows` x `cols` boxes, so (cols + 1) x (rows + 1) dots. A dot is (x, y): column
x from 0 to cols, row y from 0 to rows, with (0, 0) at the top left. A move draws one line:

    h x y   the horizontal line from dot (x, y) to dot (x + 1, y)
    v x y   the vertical line from dot (x, y) to dot (x, y + 1)

The twelve lines of a 2x2 board (dots 0..2 each way):

        x:  0       1       2
     y: 0   +-h 0 0-+-h 1 0-+
            |       |       |
          v 0 0   v 1 0   v 2 0
            |       |       |
        1   +-h 0 1-+-h 1 1-+
            |       |       |
          v 0 1   v 1 1   v 2 1
            |       |       |
        2   +-h 0 2-+-h 1 2-+

The box (col, row) has the dot (col, row) at its top left corner: box (0, 0) is the one
between `h 0 0`, `h 0 1`, `v 0 0` and `v 1 0`.

Drawing the fourth side of a box (or of two boxes at once) scores it, and the same player moves
again: the referee sends this bot another `turn` at once, and the opponent later receives all
those lines, one `opponent` line each. When every line is drawn, more boxes wins.

How it plays: take every box it can; otherwise draw a line that gives no box away (one that
does not make a third side of any box); otherwise draw the line that gives the opponent the
fewest boxes in a row, counted by letting the opponent take greedily. Among equals, at random.
It is meant to be copied: change `choose_move` and keep the rest.

Run it with the referee, for example:

    referee match dots "python3 bots/python/dots.py" builtin:random --games 20
    referee match dots -p rows=3 -p cols=5 "python3 bots/python/dots.py" builtin:random

Rules of the protocol this file relies on:
- stdout is for protocol lines only, one per line, flushed at once (see `send`);
- anything for people goes to stderr (see `debug`): the referee keeps it in its records;
- the bot answers `start` with `ready NAME VERSION multi` and each `turn` with one move;
- it writes nothing else, ever: a line nobody asked for loses the game;
- it exits on `quit` or at the end of its input.
"""

import random
import sys

NAME = "dots-starter"  # one word: no spaces
VERSION = "1.0"  # one word: no spaces

FIRST, SECOND = "first", "second"  # the two sides, as in the `side` line


def other(side):
    return SECOND if side == FIRST else FIRST


def send(line):
    """Writes one protocol line and flushes it, so the referee sees it now (not when a buffer
    fills up: a bot whose answer sits in a buffer loses on time)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def debug(*words):
    """Debug output goes to stderr, never stdout. The referee saves it (size-capped) next to
    the game record when run with --record DIR."""
    print(*words, file=sys.stderr, flush=True)


def format_move(line):
    """("h", 1, 0) -> `h 1 0`."""
    return "%s %d %d" % line


def parse_move(text):
    """`h 1 0` -> ("h", 1, 0)."""
    letter, x, y = text.split()
    return letter, int(x), int(y)


class Board:
    """The lines drawn so far, the owner of every completed box, and whose turn it is. A line
    is a tuple (letter, x, y) as in the notation; a box is (col, row), the dot at its top left
    corner."""

    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols
        self.drawn = set()
        self.owner = {}  # box -> FIRST or SECOND, for completed boxes
        self.to_move = FIRST

    def copy(self):
        board = Board(self.rows, self.cols)
        board.drawn = set(self.drawn)
        board.owner = dict(self.owner)
        board.to_move = self.to_move
        return board

    def all_lines(self):
        horizontal = [("h", x, y) for y in range(self.rows + 1) for x in range(self.cols)]
        vertical = [("v", x, y) for y in range(self.rows) for x in range(self.cols + 1)]
        return horizontal + vertical

    def free_lines(self):
        return [line for line in self.all_lines() if line not in self.drawn]

    @staticmethod
    def sides(box):
        """The four lines around a box: top, bottom, left, right."""
        col, row = box
        return [("h", col, row), ("h", col, row + 1), ("v", col, row), ("v", col + 1, row)]

    def boxes_beside(self, line):
        """The boxes `line` is a side of: one on the edge of the board, two inside."""
        letter, x, y = line
        if letter == "h":
            candidates = [(x, y - 1), (x, y)]
        else:
            candidates = [(x - 1, y), (x, y)]
        return [(c, r) for c, r in candidates if 0 <= c < self.cols and 0 <= r < self.rows]

    def sides_drawn(self, box):
        return sum(1 for side in self.sides(box) if side in self.drawn)

    def draw(self, line):
        """Draws `line` for the side to move and returns how many boxes it completed (0, 1 or
        2). The turn passes to the other side only when it completed none."""
        self.drawn.add(line)
        completed = 0
        for box in self.boxes_beside(line):
            if self.sides_drawn(box) == 4:
                self.owner[box] = self.to_move
                completed += 1
        if completed == 0:
            self.to_move = other(self.to_move)
        return completed

    def score(self, side):
        return sum(1 for owner in self.owner.values() if owner == side)

    def boxes_given_away(self, line):
        """If we draw `line` (which completes no box), how many boxes can the opponent then
        take one after the other? Counted by taking greedily: every box with three sides
        drawn is taken, which may give a third side to the next box of a chain."""
        after = self.copy()
        after.draw(line)  # completes nothing, so the opponent is to move
        taken = 0
        open_boxes = [box for box in after.boxes_beside(line) if after.sides_drawn(box) == 3]
        while open_boxes:
            box = open_boxes.pop()
            if box in after.owner:
                continue
            missing = next(side for side in self.sides(box) if side not in after.drawn)
            taken += after.draw(missing)
            open_boxes.extend(
                neighbour
                for neighbour in after.boxes_beside(missing)
                if neighbour not in after.owner and after.sides_drawn(neighbour) == 3
            )
        return taken


def choose_move(board, rng, time_ms):
    """Picks a line for us to draw. This is the function to improve: `board` is up to date, and
    the line returned must be one of `board.free_lines()`. `time_ms` is the time this move may
    take, in milliseconds (this bot is fast and does not need it); leave some of it unused, for
    the answer to reach the referee."""
    free = board.free_lines()
    # 1. Complete a box (two at once if possible): it scores, and we move again.
    def completes(line):
        return sum(1 for box in board.boxes_beside(line) if board.sides_drawn(box) == 3)

    best = max(completes(line) for line in free)
    if best > 0:
        return rng.choice([line for line in free if completes(line) == best])
    # 2. A safe line: no box beside it gets its third side, so the opponent cannot score.
    safe = [
        line
        for line in free
        if all(board.sides_drawn(box) < 2 for box in board.boxes_beside(line))
    ]
    if safe:
        return rng.choice(safe)
    # 3. Every line gives something away: give as little as possible.
    cost = {line: board.boxes_given_away(line) for line in free}
    least = min(cost.values())
    return rng.choice([line for line in free if cost[line] == least])


def main():
    rng = random.Random()
    board = None
    me = None
    legal = None  # the referee's list of legal moves, when the match runs with --legal-moves

    while True:
        raw = sys.stdin.readline()
        if not raw:  # end of input: the referee has gone, so do we
            return
        line = raw.strip()
        if not line:
            continue
        keyword, _, rest = line.partition(" ")

        if keyword == "referee":
            # `referee 1`: a new game is being set up (also between games of one process).
            if rest != "1":
                debug("warning: this bot speaks protocol 1, the referee says", rest)
            board = None
            me = None
        elif keyword == "game":
            # `game dots rows=R cols=C`: R rows and C columns of boxes.
            name, *pairs = rest.split()
            if name != "dots":
                debug("warning: this bot plays dots, not", name)
            params = dict(pair.split("=", 1) for pair in pairs)
            board = Board(int(params["rows"]), int(params["cols"]))
            debug("new game:", rest)
        elif keyword == "side":
            # `side first` (we draw the first line) or `side second`.
            me = rest
        elif keyword == "time":
            # `time move=M bank=B increment=I first=F`: this bot is fast, so it only uses the
            # number sent with each `turn`.
            pass
        elif keyword == "played":
            # An opening line drawn before the bots take over, by the side to move then.
            board.draw(parse_move(rest))
        elif keyword == "start":
            # Setup complete. `multi` asks the referee to send the next game to this same
            # process (starting again with `referee 1`) instead of `quit`.
            send("ready %s %s multi" % (NAME, VERSION))
        elif keyword == "opponent":
            # One line the opponent drew. After a box it may have drawn several: one
            # `opponent` line each, in the order it drew them.
            board.draw(parse_move(rest))
        elif keyword == "legal":
            # `legal h 0 0,h 1 0,v 2 1`: comma-separated moves.
            legal = [parse_move(move) for move in rest.split(",") if move]
        elif keyword == "turn":
            # `turn MS`: answer with one move within MS milliseconds (the clock runs from
            # the moment the referee sent this line until it reads our newline). After a line
            # that completes a box, the next `turn` comes straight away: it is our turn again.
            time_ms = int(rest)
            if board.to_move != me:
                debug("warning: the referee says it is my turn, my board says it is not")
                board.to_move = me
            move = choose_move(board, rng, time_ms)
            if legal is not None and move not in legal:
                # Only possible if our board went wrong; trust the referee's list.
                debug("warning: my move", format_move(move), "is not in the legal list")
                move = rng.choice(legal)
            legal = None
            board.draw(move)
            send(format_move(move))
        elif keyword == "result":
            # `result win|loss|draw REASON DETAIL...`: nothing to answer. Wait for the next
            # game's `referee 1`, or for `quit`.
            debug(line, "(boxes: mine %d, the opponent's %d)" % (board.score(me), board.score(other(me))))
        elif keyword == "quit":
            return
        else:
            debug("ignoring an unknown line:", line)


if __name__ == "__main__":
    main()
