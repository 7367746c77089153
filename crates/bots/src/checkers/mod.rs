//! The built-in checkers bots above random: level 2 looks one move ahead with the evaluation,
//! level 3 opens with a 3-move ballot, then searches with alpha-beta under the clock. Both play
//! on the referee's own rules engine, through the allocation-free
//! [`Position`](referee_rules::games::checkers::Position) operations.
//!
//! Neither offers nor accepts draws: a [`Brain`](super::Brain) answers with a move only.

mod ballots;
mod endgame;
mod eval;
mod greedy;
mod search;
mod table;

pub use endgame::{EndgameDb, EndgameValue};
pub use greedy::GreedyBrain;
pub use search::{SearchBrain, SearchReport};
