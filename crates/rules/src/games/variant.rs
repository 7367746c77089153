//! What the registry, the console and `referee check` ask of a game without knowing which one
//! it is. Each game's parameters implement [`Variant`], so a new game brings its own answers in
//! its folder and the registry only has to list it.

use super::{AnyGame, Geometry};

/// A game with its parameters: everything code outside the game's folder needs of it.
pub trait Variant {
    /// Every parameter with its value, defaults included, in a fixed order: what a bot is told.
    fn params(&self) -> Vec<(&'static str, String)>;

    /// The starting position.
    fn new_game(&self) -> Box<dyn AnyGame>;

    /// Counts the leaf positions `depth` moves from the start (see [`perft`](fn@super::perft)).
    fn perft(&self, depth: u32) -> u64;

    /// How the board's squares are laid out, for naming them at the console.
    fn geometry(&self) -> Geometry;

    /// What the first and the second player are called, as the game's drawing shows them.
    fn side_names(&self) -> [&'static str; 2];

    /// Whether every move is written as one word (checkers' `11-15`), so that a line of moves
    /// can be split on spaces; the other games' moves have spaces inside (`4 4`, `h 0 1`).
    fn moves_are_single_words(&self) -> bool {
        false
    }

    /// Whether a player may offer a draw with its move (checkers, as in tournament play).
    fn allows_draw_offers(&self) -> bool {
        false
    }

    /// The edge cases `referee check` plays besides a game from the start as each side.
    fn check_scenarios(&self) -> Vec<Scenario>;
}

/// An edge case for `referee check`: a position or a board on which a bot that handles the
/// usual start may still go wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// What the case checks, for the report: `a forced multi-jump: 1x10x19`.
    pub title: String,
    /// Parameters to change, as `key=value` pairs; empty to play the game as given.
    pub params: Vec<(&'static str, String)>,
    /// Moves already played when the bot joins, in the game's notation.
    pub opening: Vec<String>,
}
