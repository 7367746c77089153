#!/usr/bin/env python3
"""Starter bot for ultimate tic-tac-toe (`uttt`).

It speaks protocol v1 of the referee (see protocol.md at the root of the repository) on its
standard input and output, and uses nothing but the Python 3 standard library.

The board is 9x9 squares, grouped into nine small 3x3 boards numbered 0..8 row by row:

                 x 0-2   x 3-5   x 6-8
        y 0-2      0   |   1   |   2
        y 3-5      3   |   4   |   5
        y 6-8      6   |   7   |   8

A move is the square `x y` (column, then row, each 0..8). The cell of a square inside its small
board is numbered the same way (0..8, row by row), and it sends the opponent to the small board
with that number; if that board is decided (won or full), the opponent may play in any
undecided board. Three small boards won in a line win the game.

How it plays: win the game now if it can; else win a small board; else block a small board the
opponent is about to win; else prefer moves that do not send the opponent to a board it can win
at once, nor give it a free choice; among equals, at random. It is meant to be copied: change
`choose_move` and keep the rest.

Run it with the referee, for example:

    referee match uttt "python3 bots/python/uttt.py" builtin:random --games 20

Rules of the protocol this file relies on:
- stdout is for protocol lines only, one per line, flushed at once (see `send`);
- anything for people goes to stderr (see `debug`): the referee keeps it in its records;
- the bot answers `start` with `ready NAME VERSION multi` and each `turn` with one move;
- it writes nothing else, ever: a line nobody asked for loses the game;
- it exits on `quit` or at the end of its input.
"""

import random
import sys

NAME = "uttt-starter"  # one word: no spaces
VERSION = "1.0"  # one word: no spaces

EMPTY, X, O = 0, 1, 2  # X is the first player's mark, O the second player's
FULL = 3  # status of a small board filled without a line: it counts for nobody

# The eight lines of a 3x3 board, as cell numbers (cell = row * 3 + column). The same table
# serves for the cells of a small board and for the small boards of the big board.
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)


