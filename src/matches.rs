//! A match: games between two players with the sides alternating, played one after another at
//! one [`Table`] (so the bots' processes are started, reused when they declared `multi`, and
//! cleaned up exactly as in a tournament).

use crate::players::supervisor::Supervisor;
use crate::table::{check_entrants, Entrant, FinishedGame, GameError, ScheduledGame, Table, Venue};
use std::ops::ControlFlow;

/// Everything `referee match` needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub venue: Venue,
    /// Player A, player B (A moves first in odd-numbered games).
    pub entrants: [Entrant; 2],
    /// Moves played before the bots take over, in every game.
    pub opening: Vec<String>,
    /// Number of games; `None` plays until `on_game` breaks.
    pub games: Option<u32>,
}

pub const LABELS: [&str; 2] = ["A", "B"];

/// Refuses a bad opening, or a game a player's protocol cannot express, before any bot is
/// started.
pub fn check_match(config: &MatchConfig) -> Result<(), GameError> {
    check_entrants(&config.venue.rules, &config.entrants, &config.opening)
}

/// Plays the match with bots started by `supervisor`, calling `on_game` after each game that
/// counts (it may stop the match) and `on_replay` after each game that will be played again.
pub fn run_match(
    config: &MatchConfig,
    supervisor: &Supervisor,
    mut on_game: impl FnMut(&FinishedGame) -> ControlFlow<()>,
    mut on_replay: impl FnMut(&FinishedGame),
) -> Result<(), GameError> {
    check_match(config)?;
    let mut table = Table::new(supervisor);
    for number in 1u32.. {
        if config.games.is_some_and(|games| number > games) {
            break;
        }
        let first = ((number - 1) % 2) as usize;
        let game = ScheduledGame {
            number,
            seats: [first, 1 - first],
            opening: config.opening.clone(),
        };
        let finished = table.play(&config.venue, &config.entrants, &game, &mut on_replay)?;
        if on_game(&finished).is_break() {
            break;
        }
    }
    Ok(())
}
