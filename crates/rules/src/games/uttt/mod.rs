//! Ultimate tic-tac-toe: nine small 3x3 boards in a 3x3 big board. A mark in cell `c` of a small
//! board sends the opponent to small board `c`; when that board is decided (won or full) the
//! opponent may play in any undecided board, and the first move is free. Three small boards won
//! in a line win the game. With no move left and no line, the game is a draw, or with
//! `tiebreak=codingame` the player with more small boards wins.
//!
//! Notation: the global square `x y`, column then row, both 0..8, origin top-left (the Meridius
//! convention). Square (x, y) lies in small board `(y / 3) * 3 + x / 3`, at cell
//! `(y % 3) * 3 + x % 3`; boards and cells are numbered row by row.
//!
//! The position is a handful of bitboards so that it is `Copy` and Monte Carlo searches can
//! clone it and generate moves without touching the heap.

mod diagram;
mod game;
mod params;
mod picture;
mod scenarios;
mod tables;
#[cfg(test)]
mod test_positions;
#[cfg(test)]
mod transcription;

pub use game::{BoardStatus, Uttt};
pub use params::{UtttParams, UtttTiebreak};
pub use tables::{Square, HAS_LINE, LINES};

use super::{perft, AnyGame, Geometry, Scenario, Variant};

impl Variant for UtttParams {
    fn params(&self) -> Vec<(&'static str, String)> {
        self.pairs()
    }

    fn new_game(&self) -> Box<dyn AnyGame> {
        Box::new(Uttt::new(*self))
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(&Uttt::new(*self), depth)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Cells {
            width: 9,
            height: 9,
            small_boards: true,
        }
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }

    fn check_scenarios(&self) -> Vec<Scenario> {
        scenarios::scenarios(self)
    }
}
