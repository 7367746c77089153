//! How a game's squares are laid out and named, for a person picking them: the console draws
//! letters along the edges and reads `b3` or `a0-b0` against it, whichever game it shows.

/// The layout of a board, as far as naming its squares and moves goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// Squares named `x y`, column then row, from 0 at the top left (m,n,k games and ultimate
    /// tic-tac-toe).
    Cells {
        /// Columns, named 0 to `width - 1`.
        width: u8,
        /// Rows, named 0 to `height - 1`.
        height: u8,
        /// Made of 3x3 small boards, the last move saying which one the next must go in
        /// (ultimate tic-tac-toe).
        small_boards: bool,
    },
    /// Dots and boxes: `cols + 1` by `rows + 1` dots, a line named `h x y` or `v x y`.
    Dots {
        /// Columns of boxes.
        cols: u8,
        /// Rows of boxes.
        rows: u8,
    },
    /// Checkers: squares numbered 1..32, a move taking a piece from one to another (see
    /// [`AnyGame::piece_moves`](super::AnyGame::piece_moves)).
    NumberedSquares,
}
