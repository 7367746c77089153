//! English checkers (8x8 draughts): Black moves first, men move and capture forward only, kings
//! both ways, captures are mandatory (any capturing sequence may be chosen) and a multi-jump is
//! one move; a man that reaches the far row is crowned and its move ends there. The player to
//! move with no legal move loses. Draws by repetition and by the move rule are tracked inside the
//! position, so [`Game::outcome`] reports them.
//!
//! Squares use PDN numbering, 1..32, four dark squares per row, counted row by row from Black's
//! side: Black's men start on 1-12 and move toward 29-32, White's start on 21-32. Black's single
//! corner is 4 and White's is 29.
//!
//! Notation (PDN): `11-15` a move, `22x15` a capture, `9x18x27` a multi-jump with every landing
//! square. A two-square capture `9x27` is the single jump when that is legal, and otherwise the
//! short form (start and end only) of the one legal capture from 9 that ends on 27; when several
//! do, it is ambiguous. Surrounding white space is ignored and `X` may stand for `x`; nothing else
//! is accepted (no spaces inside, no other separators). [`Game::format_move`] always writes the
//! full form.
//!
//! Positions are read and written as PDN FEN, see [`Position`]'s `FromStr`.

use super::spec::CheckersParams;
use super::{Diagram, Ending, Game, IllegalMove, MoveError, Outcome, Side, Tone, View};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

// Square n is bit n-1 (its "index"). Row r holds indices 4r..4r+3; in even rows (squares 1-4,
// 9-12, ...) the dark squares are in the odd columns, in odd rows in the even columns.

/// Marks "no square" in the step tables.
const NONE: u8 = u8::MAX;
const EVEN_ROWS: u32 = 0x0F0F_0F0F;
const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// The first dark square of each row (on the left edge in odd rows).
const ROW_FIRST: u32 = 0x1111_1111;
/// The last dark square of each row (on the right edge in even rows).
const ROW_LAST: u32 = 0x8888_8888;
/// Where each side's men are crowned: Black on 29-32, White on 1-4.
const CROWN_ROW: [u32; 2] = [0xF000_0000, 0x0000_000F];
/// Each side's men at the start: Black on 1-12, White on 21-32.
const START: [u32; 2] = [0x0000_0FFF, 0xFFF0_0000];

/// A diagonal direction as seen on the diagram (Black at the top, so Black's men move down).
/// Public for evaluation functions that work on bitboards, with [`neighbours`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonal {
    UpLeft,
    UpRight,
    DownLeft,
    DownRight,
}

impl Diagonal {
    pub const ALL: [Diagonal; 4] = [
        Diagonal::UpLeft,
        Diagonal::UpRight,
        Diagonal::DownLeft,
        Diagonal::DownRight,
    ];

    /// The two directions a man of `side` moves in: down for Black, up for White.
    pub fn forward(side: Side) -> [Diagonal; 2] {
        match side {
            Side::First => [Diagonal::DownLeft, Diagonal::DownRight],
            Side::Second => [Diagonal::UpLeft, Diagonal::UpRight],
        }
    }

    /// The two directions only kings of `side` move in.
    pub fn backward(side: Side) -> [Diagonal; 2] {
        Diagonal::forward(side.opponent())
    }

    /// The direction back the way this one goes.
    pub fn opposite(self) -> Diagonal {
        Diagonal::ALL[3 - self as usize]
    }
}

/// The directions by index, as the step tables use them.
const UP_LEFT: usize = Diagonal::UpLeft as usize;
const UP_RIGHT: usize = Diagonal::UpRight as usize;
const DOWN_LEFT: usize = Diagonal::DownLeft as usize;
const DOWN_RIGHT: usize = Diagonal::DownRight as usize;
const DIRECTIONS: [usize; 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];
/// The directions a man moves in, per side: Black down the diagram, White up.
const FORWARD: [[usize; 2]; 2] = [[DOWN_LEFT, DOWN_RIGHT], [UP_LEFT, UP_RIGHT]];
const DELTAS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// The most jumps one capture can make: a capturing piece always lands on squares of one
/// row/column parity and jumps over squares of the other, and only 9 of those are off the edge.
const MAX_JUMPS: usize = 9;

/// Half of a direction's bulk step: the squares in `from` move by `shift` bits (positive:
/// toward higher squares). A direction needs two rays because the bit distance to a diagonal
/// neighbour depends on the row's parity.
struct Ray {
    from: u32,
    shift: i32,
}

const RAYS: [[Ray; 2]; 4] = [
    [
        Ray {
            from: EVEN_ROWS,
            shift: -4,
        },
        Ray {
            from: ODD_ROWS & !ROW_FIRST,
            shift: -5,
        },
    ],
    [
        Ray {
            from: EVEN_ROWS & !ROW_LAST,
            shift: -3,
        },
        Ray {
            from: ODD_ROWS,
            shift: -4,
        },
    ],
    [
        Ray {
            from: EVEN_ROWS,
            shift: 4,
        },
        Ray {
            from: ODD_ROWS & !ROW_FIRST,
            shift: 3,
        },
    ],
    [
        Ray {
            from: EVEN_ROWS & !ROW_LAST,
            shift: 5,
        },
        Ray {
            from: ODD_ROWS,
            shift: 4,
        },
    ],
];

fn shift(bits: u32, by: i32) -> u32 {
    if by > 0 {
        bits << by
    } else {
        bits >> -by
    }
}

/// Every square of `bits` moved one step in `direction` (squares that would leave the board
/// are dropped).
fn step(direction: usize, bits: u32) -> u32 {
    let [a, b] = &RAYS[direction];
    shift(bits & a.from, a.shift) | shift(bits & b.from, b.shift)
}

/// Every square of `bits` moved one step along `diagonal` (bit n-1 is square n); squares that
/// would leave the board are dropped.
pub fn neighbours(bits: u32, diagonal: Diagonal) -> u32 {
    step(diagonal as usize, bits)
}

/// The row and column on the diagram of the square whose bit index is `index` (square
/// `index + 1`): row 0 is Black's back row (squares 1-4), row 7 White's (29-32); column 0 is the
/// left edge, where squares 5, 13, 21 and 29 stand.
pub const fn coordinates(index: usize) -> (i32, i32) {
    let row = (index / 4) as i32;
    let col = 2 * (index % 4) as i32 + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

const fn index_at(row: i32, col: i32) -> u8 {
    if row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 == 0 {
        NONE
    } else {
        (row * 4 + col / 2) as u8
    }
}

/// `NEIGHBOUR[direction][index]`: the diagonal neighbour, or `NONE` off the board. Used square
/// by square when following jumps; bulk generation uses [`step`].
const NEIGHBOUR: [[u8; 32]; 4] = {
    let mut table = [[NONE; 32]; 4];
    let mut direction = 0;
    while direction < 4 {
        let mut index = 0;
        while index < 32 {
            let (row, col) = coordinates(index);
            let (dr, dc) = DELTAS[direction];
            table[direction][index] = index_at(row + dr, col + dc);
            index += 1;
        }
        direction += 1;
    }
    table
};

/// A fixed pseudo-random number for each `n` (SplitMix64, a bijection, so no two are equal).
const fn splitmix(n: u64) -> u64 {
    let mut z = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Zobrist keys, one per square of three bitboards (Black's pieces, White's pieces, the kings),
/// grouped by bytes: `ZOBRIST[board][byte][value]` is the XOR of the keys of the squares set in
/// `value`, the board's `byte`-th group of eight squares. A hash then takes twelve lookups
/// instead of one per piece.
static ZOBRIST: [[[u64; 256]; 4]; 3] = {
    let mut table = [[[0; 256]; 4]; 3];
    let mut board = 0;
    while board < 3 {
        let mut byte = 0;
        while byte < 4 {
            let mut value = 1;
            while value < 256 {
                let square = 8 * byte + (value as u32).trailing_zeros() as usize;
                let key = splitmix((32 * board + square) as u64);
                table[board][byte][value] = table[board][byte][value & (value - 1)] ^ key;
                value += 1;
            }
            byte += 1;
        }
        board += 1;
    }
    table
};

/// Added to the hash when White is to move.
const ZOBRIST_WHITE_TO_MOVE: u64 = splitmix(96);

fn bit(index: u8) -> u32 {
    1 << index
}

fn is_forward(side: usize, direction: usize) -> bool {
    FORWARD[side].contains(&direction)
}

fn colour_name(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}

/// A move: the start square and every landing square (one for a plain move), plus the pieces
/// it captures. `Copy` and allocation-free so that searches can store millions of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Square index (PDN number - 1) of the moving piece.
    from: u8,
    /// How many entries of `path` are used (1 for a plain move).
    len: u8,
    /// Landing square indices in order.
    path: [u8; MAX_JUMPS],
    /// Bits of the captured pieces; zero for a plain move.
    captured: u32,
}

impl Move {
    fn simple(from: u8, to: u8) -> Move {
        let mut path = [0; MAX_JUMPS];
        path[0] = to;
        Move {
            from,
            len: 1,
            path,
            captured: 0,
        }
    }

    /// A capture that has not jumped yet, to be extended one jump at a time.
    fn start_capture(from: u8) -> Move {
        Move {
            from,
            len: 0,
            path: [0; MAX_JUMPS],
            captured: 0,
        }
    }

    fn jump(mut self, over: u8, land: u8) -> Move {
        self.path[self.len as usize] = land;
        self.len += 1;
        self.captured |= bit(over);
        self
    }

    fn landing_indices(&self) -> &[u8] {
        &self.path[..self.len as usize]
    }

    fn end_index(&self) -> u8 {
        self.path[self.len as usize - 1]
    }

    /// The start square, 1..32.
    pub fn from(&self) -> u8 {
        self.from + 1
    }

    /// The final square, 1..32.
    pub fn to(&self) -> u8 {
        self.end_index() + 1
    }

    /// Every landing square in order (the final square last), 1..32.
    pub fn landings(&self) -> impl Iterator<Item = u8> + '_ {
        self.landing_indices().iter().map(|&i| i + 1)
    }

    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The captured pieces as a bitboard, bit n-1 for square n: for searches.
    pub fn captured_bits(&self) -> u32 {
        self.captured
    }

    /// The squares of the captured pieces, ascending, 1..32.
    pub fn captured(&self) -> impl Iterator<Item = u8> {
        let bits = self.captured;
        (0..32u8)
            .filter(move |&i| bits & bit(i) != 0)
            .map(|i| i + 1)
    }
}

