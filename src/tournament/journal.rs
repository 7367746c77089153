//! The results journal: one JSON line per finished game, appended and synced to disk before
//! the worker that played it takes another game, so that a tournament killed at any moment
//! (SIGKILL, a power cut) loses at most the games in progress.
//!
//! The first line identifies the tournament (what decides its schedule); every other line is a
//! finished game keyed by its index in the schedule. `--resume` skips the indices already
//! there, so no game is played twice and none is lost. Only what a crash mid-write leaves is
//! forgiven: a last line without its newline, holding the beginning of a journal line or the
//! zeros of a block the file system had not filled yet, is dropped. Any other line that is not
//! a valid header or game of this tournament is an error naming it, and lines are read with a
//! length bound, so that a file that is no journal is refused rather than scored.
//!
//! One run writes a journal at a time: [`Journal::open`] takes an advisory lock on
//! `JOURNAL.lock` beside it, so two runs on one output directory cannot both play every game.

use super::schedule::Shard;
use crate::games::{Ending, Side};
use crate::standings::ScoredGame;
use crate::verdict::Termination;
use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The journal format written by this referee.
pub const FORMAT: u32 = 1;

/// The longest journal line read: far more than a header (player names are short) or a game
/// needs, so that reading a file that is no journal (`/dev/zero`) ends in an error.
const MAX_LINE: u64 = 16 << 20;

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
    #[error("journal {path}, line {line}: {message}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("journal {path} holds {games} finished games already; add --resume to continue this tournament, or write elsewhere (--out)")]
    Exists { path: PathBuf, games: usize },
    #[error("journal {path} belongs to another tournament: {differences} (use another --out, or the configuration the journal was written with)")]
    Mismatch { path: PathBuf, differences: String },
    #[error("journal {path} is being written by another run of the referee ({holder}); one run at a time may write a journal, or both would play every game: wait for it to end, or use another --out")]
    Busy { path: PathBuf, holder: String },
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

/// Reads a journal, dropping a last line cut short by a crash (see the module's
/// documentation); any other invalid line is an error naming it.
pub fn read(path: &Path) -> Result<Contents, JournalError> {
    let io_error = |source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut reader = BufReader::new(File::open(path).map_err(io_error)?);
    let mut contents = Contents {
        header: None,
        entries: Vec::new(),
        valid_len: 0,
        torn: 0,
    };
    let mut line = Vec::new();
    for number in 1.. {
        let corrupt = |message: String| JournalError::Corrupt {
            path: path.to_path_buf(),
            line: number,
            message,
        };
        line.clear();
        let length = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(io_error)? as u64;
        if length == 0 {
            break;
        }
        if line.last() != Some(&b'\n') {
            if length > MAX_LINE {
                return Err(corrupt(format!(
                    "longer than {} MiB, which no journal line is",
                    MAX_LINE >> 20
                )));
            }
            // The end of the file: a line cut short by a crash, or not a journal.
            if !is_torn(&line) {
                let problem = parse_line(&line, contents.header.as_ref())
                    .err()
                    .unwrap_or_default();
                return Err(corrupt(format!("{problem} (and no end of line)")));
            }
            contents.torn = length;
            break;
        }
        match parse_line(&line, contents.header.as_ref()).map_err(corrupt)? {
            Line::Header(header) => contents.header = Some(header),
            Line::Entry(entry) => contents.entries.push(entry),
        }
        contents.valid_len += length;
    }
    Ok(contents)
}

/// Whether an unterminated last line is what a crash while writing it leaves: the beginning of
/// a JSON line (or all of it but the newline, and maybe cut inside a character), or zeros where
/// the file system had allocated a block but not yet written it.
fn is_torn(line: &[u8]) -> bool {
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        // Cut inside a character's bytes: the characters before it.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    line.iter().all(|&b| b == 0)
        || serde_json::from_str::<serde_json::Value>(text).map_or_else(|e| e.is_eof(), |_| true)
}

enum Line {
    Header(Header),
    Entry(Entry),
}

/// Reads a complete line: the header when `header` is none yet, else a game of its
/// tournament.
fn parse_line(line: &[u8], header: Option<&Header>) -> Result<Line, String> {
    let text = std::str::from_utf8(line)
        .map_err(|e| format!("not text ({e})"))?
        .trim_end();
    let Some(header) = header else {
        let header: Header =
            serde_json::from_str(text).map_err(|e| format!("not a journal's header ({e})"))?;
        if header.journal != FORMAT {
            return Err(format!(
                "journal format {} (this referee reads format {FORMAT})",
                header.journal
            ));
        }
        if let Some(shard) = &header.shard {
            shard.parse::<Shard>().map_err(|e| e.to_string())?;
        }
        return Ok(Line::Header(header));
    };
    let entry: Entry =
        serde_json::from_str(text).map_err(|e| format!("not a journal line ({e})"))?;
    check_entry(&entry, header)?;
    Ok(Line::Entry(entry))
}

