//! A small board's knowledge as a table indexed by one side's marks there (9 bits, bit = cell,
//! row by row): one lookup replaces looking at the eight lines, which makes playouts cheaper.

use crate::games::uttt::LINES;

/// For every set of one side's cells, the cells that would complete a line with them (empty or
/// not): a side's immediate wins on a small board are `WINNING_CELLS[mine] & open`.
pub(super) const WINNING_CELLS: [u16; 512] = {
    let mut table = [0; 512];
    let mut set = 0;
    while set < 512 {
        let mut line = 0;
        while line < LINES.len() {
            let missing = LINES[line] & !(set as u16);
            if missing.count_ones() == 1 {
                table[set] |= missing;
            }
            line += 1;
        }
        set += 1;
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
}
