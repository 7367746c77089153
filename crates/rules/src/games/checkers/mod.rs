//! English checkers (8x8 draughts): Black moves first, men move and capture forward only, kings
//! both ways, captures are mandatory (any capturing sequence may be chosen) and a multi-jump is
//! one move; a man that reaches the far row is crowned and its move ends there. The player to
//! move with no legal move loses. Draws by repetition and by the move rule are tracked inside the
//! position, so [`Game::outcome`](crate::games::Game::outcome) reports them.
//!
//! Squares use PDN numbering, 1..32, four dark squares per row, counted row by row from Black's
//! side: Black's men start on 1-12 and move toward 29-32, White's start on 21-32. Black's single
//! corner is 4 and White's is 29.
//!
//! Notation (PDN): `11-15` a move, `22x15` a capture, `9x18x27` a multi-jump with every landing
//! square. A two-square capture `9x27` is the single jump when that is legal, and otherwise the
//! short form (start and end only) of the one legal capture from 9 that ends on 27; when several
//! do, it is ambiguous. Surrounding white space is ignored and `X` may stand for `x`; nothing else
//! is accepted (no spaces inside, no other separators).
//! [`Game::format_move`](crate::games::Game::format_move) always writes the full form.
//!
//! Positions are read and written as PDN FEN, see [`Position`]'s `FromStr`.

mod diagram;
mod fen;
mod game;
mod judge;
mod movegen;
mod moves;
mod notation;
mod params;
mod picture;
mod position;
mod scenarios;
mod squares;
#[cfg(test)]
mod test_games;
mod zobrist;

pub use fen::FenError;
pub use game::Checkers;
pub use moves::Move;
pub use params::CheckersParams;
pub use position::{Piece, Position};
pub use squares::{coordinates, neighbours, Diagonal};

use super::{perft, AnyGame, Geometry, Scenario, Variant};

impl Variant for CheckersParams {
    fn params(&self) -> Vec<(&'static str, String)> {
        self.pairs()
    }

    fn new_game(&self) -> Box<dyn AnyGame> {
        Box::new(Checkers::new(*self))
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(&Checkers::new(*self), depth)
    }

    fn geometry(&self) -> Geometry {
        Geometry::NumberedSquares
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["Black", "White"]
    }

    fn moves_are_single_words(&self) -> bool {
        true
    }

    fn allows_draw_offers(&self) -> bool {
        true
    }

    fn check_scenarios(&self) -> Vec<Scenario> {
        scenarios::scenarios()
    }
}