/// Refuses a game that cannot be one of `header`'s: outside its schedule or shard, between
/// players it does not have or a player and itself, or with a winner its reason cannot have.
fn check_entry(entry: &Entry, header: &Header) -> Result<(), String> {
    let tournament = &header.tournament;
    let game = entry.index + 1;
    if entry.index >= tournament.total_games {
        return Err(format!(
            "game {game} is outside the schedule, which has {} games",
            tournament.total_games
        ));
    }
    if let Some(shard) = header
        .shard
        .as_deref()
        .and_then(|s| s.parse::<Shard>().ok())
    {
        let pair = entry.index / 2;
        if pair % u64::from(shard.count) != u64::from(shard.index - 1) {
            return Err(format!("game {game} is not in shard {shard}"));
        }
    }
    for player in &entry.players {
        if !tournament.players.contains(player) {
            return Err(format!(
                "game {game} names '{player}', who is not a player of the tournament"
            ));
        }
    }
    if entry.players[0] == entry.players[1] {
        return Err(format!(
            "game {game} has '{}' playing itself",
            entry.players[0]
        ));
    }
    let (may_win, may_draw) = possible_results(entry.reason);
    match entry.winner {
        Some(_) if !may_win => Err(format!(
            "game {game} has a winner, but '{}' ends in a draw",
            entry.reason
        )),
        None if !may_draw => Err(format!(
            "game {game} has no winner, but '{}' is not a draw",
            entry.reason
        )),
        _ if entry.violation.is_some() && entry.reason != Termination::IllegalMove => Err(format!(
            "game {game} names a violation, but its reason is '{}'",
            entry.reason
        )),
        _ => Ok(()),
    }
}

/// Whether a game ended by `reason` may have a winner, and may be a draw.
fn possible_results(reason: Termination) -> (bool, bool) {
    match reason {
        Termination::Rules(ending) => match ending {
            Ending::AllLinesDrawn => (true, true),
            Ending::BoardFull | Ending::NoMovesLeft | Ending::Repetition | Ending::MoveRule => {
                (false, true)
            }
            Ending::Line | Ending::MoreSmallBoards | Ending::NoLegalMove => (true, false),
        },
        Termination::Agreement => (false, true),
        // Every forfeit, a resignation included, has a winner.
        _ => (true, false),
    }
}

/// The one run writing a journal: an advisory lock on `JOURNAL.lock` beside it, held while the
/// journal is open and released by the system however the run ends. The file says who holds
/// it, for the run that is refused; it is left in place, as removing it would let a third run
/// lock a new file while a second still holds the old one.
struct WriterLock {
    _file: Flock<File>,
}

impl WriterLock {
    fn take(journal: &Path) -> Result<WriterLock, JournalError> {
        let mut name = journal.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        let path = journal.with_file_name(name);
        let io_error = |source| JournalError::Io {
            path: path.clone(),
            source,
        };
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error)?;
        let mut file = match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(locked) => locked,
            Err((mut file, Errno::EWOULDBLOCK)) => {
                let mut holder = String::new();
                let _ = (&mut file).take(4096).read_to_string(&mut holder);
                let holder = match holder.trim() {
                    "" => "which has not said who it is yet".to_string(),
                    said => crate::quote::escape(said),
                };
                return Err(JournalError::Busy {
                    path: journal.to_path_buf(),
                    holder,
                });
            }
            Err((_, errno)) => return Err(io_error(errno.into())),
        };
        let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let command: Vec<String> = std::env::args().collect();
        let holder = format!(
            "pid {} on {}, since {}: {}\n",
            std::process::id(),
            hostname.trim(),
            humantime::format_rfc3339_seconds(std::time::SystemTime::now()),
            command.join(" ")
        );
        file.set_len(0)
            .and_then(|()| file.write_all(holder.as_bytes()))
            .map_err(io_error)?;
        Ok(WriterLock { _file: file })
    }
}

/// A journal open for appending, by this run alone.
pub struct Journal {
    path: PathBuf,
    file: File,
    _lock: WriterLock,
}

