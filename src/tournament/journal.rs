//! The results journal: one JSON line per finished game, appended and synced to disk before
//! the worker that played it takes another game, so that a tournament killed at any moment
//! (SIGKILL, a power cut) loses at most the games in progress.
//!
//! The first line identifies the tournament (what decides its schedule); every other line is a
//! finished game keyed by its index in the schedule. `--resume` skips the indices already
//! there, so no game is played twice and none is lost. A last line cut short by a crash is
//! recognised (it does not parse) and dropped; any other unreadable line is an error.

use crate::games::Side;
use crate::standings::ScoredGame;
use crate::verdict::Termination;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The journal format written by this referee.
pub const FORMAT: u32 = 1;

/// What decides a tournament's schedule: two runs with the same identity play the same games
/// in the same order, so their journals can be resumed or merged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    pub name: String,
    /// The game and its parameters, as in the protocol's `game` line.
    pub game: String,
    pub format: String,
    /// Gauntlet challengers (empty for a round robin).
    pub challengers: Vec<String>,
    pub players: Vec<String>,
    pub games_per_pairing: u32,
    pub openings: String,
    pub seed: u64,
    pub total_games: u64,
}

/// The first line of a journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub journal: u32,
    pub tournament: Identity,
    /// `K/N` for a shard, absent for a whole tournament.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<String>,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The game's index in the schedule, from 0 (its record is numbered index + 1).
    pub index: u64,
    /// First player, second player.
    pub players: [String; 2],
    /// `first`, `second`, or `null` for a draw.
    pub winner: Option<Side>,
    pub reason: Termination,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub violation: Option<String>,
    pub opening: Vec<String>,
    /// Moves made by the bots.
    pub moves: usize,
    /// A timeout during a stall of the referee, scored after the replays ran out.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub stalled: bool,
    /// The game's record, relative to the journal's directory.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub record: Option<String>,
}

impl Entry {
    pub fn scored(&self) -> ScoredGame<'_> {
        ScoredGame {
            first: &self.players[0],
            second: &self.players[1],
            winner: self.winner,
            reason: self.reason,
        }
    }
}

/// A journal that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("cannot use the journal {path}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("journal {path}, line {line}, is not a journal line: {message}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("journal {path} holds {games} finished games already; add --resume to continue this tournament, or write elsewhere (--out)")]
    Exists { path: PathBuf, games: usize },
    #[error("journal {path} belongs to another tournament: {differences} (use another --out, or the configuration the journal was written with)")]
    Mismatch { path: PathBuf, differences: String },
}

/// What a journal file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Contents {
    /// `None` for an empty file (or one whose header was cut short).
    pub header: Option<Header>,
    pub entries: Vec<Entry>,
    /// Length of the valid part: everything after it is a line cut short by a crash.
    pub valid_len: u64,
    /// Bytes dropped from the end.
    pub torn: u64,
}

