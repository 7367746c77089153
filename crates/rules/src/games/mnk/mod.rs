//! m,n,k games: a `width` x `height` board, two players place marks, `line` in a row wins.
//! Tic-tac-toe (3,3,3) is a preset, and gomoku five in a row on a square board (15x15 unless
//! its `size` says otherwise). With `exact`, only a line of exactly
//! `line` marks wins (gomoku's exactly-five rule); longer lines ("overlines") do not. With
//! `rule=renju` the first player (Black) may not make a double three, a double four or an
//! overline (see `renju.rs`); with `rule=caro` a line blocked at both ends does not win.
//!
//! Notation: `x y`, column then row, both from zero, origin top-left (the Meridius convention).

mod diagram;
mod game;
mod params;
pub(crate) mod picture;
mod renju;
mod scenarios;
mod swap;

#[cfg(test)]
mod rule_tests;

pub use game::{Mnk, Square};
pub use params::{Gomoku, MnkParams, Preset, Rule, SwapRule, TICTACTOE};
pub use swap::{SwapGame, SwapMove};

use super::{perft, AnyGame, Geometry, Scenario, Variant};

impl Variant for MnkParams {
    fn params(&self) -> Vec<(&'static str, String)> {
        self.pairs()
    }

    /// The board alone, or behind its swap opening.
    fn new_game(&self) -> Box<dyn AnyGame> {
        match self.swap {
            SwapRule::None => Box::new(Mnk::new(*self)),
            SwapRule::Swap1 | SwapRule::Swap2 => Box::new(SwapGame::new(*self)),
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        match self.swap {
            SwapRule::None => perft(&Mnk::new(*self), depth),
            SwapRule::Swap1 | SwapRule::Swap2 => perft(&SwapGame::new(*self), depth),
        }
    }

    fn geometry(&self) -> Geometry {
        Geometry::Cells {
            width: self.width,
            height: self.height,
            small_boards: false,
        }
    }

    /// X and O, the marks; in a swap opening the seats, whose marks the opening decides.
    fn side_names(&self) -> [&'static str; 2] {
        match self.swap {
            SwapRule::None => ["X", "O"],
            SwapRule::Swap1 | SwapRule::Swap2 => ["First", "Second"],
        }
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

/// Gomoku is its board in every way but the edge cases: its board's only freedom is its size.
impl Variant for Gomoku {
    fn params(&self) -> Vec<(&'static str, String)> {
        self.params().pairs()
    }

    fn new_game(&self) -> Box<dyn AnyGame> {
        self.params().new_game()
    }

    fn perft(&self, depth: u32) -> u64 {
        Variant::perft(&self.params(), depth)
    }

    fn geometry(&self) -> Geometry {
        self.params().geometry()
    }

    fn side_names(&self) -> [&'static str; 2] {
        self.params().side_names()
    }

    fn check_scenarios(&self) -> Vec<Scenario> {
        scenarios::fixed_board(&self.params())
    }
}