impl Journal {
    /// Opens the journal at `path` for `header`: creates it, or, with `resume`, continues it
    /// (after cutting off a torn last line) and returns the games already finished. Without
    /// `resume`, a journal with finished games is refused, and so is a journal another run is
    /// writing.
    pub fn open(
        path: &Path,
        header: &Header,
        resume: bool,
    ) -> Result<(Journal, Vec<Entry>), JournalError> {
        let io_error = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io_error)?;
        }
        let lock = WriterLock::take(path)?;
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
            _lock: lock,
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
                games_per_pairing: 4,
                openings: "none".into(),
                seed: 1,
                total_games: 4,
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
        // A power cut: half a line, a line but its newline, or zeros the file system had not
        // filled yet.
        for tail in [
            &b"{\"index\":1,\"players\":[\"a\""[..],
            &[0u8; 40][..],
            b"{\"index\":1}",
            "{\"index\":1,\"players\":[\"\u{e9}"
                .as_bytes()
                .split_last()
                .unwrap()
                .1,
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

    /// The error reading a journal of `header()`'s first game then `line`.
    fn error_after_one_game(line: &[u8]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (mut journal, _) = Journal::open(&path, &header(), false).unwrap();
        journal.append(&entry(0)).unwrap();
        drop(journal);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(line);
        std::fs::write(&path, &bytes).unwrap();
        let error = read(&path).unwrap_err().to_string();
        let resumed = Journal::open(&path, &header(), true)
            .err()
            .unwrap()
            .to_string();
        assert_eq!(resumed, error, "--resume refuses it too, cutting nothing");
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        error.replace(&path.display().to_string(), "J")
    }

    #[test]
    fn a_bad_line_before_the_end_is_an_error() {
        let mut bytes = b"garbage\n".to_vec();
        bytes.extend_from_slice(serde_json::to_string(&entry(1)).unwrap().as_bytes());
        bytes.push(b'\n');
        let error = error_after_one_game(&bytes);
        assert!(
            error.starts_with("journal J, line 3: not a journal line"),
            "{error}"
        );
    }

    #[test]
    fn a_complete_last_line_is_no_crash_and_must_be_valid() {
        let error = error_after_one_game(b"{\"index\":1}\n");
        assert!(
            error.starts_with("journal J, line 3: not a journal line (missing field"),
            "{error}"
        );
        let error = error_after_one_game(b"\xff\xfe junk");
        assert!(error.starts_with("journal J, line 3: not text"), "{error}");
        assert!(error.ends_with("(and no end of line)"), "{error}");
    }

    #[test]
    fn a_game_that_cannot_be_the_tournaments_is_an_error() {
        use serde_json::{json, Value};
        let refused = |change: &dyn Fn(&mut Value), expected: &str| {
            let mut value = serde_json::to_value(entry(1)).unwrap();
            change(&mut value);
            let mut line = value.to_string().into_bytes();
            line.push(b'\n');
            let error = error_after_one_game(&line);
            let expected = format!("journal J, line 3: {expected}");
            assert!(error.starts_with(&expected), "{error}");
        };
        refused(
            &|v| v["index"] = json!(4),
            "game 5 is outside the schedule, which has 4 games",
        );
        refused(
            &|v| v["players"][1] = json!("zed"),
            "game 2 names 'zed', who is not a player of the tournament",
        );
        refused(
            &|v| v["players"][1] = json!("a"),
            "game 2 has 'a' playing itself",
        );
        refused(
            &|v| v["reason"] = json!("checkmate"),
            "not a journal line (unknown result reason 'checkmate'",
        );
        refused(
            &|v| {
                v["reason"] = json!("resign");
                v["winner"] = json!(null);
            },
            "game 2 has no winner, but 'resign' is not a draw",
        );
        refused(
            &|v| v["reason"] = json!("board-full"),
            "game 2 has a winner, but 'board-full' ends in a draw",
        );
        refused(
            &|v| v["violation"] = json!("occupied"),
            "game 2 names a violation, but its reason is 'line'",
        );
        refused(
            &|v| v["winner"] = json!("third"),
            "not a journal line (unknown variant `third`",
        );
    }

    #[test]
    fn a_file_that_is_no_journal_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut games_only = serde_json::to_string(&entry(0)).unwrap();
        games_only.push('\n');
        for (bytes, expected) in [
            (games_only.as_bytes(), "line 1: not a journal's header"),
            (
                &b"\x7fELF\x02\x01\x01\0\n\0\0"[..],
                "line 1: not a journal's header",
            ),
            (&b"PK\x03\x04\x14\0"[..], "line 1: not a journal's header"),
        ] {
            std::fs::write(&path, bytes).unwrap();
            let error = read(&path).unwrap_err().to_string();
            assert!(error.contains(expected), "{error}");
        }
        let error = read(Path::new("/dev/zero")).unwrap_err().to_string();
        assert_eq!(
            error,
            "journal /dev/zero, line 1: longer than 16 MiB, which no journal line is"
        );
        std::fs::write(&path, b"").unwrap();
        assert_eq!(
            read(&path).unwrap().header,
            None,
            "a journal a crash left empty"
        );
        let mut shard = header();
        shard.shard = Some("2/2".into());
        std::fs::write(
            &path,
            format!("{}\n{games_only}", serde_json::to_string(&shard).unwrap()),
        )
        .unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(
            error.ends_with("line 2: game 1 is not in shard 2/2"),
            "{error}"
        );
    }

    #[test]
    fn one_run_at_a_time_writes_a_journal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (first, _) = Journal::open(&path, &header(), false).unwrap();
        let error = Journal::open(&path, &header(), true)
            .err()
            .unwrap()
            .to_string();
        let pid = format!("(pid {} on ", std::process::id());
        assert!(
            error.contains("is being written by another run of the referee"),
            "{error}"
        );
        assert!(error.contains(&pid), "{error}");
        drop(first);
        assert!(
            Journal::open(&path, &header(), true).is_ok(),
            "free once the first is done"
        );
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
