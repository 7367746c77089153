//! The match loop for one game. The [`judge`] decides (pure: positions, clocks, verdicts, the
//! messages each bot is owed); the [`driver`] does the I/O with the seats and files the record.
//! It joins the rules (through [`AnyGame`]) and the seats (through [`Seat`]) without either
//! knowing of the other.

mod driver;
pub mod judge;

pub use driver::{play_game, play_game_watched};

use referee_cage::{LateAnswer, Seat};
use referee_records::record::{
    stderr_line_times, write_game, DroppedRecord, GameRecord, RecordFiles,
};
use referee_records::transcript::SeatLog;
use referee_rules::clock::TimeControl;
use referee_rules::games::{AnyGame, GameSpec, MoveError, Side};
use referee_rules::protocol::Ready;
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

/// How a game is played; the same for every game of a match or tournament (the sides and the
/// opening vary).
#[derive(Clone, Debug)]
pub struct GameRules {
    /// The game and its parameters.
    pub spec: GameSpec,
    /// A reply may arrive this much after the limit and still count.
    pub margin: Duration,
    /// How long a bot may take to answer `start` (not charged to its clock).
    pub startup: Duration,
    /// Send a `legal` line before each `turn`.
    pub send_legal_moves: bool,
    /// Watch, for up to three seconds, what a bot that lost on time or never got ready writes
    /// once the game is over (see [`PlayedGame::late`]): `referee check`'s, to tell a bot's
    /// author a missing flush from a slow bot.
    pub watch_late: bool,
}

/// A player in one game: its seat, what to call it, and its time control.
pub struct SeatedPlayer<'a> {
    /// Where its moves are asked for: a bot's process, or a person.
    pub seat: &'a mut dyn Seat,
    /// What records and verdicts call it: the player's label, or the side's name at the console.
    pub label: String,
    /// How it was started, for the record: a command line, `builtin:LEVEL` or `human`.
    pub command: String,
    /// Its clock for this game.
    pub time: TimeControl,
    /// How long past its limit an answer still counts: [`GameRules::margin`], or more for a
    /// protocol whose managers allow more (see [`referee_cage::Protocol::margin`]).
    pub margin: Duration,
}

/// A finished game: its record, the seats' logs (first, second), who broke a rule (their
/// process should be killed rather than reused), and what each bot said in its `ready`.
pub struct PlayedGame {
    /// Everything about the game that is kept.
    pub record: GameRecord,
    /// Every line each seat sent and received, for the transcript and stderr files.
    pub logs: [SeatLog; 2],
    /// When the game began: the times in the logs count from it.
    pub started_at: Instant,
    /// Which sides broke a rule.
    pub faulted: [bool; 2],
    /// Each bot's `ready` line, when it sent one: its name, version and whether it plays `multi`.
    pub ready: [Option<Ready>; 2],
    /// What each side wrote after it lost on time or never got ready, when the rules watch for
    /// it (see [`GameRules::watch_late`]).
    pub late: [Option<LateAnswer>; 2],
}

impl PlayedGame {
    /// Writes the game's record, transcript and stderr files into `dir`, when there is one.
    pub fn write_files(&self, dir: Option<&Path>) -> io::Result<Option<RecordFiles>> {
        dir.map(|dir| write_game(dir, &self.record, &self.logs, self.started_at))
            .transpose()
    }

    /// Whether `side`'s process may play its next game: it broke no rule (a bot that did is
    /// killed, its state unknown) and declared `multi` in its `ready` line (a bot that did not
    /// expects one game per process). The one rule for keeping a process, wherever it is kept.
    pub fn keeps_process(&self, side: Side) -> bool {
        !self.faulted[side.index()]
            && self.ready[side.index()]
                .as_ref()
                .is_some_and(|ready| ready.multi_game)
    }

    /// Ends a seat's program after its last game, keeping in this game's logs what it wrote as
    /// it exited: the `quit` it was sent, and whatever it printed to stderr on its way out.
    pub fn finish_seat(&mut self, side: Side, seat: &mut dyn Seat) {
        seat.finish();
        let log = &mut self.logs[side.index()];
        log.append(seat.take_log());
        let player = &mut self.record.players[side.index()];
        player.dropped = DroppedRecord::of(log);
        player.stderr_at_us = stderr_line_times(log, self.started_at);
    }
}

/// An opening that cannot be played: the user's mistake, reported before any game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("opening move {number} '{notation}' {problem}")]
pub struct OpeningError {
    /// Its place in the opening, from 1.
    pub number: usize,
    /// The move as the user wrote it.
    pub notation: String,
    /// What is wrong with it.
    pub problem: OpeningProblem,
}

/// What is wrong with a move of an opening.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningProblem {
    /// The game refuses it.
    #[error("cannot be played: {0}")]
    Refused(MoveError),
    /// It ends the game, leaving the bots nothing to play.
    #[error("ends the game: an opening must leave it going (leave that move out)")]
    EndsGame,
}

/// Plays the opening on a fresh game, returning the position and the moves in canonical form.
pub fn play_opening(
    spec: &GameSpec,
    opening: &[String],
) -> Result<(Box<dyn AnyGame>, Vec<String>), OpeningError> {
    let mut game = spec.new_game();
    let mut canonical = Vec::new();
    for (index, notation) in opening.iter().enumerate() {
        let refused = |problem| OpeningError {
            number: index + 1,
            notation: notation.clone(),
            problem,
        };
        let played = game
            .play_text(notation)
            .map_err(|error| refused(OpeningProblem::Refused(error)))?;
        canonical.push(played);
        if game.outcome().is_some() {
            return Err(refused(OpeningProblem::EndsGame));
        }
    }
    Ok((game, canonical))
}
