//! Dots and boxes: a board of `rows` x `cols` boxes, that is (cols + 1) x (rows + 1) dots. A move
//! draws one line between two neighbouring dots. Drawing the fourth side of a box (or of two boxes
//! at once) scores it for the mover, who then moves again. When every line is drawn, more boxes
//! wins; equal boxes is a draw.
//!
//! Notation: `h x y` draws the horizontal line from dot (x, y) to dot (x + 1, y), and `v x y` the
//! vertical line from dot (x, y) to dot (x, y + 1). Dots are numbered column `x` first (0..=cols),
//! then row `y` (0..=rows), from zero, origin top-left (the Meridius convention).
//!
//! The position is a few bitmasks and counters (no heap), so bots can clone it freely in searches.

mod diagram;
mod game;
mod params;
mod picture;
mod scenarios;
#[cfg(test)]
mod test_boards;

pub use game::{Dots, Line, Orientation};
pub use params::DotsParams;

use super::{perft, AnyGame, Geometry, Scenario, Variant};

impl Variant for DotsParams {
    fn params(&self) -> Vec<(&'static str, String)> {
        self.pairs()
    }

    fn new_game(&self) -> Box<dyn AnyGame> {
        Box::new(Dots::new(*self))
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(&Dots::new(*self), depth)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Dots {
            cols: self.cols,
            rows: self.rows,
        }
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["A", "B"]
    }

    fn check_scenarios(&self) -> Vec<Scenario> {
        scenarios::scenarios(self)
    }
}
