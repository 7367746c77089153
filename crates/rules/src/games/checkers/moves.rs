//! A checkers move as a value: where the piece starts, where it lands, what it captures.

use super::squares::bit;
use std::fmt;

/// The most jumps one capture can make: a capturing piece always lands on squares of one
/// row/column parity and jumps over squares of the other, and only 9 of those are off the edge.
const MAX_JUMPS: usize = 9;

/// A move: the start square and every landing square (one for a plain move), plus the pieces
/// it captures. `Copy` and allocation-free so that searches can store millions of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Square index (PDN number - 1) of the moving piece.
    pub(super) from: u8,
    /// How many entries of `path` are used (1 for a plain move).
    pub(super) len: u8,
    /// Landing square indices in order.
    path: [u8; MAX_JUMPS],
    /// Bits of the captured pieces; zero for a plain move.
    pub(super) captured: u32,
}

impl Move {
    pub(super) fn simple(from: u8, to: u8) -> Move {
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
    pub(super) fn start_capture(from: u8) -> Move {
        Move {
            from,
            len: 0,
            path: [0; MAX_JUMPS],
            captured: 0,
        }
    }

    pub(super) fn jump(mut self, over: u8, land: u8) -> Move {
        self.path[self.len as usize] = land;
        self.len += 1;
        self.captured |= bit(over);
        self
    }

    pub(super) fn landing_indices(&self) -> &[u8] {
        &self.path[..self.len as usize]
    }

    pub(super) fn end_index(&self) -> u8 {
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

    /// Whether the move jumps (and so takes at least one piece).
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