impl fmt::Display for Move {
    /// The full PDN form: `11-15`, `22x15`, `9x18x27`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}", self.from())?;
        for square in self.landings() {
            write!(f, "{separator}{square}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub king: bool,
}

impl Piece {
    /// `b` black man, `B` black king, `w` white man, `W` white king.
    pub fn letter(self) -> char {
        match (self.side, self.king) {
            (Side::First, false) => 'b',
            (Side::First, true) => 'B',
            (Side::Second, false) => 'w',
            (Side::Second, true) => 'W',
        }
    }
}

/// A position without history: the pieces and the side to move, what a PDN FEN describes.
/// Written and read as FEN (also in serde), so game specs and records carry it as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Position {
    /// Each side's pieces by [`Side::index`], bit n-1 for square n.
    pieces: [u32; 2],
    /// The kings of both sides.
    kings: u32,
    to_move: Side,
}

/// A FEN that cannot be read, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{fen}' is not a checkers FEN: {reason}")]
pub struct FenError {
    pub fen: String,
    pub reason: String,
}

impl Position {
    /// Black's men on 1-12, White's on 21-32, Black to move.
    pub fn standard() -> Position {
        Position {
            pieces: START,
            kings: 0,
            to_move: Side::First,
        }
    }

    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// The piece on a square 1..32; `None` when it is empty or not a square.
    pub fn piece_at(&self, square: u8) -> Option<Piece> {
        let index = square.checked_sub(1).filter(|&i| i < 32)?;
        let side = Side::BOTH
            .into_iter()
            .find(|side| self.pieces[side.index()] & bit(index) != 0)?;
        Some(Piece {
            side,
            king: self.kings & bit(index) != 0,
        })
    }

    /// A side's pieces as a bitboard, bit n-1 for square n: for evaluation functions.
    pub fn pieces(&self, side: Side) -> u32 {
        self.pieces[side.index()]
    }

    /// The kings of both sides as a bitboard, bit n-1 for square n.
    pub fn kings(&self) -> u32 {
        self.kings
    }

    /// A Zobrist hash of the pieces and the side to move, for transposition tables: equal
    /// positions hash alike and different ones almost never collide.
    pub fn zobrist(&self) -> u64 {
        let mut hash = match self.to_move {
            Side::First => 0,
            Side::Second => ZOBRIST_WHITE_TO_MOVE,
        };
        for (board, bits) in [self.pieces[0], self.pieces[1], self.kings]
            .into_iter()
            .enumerate()
        {
            for (byte, keys) in ZOBRIST[board].iter().enumerate() {
                hash ^= keys[(bits >> (8 * byte)) as usize & 0xFF];
            }
        }
        hash
    }