/// Reads a journal, dropping a last line cut short.
pub fn read(path: &Path) -> Result<Contents, JournalError> {
    let bytes = std::fs::read(path).map_err(|source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut contents = Contents {
        header: None,
        entries: Vec::new(),
        valid_len: 0,
        torn: 0,
    };
    let mut offset = 0usize;
    let mut number = 0;
    while offset < bytes.len() {
        number += 1;
        let end = bytes[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|at| offset + at + 1);
        let line_end = end.unwrap_or(bytes.len());
        let is_last = line_end == bytes.len();
        let line = &bytes[offset..line_end];
        let complete = end.is_some();
        match parse_line(line, contents.header.is_none()) {
            Ok(Line::Header(header)) if complete => contents.header = Some(header),
            Ok(Line::Entry(entry)) if complete => contents.entries.push(entry),
            // Unterminated or unreadable: a crash mid-write, if it is the last line.
            _ if is_last => {
                contents.torn = (bytes.len() - offset) as u64;
                break;
            }
            other => {
                return Err(JournalError::Corrupt {
                    path: path.to_path_buf(),
                    line: number,
                    message: other.err().unwrap_or_else(|| "no end of line".into()),
                })
            }
        }
        offset = line_end;
        contents.valid_len = offset as u64;
    }
    Ok(contents)
}

enum Line {
    Header(Header),
    Entry(Entry),
}

fn parse_line(line: &[u8], expect_header: bool) -> Result<Line, String> {
    let text = std::str::from_utf8(line)
        .map_err(|e| e.to_string())?
        .trim_end();
    if expect_header {
        let header: Header = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if header.journal != FORMAT {
            return Err(format!(
                "journal format {} (this referee reads format {FORMAT})",
                header.journal
            ));
        }
        Ok(Line::Header(header))
    } else {
        serde_json::from_str(text)
            .map(Line::Entry)
            .map_err(|e| e.to_string())
    }
}

/// A journal open for appending.
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens the journal at `path` for `header`: creates it, or, with `resume`, continues it
    /// (after cutting off a torn last line) and returns the games already finished. Without
    /// `resume`, a journal with finished games is refused.
    pub fn open(
        path: &Path,
        header: &Header,
        resume: bool,
    ) -> Result<(Journal, Vec<Entry>), JournalError> {
        let io_error = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let existing = match read(path) {
            Ok(contents) => Some(contents),
            Err(JournalError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                None
            }
            Err(error) => return Err(error),
        };
        let mut finished = Vec::new();
        let file = match existing {
            Some(contents)
                if contents.header.is_some() && !resume && !contents.entries.is_empty() =>
            {
                return Err(JournalError::Exists {
                    path: path.to_path_buf(),
                    games: contents.entries.len(),
                });
            }
            Some(contents) if contents.header.is_some() && resume => {
                let found = contents.header.as_ref().expect("checked above");
                let differences = differences(&found.tournament, &header.tournament);
                if !differences.is_empty() || found.shard != header.shard {
                    let mut differences = differences;
                    if found.shard != header.shard {
                        differences.push(format!(
                            "shard: {} in the journal, {} now",
                            found.shard.as_deref().unwrap_or("none"),
                            header.shard.as_deref().unwrap_or("none")
                        ));
                    }
                    return Err(JournalError::Mismatch {
                        path: path.to_path_buf(),
                        differences: differences.join("; "),
                    });
                }
                let file = OpenOptions::new()
                    .append(true)
                    .open(path)
                    .map_err(io_error)?;
                // Cut off a line torn by a crash; appends go after the valid part.
                file.set_len(contents.valid_len).map_err(io_error)?;
                finished = contents.entries;
                file
            }
            // Absent, empty, a torn header, or no finished game: start afresh.
            _ => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(io_error)?;
                }
                let mut file = File::create(path).map_err(io_error)?;
                let mut line = serde_json::to_string(header)
                    .map_err(io::Error::other)
                    .map_err(io_error)?;
                line.push('\n');
                file.write_all(line.as_bytes()).map_err(io_error)?;
                file.sync_all().map_err(io_error)?;
                // The new file's directory entry must survive a power cut too.
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    File::open(dir)
                        .and_then(|d| d.sync_all())
                        .map_err(io_error)?;
                }
                file
            }
        };
        let journal = Journal {
            path: path.to_path_buf(),
            file,
        };
        Ok((journal, finished))
    }

    /// Appends a finished game and waits until it is on disk.
    pub fn append(&mut self, entry: &Entry) -> Result<(), JournalError> {
        let io_error = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line = serde_json::to_string(entry)
            .map_err(io::Error::other)
            .map_err(io_error)?;
        line.push('\n');
        // One write per line: a crash leaves at most this line torn.
        self.file.write_all(line.as_bytes()).map_err(io_error)?;
        self.file.sync_data().map_err(io_error)
    }
}

