//! A small board's knowledge as tables indexed by the marks there (9 bits, bit = cell, row by
//! row): one lookup replaces looking at the eight lines, which makes playouts and the static
//! evaluation cheaper.

use referee_rules::games::uttt::{HAS_LINE, LINES};

/// For every set of one side's cells, the cells that would complete a line with them (empty or
/// not): a side's immediate wins on a small board are `WINNING_CELLS[mine] & open`.
pub(super) const WINNING_CELLS: [u16; 512] = {
    let mut table = [0; 512];
    let mut set = 0;
    while set < 512 {
        let mut line = 0;
        while line < LINES.len() {
            let missing = LINES[line] & !(set as u16);
            if missing.is_power_of_two() {
                table[set] |= missing;
            }
            line += 1;
        }
        set += 1;
    }
    table
};

/// What [`RANDOM_FILL_WINS`] counts its chances out of: every count is an exact multiple of
/// `1 / FILL_WHOLE`, as a filling of the empty cells has chance at least `2^-9`.
pub(super) const FILL_WHOLE: u16 = 1024;

/// For each set of cells (9 bits), its number in base 3 with each cell a digit 1: a board's
/// state is `TERNARY[mine] + 2 * TERNARY[theirs]`, one of the 3^9 indices of
/// [`RANDOM_FILL_WINS`].
pub(super) const TERNARY: [u16; 512] = {
    let mut table = [0; 512];
    let mut set = 0;
    while set < 512 {
        let (mut digit, mut cell) = (1, 0);
        while cell < 9 {
            if set & 1 << cell != 0 {
                table[set] += digit;
            }
            digit *= 3;
            cell += 1;
        }
        set += 1;
    }
    table
};

/// For each state of a small board (see [`TERNARY`]), the chance out of [`FILL_WHOLE`] that
/// the side whose marks are digit 1 has a line and the other none when every empty cell is
/// given to one side or the other at random, a filling where both have one counting half: a
/// cheap guess at how likely the board is to fall to a side, which the static evaluation
/// multiplies along the lines of the big board.
///
/// Worked from the full boards back: a state's chance is the mean of its two states with its
/// first empty cell filled, whose indices are larger.
pub(super) static RANDOM_FILL_WINS: [u16; 19683] = {
    let mut table = [0; 19683];
    let mut state = table.len();
    while state > 0 {
        state -= 1;
        let (mut mine, mut theirs, mut first_empty, mut rest) = (0u16, 0u16, 0, state);
        // The digit of the first empty cell, 0 for a full board.
        let (mut digit, mut cell) = (1, 0);
        while cell < 9 {
            match rest % 3 {
                0 if first_empty == 0 => first_empty = digit,
                0 => {}
                1 => mine |= 1 << cell,
                _ => theirs |= 1 << cell,
            }
            rest /= 3;
            digit *= 3;
            cell += 1;
        }
        table[state] = if first_empty == 0 {
            match (HAS_LINE[mine as usize], HAS_LINE[theirs as usize]) {
                (true, false) => FILL_WHOLE,
                (true, true) => FILL_WHOLE / 2,
                _ => 0,
            }
        } else {
            (table[state + first_empty] + table[state + 2 * first_empty]) / 2
        };
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a mark on `cell` completes a line of `cells` (9 bits) through it: its row, its
    /// column or a diagonal it lies on, looked at square by square.
    fn completes_a_line(cells: u16, cell: u16) -> bool {
        let cells = cells | 1 << cell;
        let at = |row: u16, column: u16| cells & 1 << (row * 3 + column) != 0;
        let (row, column) = (cell / 3, cell % 3);
        (0..3).all(|i| at(row, i))
            || (0..3).all(|i| at(i, column))
            || (row == column && (0..3).all(|i| at(i, i)))
            || (row + column == 2 && (0..3).all(|i| at(i, 2 - i)))
    }

    #[test]
    fn winning_cells_agree_with_the_lines_on_every_small_board() {
        // Every one of the 3^9 fillings: each cell empty, mine or the opponent's.
        for state in 0..3u32.pow(9) {
            let (mut mine, mut open) = (0u16, 0u16);
            let mut rest = state;
            for cell in 0..9 {
                match rest % 3 {
                    0 => open |= 1 << cell,
                    1 => mine |= 1 << cell,
                    _ => {}
                }
                rest /= 3;
            }
            let expected = (0..9)
                .filter(|&cell| open & 1 << cell != 0 && completes_a_line(mine, cell))
                .fold(0, |cells, cell| cells | 1 << cell);
            assert_eq!(
                WINNING_CELLS[mine as usize] & open,
                expected,
                "mine {mine:09b}, open {open:09b}"
            );
        }
    }

    /// Whether `cells` hold a line, by [`completes_a_line`] rather than the table's own test.
    fn has_a_line(cells: u16) -> bool {
        (0..9).any(|cell| cells & 1 << cell != 0 && completes_a_line(cells & !(1 << cell), cell))
    }

    #[test]
    fn random_fill_wins_counts_every_filling() {
        for mine in 0..512u16 {
            for theirs in (0..512u16).filter(|theirs| theirs & mine == 0) {
                let empty: Vec<u16> = (0..9)
                    .filter(|cell| (mine | theirs) & 1 << cell == 0)
                    .collect();
                // Each filling of the empty cells: bit i of `filling` gives the i-th to me.
                let mut total = 0u32;
                for filling in 0..1u32 << empty.len() {
                    let (mut my_cells, mut their_cells) = (mine, theirs);
                    for (i, cell) in empty.iter().enumerate() {
                        if filling & 1 << i != 0 {
                            my_cells |= 1 << cell;
                        } else {
                            their_cells |= 1 << cell;
                        }
                    }
                    total += match (has_a_line(my_cells), has_a_line(their_cells)) {
                        (true, false) => 2,
                        (true, true) => 1,
                        _ => 0,
                    };
                }
                let state = (TERNARY[mine as usize] + 2 * TERNARY[theirs as usize]) as usize;
                assert_eq!(
                    u32::from(RANDOM_FILL_WINS[state]) << empty.len(),
                    total * u32::from(FILL_WHOLE) / 2,
                    "mine {mine:09b}, theirs {theirs:09b}"
                );
            }
        }
    }
}
