#!/usr/bin/env python3
"""Starter bot for m,n,k games: tic-tac-toe, gomoku and any `mnk` board.

It speaks protocol v1 of the referee (see protocol.md at the root of the repository) on its
standard input and output, and uses nothing but the Python 3 standard library.

How it plays: win now if it can; otherwise block a square where the opponent would win on its
next move; otherwise play a random empty square next to a mark already on the board (the centre
on an empty board). It is meant to be copied: change `choose_move` and keep the rest.

It knows the rule sets of the `rule` parameter: `renju` (the first player, Black, may not make
a double three, a double four or an overline; `is_forbidden` checks a point the RIF way, and
this bot never plays one) and `caro` (a line blocked at both ends by the opponent does not win).

And the swap openings of the `swap` parameter (`swap1`, `swap2`): the first player places three
stones (Black, White, Black), then the second player chooses its colour: `swap` takes Black,
a stone `x y` stays White; under swap2 `x y more` places White's fourth stone and, next turn,
Black's fifth, and the first player chooses the same way. `Opening` follows who is to do what;
this bot opens near the centre and takes the colour with the longer line (`choose_colour`).

Run it with the referee, for example:

    referee match tictactoe "python3 bots/python/mnk.py" builtin:random --games 20
    referee match gomoku "python3 bots/python/mnk.py" builtin:random
    referee match mnk -p size=7 -p line=4 "python3 bots/python/mnk.py" builtin:random
    referee match gomoku -p rule=renju "python3 bots/python/mnk.py" builtin:random
    referee match gomoku -p swap=swap2 "python3 bots/python/mnk.py" builtin:random

Rules of the protocol this file relies on:
- stdout is for protocol lines only, one per line, flushed at once (see `send`);
- anything for people goes to stderr (see `debug`): the referee keeps it in its records;
- the bot answers `start` with `ready NAME VERSION multi` and each `turn` with one move;
- it writes nothing else, ever: a line nobody asked for loses the game;
- it exits on `quit` or at the end of its input.
"""

import random
import sys

NAME = "mnk-starter"  # one word: no spaces
VERSION = "1.0"  # one word: no spaces

EMPTY, X, O = 0, 1, 2  # X is the first player's mark, O the second player's

# The four directions a line can run in: right, down, down-right, down-left.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))