def send(line):
    """Writes one protocol line and flushes it, so the referee sees it now (not when a buffer
    fills up: a bot whose answer sits in a buffer loses on time)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def debug(*words):
    """Debug output goes to stderr, never stdout. The referee saves it (size-capped) next to
    the game record when run with --record DIR."""
    print(*words, file=sys.stderr, flush=True)


def board_of(x, y):
    """The small board (0..8) that holds square (x, y)."""
    return (y // 3) * 3 + x // 3


def cell_of(x, y):
    """The cell (0..8) of square (x, y) inside its small board."""
    return (y % 3) * 3 + x % 3


def square_of(board, cell):
    """The square (x, y) of `cell` in small board `board`: the inverse of the two above."""
    return (board % 3) * 3 + cell % 3, (board // 3) * 3 + cell // 3


def has_line(marks, mark):
    """Does `mark` own a whole line among the nine values of `marks`?"""
    return any(marks[a] == mark and marks[b] == mark and marks[c] == mark for a, b, c in LINES)


class Position:
    """The whole game: every square, the status of every small board, and where the side to
    move must play."""

    def __init__(self):
        # small[b][c]: the mark in cell c of small board b.
        self.small = [[EMPTY] * 9 for _ in range(9)]
        # status[b]: EMPTY while small board b is undecided, then X or O (won) or FULL.
        self.status = [EMPTY] * 9
        # The small board the side to move must play in, or None when play is free (the first
        # move, and after being sent to a decided board).
        self.forced = None
        self.moves_played = 0

    def copy(self):
        other = Position()
        other.small = [list(cells) for cells in self.small]
        other.status = list(self.status)
        other.forced = self.forced
        other.moves_played = self.moves_played
        return other

    def legal_moves(self):
        boards = [self.forced] if self.forced is not None else range(9)
        return [
            square_of(b, c)
            for b in boards
            if self.status[b] == EMPTY
            for c in range(9)
            if self.small[b][c] == EMPTY
        ]

    def play(self, x, y, mark):
        b, c = board_of(x, y), cell_of(x, y)
        if self.status[b] != EMPTY or self.small[b][c] != EMPTY:
            # Cannot happen with a correct referee; say so loudly rather than play on blindly.
            debug("warning: square", x, y, "is not playable")
        self.small[b][c] = mark
        if has_line(self.small[b], mark):
            self.status[b] = mark
        elif EMPTY not in self.small[b]:
            self.status[b] = FULL
        # The cell just played names the opponent's board, unless that board is decided.
        self.forced = c if self.status[c] == EMPTY else None
        self.moves_played += 1

    def wins_small_board(self, x, y, mark):
        """Would `mark` on (x, y) win that small board?"""
        b, c = board_of(x, y), cell_of(x, y)
        cells = list(self.small[b])
        cells[c] = mark
        return has_line(cells, mark)

    def wins_game(self, x, y, mark):
        """Would `mark` on (x, y) win a small board that completes a line of small boards?"""
        if not self.wins_small_board(x, y, mark):
            return False
        status = list(self.status)
        status[board_of(x, y)] = mark
        return has_line(status, mark)

    def can_win_a_board_in(self, board, mark):
        """Could `mark`, sent to small board `board`, win it with one move?"""
        if self.status[board] != EMPTY:
            return False
        for c in range(9):
            if self.small[board][c] == EMPTY:
                cells = list(self.small[board])
                cells[c] = mark
                if has_line(cells, mark):
                    return True
        return False


def choose_move(position, me, opponent, rng, time_ms):
    """Picks a move for `me`. This is the function to improve: `position` is up to date, and
    the move returned must be one of `position.legal_moves()`. `time_ms` is the time this move
    may take, in milliseconds (this bot is fast and does not need it); leave some of it unused,
    for the answer to reach the referee."""
    moves = position.legal_moves()
    # 1. Win the game now.
    for x, y in moves:
        if position.wins_game(x, y, me):
            return x, y
    # 2. Win a small board.
    winning = [(x, y) for x, y in moves if position.wins_small_board(x, y, me)]
    if winning:
        return rng.choice(winning)
    # 3. Block a small board the opponent could win with its next mark there.
    blocking = [(x, y) for x, y in moves if position.wins_small_board(x, y, opponent)]
    if blocking:
        return rng.choice(blocking)

    # 4. Otherwise weigh where each move sends the opponent. Worst: somewhere it can win a
    #    small board at once. Not good: a decided board, which gives it a free choice. Best:
    #    anywhere else. Pick at random among the best moves found.
    def danger(move):
        after = position.copy()
        after.play(move[0], move[1], me)
        reachable = [after.forced] if after.forced is not None else range(9)
        if any(after.can_win_a_board_in(board, opponent) for board in reachable):
            return 2
        return 1 if after.forced is None else 0

    scored = [(danger(move), move) for move in moves]
    least = min(score for score, _ in scored)
    return rng.choice([move for score, move in scored if score == least])


def parse_move(text):
    """`x y` -> (x, y)."""
    x, y = text.split()
    return int(x), int(y)


def main():
    rng = random.Random()
    position = None
    me = opponent = None
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
            position = None
            me = opponent = None
        elif keyword == "game":
            # `game uttt tiebreak=none` or `game uttt tiebreak=codingame`: with codingame, a
            # game that ends with no move left and no line goes to whoever won more small
            # boards. This bot plays the same either way.
            name, *pairs = rest.split()
            if name != "uttt":
                debug("warning: this bot plays uttt, not", name)
            position = Position()
            debug("new game:", rest)
        elif keyword == "side":
            # `side first` (we are X and move first) or `side second` (we are O).
            me, opponent = (X, O) if rest == "first" else (O, X)
        elif keyword == "time":
            # `time move=M bank=B increment=I first=F`: this bot is fast, so it only uses the
            # number sent with each `turn`.
            pass
        elif keyword == "played":
            # An opening move made before the bots take over: X made the 1st, 3rd, ... ones.
            x, y = parse_move(rest)
            position.play(x, y, X if position.moves_played % 2 == 0 else O)
        elif keyword == "start":
            # Setup complete. `multi` asks the referee to send the next game to this same
            # process (starting again with `referee 1`) instead of `quit`.
            send("ready %s %s multi" % (NAME, VERSION))
        elif keyword == "opponent":
            x, y = parse_move(rest)
            position.play(x, y, opponent)
        elif keyword == "legal":
            # `legal 3 3,4 3,5 3`: comma-separated moves.
            legal = [parse_move(move) for move in rest.split(",") if move]
        elif keyword == "turn":
            # `turn MS`: answer with one move within MS milliseconds (the clock runs from
            # the moment the referee sent this line until it reads our newline).
            time_ms = int(rest)
            x, y = choose_move(position, me, opponent, rng, time_ms)
            if legal is not None and (x, y) not in legal:
                # Only possible if our position went wrong; trust the referee's list.
                debug("warning: my move", x, y, "is not in the legal list")
                x, y = rng.choice(legal)
            legal = None
            position.play(x, y, me)
            send("%d %d" % (x, y))
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