    /// The PDN FEN: side to move, then White's and Black's pieces in ascending order, kings
    /// prefixed with K, no ranges, no spaces: `B:W21,22,...,32:B1,2,...,12`.
    pub fn to_fen(&self) -> String {
        let list = |side: Side| {
            (0..32u8)
                .filter(|&i| self.pieces[side.index()] & bit(i) != 0)
                .map(|i| {
                    let king = if self.kings & bit(i) != 0 { "K" } else { "" };
                    format!("{king}{}", i + 1)
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let turn = if self.to_move == Side::First {
            'B'
        } else {
            'W'
        };
        format!("{turn}:W{}:B{}", list(Side::Second), list(Side::First))
    }

    fn empty(&self) -> u32 {
        !(self.pieces[0] | self.pieces[1])
    }

    /// The pieces that must move in `direction` to move in it: every piece forward, only kings
    /// backward.
    fn movers(&self, side: usize, direction: usize) -> u32 {
        if is_forward(side, direction) {
            self.pieces[side]
        } else {
            self.pieces[side] & self.kings
        }
    }

    /// The side to move's pieces that can capture, found in bulk.
    fn jumpers(&self) -> u32 {
        self.capturers(self.to_move)
    }

    /// The pieces of `side` that could capture if it were `side`'s turn: for the side to move
    /// they are the pieces that may move (captures are mandatory); for the other side, the
    /// threats it poses.
    pub fn capturers(&self, side: Side) -> u32 {
        let side = side.index();
        let (opponent, empty) = (self.pieces[1 - side], self.empty());
        let mut jumpers = 0;
        for direction in DIRECTIONS {
            let back = 3 - direction;
            let victims = step(back, empty) & opponent;
            jumpers |= step(back, victims) & self.movers(side, direction);
        }
        jumpers
    }

    /// Whether the side to move must capture (every legal move is then a capture).
    pub fn must_capture(&self) -> bool {
        self.jumpers() != 0
    }

    /// Whether the side to move has a legal move; without one it has lost.
    pub fn can_move(&self) -> bool {
        let side = self.to_move.index();
        let empty = self.empty();
        self.jumpers() != 0
            || DIRECTIONS
                .into_iter()
                .any(|direction| step(direction, self.movers(side, direction)) & empty != 0)
    }

    /// Clears `moves` and fills it with the legal moves of the pieces (the draw rules are
    /// [`Checkers`]' business): for searches, which reuse the vector so they do not allocate.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate(moves);
    }

    fn generate(&self, moves: &mut Vec<Move>) {
        let mut jumpers = self.jumpers();
        if jumpers != 0 {
            while jumpers != 0 {
                let from = jumpers.trailing_zeros() as u8;
                jumpers &= jumpers - 1;
                self.captures_from(from, moves);
            }
            return;
        }
        let side = self.to_move.index();
        let empty = self.empty();
        for direction in DIRECTIONS {
            let movers = self.movers(side, direction);
            for ray in &RAYS[direction] {
                let mut targets = shift(movers & ray.from, ray.shift) & empty;
                while targets != 0 {
                    let to = targets.trailing_zeros() as i32;
                    targets &= targets - 1;
                    moves.push(Move::simple((to - ray.shift) as u8, to as u8));
                }
            }
        }
    }

    /// Appends every complete capture by the piece on `from` (nothing if it cannot capture).
    fn captures_from(&self, from: u8, moves: &mut Vec<Move>) {
        let king = self.kings & bit(from) != 0;
        let opponent = self.pieces[1 - self.to_move.index()];
        // The moving piece has left its square: a king may pass over or come back to it.
        let empty = self.empty() | bit(from);
        self.extend_capture(
            Move::start_capture(from),
            from,
            opponent,
            empty,
            king,
            moves,
        );
    }

    /// Continues `mv`, standing on `at`, with every possible jump (depth first) and appends each
    /// capture that cannot go on (`mv` itself when it has jumped and cannot go on, nothing when
    /// it has not jumped yet and cannot). `opponent` no longer holds the pieces already jumped, so
    /// none is jumped twice; their squares stay occupied, though no landing can be there anyway
    /// (landings and jumped squares have different parities).
    fn extend_capture(
        &self,
        mv: Move,
        at: u8,
        opponent: u32,
        empty: u32,
        king: bool,
        moves: &mut Vec<Move>,
    ) {
        let side = self.to_move.index();
        let mut extended = false;
        for direction in DIRECTIONS {
            if !king && !is_forward(side, direction) {
                continue;
            }
            let over = NEIGHBOUR[direction][at as usize];
            if over == NONE || opponent & bit(over) == 0 {
                continue;
            }
            let land = NEIGHBOUR[direction][over as usize];
            if land == NONE || empty & bit(land) == 0 {
                continue;
            }
            extended = true;
            let next = mv.jump(over, land);
            if !king && CROWN_ROW[side] & bit(land) != 0 {
                // Crowning ends the move.
                moves.push(next);
            } else {
                self.extend_capture(next, land, opponent & !bit(over), empty, king, moves);
            }
        }
        if !extended && mv.len > 0 {
            moves.push(mv);
        }
    }

    /// Plays a legal move (from [`Position::legal_moves`]) on the pieces alone: what a search
    /// needs; [`Checkers`] adds the draw rules' bookkeeping.
    pub fn apply(&mut self, mv: Move) {
        let side = self.to_move.index();
        let (from, to) = (bit(mv.from), bit(mv.end_index()));
        let king = self.kings & from != 0;
        self.pieces[side] = (self.pieces[side] & !from) | to;
        self.pieces[1 - side] &= !mv.captured;
        self.kings &= !(mv.captured | from);
        if king || CROWN_ROW[side] & to != 0 {
            self.kings |= to;
        }
        self.to_move = self.to_move.opponent();
    }

    fn both_sides_have_kings(&self) -> bool {
        self.pieces[0] & self.kings != 0 && self.pieces[1] & self.kings != 0
    }

    /// Identifies the position among those since the last man move or capture: the men have not
    /// changed since then, so the kings of each side are all that can differ, and the side to
    /// move is given by the ply's parity.
    fn king_key(&self) -> u64 {
        u64::from(self.pieces[0] & self.kings) | u64::from(self.pieces[1] & self.kings) << 32
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads a PDN FEN such as the start, `B:W21,22,...,32:B1,2,...,12` (or `B:W21-32:B1-12`):
    /// the side to move (`B` or `W`), then a colon and each colour's list (`W...` and `B...`,
    /// either first, each exactly once, possibly empty). A list holds comma-separated squares
    /// 1..32, each optionally prefixed with `K` for a king, and ranges such as `1-12` (`K1-3`
    /// makes all three kings). White space around the parts and around each item is ignored.
    /// Letters are upper case only. Refused: a square listed twice, a man on the row where it
    /// would have been crowned, more than 12 pieces of one colour.
    fn from_str(text: &str) -> Result<Position, FenError> {
        let fail = |reason: String| FenError {
            fen: text.to_string(),
            reason,
        };
        let parts: Vec<&str> = text.split(':').map(str::trim).collect();
        let [turn, first, second] = parts[..] else {
            return Err(fail(
                "expected the side to move and the two colours' pieces separated by ':', \
                 as in B:W21-32:B1-12"
                    .into(),
            ));
        };
        let to_move = match turn {
            "B" => Side::First,
            "W" => Side::Second,
            other => {
                return Err(fail(format!(
                    "the side to move must be B or W, not '{other}'"
                )))
            }
        };
        let mut position = Position {
            pieces: [0, 0],
            kings: 0,
            to_move,
        };
        let mut listed = [false; 2];
        for section in [first, second] {
            let (side, list) = if let Some(list) = section.strip_prefix('B') {
                (Side::First, list)
            } else if let Some(list) = section.strip_prefix('W') {
                (Side::Second, list)
            } else {
                return Err(fail(format!(
                    "a list of pieces starts with B or W, not '{section}'"
                )));
            };
            if std::mem::replace(&mut listed[side.index()], true) {
                return Err(fail(format!(
                    "the {} pieces are listed twice",
                    colour_name(side)
                )));
            }
            if list.trim().is_empty() {
                continue;
            }
            for item in list.split(',').map(str::trim) {
                let (king, range) = match item.strip_prefix('K') {
                    Some(range) => (true, range),
                    None => (false, item),
                };
                let (low, high) = match range.split_once('-') {
                    Some((low, high)) => (
                        fen_square(low).map_err(&fail)?,
                        fen_square(high).map_err(&fail)?,
                    ),
                    None => {
                        let square = fen_square(range).map_err(&fail)?;
                        (square, square)
                    }
                };
                if low > high {
                    return Err(fail(format!("the range {low}-{high} runs backwards")));
                }
                for square in low..=high {
                    let square_bit = bit(square - 1);
                    if (position.pieces[0] | position.pieces[1]) & square_bit != 0 {
                        return Err(fail(format!("square {square} is listed twice")));
                    }
                    position.pieces[side.index()] |= square_bit;
                    if king {
                        position.kings |= square_bit;
                    }
                }
            }
        }
        for side in Side::BOTH {
            let pieces = position.pieces[side.index()];
            let uncrowned = pieces & !position.kings & CROWN_ROW[side.index()];
            if uncrowned != 0 {
                let square = uncrowned.trailing_zeros() + 1;
                return Err(fail(format!(
                    "a {} man on {square} would have been crowned: write K{square}",
                    colour_name(side).to_lowercase()
                )));
            }
            if pieces.count_ones() > 12 {
                return Err(fail(format!(
                    "{} has {} pieces; a side has at most 12",
                    colour_name(side),
                    pieces.count_ones()
                )));
            }
        }
        Ok(position)
    }
}

fn fen_square(token: &str) -> Result<u8, String> {
    if token.is_empty() {
        return Err(
            "a square number is missing (two commas in a row, or a comma at the end?)".into(),
        );
    }
    match token.parse::<u8>() {
        Ok(square @ 1..=32) if token.bytes().all(|b| b.is_ascii_digit()) => Ok(square),
        _ => Err(format!("'{token}' is not a square number from 1 to 32")),
    }
}

impl TryFrom<String> for Position {
    type Error = FenError;

    fn try_from(text: String) -> Result<Position, FenError> {
        text.parse()
    }
}

impl From<Position> for String {
    fn from(position: Position) -> String {
        position.to_fen()
    }
}

/// A checkers game: the position, the draw rules in force and the history they need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkers {
    position: Position,
    /// Occurrences (same player to move) of a position that draw.
    repetition: u32,
    /// Plies without a man move or a capture that draw; 0 never.
    move_rule_plies: u32,
    /// Plies since the last man move or capture.
    quiet_plies: u32,
    /// [`Position::king_key`] of every position since the last man move or capture, the current
    /// one last. Left empty unless both sides have kings: otherwise the side without one must
    /// move a man on its next turn, so nothing can repeat before the history is cleared anyway.
    /// This keeps clones free of allocation for searches in the usual middle game.
    history: Vec<u64>,
    /// The current position has occurred `repetition` times.
    repeated: bool,
    last_move: Option<Move>,
}

impl Default for Checkers {
    /// The standard start with the default draw rules.
    fn default() -> Checkers {
        Checkers::new(CheckersParams::default())
    }
}

impl Checkers {
    /// Starts from `params.start` with its draw rules. The ranges are checked by the game spec;
    /// a `move_rule` of 0 disables the move rule.
    pub fn new(params: CheckersParams) -> Checkers {
        let position = params.start;
        Checkers {
            position,
            repetition: params.repetition,
            move_rule_plies: params.move_rule.saturating_mul(2),
            quiet_plies: 0,
            history: if position.both_sides_have_kings() {
                vec![position.king_key()]
            } else {
                Vec::new()
            },
            repeated: false,
            last_move: None,
        }
    }

    /// Starts from a PDN FEN (see [`Position`]'s `FromStr`) with the default draw rules.
    pub fn from_fen(fen: &str) -> Result<Checkers, FenError> {
        Ok(Checkers::new(CheckersParams {
            start: fen.parse()?,
            ..CheckersParams::default()
        }))
    }

    pub fn to_fen(&self) -> String {
        self.position.to_fen()
    }

    /// The pieces and the side to move, without the history.
    pub fn position(&self) -> Position {
        self.position
    }

    /// The piece on a square 1..32; `None` when it is empty or not a square.
    pub fn piece_at(&self, square: u8) -> Option<Piece> {
        self.position.piece_at(square)
    }

    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// Plies played since the last man move or capture (the move rule's count).
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// How many plies without a man move or a capture draw the game; `None` when the move rule
    /// is off.
    pub fn move_rule_plies(&self) -> Option<u32> {
        (self.move_rule_plies > 0).then_some(self.move_rule_plies)
    }

    /// The positions since the last man move or capture, oldest first and the current one last,
    /// that a later position could repeat: for searches that score repetitions. Empty while a
    /// side has no king, since that side's next move is then a man move, after which nothing
    /// before it can occur again.
    pub fn repeatable_positions(&self) -> impl Iterator<Item = Position> + '_ {
        let Position {
            pieces,
            kings,
            to_move,
        } = self.position;
        let men = [pieces[0] & !kings, pieces[1] & !kings];
        let count = self.history.len();
        self.history.iter().enumerate().map(move |(i, &key)| {
            // The men have not moved since, and the keys alternate between the two sides.
            let black_kings = key as u32;
            let white_kings = (key >> 32) as u32;
            Position {
                pieces: [men[0] | black_kings, men[1] | white_kings],
                kings: black_kings | white_kings,
                to_move: if (count - 1 - i) % 2 == 0 {
                    to_move
                } else {
                    to_move.opponent()
                },
            }
        })
    }

    /// The legal moves of the piece on `square` (1..32), e.g. to show where it may go; empty
    /// when it is not the mover's piece or it has no move (another piece may have to capture).
    pub fn moves_from(&self, square: u8) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.retain(|mv| mv.from() == square);
        moves
    }