def send(line):
    """Writes one protocol line and flushes it, so the referee sees it now (not when a buffer
    fills up: a bot whose answer sits in a buffer loses on time)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def debug(*words):
    """Debug output goes to stderr, never stdout. The referee saves it (size-capped) next to
    the game record when run with --record DIR."""
    print(*words, file=sys.stderr, flush=True)


class Board:
    """A width x height board. Squares are (x, y): column x, row y, both from 0, with (0, 0)
    at the top left, exactly as in the protocol's moves `x y`."""

    def __init__(self, width, height, line, exact, rule):
        self.width = width
        self.height = height
        self.line = line  # marks in a row needed to win
        self.exact = exact  # True: only a line of exactly `line` marks wins (no overlines)
        self.rule = rule  # "none", "renju" or "caro"
        self.cells = [[EMPTY] * width for _ in range(height)]  # cells[y][x]
        self.moves_played = 0

    def on_board(self, x, y):
        return 0 <= x < self.width and 0 <= y < self.height

    def place(self, x, y, mark):
        if not self.on_board(x, y) or self.cells[y][x] != EMPTY:
            # Cannot happen with a correct referee; say so loudly rather than play on blindly.
            debug("warning: cannot place", mark, "on", x, y)
            return
        self.cells[y][x] = mark
        self.moves_played += 1

    def empty_squares(self):
        return [
            (x, y)
            for y in range(self.height)
            for x in range(self.width)
            if self.cells[y][x] == EMPTY
        ]

    def run_through(self, x, y, dx, dy, mark):
        """Length of the run of `mark` through (x, y) along (dx, dy), counting (x, y) itself
        as if `mark` stood there."""
        length = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while self.on_board(cx, cy) and self.cells[cy][cx] == mark:
                length += 1
                cx += sign * dx
                cy += sign * dy
        return length

    def would_win(self, x, y, mark):
        """Would putting `mark` on the empty square (x, y) complete a winning line? In renju
        only exactly five wins for X (Black), five or more for O; in caro a line with the
        opponent's marks just beyond both ends does not win (the edge is no block)."""
        exact = mark == X if self.rule == "renju" else self.exact
        for dx, dy in DIRECTIONS:
            run = self.run_through(x, y, dx, dy, mark)
            if run < self.line or (run > self.line and exact):
                continue
            if self.rule == "caro" and self.blocked(x, y, dx, dy, mark):
                continue
            return True
        return False

    def blocked(self, x, y, dx, dy, mark):
        """Caro: are the squares just past both ends of the run through (x, y) the
        opponent's? (A square off the board is no block.)"""
        ends = []
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while self.on_board(cx, cy) and self.cells[cy][cx] == mark:
                cx += sign * dx
                cy += sign * dy
            ends.append(self.on_board(cx, cy) and self.cells[cy][cx] not in (EMPTY, mark))
        return all(ends)

    # Renju's forbidden points (RIF rules), for X, the first player (Black). A move that makes
    # exactly five is never forbidden; otherwise six or more in a row is (an overline), then
    # two fours at once (a double four, on two lines or on one: X.XXX.X filled in the middle),
    # then two threes at once (a double three). A four is a line one more stone turns into
    # exactly five; a three is a line one more stone turns into a straight four (.XXXX.), where
    # that stone must itself not be forbidden: checked the same way, recursively.

    def is_forbidden(self, x, y):
        """Renju: would X's stone on the empty square (x, y) be forbidden?"""
        if self.rule != "renju" or self.cells[y][x] != EMPTY:
            return False
        self.cells[y][x] = X
        try:
            return self._forbidden_shape(x, y)
        finally:
            self.cells[y][x] = EMPTY

    def _forbidden_shape(self, x, y):
        runs = [self.run_through(x, y, dx, dy, X) for dx, dy in DIRECTIONS]
        if 5 in runs:
            return False
        if max(runs) > 5:
            return True
        fours = [self._fours(x, y, dx, dy) for dx, dy in DIRECTIONS]
        if sum(fours) >= 2:
            return True
        threes = sum(
            1
            for (dx, dy), four in zip(DIRECTIONS, fours)
            if four == 0 and self._is_three(x, y, dx, dy)
        )
        return threes >= 2

    def _past_run(self, x, y, dx, dy, sign):
        """The square just past the run of X through (x, y), one way along (dx, dy)."""
        cx, cy = x + sign * dx, y + sign * dy
        while self.on_board(cx, cy) and self.cells[cy][cx] == X:
            cx += sign * dx
            cy += sign * dy
        return cx, cy

    def _makes_five(self, x, y, dx, dy):
        """For each end of the run of X through (x, y): does a stone there make exactly five?
        (Only the squares just past the ends can: a five through (x, y) holds every stone
        between.)"""
        found = []
        for sign in (1, -1):
            cx, cy = self._past_run(x, y, dx, dy, sign)
            five = False
            if self.on_board(cx, cy) and self.cells[cy][cx] == EMPTY:
                self.cells[cy][cx] = X
                five = self.run_through(cx, cy, dx, dy, X) == 5
                self.cells[cy][cx] = EMPTY
            found.append(five)
        return found

    def _fours(self, x, y, dx, dy):
        """Fours through (x, y) along (dx, dy): a straight four is one, X.XXX.X is two."""
        ends = self._makes_five(x, y, dx, dy)
        if all(ends):
            return 1 if self.run_through(x, y, dx, dy, X) == 4 else 2
        return 1 if any(ends) else 0

    def _is_three(self, x, y, dx, dy):
        for sign in (1, -1):
            cx, cy = self._past_run(x, y, dx, dy, sign)
            if not self.on_board(cx, cy) or self.cells[cy][cx] != EMPTY:
                continue
            self.cells[cy][cx] = X
            straight = self.run_through(x, y, dx, dy, X) == 4 and all(
                self._makes_five(x, y, dx, dy)
            )
            self.cells[cy][cx] = EMPTY
            if straight and not self.is_forbidden(cx, cy):
                return True
        return False

    def has_neighbour(self, x, y):
        """Is any of the eight squares around (x, y) already marked?"""
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx or dy) and self.on_board(nx, ny) and self.cells[ny][nx] != EMPTY:
                    return True
        return False


class Opening:
    """Who is to do what in a game's opening, and who plays Black once that is settled.
    Without a swap, the first player is Black from the start. Every move of the game goes
    through `apply`, whoever made it: `played` lines, the opponent's moves and our own."""

    def __init__(self, swap):
        # "placing": the first player places stones 1-3; ("choice", SEAT): SEAT answers `swap`
        # or White's stone; "fifth": the second player places Black's fifth stone (swap2);
        # "settled": `black` is the seat ("first" or "second") playing Black.
        self.stage = "settled" if swap == "none" else "placing"
        self.black = "first" if swap == "none" else None

    def apply(self, board, text):
        """Plays the move `text` (`x y`, `swap` or `x y more`) on `board`."""
        words = text.split()
        if words == ["swap"]:
            # The chooser takes Black: the opponent plays White's next stone.
            self.black = self.stage[1]
            self.stage = "settled"
            return
        x, y = int(words[0]), int(words[1])
        # Stones alternate colours in every stage: Black, White, Black, ...
        board.place(x, y, X if board.moves_played % 2 == 0 else O)
        if self.stage == "placing" and board.moves_played == 3:
            self.stage = ("choice", "second")
        elif self.stage == "fifth":
            self.stage = ("choice", "first")
        elif self.stage != "placing" and self.stage != "settled":
            if words[-1] == "more":
                self.stage = "fifth"
            else:
                # The chooser stays White with this stone: the other seat plays Black.
                self.black = "second" if self.stage[1] == "first" else "first"
                self.stage = "settled"

    def colour(self, seat):
        """X (Black) or O (White) for `seat`, once settled."""
        return X if self.black == seat else O


