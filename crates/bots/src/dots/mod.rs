//! The built-in dots-and-boxes bots above random: level 2 takes what is offered and gives away
//! as little as it can; level 3 solves small boards and endgames exactly and plays the chain
//! and parity knowledge (long chains, double-dealing) where the search does not reach.
//!
//! [`coins`] is the board analysis both use; [`perfect`] the table of every position of a
//! small board; [`solver`] the exhaustive search, with its
//! transposition table in [`table`]; [`control`] values the endgames of chains and loops;
//! [`safe`] fights over who runs out of safe lines first.

mod coins;
mod control;
mod greedy;
mod perfect;
mod safe;
mod solver;
mod strong;
mod table;

pub use coins::Coins;
pub use greedy::DotsGreedy;
pub use solver::Solver;
pub use strong::DotsStrong;
