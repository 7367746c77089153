//! The referee in a web browser: `referee serve` (an index of the games of record and
//! tournament directories, a viewer for each game, tournament standings, live games), the
//! static report of `referee report`, and the pages' assets, compiled into the binary so that
//! nothing is fetched at run time.

pub mod address;
pub mod assets;
pub mod browser;
pub(crate) mod library;
pub(crate) mod replay;
pub mod report;
pub mod server;
pub mod shield;

pub use server::{serve, ServeOptions};

use std::path::Path;

/// A finished game's view as the viewer page reads it from `api/game/...` (its record, the
/// lines of each turn, each bot's stderr, the evaluations), from its record file with its
/// transcript and stderr files beside it: how another server (the arena) shows its games with
/// this crate's viewer. The stderr of a player not `shown` (first, second) is left out, and so
/// are the evaluations read from it: only those it sent as messages of the protocol remain.
pub fn recorded_view(record: &Path, shown: [bool; 2]) -> Option<serde_json::Value> {
    let mut stored = library::Place::Record(record.to_path_buf()).stored()?;
    for (stderr, shown) in stored.stderr.iter_mut().zip(shown) {
        if !shown {
            *stderr = None;
        }
    }
    serde_json::to_value(replay::finished(&stored)).ok()
}

/// Each player's clock in a game being played (its live file read), as a list of live games
/// shows them: `{"left_ms": [FIRST, SECOND], "to_move": 0 | 1 | null}`, the time each has for
/// its next move and who is to move.
pub fn live_clocks(game: &referee_records::live::LiveGame) -> serde_json::Value {
    replay::live_clocks(game)
}

/// The view of a game being played, from its table's live file
/// ([`referee_records::live`]): `live` is true, the moves are those played so far. None when
/// the file holds no game now (between games) or cannot be read.
pub fn live_view(file: &Path) -> Option<serde_json::Value> {
    let game = referee_records::live::LiveGame::read(file).ok()?;
    serde_json::to_value(replay::live_game(game)).ok()
}

/// The picture (SVG) of the position after `ply` moves of the game recorded at `record`.
pub fn recorded_picture(record: &Path, ply: usize) -> Option<String> {
    let stored = library::Place::Record(record.to_path_buf()).stored()?;
    replay::picture_at(&replay::finished(&stored).record, ply)
}

/// The picture (SVG) of the position after `ply` moves of the game its live file holds.
pub fn live_picture(file: &Path, ply: usize) -> Option<String> {
    let game = referee_records::live::LiveGame::read(file).ok()?;
    replay::picture_at(&replay::live_game(game).record, ply)
}