def longest_line(board, mark):
    """The longest run of `mark` on the board."""
    best = 0
    for y in range(board.height):
        for x in range(board.width):
            if board.cells[y][x] == mark:
                for dx, dy in DIRECTIONS:
                    best = max(best, board.run_through(x, y, dx, dy, mark))
    return best


def choose_colour(board, rng, time_ms):
    """At a choice of the swap opening (White is to move): `swap` to take Black when Black's
    stones make the longer line, else White's stone. (Under swap2 the second player may also
    answer `x y more`; this bot never does.)"""
    if longest_line(board, X) > longest_line(board, O):
        return "swap"
    x, y = choose_move(board, O, X, rng, time_ms)
    return "%d %d" % (x, y)


def choose_move(board, me, opponent, rng, time_ms):
    """Picks a move for `me`. This is the function to improve: `board` is up to date, and the
    move returned must be an empty square. `time_ms` is the time this move may take, in
    milliseconds (this bot is fast and does not need it); leave some of it unused, for the
    answer to reach the referee."""
    empty = board.empty_squares()
    # 1. Win now (a five is never forbidden).
    for x, y in empty:
        if board.would_win(x, y, me):
            return x, y
    # In renju, X (Black) never plays a forbidden point: it would lose at once. (If every
    # empty square is forbidden, one must be played all the same.)
    if me == X and board.rule == "renju":
        empty = [(x, y) for x, y in empty if not board.is_forbidden(x, y)] or empty
    # 2. Block the opponent's immediate win (if it has two, we lose anyway: block one).
    for x, y in empty:
        if board.would_win(x, y, opponent):
            return x, y
    # 3. Play next to the marks already on the board; on an empty board, take the centre.
    near = [(x, y) for x, y in empty if board.has_neighbour(x, y)]
    if near:
        return rng.choice(near)
    centre = (board.width // 2, board.height // 2)
    if centre in empty:
        return centre
    return rng.choice(empty)


def main():
    rng = random.Random()
    board = None
    opening = None
    seat = None  # "first" or "second"
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
        elif keyword == "game":
            # `game NAME width=W height=H line=K exact=yes|no [rule=renju|caro]
            # [swap=swap1|swap2]`, e.g. `game tictactoe width=3 height=3 line=3 exact=no` or
            # `game gomoku width=15 height=15 line=5 exact=no rule=renju swap=swap2`.
            name, *pairs = rest.split()
            params = dict(pair.split("=", 1) for pair in pairs)
            board = Board(
                int(params["width"]),
                int(params["height"]),
                int(params["line"]),
                params["exact"] == "yes",
                params.get("rule", "none"),
            )
            opening = Opening(params.get("swap", "none"))
            debug("new game:", name, params)
        elif keyword == "side":
            # `side first` (we move first: X, or in a swap opening we place the first three
            # stones) or `side second`.
            seat = rest
        elif keyword == "time":
            # `time move=M bank=B increment=I first=F`: this bot is fast, so it only uses the
            # number sent with each `turn`.
            pass
        elif keyword == "played":
            # An opening move made before the bots take over: X made the 1st, 3rd, ... ones.
            opening.apply(board, rest)
        elif keyword == "start":
            # Setup complete. `multi` asks the referee to send the next game to this same
            # process (starting again with `referee 1`) instead of `quit`.
            send("ready %s %s multi" % (NAME, VERSION))
        elif keyword == "opponent":
            opening.apply(board, rest)
        elif keyword == "legal":
            # `legal 0 0,1 0,2 0`: comma-separated moves (`swap` and `x y more` at a choice
            # of a swap opening).
            legal = [move for move in rest.split(",") if move]
        elif keyword == "turn":
            # `turn MS`: answer with one move within MS milliseconds (the clock runs from
            # the moment the referee sent this line until it reads our newline).
            time_ms = int(rest)
            if opening.stage == "settled":
                me = opening.colour(seat)
                x, y = choose_move(board, me, O if me == X else X, rng, time_ms)
                move = "%d %d" % (x, y)
            elif opening.stage in ("placing", "fifth"):
                # An opening stone: the centre, then next to the stones.
                x, y = choose_move(board, X, O, rng, time_ms)
                move = "%d %d" % (x, y)
            else:
                move = choose_colour(board, rng, time_ms)
            if legal is not None and move not in legal:
                # Only possible if our board went wrong; trust the referee's list.
                debug("warning: my move", move, "is not in the legal list")
                move = rng.choice(legal)
            legal = None
            opening.apply(board, move)
            send(move)
        elif keyword == "result":
            # `result win|loss|draw REASON DETAIL...`: nothing to answer. Wait for the next
            # game's `referee 1`, or for `quit`.
            debug(line)
        elif keyword == "quit":
            return
        else:
            debug("ignoring an unknown line:", line)


if __name__ == "__main__":
    main()
