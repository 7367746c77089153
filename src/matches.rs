//! A match: N games between two players with the sides alternating, the bots' processes
//! started, reused (when they declared `multi`) or replaced, and always cleaned up.

use crate::arbiter::{play_game, play_opening, Contestant, GameRules, OpeningError, PlayedGame};
use crate::clock::TimeControl;
use crate::games::Side;
use crate::players::adapters::UnsupportedGame;
use crate::players::limits::Limits;
use crate::players::process::{ProcessOptions, SpawnError};
use crate::players::{PlayerSpec, Seat};
use crate::record::{write_game, RecordFiles};
use std::io;
use std::path::PathBuf;

/// Everything `referee match` needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub rules: GameRules,
    /// Player A, player B (A moves first in odd-numbered games).
    pub players: [PlayerSpec; 2],
    pub time: [TimeControl; 2],
    /// Resource limits of A and B.
    pub limits: [Limits; 2],
    pub games: u32,
    pub record_dir: Option<PathBuf>,
    pub process: ProcessOptions,
    /// The referee executable, re-invoked as `referee bot NAME` for built-in bots.
    pub referee_exe: PathBuf,
    /// Seeds the built-in bots, so a match can be replayed.
    pub seed: u64,
    /// Replay a game whose timeout coincided with a stall of the referee (at most
    /// [`MAX_REPLAYS`] times), instead of scoring it.
    pub replay_stalled: bool,
}

/// How often one game is replayed for referee stalls before its result stands (marked).
pub const MAX_REPLAYS: u32 = 3;

/// The referee's own failures (a bot's failures are game results, never errors).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    #[error(transparent)]
    Opening(#[from] OpeningError),
    #[error("player {label}: {reason}")]
    Unsupported {
        label: &'static str,
        reason: UnsupportedGame,
    },
    #[error("cannot write the game record: {0}")]
    Record(#[from] io::Error),
}

/// One finished game, handed to the caller as soon as it ends.
pub struct FinishedGame {
    pub played: PlayedGame,
    /// The game is not scored: it will be played again (a timeout during a referee stall).
    pub replayed: bool,
    /// Player labels' index (0 = A) of the first player.
    pub first: usize,
    pub files: Option<RecordFiles>,
}

pub const LABELS: [&str; 2] = ["A", "B"];

/// Refuses a bad opening, or a game a player's protocol cannot express, before any bot is
/// started.
pub fn check_match(config: &MatchConfig) -> Result<(), MatchError> {
    play_opening(&config.rules.spec, &config.rules.opening)?;
    for (label, player) in LABELS.into_iter().zip(&config.players) {
        player
            .check_game(&config.rules.spec, &config.rules.opening)
            .map_err(|reason| MatchError::Unsupported { label, reason })?;
    }
    Ok(())
}

/// Plays the match, calling `on_game` after each game.
pub fn run_match(
    config: &MatchConfig,
    mut on_game: impl FnMut(&FinishedGame),
) -> Result<(), MatchError> {
    check_match(config)?;
    let mut seats: [Option<Box<dyn Seat + Send>>; 2] = [None, None];
    let mut replays = 0;
    let mut number = 1;
    while number <= config.games {
        let first = ((number - 1) % 2) as usize;
        let order = [first, 1 - first];
        for &player in &order {
            if seats[player].is_none() {
                let options = ProcessOptions {
                    limits: config.limits[player],
                    ..config.process.clone()
                };
                seats[player] = Some(config.players[player].start(
                    &config.referee_exe,
                    config.seed.wrapping_add(number as u64 * 2 + player as u64),
                    options,
                )?);
            }
        }
        let [a, b] = &mut seats;
        let (a, b) = (
            a.as_deref_mut().expect("started above"),
            b.as_deref_mut().expect("started above"),
        );
        let (seat_first, seat_second) = if first == 0 { (a, b) } else { (b, a) };
        let played = play_game(
            number,
            &config.rules,
            [
                contestant(config, order[0], seat_first),
                contestant(config, order[1], seat_second),
            ],
        )?;
        for side in Side::BOTH {
            let player = order[side.index()];
            let reusable = !played.faulted[side.index()]
                && played.ready[side.index()]
                    .as_ref()
                    .is_some_and(|ready| ready.multi_game)
                && number < config.games;
            if !reusable {
                if let Some(mut seat) = seats[player].take() {
                    // A seat that broke a rule is killed at once (dropping it).
                    if !played.faulted[side.index()] {
                        seat.finish();
                    }
                }
            }
        }
        let files = match &config.record_dir {
            Some(dir) => Some(write_game(
                dir,
                &played.record,
                &played.logs,
                played.started_at,
            )?),
            None => None,
        };
        let replayed =
            played.record.result.stalled && config.replay_stalled && replays < MAX_REPLAYS;
        on_game(&FinishedGame {
            played,
            replayed,
            first,
            files,
        });
        if replayed {
            replays += 1;
        } else {
            replays = 0;
            number += 1;
        }
    }
    for mut seat in seats.into_iter().flatten() {
        seat.finish();
    }
    Ok(())
}

fn contestant<'a>(
    config: &MatchConfig,
    player: usize,
    seat: &'a mut (dyn Seat + Send),
) -> Contestant<'a> {
    Contestant {
        seat,
        label: LABELS[player].to_string(),
        command: config.players[player].to_string(),
        time: config.time[player],
    }
}
