//! Exports game records to the formats other programs read: PDN for checkers (draughts
//! editors and engines), SGF for the m,n,k games (gomoku viewers such as those c-gomoku-cli's
//! files are opened in). Each move carries its thinking time as a comment, so that a game
//! can be studied with the clock beside it.

mod pdn;
mod sgf;

use crate::record::{read_stored, GameRecord, StoredGame};
use crate::record_pack::{is_pack_name, read_game, PackError, PackIndex};
use referee_rules::games::{GameSpec, MoveError, SpecError};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use pdn::pdn;
use sgf::sgf;

/// A file format written from what a run produced (a game's record, a tournament's
/// standings), as hyperfine's `Exporter`: a new format is one implementation and one line in
/// its registry ([`GAME_FORMATS`] for game records; the core lists the standings' formats).
pub trait Exporter<T: ?Sized>: Sync {
    /// The file name's extension, without the dot (`pdn`).
    fn extension(&self) -> &'static str;

    /// Whether the format can hold `item` (SGF cannot hold a game of checkers).
    fn holds(&self, _item: &T) -> bool {
        true
    }

    /// Writes `item`, which the format holds, to `out` as it is made (a thousand players'
    /// standings are a hundred megabytes of JSON).
    fn write(&self, item: &T, out: &mut dyn io::Write) -> io::Result<()>;
}

/// Portable Draughts Notation, for checkers.
pub struct Pdn;

impl Exporter<GameRecord> for Pdn {
    fn extension(&self) -> &'static str {
        "pdn"
    }

    fn holds(&self, record: &GameRecord) -> bool {
        matches!(spec_of(record), Ok(GameSpec::Checkers(_)))
    }

    fn write(&self, record: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
        match spec_of(record) {
            Ok(GameSpec::Checkers(params)) => out.write_all(pdn(record, &params).as_bytes()),
            _ => Err(not_held("PDN holds games of checkers only")),
        }
    }
}

/// Smart Game Format FF\[4\], GM\[4\], for tic-tac-toe, gomoku and m,n,k.
pub struct Sgf;

impl Exporter<GameRecord> for Sgf {
    fn extension(&self) -> &'static str {
        "sgf"
    }

    fn holds(&self, record: &GameRecord) -> bool {
        spec_of(record).is_ok_and(|spec| spec.mnk_params().is_some())
    }

    fn write(&self, record: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
        match spec_of(record) {
            Ok(spec) if spec.mnk_params().is_some() => out.write_all(sgf(record, &spec).as_bytes()),
            _ => Err(not_held(
                "SGF holds tic-tac-toe, gomoku and m,n,k games only",
            )),
        }
    }
}

/// The error of a format asked to write a game it does not hold (see [`Exporter::holds`]).
fn not_held(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, what)
}

/// The formats a game's record is exported to: a game goes to the first that holds it.
pub const GAME_FORMATS: [&dyn Exporter<GameRecord>; 2] = [&Pdn, &Sgf];

/// Why a record cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A record file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The record file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: io::Error,
    },
    /// A file named like a record holds no record the referee can read.
    #[error("{path} is not a game record")]
    NotARecord {
        /// The record file.
        path: PathBuf,
        /// Where and why its JSON did not parse as a record.
        #[source]
        source: serde_json::Error,
    },
    /// A record's game line names no game or parameters the referee knows (an older or newer
    /// referee's record, or one edited by hand).
    #[error("game {number}: its game '{game}' is not one this referee knows")]
    UnknownGame {
        /// The game's number in its match or tournament.
        number: u32,
        /// The game line as the record has it, with its parameters.
        game: String,
        /// What is wrong with it.
        #[source]
        source: SpecError,
    },
    /// A game neither PDN nor SGF can write (dots, ultimate tic-tac-toe).
    #[error("game {number} is {game}: only checkers (PDN) and tic-tac-toe, gomoku and mnk (SGF) can be exported")]
    NoFormat {
        /// The game's number in its match or tournament.
        number: u32,
        /// The game's name, without its parameters.
        game: &'static str,
    },
    /// A move of a record that the rules refuse (a record edited by hand).
    #[error("game {number}: its move {ply}, '{notation}', cannot be played")]
    BadMove {
        /// The game's number in its match or tournament.
        number: u32,
        /// The move's place in the game, opening included, from 1.
        ply: usize,
        /// The move as the record has it.
        notation: String,
        /// Why the rules refuse it.
        #[source]
        source: MoveError,
    },
    /// A path that names nothing.
    #[error("{path} does not exist")]
    Missing {
        /// The path as given.
        path: PathBuf,
    },
    /// A path with no record file and no records file in it, nor in its `games/` folder.
    #[error("{path} holds no game record (NNNN.json) and no records file (games.jsonl)")]
    NoRecords {
        /// The path as given.
        path: PathBuf,
    },
    /// A records file (`games.jsonl`) could not be read.
    #[error(transparent)]
    Pack(#[from] PackError),
}