    fn drawn(&self) -> Option<Ending> {
        if self.repeated {
            Some(Ending::Repetition)
        } else if self.move_rule_plies > 0 && self.quiet_plies >= self.move_rule_plies {
            Some(Ending::MoveRule)
        } else {
            None
        }
    }

    /// Decides a move given as its start square, landing squares and kind. `short_text` is the
    /// text of a two-square capture typed by a player, which may be the short form of a
    /// multi-jump; `None` when the landings are complete (a [`Move`] being checked).
    fn judge(
        &self,
        from: u8,
        landings: &[u8],
        capture: bool,
        short_text: Option<&str>,
    ) -> Result<Move, IllegalMove> {
        if Game::outcome(self).is_some() {
            return Err(IllegalMove::GameOver);
        }
        match self.position.piece_at(from + 1) {
            None => return Err(IllegalMove::EmptySquare { square: from + 1 }),
            Some(piece) if piece.side != self.position.to_move => {
                return Err(IllegalMove::NotYourPiece { square: from + 1 })
            }
            Some(_) => {}
        }
        if !capture {
            return self.judge_plain(from, landings[0]);
        }
        if let Some(text) = short_text {
            let mut candidates = Vec::new();
            self.position.captures_from(from, &mut candidates);
            candidates.retain(|mv| mv.end_index() == landings[0]);
            // The full form of a single jump wins over the short form of a multi-jump.
            if let Some(&single) = candidates.iter().find(|mv| mv.len == 1) {
                return Ok(single);
            }
            match candidates[..] {
                [only] => return Ok(only),
                [] => {}
                _ => {
                    return Err(IllegalMove::Ambiguous {
                        text: text.to_string(),
                        candidates: candidates.iter().map(Move::to_string).collect(),
                    })
                }
            }
        }
        self.walk_capture(from, landings, short_text.is_some())
    }

    fn judge_plain(&self, from: u8, to: u8) -> Result<Move, IllegalMove> {
        if self.position.jumpers() != 0 {
            let mut captures = Vec::new();
            self.position.generate(&mut captures);
            let example = captures
                .iter()
                .find(|mv| mv.from == from)
                .unwrap_or(&captures[0]);
            return Err(IllegalMove::CaptureMandatory {
                example: example.to_string(),
            });
        }
        let (a, b) = (from + 1, to + 1);
        let not_legal = |reason: String| Err(IllegalMove::NotLegal { reason });
        if from == to {
            return not_legal(format!("{a}-{b} does not move the piece"));
        }
        let Some(direction) = DIRECTIONS
            .into_iter()
            .find(|&d| NEIGHBOUR[d][from as usize] == to)
        else {
            return not_legal(format!(
                "{b} is not diagonally next to {a}: a piece moves one square along a diagonal"
            ));
        };
        let side = self.position.to_move.index();
        if self.position.kings & bit(from) == 0 && !is_forward(side, direction) {
            return not_legal(format!(
                "a man cannot move backwards ({a}-{b}); only kings can"
            ));
        }
        if self.position.empty() & bit(to) == 0 {
            return not_legal(format!("square {b} is occupied"));
        }
        Ok(Move::simple(from, to))
    }

    /// Follows a capture jump by jump and says precisely where it goes wrong; returns the move
    /// if every jump is possible and the capture is complete.
    fn walk_capture(&self, from: u8, landings: &[u8], short: bool) -> Result<Move, IllegalMove> {
        let position = &self.position;
        let side = position.to_move.index();
        let king = position.kings & bit(from) != 0;
        let own = position.pieces[side] & !bit(from);
        let empty = position.empty() | bit(from);
        let mut opponent = position.pieces[1 - side];
        let mut mv = Move::start_capture(from);
        let mut at = from;
        let not_legal = |reason: String| Err(IllegalMove::NotLegal { reason });
        for (i, &land) in landings.iter().enumerate() {
            let (a, b) = (at + 1, land + 1);
            let direction = DIRECTIONS.into_iter().find(|&d| {
                let over = NEIGHBOUR[d][at as usize];
                over != NONE && NEIGHBOUR[d][over as usize] == land
            });
            let Some(direction) = direction else {
                if DIRECTIONS
                    .into_iter()
                    .any(|d| NEIGHBOUR[d][at as usize] == land)
                {
                    return not_legal(format!(
                        "{a}x{b} is not a jump: a jump goes over a piece to the square beyond it \
                         (a plain move is written {a}-{b})"
                    ));
                }
                if short {
                    return not_legal(self.no_capture_ending_on(from, land));
                }
                return not_legal(format!(
                    "{a}x{b} is not a jump: a jump goes over a diagonal neighbour to the square \
                     just beyond it"
                ));
            };
            if !king && !is_forward(side, direction) {
                return not_legal(format!(
                    "a man cannot jump backwards ({a}x{b}); only kings can"
                ));
            }
            let over = NEIGHBOUR[direction][at as usize];
            let c = over + 1;
            if own & bit(over) != 0 {
                return not_legal(format!("{a}x{b} would jump your own piece on {c}"));
            }
            if mv.captured & bit(over) != 0 {
                return not_legal(format!(
                    "the piece on {c} is already jumped in this move; a piece is jumped once"
                ));
            }
            if opponent & bit(over) == 0 {
                return not_legal(format!("there is no piece on {c} for {a}x{b} to jump"));
            }
            if empty & bit(land) == 0 {
                return not_legal(format!("{a}x{b} cannot land on {b}: it is occupied"));
            }
            mv = mv.jump(over, land);
            opponent &= !bit(over);
            at = land;
            if !king && CROWN_ROW[side] & bit(land) != 0 {
                if i + 1 < landings.len() {
                    return not_legal(format!("the man is crowned on {b} and its move ends there"));
                }
                return Ok(mv);
            }
        }
        // Complete only if no jump is left: the continuations show one if there is.
        let mut completions = Vec::new();
        position.extend_capture(mv, at, opponent, empty, king, &mut completions);
        let example = completions[0];
        if example == mv {
            Ok(mv)
        } else {
            not_legal(format!(
                "the capture must go on: the piece can still jump from {} (for example {example})",
                at + 1
            ))
        }
    }

    /// Why a short-form capture `from`x`to` names no move.
    fn no_capture_ending_on(&self, from: u8, to: u8) -> String {
        let (a, b) = (from + 1, to + 1);
        let mut own = Vec::new();
        self.position.captures_from(from, &mut own);
        if !own.is_empty() {
            let list: Vec<String> = own.iter().map(Move::to_string).collect();
            return format!(
                "no capture by the piece on {a} ends on {b} (its captures: {})",
                list.join(", ")
            );
        }
        let mut all = Vec::new();
        self.position.generate(&mut all);
        match all.first() {
            Some(example) if example.is_capture() => {
                format!("the piece on {a} has no capture (a capture that is possible: {example})")
            }
            _ => format!("the piece on {a} has no capture, and there is nothing to capture"),
        }
    }
}

/// Splits a move text into its squares (numbers not yet checked against the board) and
/// whether it is a capture.
fn parse_notation(text: &str) -> Result<(Vec<u64>, bool), MoveError> {
    let not_a_move = |problem: String| {
        MoveError::NotAMove(format!(
            "{problem}; expected a PDN move such as 11-15, a capture such as 22x15, or a \
             multi-jump with every landing square such as 9x18x27"
        ))
    };
    let mut squares = Vec::new();
    let mut separators = Vec::new();
    let mut rest = text.trim();
    loop {
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(end);
        let mut tail = tail.chars();
        let next = tail.next();
        if number.is_empty() {
            return Err(not_a_move(match next {
                Some(c) if !matches!(c, '-' | 'x' | 'X') => {
                    format!("'{c}' is neither a digit nor a separator")
                }
                _ => "a square number is missing".to_string(),
            }));
        }
        // Too many digits saturate, so the square reads as off the board.
        squares.push(number.parse::<u64>().unwrap_or(u64::MAX));
        match next {
            None => break,
            Some('-') => separators.push('-'),
            Some('x' | 'X') => separators.push('x'),
            Some(c) => {
                return Err(not_a_move(format!(
                    "'{c}' is neither a digit nor a separator"
                )))
            }
        }
        rest = tail.as_str();
    }
    let Some(&first) = separators.first() else {
        return Err(not_a_move("a move names at least two squares".into()));
    };
    if separators.iter().any(|&s| s != first) {
        return Err(not_a_move("'-' and 'x' cannot be mixed".into()));
    }
    if first == '-' && squares.len() > 2 {
        return Err(not_a_move(
            "'-' joins exactly two squares (jumps are written with x)".into(),
        ));
    }
    Ok((squares, first == 'x'))
}

impl Game for Checkers {
    type Move = Move;

