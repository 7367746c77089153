//! The lookup tables behind the bitboards: where each square's bit is, and which sets of cells
//! hold a line.

/// A global square, as `y * 9 + x`: the notation's own order, so converting is trivial.
pub type Square = u8;

/// The eight lines of a 3x3 board, as 9-bit masks (bit = row * 3 + column).
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// For every 9-bit set of cells, whether it contains a line: one lookup decides a small board
/// (from its cells) or the game (from the boards won).
pub const HAS_LINE: [bool; 512] = {
    let mut table = [false; 512];
    let mut set = 0;
    while set < 512 {
        let mut line = 0;
        while line < LINES.len() {
            if set as u16 & LINES[line] == LINES[line] {
                table[set] = true;
            }
            line += 1;
        }
        set += 1;
    }
    table
};

/// Bit index (`board * 9 + cell`) of each global square.
pub(super) const BIT_OF_SQUARE: [u8; 81] = {
    let mut table = [0; 81];
    let mut square = 0;
    while square < 81 {
        let (x, y) = (square % 9, square / 9);
        table[square] = (((y / 3) * 3 + x / 3) * 9 + (y % 3) * 3 + x % 3) as u8;
        square += 1;
    }
    table
};

/// Global square of each bit index: the inverse of [`BIT_OF_SQUARE`].
pub(super) const SQUARE_OF_BIT: [Square; 81] = {
    let mut table = [0; 81];
    let mut square = 0;
    while square < 81 {
        table[BIT_OF_SQUARE[square] as usize] = square as Square;
        square += 1;
    }
    table
};

/// The nine cells of small board 0; shifted by `board * 9` for the others.
pub(super) const BOARD_CELLS: u128 = 0x1FF;
pub(super) const ALL_CELLS: u128 = (1 << 81) - 1;
