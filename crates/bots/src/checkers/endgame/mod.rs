//! The checkers endgame database: the exact value (win, loss or draw, and how many plies to the
//! end) of every position of at most four pieces, built by the bot itself by retrograde
//! analysis ([`build`]) and cached on disk ([`cache`]).
//!
//! The values are those of the game without its draw rules: a win is forced in so many plies
//! with both sides playing the distance perfectly (the winner the fewest plies, the loser the
//! most), a draw means neither side can force the end. Repetition cannot spoil a win played
//! along the distances, which go down at every move; the move rule can. So a win or loss is
//! only to be trusted when it ends before the move rule does (see [`EndgameValue::within`]):
//! its distance at most the plies left before the rule's count, which a man move or capture
//! on the way only makes longer. A draw stays a draw under any rule.
//!
//! One database serves the whole process ([`EndgameDb::shared`]): loaded from the cache file if
//! it is there and sound (some 35 ms), else built (5.5 to 6.5 s in a release build on a loaded
//! machine, about 35 s of CPU in a debug build) and saved for the next process. Where nothing is writable
//! it lives in memory only. [`EndgameDb::start`] does that on a thread of its own, so that a bot
//! answers `ready` and moves by search meanwhile.

mod build;
mod cache;
mod index;

use build::{solve, Stored, DRAW};
use index::Index;
pub(super) use index::MAX_PIECES;
use referee_rules::games::checkers::{Move, Position};
use referee_rules::games::Side;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// What the database knows of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndgameValue {
    /// The side to move wins, the opponent having no move after `plies` plies (odd).
    Win {
        /// Plies to the end with both sides playing the distance perfectly; odd.
        plies: u32,
    },
    /// The side to move loses after `plies` plies (even; 0 when it has no move now).
    Loss {
        /// Plies to the end with both sides playing the distance perfectly; even.
        plies: u32,
    },
    /// Neither side can force the end.
    Draw,
}

impl EndgameValue {
    fn from_stored(stored: Stored) -> EndgameValue {
        match stored {
            DRAW => EndgameValue::Draw,
            stored if stored % 2 == 0 => EndgameValue::Win {
                plies: u32::from(stored) - 1,
            },
            stored => EndgameValue::Loss {
                plies: u32::from(stored) - 1,
            },
        }
    }

    /// Whether the value holds under a move rule that draws after `plies_left` more plies
    /// without a man move or capture: a draw always, a win or loss when it ends by then.
    pub fn within(self, plies_left: u32) -> bool {
        match self {
            EndgameValue::Win { plies } | EndgameValue::Loss { plies } => plies <= plies_left,
            EndgameValue::Draw => true,
        }
    }

    /// The value one ply earlier, for the side that moved into a position of this value.
    fn before(self) -> EndgameValue {
        match self {
            EndgameValue::Win { plies } => EndgameValue::Loss { plies: plies + 1 },
            EndgameValue::Loss { plies } => EndgameValue::Win { plies: plies + 1 },
            EndgameValue::Draw => EndgameValue::Draw,
        }
    }
}

/// The exact value of every position of at most four pieces (see the module docs); one
/// serves the whole process.
pub struct EndgameDb {
    index: Index,
    /// One [`Stored`] value per slot of the index.
    values: Vec<Stored>,
}

/// The database of the process, once loaded or built (`None` if the build failed).
static SHARED: OnceLock<Option<Arc<EndgameDb>>> = OnceLock::new();

/// The database being loaded or built on a thread of its own (see [`EndgameDb::start`]).
pub struct EndgameBuild {
    done: Receiver<Option<Arc<EndgameDb>>>,
}

impl EndgameBuild {
    /// Runs `make` on a thread of its own.
    pub(crate) fn spawn(
        make: impl FnOnce() -> Option<Arc<EndgameDb>> + Send + 'static,
    ) -> EndgameBuild {
        let (sender, done) = std::sync::mpsc::channel();
        // Without a thread the sender is dropped at once, which tells the bot that no
        // database comes: it plays by search alone.
        let _ = std::thread::Builder::new()
            .name("checkers-endgame".into())
            .spawn(move || {
                run_only_when_idle();
                // The bot may have stopped waiting: nobody to tell then.
                let _ = sender.send(make());
            });
        EndgameBuild { done }
    }

    /// The database once ready, waiting for it until `deadline` at most. Once it has been
    /// handed out (or the build failed), [`StillBuilding::No`] for ever.
    pub fn wait_until(&self, deadline: Instant) -> Result<Arc<EndgameDb>, StillBuilding> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.done.recv_timeout(left) {
            Ok(Some(db)) => Ok(db),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(StillBuilding::No),
            Err(RecvTimeoutError::Timeout) => Err(StillBuilding::Yes),
        }
    }
}

/// Puts the calling thread in the `SCHED_IDLE` class: it runs only on a processor nobody else
/// wants. A build without a cache file takes seconds of CPU, and a game's processor (one of its
/// own, where a tournament pins its tables) is the opponent's while it thinks: the build must
/// not slow the opponent's search, nor the bot's own. Refused, it runs as any thread.
fn run_only_when_idle() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: on Linux, pid 0 names the calling thread; the call only changes its policy.
    let _ = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
}

/// Why [`EndgameBuild::wait_until`] has no database (yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StillBuilding {
    /// Not ready by the deadline: ask again later.
    Yes,
    /// It will never come: the build failed, or the database was handed out already.
    No,
}

impl EndgameDb {
    /// Values every position of at most `pieces` pieces (at most [`MAX_PIECES`]); `None` if a
    /// distance does not fit the format (not the case up to four pieces).
    pub fn build(pieces: usize) -> Option<EndgameDb> {
        let index = Index::new(pieces);
        let values = solve(&index)?;
        Some(EndgameDb { index, values })
    }

    /// The database of [`MAX_PIECES`] pieces for this process: from the cache file, else built
    /// (and saved for later processes), once.
    pub fn shared() -> Option<Arc<EndgameDb>> {
        SHARED
            .get_or_init(|| cache::load_or_build(MAX_PIECES).map(Arc::new))
            .clone()
    }

    /// Starts [`EndgameDb::shared`] on a thread of its own.
    pub fn start() -> EndgameBuild {
        EndgameBuild::spawn(EndgameDb::shared)
    }

    /// The most pieces a position may have to be in the database.
    pub fn pieces(&self) -> usize {
        self.index.pieces
    }

    /// The size of the values in bytes (one per slot).
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    /// The value of `position` for its side to move; `None` if it has more pieces than the
    /// database covers (or the side not to move has none, which play never reaches).
    pub fn probe(&self, position: &Position) -> Option<EndgameValue> {
        let mover = position.side_to_move();
        if position.pieces(mover) == 0 {
            return Some(EndgameValue::Loss { plies: 0 });
        }
        let turned;
        let black_to_move = if mover == Side::First {
            position
        } else {
            turned = position.rotated();
            &turned
        };
        let slot = self.index.slot(black_to_move)?;
        Some(EndgameValue::from_stored(self.values[slot]))
    }

    /// The value of `position` and the legal moves that keep it: the fastest wins, the slowest
    /// losses, the moves that hold a draw. `None` if the position is not in the database.
    pub fn best_moves(&self, position: &Position) -> Option<(EndgameValue, Vec<Move>)> {
        let value = self.probe(position)?;
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        moves.retain(|&mv| {
            let mut child = *position;
            child.apply(mv);
            self.probe(&child).map(EndgameValue::before) == Some(value)
        });
        Some((value, moves))
    }
}

#[cfg(test)]
pub(super) mod tests;