/// The fields that differ between two identities, for the user.
fn differences(journal: &Identity, now: &Identity) -> Vec<String> {
    let as_map = |identity: &Identity| match serde_json::to_value(identity) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (old, new) = (as_map(journal), as_map(now));
    old.iter()
        .filter(|(key, value)| new.get(*key) != Some(value))
        .map(|(key, value)| {
            format!(
                "{key}: {value} in the journal, {} now",
                new.get(key).cloned().unwrap_or_default()
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            journal: FORMAT,
            tournament: Identity {
                name: "t".into(),
                game: "tictactoe width=3 height=3 line=3 exact=no".into(),
                format: "round-robin".into(),
                challengers: Vec::new(),
                players: vec!["a".into(), "b".into()],
                games_per_pairing: 2,
                openings: "none".into(),
                seed: 1,
                total_games: 2,
            },
            shard: None,
        }
    }

    fn entry(index: u64) -> Entry {
        Entry {
            index,
            players: ["a".into(), "b".into()],
            winner: Some(Side::First),
            reason: Termination::Rules(crate::games::Ending::Line),
            violation: None,
            opening: Vec::new(),
            moves: 5,
            stalled: false,
            record: Some(format!("games/{:04}.json", index + 1)),
        }
    }

    #[test]
    fn entries_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/journal.jsonl");
        let (mut journal, finished) = Journal::open(&path, &header(), false).unwrap();
        assert!(finished.is_empty());
        journal.append(&entry(0)).unwrap();
        journal.append(&entry(1)).unwrap();
        drop(journal);
        let error = Journal::open(&path, &header(), false)
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("holds 2 finished games") && error.contains("--resume"),
            "{error}"
        );
        let (mut journal, finished) = Journal::open(&path, &header(), true).unwrap();
        assert_eq!(finished, [entry(0), entry(1)]);
        journal.append(&entry(2)).unwrap();
        let contents = read(&path).unwrap();
        assert_eq!(contents.header, Some(header()));
        assert_eq!(contents.entries.len(), 3);
        assert_eq!(contents.torn, 0);
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_cut_off_on_resume() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (mut journal, _) = Journal::open(&path, &header(), false).unwrap();
        journal.append(&entry(0)).unwrap();
        drop(journal);
        let good = std::fs::read(&path).unwrap();
        // A power cut: half a line, or a line of zeros the file system had not filled yet.
        for tail in [
            &b"{\"index\":1,\"players\":[\"a\""[..],
            &[0u8; 40][..],
            b"{\"index\":1}\n",
        ] {
            let mut bytes = good.clone();
            bytes.extend_from_slice(tail);
            std::fs::write(&path, &bytes).unwrap();
            let contents = read(&path).unwrap();
            assert_eq!(contents.entries, [entry(0)]);
            assert_eq!(contents.torn, tail.len() as u64);
            let (mut journal, finished) = Journal::open(&path, &header(), true).unwrap();
            assert_eq!(finished, [entry(0)]);
            journal.append(&entry(1)).unwrap();
            assert_eq!(read(&path).unwrap().entries, [entry(0), entry(1)]);
            std::fs::write(&path, &good).unwrap();
        }
    }

    #[test]
    fn a_bad_line_before_the_end_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (mut journal, _) = Journal::open(&path, &header(), false).unwrap();
        journal.append(&entry(0)).unwrap();
        drop(journal);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(b"garbage\n");
        let line = serde_json::to_string(&entry(1)).unwrap();
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        std::fs::write(&path, &bytes).unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains("line 3"), "{error}");
    }

    #[test]
    fn another_tournament_is_refused_naming_the_difference() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        Journal::open(&path, &header(), false).unwrap();
        let mut other = header();
        other.tournament.seed = 2;
        let error = Journal::open(&path, &other, true)
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("seed: 1 in the journal, 2 now"), "{error}");
        let mut shard = header();
        shard.shard = Some("1/2".into());
        let error = Journal::open(&path, &shard, true)
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("shard: none in the journal, 1/2 now"),
            "{error}"
        );
    }
}
