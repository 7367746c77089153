//! The 32 dark squares of the board: their numbering, their diagonals, and steps of whole sets
//! of squares at once, the bitboard arithmetic everything else is built on.

use crate::games::Side;

// Square n is bit n-1 (its "index"). Row r holds indices 4r..4r+3; in even rows (squares 1-4,
// 9-12, ...) the dark squares are in the odd columns, in odd rows in the even columns.

/// Marks "no square" in the step tables.
pub(super) const NONE: u8 = u8::MAX;
const EVEN_ROWS: u32 = 0x0F0F_0F0F;
const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// The first dark square of each row (on the left edge in odd rows).
const ROW_FIRST: u32 = 0x1111_1111;
/// The last dark square of each row (on the right edge in even rows).
const ROW_LAST: u32 = 0x8888_8888;
/// Where each side's men are crowned: Black on 29-32, White on 1-4.
pub(super) const CROWN_ROW: [u32; 2] = [0xF000_0000, 0x0000_000F];
/// Each side's men at the start: Black on 1-12, White on 21-32.
pub(super) const START: [u32; 2] = [0x0000_0FFF, 0xFFF0_0000];

/// A diagonal direction as seen on the diagram (Black at the top, so Black's men move down).
/// Public for evaluation functions that work on bitboards, with [`neighbours`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonal {
    /// Up (towards squares 1-4, White's way) and to the left.
    UpLeft,
    /// Up (towards squares 1-4, White's way) and to the right.
    UpRight,
    /// Down (towards squares 29-32, Black's way) and to the left.
    DownLeft,
    /// Down (towards squares 29-32, Black's way) and to the right.
    DownRight,
}

impl Diagonal {
    /// The four directions, in the order of their indices (opposites mirror: `3 - i`).
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
pub(super) const DIRECTIONS: [usize; 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];
/// The directions a man moves in, per side: Black down the diagram, White up.
const FORWARD: [[usize; 2]; 2] = [[DOWN_LEFT, DOWN_RIGHT], [UP_LEFT, UP_RIGHT]];
const DELTAS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// Half of a direction's bulk step: the squares in `from` move by `shift` bits (positive:
/// toward higher squares). A direction needs two rays because the bit distance to a diagonal
/// neighbour depends on the row's parity.
pub(super) struct Ray {
    pub(super) from: u32,
    pub(super) shift: i32,
}

pub(super) const RAYS: [[Ray; 2]; 4] = [
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

pub(super) fn shift(bits: u32, by: i32) -> u32 {
    if by > 0 {
        bits << by
    } else {
        bits >> -by
    }
}

/// Every square of `bits` moved one step in `direction` (squares that would leave the board
/// are dropped).
pub(super) fn step(direction: usize, bits: u32) -> u32 {
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

pub(super) const fn index_at(row: i32, col: i32) -> u8 {
    if row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 == 0 {
        NONE
    } else {
        (row * 4 + col / 2) as u8
    }
}

/// `NEIGHBOUR[direction][index]`: the diagonal neighbour, or `NONE` off the board. Used square
/// by square when following jumps; bulk generation uses [`step`].
pub(super) const NEIGHBOUR: [[u8; 32]; 4] = {
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

pub(super) fn bit(index: u8) -> u32 {
    1 << index
}

pub(super) fn is_forward(side: usize, direction: usize) -> bool {
    FORWARD[side].contains(&direction)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