/// The game a record was played at.
pub fn spec_of(record: &GameRecord) -> Result<GameSpec, ExportError> {
    let mut words = record.game.split_whitespace();
    let name = words.next().unwrap_or_default();
    let params: Vec<&str> = words.collect();
    GameSpec::from_words(name, &params).map_err(|source| ExportError::UnknownGame {
        number: record.number,
        game: record.game.clone(),
        source,
    })
}

/// The format a game exports to, if any.
pub fn format_of(record: &GameRecord) -> Option<&'static dyn Exporter<GameRecord>> {
    GAME_FORMATS.into_iter().find(|format| format.holds(record))
}

/// The record in its export format: the format and the text.
pub fn export(
    record: &GameRecord,
) -> Result<(&'static dyn Exporter<GameRecord>, String), ExportError> {
    let spec = spec_of(record)?;
    let format = format_of(record).ok_or(ExportError::NoFormat {
        number: record.number,
        game: spec.name(),
    })?;
    replay(record, &spec)?;
    let mut text = Vec::new();
    format
        .write(record, &mut text)
        .expect("writing to memory cannot fail");
    Ok((
        format,
        String::from_utf8(text).expect("PDN and SGF are made as text"),
    ))
}

/// Plays the record's opening and moves on a fresh game: one the rules refuse is refused, not
/// written as a square off the board.
fn replay(record: &GameRecord, spec: &GameSpec) -> Result<(), ExportError> {
    let mut game = spec.new_game();
    let played = record.moves.iter().map(|mv| &mv.notation);
    for (at, notation) in record.opening.iter().chain(played).enumerate() {
        game.play_text(notation)
            .map_err(|source| ExportError::BadMove {
                number: record.number,
                ply: at + 1,
                notation: notation.clone(),
                source,
            })?;
    }
    Ok(())
}

/// Reads one `NNNN.json` record.
pub fn read_record(path: &Path) -> Result<GameRecord, ExportError> {
    // Bounded: a file larger than any record is refused, not read into memory.
    let text =
        crate::input_files::read_text(path, crate::record::MAX_RECORD_BYTES).map_err(|source| {
            ExportError::Read {
                path: path.to_path_buf(),
                source,
            }
        })?;
    serde_json::from_str(&text).map_err(|source| ExportError::NotARecord {
        path: path.to_path_buf(),
        source,
    })
}

/// Whether a file name is a game record's, `NNNN.json` (four digits or more).
pub fn is_record_name(name: &str) -> bool {
    name.strip_suffix(".json")
        .is_some_and(|stem| stem.len() >= 4 && stem.bytes().all(|b| b.is_ascii_digit()))
}

/// Hands over, as stored, every game a path names, in order of their numbers: a record file
/// (`NNNN.json`) or a records file (`games.jsonl`, `games-K-of-N.jsonl`) itself, or those in a
/// directory and in its `games/` folder (a `--record` directory, a tournament's output); the
/// record files first, then each records file's games.
pub fn each_game<E: From<ExportError>>(
    path: &Path,
    mut each: impl FnMut(StoredGame) -> Result<(), E>,
) -> Result<(), E> {
    let (records, packs) = holders(path)?;
    for record_path in records {
        let record = read_record(&record_path)?;
        let dir = record_path.parent().unwrap_or(Path::new(""));
        each(read_stored(dir, record))?;
    }
    for pack in packs {
        let index = PackIndex::read_whole(&pack).map_err(ExportError::from)?;
        for at in index.games().values() {
            each(read_game(&pack, at).map_err(ExportError::from)?)?;
        }
    }
    Ok(())
}