    fn side_to_move(&self) -> Side {
        self.position.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.drawn().is_none() {
            self.position.generate(moves);
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let (numbers, capture) = parse_notation(text)?;
        if let Some(&off) = numbers.iter().find(|&&n| !(1..=32).contains(&n)) {
            return Err(IllegalMove::OffBoard {
                square: off.to_string(),
                board: "32-square checkers".into(),
            }
            .into());
        }
        let indices: Vec<u8> = numbers.iter().map(|&n| n as u8 - 1).collect();
        let short_text = (capture && indices.len() == 2).then(|| text.trim());
        Ok(self.judge(indices[0], &indices[1..], capture, short_text)?)
    }

    fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        self.judge(mv.from, mv.landing_indices(), mv.is_capture(), None)
            .map(drop)
    }

    fn play_unchecked(&mut self, mv: Move) {
        let man = self.position.kings & bit(mv.from) == 0;
        self.position.apply(mv);
        self.last_move = Some(mv);
        if man || mv.is_capture() {
            // Nothing before this move can occur again.
            self.quiet_plies = 0;
            self.history.clear();
            self.repeated = false;
            if self.position.both_sides_have_kings() {
                self.history.push(self.position.king_key());
            }
        } else {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
            if !self.history.is_empty() {
                let key = self.position.king_key();
                self.history.push(key);
                // Every other entry has the same player to move.
                let seen = self.history.iter().rev().step_by(2).filter(|&&k| k == key);
                self.repeated = seen.count() >= self.repetition as usize;
            }
        }
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// The player to move loses when it has no legal move, even when the move that left it
    /// without one also reached a draw by repetition or by the move rule (as checkmate does in
    /// chess).
    fn outcome(&self) -> Option<Outcome> {
        if !self.position.can_move() {
            return Some(Outcome {
                winner: Some(self.position.to_move.opponent()),
                ending: Ending::NoLegalMove,
            });
        }
        self.drawn().map(|ending| Outcome {
            winner: None,
            ending,
        })
    }

    /// The board as on the usual diagram, Black at the top: `b`/`B` black man/king, `w`/`W`
    /// white man/king, `.` an empty dark square, light squares blank; the piece that moved last
    /// is in brackets. Beside it, a key with the PDN number of every dark square in the same
    /// place. Then the last move and who is to move (or how the game ended). The pieces that can
    /// move are toned as allowed; with a selected square, its piece is toned as selected and the
    /// squares it can reach are drawn `*`.
    fn diagram(&self, view: &View) -> Diagram {
        let last_to = self.last_move.map(|mv| mv.end_index());
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let selected = view.selected.filter(|square| (1..=32).contains(square));
        let movable = |index: u8| moves.iter().any(|mv| mv.from == index);
        let reachable = |index: u8| {
            selected.is_some_and(|square| {
                moves
                    .iter()
                    .any(|mv| mv.from() == square && mv.end_index() == index)
            })
        };
        let mut out = Diagram::new();
        for row in 0..8 {
            let mut key = String::new();
            for col in 0..8 {
                let index = index_at(row, col);
                if index == NONE {
                    out.text("   ");
                    key.push_str("   ");
                    continue;
                }
                let piece = self.position.piece_at(index + 1);
                let (mark, tone) = match piece {
                    None if reachable(index) => ('*', Tone::Allowed),
                    None => ('.', Tone::Plain),
                    Some(piece) => (
                        piece.letter(),
                        if selected == Some(index + 1) {
                            Tone::Selected
                        } else if selected.is_none() && movable(index) {
                            Tone::Allowed
                        } else if piece.side == Side::First {
                            Tone::First
                        } else {
                            Tone::Second
                        },
                    ),
                };
                if last_to == Some(index) {
                    out.push(Tone::LastMove, format!("[{mark}]"));
                } else {
                    out.text(" ");
                    out.push(tone, mark.to_string());
                    out.text(" ");
                }
                key.push_str(&format!("{:>2} ", index + 1));
            }
            out.text("   ");
            out.push(Tone::Label, key);
            out.end_line();
        }
        if let Some(mv) = self.last_move {
            let mover = colour_name(self.position.to_move.opponent());
            out.text(format!("{mover} played {mv}\n"));
        }
        match Game::outcome(self) {
            None => out.text(format!("{} to move\n", colour_name(self.position.to_move))),
            Some(Outcome {
                winner: Some(winner),
                ending,
            }) => out.text(format!("{} wins: {ending}\n", colour_name(winner))),
            Some(Outcome {
                winner: None,
                ending,
            }) => out.text(format!("Draw: {ending}\n")),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::perft;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    const STANDARD_FEN: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

    fn game(fen: &str) -> Checkers {
        Checkers::from_fen(fen).unwrap_or_else(|e| panic!("{e}"))
    }

    fn with_rules(fen: &str, repetition: u32, move_rule: u32) -> Checkers {
        Checkers::new(CheckersParams {
            start: fen.parse().unwrap(),
            repetition,
            move_rule,
        })
    }

    fn play(g: &mut Checkers, moves: &[&str]) {
        for text in moves {
            let mv = g
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text}: {e}\n{}", g.render()));
            g.play(mv).unwrap();
        }
    }

    /// The legal moves in notation, sorted.
    fn legal(g: &Checkers) -> Vec<String> {
        let mut moves = Vec::new();
        g.generate_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(Move::to_string).collect();
        texts.sort();
        texts
    }

    fn illegal(g: &Checkers, text: &str) -> IllegalMove {
        match g.parse_move(text) {
            Err(MoveError::Illegal(e)) => e,
            other => panic!("{text}: expected an illegal move, got {other:?}"),
        }
    }

    fn reason(g: &Checkers, text: &str) -> String {
        match illegal(g, text) {
            IllegalMove::NotLegal { reason } => reason,
            other => panic!("{text}: expected NotLegal, got {other:?}"),
        }
    }

    fn draw(ending: Ending) -> Option<Outcome> {
        Some(Outcome {
            winner: None,
            ending,
        })
    }

    #[test]
    fn perft_matches_the_published_table() {
        let expected = [7, 49, 302, 1469, 7361, 36768, 179740, 845931];
        let start = Checkers::default();
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(
                perft(&start, depth as u32 + 1),
                count,
                "depth {}",
                depth + 1
            );
        }
    }

    #[test]
    fn bulk_steps_agree_with_the_board_geometry() {
        for direction in DIRECTIONS {
            for index in 0..32u8 {
                let neighbour = NEIGHBOUR[direction][index as usize];
                let expected = if neighbour == NONE { 0 } else { bit(neighbour) };
                assert_eq!(step(direction, bit(index)), expected, "{direction} {index}");
            }
        }
        let neighbours = |square: u8| {
            let mut list: Vec<u8> = DIRECTIONS
                .into_iter()
                .map(|d| NEIGHBOUR[d][square as usize - 1])
                .filter(|&n| n != NONE)
                .map(|n| n + 1)
                .collect();
            list.sort();
            list
        };
        assert_eq!(neighbours(11), [7, 8, 15, 16]);
        assert_eq!(neighbours(5), [1, 9]);
        // The single corners, at the two ends of the long diagonal.
        assert_eq!(neighbours(4), [8]);
        assert_eq!(neighbours(29), [25]);
    }

    #[test]
    fn the_standard_start() {
        let g = Checkers::default();
        assert_eq!(g.to_fen(), STANDARD_FEN);
        assert_eq!(g.side_to_move(), Side::First);
        assert_eq!(
            legal(&g),
            ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
        );
        let black_man = Piece {
            side: Side::First,
            king: false,
        };
        assert_eq!(g.piece_at(1), Some(black_man));
        assert_eq!(g.piece_at(12), Some(black_man));
        assert_eq!(g.piece_at(13), None);
        assert_eq!(g.piece_at(21).map(|p| p.side), Some(Side::Second));
        assert_eq!(g.piece_at(0), None);
        assert_eq!(g.piece_at(33), None);
        assert_eq!(g.position().pieces(Side::First), 0xFFF);
        assert_eq!(g.position().kings(), 0);
        assert_eq!(g.last_move(), None);
        assert_eq!(Game::outcome(&g), None);
    }

    #[test]
    fn captures_are_mandatory_but_any_capture_may_be_chosen() {
        // 14 can take one piece, 1 can take two: both are allowed.
        let g = game("B:W6,15,18:B1,14");
        assert_eq!(legal(&g), ["14x23", "1x10x19"]);
        let mut smaller = g.clone();
        play(&mut smaller, &["14x23"]);
        assert_eq!(smaller.piece_at(18), None);
        assert_eq!(smaller.piece_at(6).map(|p| p.side), Some(Side::Second));

        let g = game("B:W18:B1,14");
        assert_eq!(legal(&g), ["14x23"]);
        assert_eq!(
            illegal(&g, "1-5"),
            IllegalMove::CaptureMandatory {
                example: "14x23".into()
            }
        );
        assert_eq!(
            illegal(&g, "14-17"),
            IllegalMove::CaptureMandatory {
                example: "14x23".into()
            }
        );
    }

    #[test]
    fn a_multi_jump_is_one_move() {
        let mut g = game("B:W6,15,32:B1");
        assert_eq!(legal(&g), ["1x10x19"]);
        assert_eq!(
            reason(&g, "1x10"),
            "the capture must go on: the piece can still jump from 10 (for example 1x10x19)"
        );
        // The short form names the one capture from 1 to 19; it is written out in full.
        let mv = g.parse_move("1x19").unwrap();
        assert_eq!(g.format_move(mv), "1x10x19");
        assert_eq!(mv.from(), 1);
        assert_eq!(mv.to(), 19);
        assert_eq!(mv.landings().collect::<Vec<_>>(), [10, 19]);
        assert_eq!(mv.captured().collect::<Vec<_>>(), [6, 15]);
        assert!(mv.is_capture());
        g.play(mv).unwrap();
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(g.last_move(), Some(mv));
        assert_eq!(g.to_fen(), "W:W32:B19");
    }

    #[test]
    fn crowning_ends_the_move() {
        // A man jumping onto 31 is crowned there, though a king could jump on over 27.
        let mut g = game("B:W26,27:B22");
        assert_eq!(legal(&g), ["22x31"]);
        assert_eq!(
            reason(&g, "22x31x24"),
            "the man is crowned on 31 and its move ends there"
        );
        play(&mut g, &["22x31"]);
        assert_eq!(
            g.piece_at(31),
            Some(Piece {
                side: Side::First,
                king: true
            })
        );
        assert_eq!(g.to_fen(), "W:W27:BK31");
        // A king in the same place goes on.
        assert_eq!(legal(&game("B:W26,27:BK22")), ["22x31x24"]);
        // A plain move onto the last row crowns too.
        let mut g = game("W:W6:B20");
        play(&mut g, &["6-2"]);
        assert_eq!(g.piece_at(2).map(Piece::letter), Some('W'));
    }

    #[test]
    fn kings_move_both_ways_and_men_only_forward() {
        let g = game("B:W32:BK14,15");
        let from =
            |square| -> Vec<String> { g.moves_from(square).iter().map(Move::to_string).collect() };
        let mut king = from(14);
        king.sort();
        assert_eq!(king, ["14-10", "14-17", "14-18", "14-9"]);
        assert_eq!(from(15), ["15-18", "15-19"]);
        assert!(from(32).is_empty(), "not Black's piece");
        assert!(from(20).is_empty(), "empty square");
        assert_eq!(
            reason(&g, "15-10"),
            "a man cannot move backwards (15-10); only kings can"
        );
        // White's men go up the board, and its kings both ways.
        assert_eq!(
            legal(&game("W:WK14:B1")),
            ["14-10", "14-17", "14-18", "14-9"]
        );
        assert_eq!(legal(&game("W:W14:B1")), ["14-10", "14-9"]);
    }

    #[test]
    fn a_player_without_a_legal_move_loses() {
        // White's only man is blocked.
        let g = game("W:W29:B22,25");
        let black_wins = Some(Outcome {
            winner: Some(Side::First),
            ending: Ending::NoLegalMove,
        });
        assert_eq!(Game::outcome(&g), black_wins);
        assert!(legal(&g).is_empty());
        assert_eq!(illegal(&g, "29-25"), IllegalMove::GameOver);
        // White has no piece left.
        assert_eq!(Game::outcome(&game("W:W:B1")), black_wins);
        // Taking the last piece wins.
        let mut g = game("B:W6:B1");
        play(&mut g, &["1x10"]);
        assert_eq!(Game::outcome(&g), black_wins);
        assert!(g
            .render()
            .ends_with("Black played 1x10\nBlack wins: no legal move\n"));
    }

    const SHUFFLE: [&str; 4] = ["1-5", "32-28", "5-1", "28-32"];

    #[test]
    fn a_third_repetition_draws() {
        let mut g = game("B:WK32:BK1");
        for (ply, mv) in SHUFFLE.iter().chain(&SHUFFLE).enumerate() {
            assert_eq!(Game::outcome(&g), None, "before ply {ply}");
            play(&mut g, &[mv]);
        }
        assert_eq!(Game::outcome(&g), draw(Ending::Repetition));
        assert!(legal(&g).is_empty());
        assert_eq!(illegal(&g, "1-5"), IllegalMove::GameOver);
        assert!(g.render().ends_with("Draw: threefold repetition\n"));
    }

    #[test]
    fn the_repetition_count_is_configurable() {
        for repetition in [2, 3, 5] {
            let mut g = with_rules("B:WK32:BK1", repetition, 40);
            let plies = 4 * (repetition as usize - 1);
            for ply in 0..plies {
                assert_eq!(Game::outcome(&g), None, "{repetition}: before ply {ply}");
                play(&mut g, &[SHUFFLE[ply % 4]]);
            }
            assert_eq!(Game::outcome(&g), draw(Ending::Repetition), "{repetition}");
        }
    }

    #[test]
    fn repetitions_count_from_the_last_man_move() {
        let mut g = game("B:WK32,21:BK1,12");
        play(&mut g, &SHUFFLE);
        play(&mut g, &["12-16"]);
        // The position after 12-16 occurs for the third time eight plies later.
        let after: [&str; 4] = ["32-28", "1-5", "28-32", "5-1"];
        for (ply, mv) in after.iter().chain(&after).enumerate() {
            assert_eq!(Game::outcome(&g), None, "ply {ply}");
            play(&mut g, &[mv]);
        }
        assert_eq!(Game::outcome(&g), draw(Ending::Repetition));
    }

    /// Two kings on non-overlapping cycles of 4 and 6 squares, far apart: their positions repeat
    /// every 24 plies, so with `repetition=10` only the move rule can end a long run.
    const TOURS: &str = "B:WK26,29:BK5,4";
    const BLACK_TOUR: [&str; 4] = ["5-1", "1-6", "6-9", "9-5"];
    const WHITE_TOUR: [&str; 6] = ["26-23", "23-19", "19-24", "24-27", "27-31", "31-26"];

    /// Plays the next king move of the side to move along its tour.
    fn tour_ply(g: &mut Checkers) {
        let side = g.side_to_move();
        let tour: &[&str] = if side == Side::First {
            &BLACK_TOUR
        } else {
            &WHITE_TOUR
        };
        let mv = tour
            .iter()
            .find(|text| {
                let from: u8 = text.split('-').next().unwrap().parse().unwrap();
                g.piece_at(from) == Some(Piece { side, king: true })
            })
            .unwrap();
        play(g, &[mv]);
    }

    #[test]
    fn forty_moves_each_without_progress_draw() {
        let mut g = with_rules(TOURS, 10, 40);
        for ply in 0..79 {
            tour_ply(&mut g);
            assert_eq!(Game::outcome(&g), None, "ply {ply}");
        }
        assert_eq!(g.quiet_plies(), 79);
        tour_ply(&mut g);
        assert_eq!(Game::outcome(&g), draw(Ending::MoveRule));
        assert!(legal(&g).is_empty());
    }

    #[test]
    fn a_man_move_restarts_the_move_rule() {
        let mut g = with_rules(TOURS, 10, 40);
        for _ in 0..79 {
            tour_ply(&mut g);
        }
        play(&mut g, &["29-25"]);
        assert_eq!(g.quiet_plies(), 0);
        for ply in 0..79 {
            tour_ply(&mut g);
            assert_eq!(Game::outcome(&g), None, "ply {ply}");
        }
        tour_ply(&mut g);
        assert_eq!(Game::outcome(&g), draw(Ending::MoveRule));
    }

    #[test]
    fn a_capture_restarts_the_move_rule() {
        // Four moves each: 8 plies. Black's king walks to 18 and must then take 14.
        let mut g = with_rules("B:WK29,14:BK31", 10, 4);
        play(
            &mut g,
            &["31-27", "29-25", "27-23", "25-29", "23-18", "29-25"],
        );
        assert_eq!(g.quiet_plies(), 6);
        play(&mut g, &["18x9"]);
        assert_eq!(g.quiet_plies(), 0);
        let shuffle = ["25-29", "9-5", "29-25", "5-9"];
        for ply in 0..7 {
            play(&mut g, &[shuffle[ply % 4]]);
            assert_eq!(Game::outcome(&g), None, "ply {ply}");
        }
        play(&mut g, &[shuffle[3]]);
        assert_eq!(Game::outcome(&g), draw(Ending::MoveRule));
    }

    #[test]
    fn the_move_rule_is_configurable_and_can_be_disabled() {
        let mut g = with_rules(TOURS, 10, 2);
        for _ in 0..3 {
            tour_ply(&mut g);
        }
        assert_eq!(Game::outcome(&g), None);
        tour_ply(&mut g);
        assert_eq!(Game::outcome(&g), draw(Ending::MoveRule));

        let mut g = with_rules(TOURS, 10, 0);
        for _ in 0..200 {
            tour_ply(&mut g);
        }
        assert_eq!(g.quiet_plies(), 200);
        assert_eq!(Game::outcome(&g), None);
    }

    #[test]
    fn text_that_is_not_a_move() {
        let g = Checkers::default();
        for text in [
            "", " ", "11", "11-", "-15", "11--15", "11-15-19", "11x", "x11x15", "11x15-19",
            "11-15x19", "a-b", "11 15", "11 - 15", "11–15", "11/15", "K11-15", "11-15.",
        ] {
            match g.parse_move(text) {
                Err(MoveError::NotAMove(message)) => {
                    assert!(message.contains("such as 11-15"), "{text:?}: {message}")
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert_eq!(
            g.parse_move("11-15-19"),
            Err(MoveError::NotAMove(
                "'-' joins exactly two squares (jumps are written with x); expected a PDN move \
                 such as 11-15, a capture such as 22x15, or a multi-jump with every landing \
                 square such as 9x18x27"
                    .into()
            ))
        );
    }

    #[test]
    fn each_wrong_move_gets_its_own_verdict() {
        let g = Checkers::default();
        for (text, square) in [
            ("0-4", "0"),
            ("33-29", "33"),
            ("11x40", "40"),
            ("99999999999999999999999-1", "18446744073709551615"),
        ] {
            assert_eq!(
                illegal(&g, text),
                IllegalMove::OffBoard {
                    square: square.into(),
                    board: "32-square checkers".into()
                }
            );
        }
        assert_eq!(
            illegal(&g, "33-29").to_string(),
            "33 is off the 32-square checkers board"
        );
        assert_eq!(
            illegal(&g, "13-17"),
            IllegalMove::EmptySquare { square: 13 }
        );
        assert_eq!(
            illegal(&g, "21-17"),
            IllegalMove::NotYourPiece { square: 21 }
        );
        assert_eq!(
            reason(&g, "11-18"),
            "18 is not diagonally next to 11: a piece moves one square along a diagonal"
        );
        assert_eq!(reason(&g, "8-11"), "square 11 is occupied");
        assert_eq!(reason(&g, "11-11"), "11-11 does not move the piece");
        assert_eq!(
            reason(&g, "9x18"),
            "there is no piece on 14 for 9x18 to jump"
        );
        assert_eq!(
            reason(&g, "11x15"),
            "11x15 is not a jump: a jump goes over a piece to the square beyond it \
             (a plain move is written 11-15)"
        );
        assert_eq!(
            reason(&g, "11x27"),
            "the piece on 11 has no capture, and there is nothing to capture"
        );
        assert_eq!(
            reason(&game("B:W18:B1,14"), "1x19"),
            "the piece on 1 has no capture (a capture that is possible: 14x23)"
        );
        assert_eq!(
            reason(&game("B:W10:B15"), "15x6"),
            "a man cannot jump backwards (15x6); only kings can"
        );
        assert_eq!(
            reason(&game("B:W32:B1,6"), "1x10"),
            "1x10 would jump your own piece on 6"
        );
        assert_eq!(
            reason(&game("B:W6,10:B1"), "1x10"),
            "1x10 cannot land on 10: it is occupied"
        );
        assert_eq!(
            reason(&game("B:W6,15:B1"), "1x10x12"),
            "10x12 is not a jump: a jump goes over a diagonal neighbour to the square just \
             beyond it"
        );
    }

    /// A king in the middle of four white men can go round them either way.
    const DIAMOND: &str = "B:W14,15,22,23:BK17";

    #[test]
    fn a_king_can_go_round_and_a_short_form_can_be_ambiguous() {
        let g = game(DIAMOND);
        assert_eq!(legal(&g), ["17x10x19x26x17", "17x26x19x10x17"]);
        assert_eq!(
            illegal(&g, "17x17"),
            IllegalMove::Ambiguous {
                text: "17x17".into(),
                candidates: vec!["17x10x19x26x17".into(), "17x26x19x10x17".into()]
            }
        );
        assert_eq!(
            reason(&g, "17x19"),
            "no capture by the piece on 17 ends on 19 (its captures: 17x10x19x26x17, \
             17x26x19x10x17)"
        );
        assert_eq!(
            reason(&g, "17x10x19"),
            "the capture must go on: the piece can still jump from 19 (for example \
             17x10x19x26x17)"
        );
        assert_eq!(
            reason(&g, "17x10x17"),
            "the piece on 14 is already jumped in this move; a piece is jumped once"
        );
        // However long, a text is judged jump by jump.
        assert_eq!(
            reason(&g, "17x10x19x26x17x10x19x26x17x10x19x26x17"),
            "the piece on 14 is already jumped in this move; a piece is jumped once"
        );
        let mut done = g.clone();
        play(&mut done, &[" 17X26x19X10x17 "]);
        assert_eq!(done.to_fen(), "W:W:BK17");
    }

    #[test]
    fn check_move_judges_moves_from_elsewhere() {
        let mut g = Checkers::default();
        let opening = g.parse_move("9-13").unwrap();
        play(&mut g, &["9-13", "22-18"]);
        assert_eq!(
            g.check_move(opening),
            Err(IllegalMove::EmptySquare { square: 9 })
        );
        let double = game("B:W6,15:B1").parse_move("1x10x19").unwrap();
        assert_eq!(
            game("B:W6:B1").check_move(double),
            Err(IllegalMove::NotLegal {
                reason: "there is no piece on 15 for 10x19 to jump".into()
            })
        );
        assert_eq!(game("B:W6,15:B1").check_move(double), Ok(()));
    }

    /// Random games from the start and from positions with kings: every generated move is
    /// accepted by `check_move` and reads back from its notation, the board stays consistent,
    /// and the game has no move exactly when it is over.
    #[test]
    fn random_games_keep_every_invariant() {
        let mut rng = StdRng::seed_from_u64(7);
        let starts = [STANDARD_FEN, DIAMOND, "W:WK1,K3,20,21:BK30,K32,9,12", TOURS];
        let mut moves = Vec::new();
        for game_number in 0..60 {
            let mut g = game(starts[game_number % starts.len()]);
            for _ in 0..400 {
                let p = g.position();
                assert_eq!(p.pieces[0] & p.pieces[1], 0);
                assert_eq!(p.kings & !(p.pieces[0] | p.pieces[1]), 0);
                assert_eq!(p.pieces[0] & !p.kings & CROWN_ROW[0], 0);
                assert_eq!(p.pieces[1] & !p.kings & CROWN_ROW[1], 0);
                assert_eq!(g.to_fen().parse::<Position>(), Ok(p));
                g.generate_moves(&mut moves);
                assert_eq!(
                    moves.is_empty(),
                    Game::outcome(&g).is_some(),
                    "{}",
                    g.render()
                );
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    assert_eq!(g.check_move(mv), Ok(()), "{mv}");
                    assert_eq!(g.parse_move(&g.format_move(mv)), Ok(mv));
                }
                g.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn fen_reads_the_documented_forms() {
        let standard = Position::standard();
        for text in [
            STANDARD_FEN,
            "B:W21-32:B1-12",
            "B:B1-12:W21-32",
            " B : W21-24, 25, 26-32 : B1-4,5-8,9,10,11,12 ",
        ] {
            assert_eq!(text.parse::<Position>(), Ok(standard), "{text}");
        }
        let p: Position = "W:WK1-2,20:BK31,9".parse().unwrap();
        assert_eq!(p.to_fen(), "W:WK1,K2,20:B9,K31");
        assert_eq!(p.side_to_move(), Side::Second);
        assert_eq!(p.piece_at(2).map(Piece::letter), Some('W'));
        assert_eq!(p.piece_at(20).map(Piece::letter), Some('w'));
        assert_eq!(p.piece_at(31).map(Piece::letter), Some('B'));
        assert_eq!(p.piece_at(9).map(Piece::letter), Some('b'));
        assert_eq!(p.kings(), bit(0) | bit(1) | bit(30));
        assert_eq!(p.to_fen().parse::<Position>(), Ok(p));
        assert_eq!("B:W:B".parse::<Position>().unwrap().to_fen(), "B:W:B");
        let g = Checkers::from_fen("W:W18:B14").unwrap();
        assert_eq!(g.to_fen(), "W:W18:B14");
        assert_eq!(g.side_to_move(), Side::Second);
    }

    #[test]
    fn fen_errors_say_what_is_wrong() {
        for (text, reason) in [
            (
                "",
                "expected the side to move and the two colours' pieces separated by ':'",
            ),
            ("B:W21-32", "expected the side to move"),
            ("X:W21:B1", "the side to move must be B or W, not 'X'"),
            ("b:W21:B1", "the side to move must be B or W, not 'b'"),
            ("B:W21:W22", "the White pieces are listed twice"),
            ("B:W21:R1", "a list of pieces starts with B or W, not 'R1'"),
            ("B:W21:B0", "'0' is not a square number from 1 to 32"),
            ("B:W33:B1", "'33' is not a square number from 1 to 32"),
            ("B:W21:B+1", "'+1' is not a square number from 1 to 32"),
            ("B:W21,,22:B1", "a square number is missing"),
            ("B:W21,:B1", "a square number is missing"),
            ("B:W21:Bk1", "'k1' is not a square number"),
            ("B:W21:B5-1", "the range 5-1 runs backwards"),
            ("B:W21:B1-3,2", "square 2 is listed twice"),
            ("B:W21:B21", "square 21 is listed twice"),
            (
                "B:W21:B30",
                "a black man on 30 would have been crowned: write K30",
            ),
            (
                "B:W4:B1",
                "a white man on 4 would have been crowned: write K4",
            ),
            ("B:WK1-13:B14", "White has 13 pieces; a side has at most 12"),
        ] {
            let err = text.parse::<Position>().unwrap_err();
            assert!(err.reason.contains(reason), "{text}: {err}");
            assert_eq!(err.fen, text);
            assert_eq!(Checkers::from_fen(text).unwrap_err(), err);
        }
        assert_eq!(
            "B:W21:B0".parse::<Position>().unwrap_err().to_string(),
            "'B:W21:B0' is not a checkers FEN: '0' is not a square number from 1 to 32"
        );
    }

    #[test]
    fn a_selected_piece_shows_where_it_can_go_and_movable_pieces_are_allowed() {
        let g = game(STANDARD_FEN);
        let toned = |view: &View, tone| -> String {
            g.diagram(view)
                .spans()
                .filter(|(t, _)| *t == tone)
                .map(|(_, text)| text.trim().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Black's men on 9-12 can move.
        assert_eq!(toned(&View::default(), Tone::Allowed), "b b b b");
        let view = View {
            selected: Some(11),
            ..View::default()
        };
        let drawing = g.diagram(&view).to_string();
        let row = drawing.lines().nth(3).unwrap();
        // Row 4 holds squares 13-16: 11 reaches 15 and 16.
        assert_eq!(row, " .     .     *     *       13    14    15    16");
        assert_eq!(toned(&view, Tone::Selected), "b");
        assert_eq!(toned(&view, Tone::Allowed), "* *");
        // A square without a movable piece selects nothing to reach.
        let view = View {
            selected: Some(1),
            ..View::default()
        };
        assert!(!g.diagram(&view).to_string().contains('*'));
    }

    #[test]
    fn render_shows_pieces_numbers_and_the_last_move() {
        let mut g = game("B:W18,K30:B14,K3");
        play(&mut g, &["14x23"]);
        assert_eq!(
            g.render(),
            concat!(
                "    .     .     B     .        1     2     3     4\n",
                " .     .     .     .        5     6     7     8\n",
                "    .     .     .     .        9    10    11    12\n",
                " .     .     .     .       13    14    15    16\n",
                "    .     .     .     .       17    18    19    20\n",
                " .     .    [b]    .       21    22    23    24\n",
                "    .     .     .     .       25    26    27    28\n",
                " .     W     .     .       29    30    31    32\n",
                "Black played 14x23\n",
                "White to move\n",
            )
        );
        assert!(game(STANDARD_FEN).render().starts_with(
            "    b     b     b     b        1     2     3     4\n b     b     b     b        5"
        ));
    }

    #[test]
    fn every_ballot_opening_is_legal() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/checkers-3move.txt");
        let text = std::fs::read_to_string(path).unwrap();
        let mut numbers = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [number, moves @ ..] = &words[..] else {
                unreachable!("lines are not empty")
            };
            assert_eq!(moves.len(), 3, "{line}");
            numbers.push(number.parse::<u32>().unwrap());
            let mut g = Checkers::default();
            for &text in moves {
                let mv = g
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("opening {number}, {text}: {e}"));
                assert_eq!(g.format_move(mv), text);
                g.play(mv).unwrap();
            }
            assert_eq!(Game::outcome(&g), None, "{line}");
        }
        assert_eq!(numbers.len(), 157);
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "numbered in order");
        assert!(numbers.iter().all(|n| (1..=174).contains(n)));
    }
    #[test]
    fn public_geometry_names_the_diagram() {
        let square = |n: u8| bit(n - 1);
        let black_forward: u32 = Diagonal::forward(Side::First)
            .into_iter()
            .map(|d| neighbours(square(11), d))
            .fold(0, |a, b| a | b);
        assert_eq!(black_forward, square(15) | square(16));
        let black_backward: u32 = Diagonal::backward(Side::First)
            .into_iter()
            .map(|d| neighbours(square(11), d))
            .fold(0, |a, b| a | b);
        assert_eq!(black_backward, square(7) | square(8));
        assert_eq!(neighbours(square(11), Diagonal::DownLeft), square(15));
        for diagonal in Diagonal::ALL {
            let there = neighbours(square(11), diagonal);
            assert_eq!(neighbours(there, diagonal.opposite()), square(11));
        }
        assert_eq!(
            neighbours(square(29), Diagonal::DownRight),
            0,
            "off the board"
        );
        assert_eq!(coordinates(0), (0, 1));
        assert_eq!(coordinates(4), (1, 0));
        assert_eq!(coordinates(31), (7, 6));
    }

    #[test]
    fn the_position_level_operations_agree_with_the_game() {
        let mut rng = StdRng::seed_from_u64(11);
        let (mut from_game, mut from_position) = (Vec::new(), Vec::new());
        for start in [STANDARD_FEN, DIAMOND, "W:WK1,K3,20,21:BK30,K32,9,12"] {
            let mut g = game(start);
            let mut position = g.position();
            while Game::outcome(&g).is_none() {
                g.generate_moves(&mut from_game);
                position.legal_moves(&mut from_position);
                assert_eq!(from_position, from_game);
                assert!(position.can_move());
                let capturing: u32 = from_game
                    .iter()
                    .filter(|mv| mv.is_capture())
                    .map(|mv| bit(mv.from() - 1))
                    .fold(0, |a, b| a | b);
                assert_eq!(position.must_capture(), capturing != 0);
                assert_eq!(position.capturers(position.side_to_move()), capturing);
                for mv in &from_game {
                    let bits = mv.captured().fold(0, |a, n| a | bit(n - 1));
                    assert_eq!(mv.captured_bits(), bits);
                }
                let mv = from_game[rng.gen_range(0..from_game.len())];
                g.play_unchecked(mv);
                position.apply(mv);
                assert_eq!(position, g.position());
            }
        }
    }

    #[test]
    fn zobrist_hashes_tell_positions_apart() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut seen: std::collections::HashMap<u64, Position> = Default::default();
        let mut moves = Vec::new();
        for start in [STANDARD_FEN, DIAMOND, TOURS, "W:WK1,K3,20,21:BK30,K32,9,12"] {
            for _ in 0..20 {
                let mut g = game(start);
                while Game::outcome(&g).is_none() {
                    let p = g.position();
                    assert_eq!(*seen.entry(p.zobrist()).or_insert(p), p);
                    g.generate_moves(&mut moves);
                    g.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert!(seen.len() > 3000, "{} positions", seen.len());
        let black: Position = "B:W18:B14".parse().unwrap();
        let white: Position = "W:W18:B14".parse().unwrap();
        let king: Position = "B:WK18:B14".parse().unwrap();
        assert_ne!(black.zobrist(), white.zobrist());
        assert_ne!(black.zobrist(), king.zobrist());
    }

    #[test]
    fn repeatable_positions_are_those_since_the_last_man_move() {
        let mut g = game("B:WK32,21:BK1,12");
        let mut played = vec![g.position()];
        assert_eq!(g.repeatable_positions().collect::<Vec<_>>(), played);
        for mv in SHUFFLE {
            play(&mut g, &[mv]);
            played.push(g.position());
            assert_eq!(g.repeatable_positions().collect::<Vec<_>>(), played);
        }
        play(&mut g, &["12-16"]);
        assert_eq!(g.repeatable_positions().collect::<Vec<_>>(), [g.position()]);
        // White has no king: nothing can repeat.
        let g = game("B:W32,21:BK1,12");
        assert_eq!(g.repeatable_positions().count(), 0);
        assert_eq!(g.move_rule_plies(), Some(80));
        assert_eq!(with_rules(TOURS, 3, 0).move_rule_plies(), None);
    }
}
