//! m,n,k games: a `width` x `height` board, two players place marks, `line` in a row wins.
//! Tic-tac-toe (3,3,3) and gomoku (15,15,5) are presets. With `exact`, only a line of exactly
//! `line` marks wins (gomoku's exactly-five rule); longer lines ("overlines") do not.
//!
//! Notation: `x y`, column then row, both from zero, origin top-left (the Meridius convention).

mod diagram;
mod game;
mod params;
pub(crate) mod picture;
mod scenarios;

pub use game::{Mnk, Square};
pub use params::{MnkParams, Preset, GOMOKU, GOMOKU_EXACT, TICTACTOE};

use super::{perft, AnyGame, Geometry, Scenario, Variant};

impl Variant for MnkParams {
    fn params(&self) -> Vec<(&'static str, String)> {
        self.pairs()
    }

    fn new_game(&self) -> Box<dyn AnyGame> {
        Box::new(Mnk::new(*self))
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(&Mnk::new(*self), depth)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Cells {
            width: self.width,
            height: self.height,
            small_boards: false,
        }
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }

    fn check_scenarios(&self) -> Vec<Scenario> {
        scenarios::any_board(self)
    }
}

/// A preset is its board in every way but the edge cases: its board cannot be varied.
impl Variant for Preset {
    fn params(&self) -> Vec<(&'static str, String)> {
        self.params.pairs()
    }

    fn new_game(&self) -> Box<dyn AnyGame> {
        self.params.new_game()
    }

    fn perft(&self, depth: u32) -> u64 {
        Variant::perft(&self.params, depth)
    }

    fn geometry(&self) -> Geometry {
        self.params.geometry()
    }

    fn side_names(&self) -> [&'static str; 2] {
        self.params.side_names()
    }

    fn check_scenarios(&self) -> Vec<Scenario> {
        scenarios::fixed_board(&self.params)
    }
}
