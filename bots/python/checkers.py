#!/usr/bin/env python3
"""Starter bot for English checkers (`checkers`).

It speaks protocol v1 of the referee (see protocol.md at the root of the repository) on its
standard input and output, and uses nothing but the Python 3 standard library.

The board is the usual 8x8 one seen from Black's side. Only the 32 dark squares are used, and
they are numbered 1 to 32 row by row (PDN numbering):

        1     2     3     4          Black (the first player) starts on 1-12 and moves down;
     5     6     7     8             White (the second player) starts on 21-32 and moves up.
        9    10    11    12
    13    14    15    16             A man reaching the far row (29-32 for Black, 1-4 for
       17    18    19    20          White) is crowned king; kings move both ways.
    21    22    23    24
       25    26    27    28
    29    30    31    32

Moves are written in PDN: `11-15` (a step to a diagonal neighbour), `22x15` (a jump over an
enemy piece), `9x18x27` (a multi-jump, every landing square named). Captures are mandatory, but
any capture may be chosen; a capture goes on while the same piece can jump again, and the whole
multi-jump is one move; a man that reaches the far row is crowned and its move ends there. A
player with no legal move loses. The referee also ends the game as a draw on repetition and by
the move rule (see the `game` line); this bot does not need to track them.

How it plays: it looks one move ahead. For each legal move it counts the pieces it takes, a
crowning, and the most pieces the opponent could take back at once in reply; it plays the best
move by that count, at random among equals. It accepts a draw offered when it is not ahead in
material, and offers one when only kings are left and the material is level. It is meant to be
copied: change `choose_move` (and `accepts_draw`, `offers_draw`) and keep the rest.

Run it with the referee, for example:

    referee match checkers "python3 bots/python/checkers.py" builtin:random --games 20
    referee match checkers "python3 bots/python/checkers.py" builtin:random \
        --opening "9-13,21-17,5-9" --games 2

Rules of the protocol this file relies on:
- stdout is for protocol lines only, one per line, flushed at once (see `send`);
- anything for people goes to stderr (see `debug`): the referee keeps it in its records;
- the bot answers `start` with `ready NAME VERSION multi` and each `turn` with one move (a
  move followed by ` draw` offers a draw; the word `draw` alone accepts an offer);
- it writes nothing else, ever: a line nobody asked for loses the game;
- it exits on `quit` or at the end of its input.
"""

import random
import sys

NAME = "checkers-starter"  # one word: no spaces
VERSION = "1.0"  # one word: no spaces

BLACK, WHITE = "b", "w"  # the first player's colour, the second player's
# What stands on a square: "b" black man, "B" black king, "w" white man, "W" white king, or None.

# Rows of the board from 0 (squares 1-4, at the top) to 7 (squares 29-32). A man of each colour
# moves one row this way, and is crowned on this row.
FORWARD = {BLACK: 1, WHITE: -1}
CROWN_ROW = {BLACK: 7, WHITE: 0}

MAN_VALUE, KING_VALUE = 1.0, 1.5


