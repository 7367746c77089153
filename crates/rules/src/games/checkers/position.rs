//! A checkers position without history: the pieces and the side to move.

use super::moves::Move;
use super::squares::{bit, CROWN_ROW, START};
use crate::games::Side;
use serde::{Deserialize, Serialize};

/// What a side is called in messages and under the diagram.
pub(super) fn colour_name(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is: the first player's are Black.
    pub side: Side,
    /// Whether it was crowned and so moves backwards as well.
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
    pub(super) pieces: [u32; 2],
    /// The kings of both sides.
    pub(super) kings: u32,
    pub(super) to_move: Side,
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

    /// The position with each side's pieces and the kings as bitboards (bit n-1 for square n),
    /// for tools that enumerate positions (the checkers endgame database); `None` unless the
    /// sides do not overlap, every king stands on a piece and no man stands on the row where it
    /// would have been crowned.
    pub fn from_bitboards(pieces: [u32; 2], kings: u32, to_move: Side) -> Option<Position> {
        let men = [pieces[0] & !kings, pieces[1] & !kings];
        let valid = pieces[0] & pieces[1] == 0
            && kings & !(pieces[0] | pieces[1]) == 0
            && men[0] & CROWN_ROW[0] == 0
            && men[1] & CROWN_ROW[1] == 0;
        valid.then_some(Position {
            pieces,
            kings,
            to_move,
        })
    }

    /// The board turned half round with the colours swapped: square n becomes 33-n, Black's
    /// pieces White's and the other way round, and the other side is to move. The rules are
    /// symmetric, so the result is the same game seen from the other side: every value for the
    /// side to move is unchanged.
    pub fn rotated(&self) -> Position {
        Position {
            pieces: [self.pieces[1].reverse_bits(), self.pieces[0].reverse_bits()],
            kings: self.kings.reverse_bits(),
            to_move: self.to_move.opponent(),
        }
    }

    /// Whose turn it is.
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

    pub(super) fn empty(&self) -> u32 {
        !(self.pieces[0] | self.pieces[1])
    }

    /// Plays a legal move (from [`Position::legal_moves`]) on the pieces alone: what a search
    /// needs; [`Checkers`](super::Checkers) adds the draw rules' bookkeeping.
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

    pub(super) fn both_sides_have_kings(&self) -> bool {
        self.pieces[0] & self.kings != 0 && self.pieces[1] & self.kings != 0
    }

    /// Identifies the position among those since the last man move or capture: the men have not
    /// changed since then, so the kings of each side are all that can differ, and the side to
    /// move is given by the ply's parity.
    pub(super) fn king_key(&self) -> u64 {
        u64::from(self.pieces[0] & self.kings) | u64::from(self.pieces[1] & self.kings) << 32
    }
}