/// The record files and the records files a path names (see [`each_game`]), each sorted.
fn holders(path: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>), ExportError> {
    let is_pack = |path: &Path| {
        path.file_name()
            .and_then(|name| name.to_str())
            .is_some_and(is_pack_name)
    };
    if !path.exists() {
        return Err(ExportError::Missing {
            path: path.to_path_buf(),
        });
    }
    if path.is_file() {
        return Ok(if is_pack(path) {
            (Vec::new(), vec![path.to_path_buf()])
        } else {
            (vec![path.to_path_buf()], Vec::new())
        });
    }
    let (mut records, mut packs) = (Vec::new(), Vec::new());
    for dir in [path.to_path_buf(), path.join("games")] {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name.to_str().is_some_and(is_record_name) {
                records.push(entry.path());
            } else if is_pack(&entry.path()) && entry.path().is_file() {
                packs.push(entry.path());
            }
        }
    }
    records.sort();
    packs.sort();
    if records.is_empty() && packs.is_empty() {
        return Err(ExportError::NoRecords {
            path: path.to_path_buf(),
        });
    }
    Ok((records, packs))
}

/// A move's thinking time as both formats write it: whole milliseconds, as c-gomoku-cli does.
fn time_comment(us: u64) -> String {
    format!("{}ms", us / 1000)
}

/// The date of an RFC 3339 time as `YYYY.MM.DD` (PDN) or `YYYY-MM-DD` (SGF).
fn date(started: &str, separator: char) -> String {
    started
        .get(..10)
        .unwrap_or_default()
        .replace('-', &separator.to_string())
}

/// What a player is called in an exported game: its name and version from `ready`, or its
/// label and command line when it never said.
fn player_name(record: &GameRecord, index: usize) -> String {
    let player = &record.players[index];
    match (&player.name, &player.version) {
        (Some(name), Some(version)) => format!("{name} {version}"),
        (Some(name), None) => name.clone(),
        _ => format!("{} ({})", player.label, player.command),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished game of `game` with no moves, as a record stores it.
    fn record(game: &str) -> GameRecord {
        let player = |label: &str| {
            serde_json::json!({"label": label, "command": "bot", "name": null, "version": null,
                "time": {"move": 1000, "bank": 0, "increment": 0, "first": 0}, "points": 0.5})
        };
        serde_json::from_value(serde_json::json!({
            "referee": "0", "number": 7, "game": game, "players": [player("a"), player("b")],
            "opening": [], "moves": [],
            "result": {"winner": null, "reason": "agreement", "detail": "drawn by agreement"},
            "started": "2026-11-28T12:00:00Z", "ended": "2026-11-28T12:00:01Z", "final_position": ""
        }))
        .unwrap()
    }

    #[test]
    fn each_game_goes_to_the_format_that_holds_it_and_no_other() {
        let checkers = record("checkers");
        let gomoku = record("gomoku width=15 height=15 line=5 exact=no");
        assert_eq!(format_of(&checkers).unwrap().extension(), "pdn");
        assert_eq!(format_of(&gomoku).unwrap().extension(), "sgf");
        assert!(format_of(&record("uttt")).is_none());
        let Err(error) = export(&record("dots rows=3 cols=3")) else {
            panic!("a game of dots exported");
        };
        assert!(
            matches!(error, ExportError::NoFormat { number: 7, .. }),
            "{error}"
        );
        for (format, game) in [
            (&Pdn as &dyn Exporter<GameRecord>, &gomoku),
            (&Sgf, &checkers),
        ] {
            let error = format.write(game, &mut Vec::new()).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{error}");
        }
        let (format, text) = export(&checkers).unwrap();
        assert_eq!(format.extension(), "pdn");
        assert!(text.starts_with("[Event \"referee game 7\"]"), "{text}");
    }
}