def send(line):
    """Writes one protocol line and flushes it, so the referee sees it now (not when a buffer
    fills up: a bot whose answer sits in a buffer loses on time)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def debug(*words):
    """Debug output goes to stderr, never stdout. The referee saves it (size-capped) next to
    the game record when run with --record DIR."""
    print(*words, file=sys.stderr, flush=True)


def other(colour):
    return WHITE if colour == BLACK else BLACK


def coordinates(square):
    """(row, column) of square 1..32 on the 8x8 board: row 0 at the top (Black's side), column
    0 on the left. Even rows have their dark squares in the odd columns, odd rows in the even
    columns."""
    index = square - 1
    row = index // 4
    column = 2 * (index % 4) + (1 if row % 2 == 0 else 0)
    return row, column


def square_at(row, column):
    """The square number (1..32) at (row, column), or None off the board or on a light
    square."""
    if 0 <= row < 8 and 0 <= column < 8 and (row + column) % 2 == 1:
        return row * 4 + column // 2 + 1
    return None


def format_move(squares, capture):
    """(squares, capture) -> PDN: `11-15`, `22x15`, `9x18x27`."""
    return ("x" if capture else "-").join(str(square) for square in squares)


def parse_move(text):
    """PDN -> (squares, capture). The referee always sends the full form (every landing
    square), so there is nothing to guess."""
    capture = "x" in text
    return [int(square) for square in text.replace("x", "-").split("-")], capture


class Position:
    """The pieces and the side to move. `board[n]` is what stands on square n (index 0 is
    unused)."""

    def __init__(self):
        self.board = [None] * 33
        self.to_move = BLACK

    @staticmethod
    def from_fen(fen):
        """Reads a PDN FEN, as the referee sends it in `game checkers fen=...`:
        `B:W21,22,...,32:B1,2,...,12` is the start (Black to move, then White's pieces, then
        Black's); a king is written with K (`W:WK30:B1,K9`). Ranges such as `B1-12` are read
        too."""
        turn, *lists = fen.split(":")
        position = Position()
        position.to_move = BLACK if turn.strip() == "B" else WHITE
        for pieces in lists:
            pieces = pieces.strip()
            colour = pieces[0].lower()  # "b" or "w"
            for item in pieces[1:].split(","):
                item = item.strip()
                if not item:
                    continue
                king = item.startswith("K")
                low, _, high = item.lstrip("K").partition("-")
                for square in range(int(low), int(high or low) + 1):
                    position.board[square] = colour.upper() if king else colour
        return position

    def copy(self):
        other_position = Position()
        other_position.board = list(self.board)
        other_position.to_move = self.to_move
        return other_position

    def pieces(self, colour):
        return [s for s in range(1, 33) if self.board[s] and self.board[s].lower() == colour]

    def material(self, colour):
        return sum(
            KING_VALUE if self.board[s].isupper() else MAN_VALUE for s in self.pieces(colour)
        )

    def only_kings(self):
        return all(piece is None or piece.isupper() for piece in self.board)

    def steps(self, square):
        """The diagonal directions (row step, column step) the piece on `square` may move in:
        forward only for a man, all four for a king."""
        piece = self.board[square]
        rows = (1, -1) if piece.isupper() else (FORWARD[piece.lower()],)
        return [(dr, dc) for dr in rows for dc in (-1, 1)]

    def legal_moves(self):
        """Every legal move of the side to move, as (squares, capture). When any capture is
        possible, only captures are legal (all of them, short or long); each capture is
        complete: it goes on as long as the piece can jump."""
        colour = self.to_move
        captures = []
        for square in self.pieces(colour):
            self._jumps(square, square, set(), [square], captures)
        if captures:
            return [(path, True) for path in captures]
        moves = []
        for square in self.pieces(colour):
            row, column = coordinates(square)
            for dr, dc in self.steps(square):
                target = square_at(row + dr, column + dc)
                if target is not None and self.board[target] is None:
                    moves.append(([square, target], False))
        return moves

    def _jumps(self, start, at, jumped, path, out):
        """Extends the capture `path` (the piece from `start` now standing on `at`, having
        jumped the squares in `jumped`) by every possible jump, depth first, and appends each
        finished capture to `out`."""
        piece = self.board[start]
        colour = piece.lower()
        row, column = coordinates(at)
        extended = False
        for dr, dc in self.steps(start):
            over = square_at(row + dr, column + dc)
            land = square_at(row + 2 * dr, column + 2 * dc)
            if over is None or land is None or over in jumped:
                continue
            victim = self.board[over]
            if victim is None or victim.lower() == colour:
                continue
            # The landing square must be empty; the moving piece has left its start square.
            if land != start and self.board[land] is not None:
                continue
            extended = True
            longer = path + [land]
            if piece.islower() and coordinates(land)[0] == CROWN_ROW[colour]:
                out.append(longer)  # a man is crowned here, and crowning ends the move
            else:
                self._jumps(start, land, jumped | {over}, longer, out)
        if not extended and len(path) > 1:
            out.append(path)

    def play(self, squares, capture):
        """Plays a legal move: moves the piece, removes every piece jumped, crowns a man that
        ends on its far row, and passes the turn."""
        piece = self.board[squares[0]]
        self.board[squares[0]] = None
        if capture:
            for a, b in zip(squares, squares[1:]):
                (r1, c1), (r2, c2) = coordinates(a), coordinates(b)
                self.board[square_at((r1 + r2) // 2, (c1 + c2) // 2)] = None
        end = squares[-1]
        if piece.islower() and coordinates(end)[0] == CROWN_ROW[piece]:
            piece = piece.upper()
        self.board[end] = piece
        self.to_move = other(self.to_move)


def choose_move(position, me, rng, time_ms):
    """Picks a move for `me`, the side to move. This is the function to improve: `position` is
    up to date, and the move returned must be one of `position.legal_moves()`, as
    (squares, capture). `time_ms` is the time this move may take, in milliseconds (this bot is
    fast and does not need it); leave some of it unused, for the answer to reach the referee."""
    moves = position.legal_moves()

    def score(move):
        squares, capture = move
        after = position.copy()
        after.play(squares, capture)
        gained = len(squares) - 1 if capture else 0
        if position.board[squares[0]].islower() and after.board[squares[-1]].isupper():
            gained += 0.5  # crowned
        # The most the opponent can take back at once (captures are all it may play then).
        replies = [len(s) - 1 for s, is_capture in after.legal_moves() if is_capture]
        return gained - max(replies, default=0)

    scored = [(score(move), move) for move in moves]
    best = max(value for value, _ in scored)
    return rng.choice([move for value, move in scored if value == best])


def accepts_draw(position, me):
    """Called when the opponent offered a draw with its last move: answer `draw` (the game
    ends as a draw) when this returns True, else play on (the offer lapses)."""
    return position.material(me) <= position.material(other(me))


def offers_draw(position, me):
    """Called after choosing a move, on the position after it: when this returns True, the move
    is sent with ` draw` after it, and the opponent may accept at its next turn."""
    return position.only_kings() and position.material(me) == position.material(other(me))


def main():
    rng = random.Random()
    position = None
    me = None
    legal = None  # the referee's list of legal moves, when the match runs with --legal-moves
    offered = False  # the opponent offered a draw with its last move

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
            me = None
            offered = False
        elif keyword == "game":
            # `game checkers fen=B:W21,...,32:B1,...,12 repetition=3 moverule=40`: the start
            # position (PDN FEN, here the standard one), and the draw rules the referee applies
            # (a position repeated 3 times; 40 moves each without a man move or a capture).
            name, *pairs = rest.split()
            if name != "checkers":
                debug("warning: this bot plays checkers, not", name)
            params = dict(pair.split("=", 1) for pair in pairs)
            position = Position.from_fen(params["fen"])
            debug("new game:", rest)
        elif keyword == "side":
            # `side first`: we are Black; `side second`: we are White. Who moves first is in
            # the FEN: Black from the standard start.
            me = BLACK if rest == "first" else WHITE
        elif keyword == "time":
            # `time move=M bank=B increment=I first=F`: this bot is fast, so it only uses the
            # number sent with each `turn`.
            pass
        elif keyword == "played":
            # An opening move made before the bots take over, by the side to move.
            position.play(*parse_move(rest))
        elif keyword == "start":
            # Setup complete. `multi` asks the referee to send the next game to this same
            # process (starting again with `referee 1`) instead of `quit`.
            send("ready %s %s multi" % (NAME, VERSION))
        elif keyword == "opponent":
            # `opponent 22x15`: the opponent's move, always in full (`9x18x27`).
            position.play(*parse_move(rest))
        elif keyword == "offer":
            # `offer draw`: the opponent's last move came with a draw offer. It stands for our
            # next answer only.
            offered = True
        elif keyword == "legal":
            # `legal 9x14,10x14`: comma-separated moves.
            legal = [move for move in rest.split(",") if move]
        elif keyword == "turn":
            # `turn MS`: answer with one move within MS milliseconds (the clock runs from
            # the moment the referee sent this line until it reads our newline).
            time_ms = int(rest)
            if offered and accepts_draw(position, me):
                debug("accepting the draw offered")
                send("draw")
                offered = False
                continue
            offered = False
            squares, capture = choose_move(position, me, rng, time_ms)
            text = format_move(squares, capture)
            if legal is not None and text not in legal:
                # Only possible if our position went wrong; trust the referee's list.
                debug("warning: my move", text, "is not in the legal list")
                text = rng.choice(legal)
                squares, capture = parse_move(text)
            legal = None
            position.play(squares, capture)
            if offers_draw(position, me):
                text += " draw"
            send(text)
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
