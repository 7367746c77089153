//! The built-in ultimate tic-tac-toe bots above random: level 2 looks one move ahead with the
//! game's basic knowledge, level 3 is a Monte Carlo tree search (UCT) on the bitboard rules.

mod evaluation;
mod greedy;
mod mcts;
mod playout;
mod small_board;

pub use greedy::UtttGreedy;
pub use mcts::UtttMcts;
