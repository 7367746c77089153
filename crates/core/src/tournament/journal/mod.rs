//! The results journal: one JSON line per finished game, written (in one `write`) before the
//! worker that played it takes another game, so that a tournament killed at any moment
//! (SIGKILL) loses at most the games in progress: what a process wrote is the kernel's, not the
//! process's. Reaching the disk is what a power cut needs, and a sync takes a few hundred
//! microseconds: a committer thread syncs the lines written since its last sync, at most every
//! [`COMMIT_INTERVAL`], so a worker never waits on the disk and a power cut loses at most the
//! games of that interval besides those in progress (all are played again on `--resume`). The
//! journal's end syncs what is left.
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
use crate::standings::ScoredGame;
use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};
use referee_rules::games::{Ending, Side};
use referee_rules::verdict::Termination;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long the committer gathers lines before it syncs them together.
pub const COMMIT_INTERVAL: Duration = Duration::from_millis(5);

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
    /// The tournament's name.
    pub name: String,
    /// The game and its parameters, as in the protocol's `game` line.
    pub game: String,
    /// Who plays whom, with what sets its length: `swiss, 5 rounds`.
    pub format: String,
    /// Gauntlet challengers (empty for a round robin).
    pub challengers: Vec<String>,
    /// Every player's name, in the file's order (the schedule refers to them by index).
    pub players: Vec<String>,
    /// Games each pairing plays.
    pub games_per_pairing: u32,
    /// Where the openings come from: a file's description, `random, N plies` or `none`.
    pub openings: String,
    /// Seeds the built-in bots, the random openings and the Swiss pairings.
    pub seed: u64,
    /// Games in the schedule; for a knock-out, the most it may take.
    pub total_games: u64,
    /// The version of each player that gives one, by name (a contest's builds): games of
    /// another version are another player's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub versions: BTreeMap<String, String>,
    /// How the games are played; none in a journal of a referee that did not record it, which
    /// is resumed whatever it now is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Conditions>,
}

/// How a tournament's games are played: every setting of its file that decides it, named as
/// the file names it. A game played under other settings is another game, so a journal is
/// resumed only under the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conditions {
    /// The time control, every key written (see `TimeControl::spec`).
    pub time: String,
    /// The bots' limits, every key written.
    pub limits: String,
    /// How late past its limit an answer still counts.
    pub margin_ms: u64,
    /// The time a bot has to answer `start`.
    pub startup_ms: u64,
    /// Whether bots are sent the legal moves.
    pub legal_moves: bool,
    /// The longest line taken from a bot.
    pub max_line: usize,
    /// The memory Gomocup brains are told they may use.
    pub gomocup_memory_mb: u64,
    /// Whether bots run in the sandbox.
    pub sandbox: bool,
    /// Whether a timeout during a stall of the referee is scored rather than played again.
    pub score_stalled: bool,
    /// Whether a `multi` bot's process plays its next game too.
    pub reuse_processes: bool,
    /// The time control and limits of each player that has its own, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub own: BTreeMap<String, OwnConditions>,
}

/// A player's own time control and limits (see [`Conditions`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwnConditions {
    /// Its time control, every key written.
    pub time: String,
    /// Its limits, every key written.
    pub limits: String,
}

/// The first line of a journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The journal format it was written in ([`FORMAT`]).
    pub journal: u32,
    /// The tournament it records: a resumed or merged run must have the same.
    pub tournament: Identity,
    /// `K/N` for a shard, absent for a whole tournament.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<String>,
}

/// One finished game. Its strings are `String`s, or, as [`read_each`] hands them over,
/// [`Text`] borrowed from the line read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Entry<S = String> {
    /// The game's index in the schedule, from 0 (its record is numbered index + 1).
    pub index: u64,
    /// First player, second player.
    pub players: [S; 2],
    /// `first`, `second`, or `null` for a draw.
    pub winner: Option<Side>,
    /// How it ended: a rule of the game, an agreement or a forfeit.
    pub reason: Termination,
    /// For an illegal or forbidden move, which rule it broke (`occupied`, `overline`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub violation: Option<S>,
    /// Moves played before the bots took over.
    pub opening: Vec<S>,
    /// Moves made by the bots.
    pub moves: usize,
    /// A timeout during a stall of the referee, scored after the replays ran out.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub stalled: bool,
    /// The game's record, relative to the journal's directory.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub record: Option<S>,
}

impl<S: AsRef<str>> Entry<S> {
    /// The game as the standings count it.
    pub fn scored(&self) -> ScoredGame<'_> {
        ScoredGame {
            first: self.players[0].as_ref(),
            second: self.players[1].as_ref(),
            winner: self.winner,
            reason: self.reason,
        }
    }
}

impl Entry<Text<'_>> {
    /// Copies the strings borrowed from the line read, to keep the entry past it.
    pub fn into_owned(self) -> Entry {
        let owned = |text: Text<'_>| text.0.into_owned();
        Entry {
            index: self.index,
            players: self.players.map(owned),
            winner: self.winner,
            reason: self.reason,
            violation: self.violation.map(owned),
            opening: self.opening.into_iter().map(owned).collect(),
            moves: self.moves,
            stalled: self.stalled,
            record: self.record.map(owned),
        }
    }
}

/// A string of a journal line, borrowed from the line unless it holds an escape (which the
/// text read differs from): a million games read without a million allocations.
#[derive(Clone, Debug, PartialEq)]
pub struct Text<'a>(Cow<'a, str>);

impl AsRef<str> for Text<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Text<'a>, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Cow<'de, str>;
            fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
                formatter.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
                Ok(Cow::Borrowed(text))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                Ok(Cow::Owned(text.to_string()))
            }
        }
        deserializer.deserialize_str(TextVisitor).map(Text)
    }
}

/// A journal that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The folder of the journal cannot be made (a file in the way).
    #[error("cannot make the output directory {dir}")]
    OutputDir {
        /// The folder.
        dir: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The journal or its lock file cannot be opened, read or written.
    #[error("cannot use the journal {path}")]
    Io {
        /// The file at fault.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A line that is neither a header nor a game of this tournament, nor one cut short by a
    /// crash.
    #[error("journal {path}, line {line}: {message}")]
    Corrupt {
        /// The journal.
        path: PathBuf,
        /// The bad line's number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// Games were played into it already, and `--resume` was not given.
    #[error("journal {path} holds {games} finished games already; add --resume to continue this tournament, or write elsewhere (--out)")]
    Exists {
        /// The journal.
        path: PathBuf,
        /// Finished games it holds.
        games: usize,
    },
    /// Its header names another tournament, or another shard.
    #[error("journal {path} belongs to another tournament: {differences} (use another --out, or the configuration the journal was written with)")]
    Mismatch {
        /// The journal.
        path: PathBuf,
        /// What differs from this run, key by key.
        differences: String,
    },
    /// Another run holds its lock.
    #[error("journal {path} is being written by another run of the referee ({holder}); one run at a time may write a journal, or both would play every game: wait for it to end, or use another --out")]
    Busy {
        /// The journal.
        path: PathBuf,
        /// Who the lock file says the run is: its process, host, start and command.
        holder: String,
    },
}

/// What a journal file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Contents {
    /// `None` for an empty file (or one whose header was cut short).
    pub header: Option<Header>,
    /// Every finished game, in the order written.
    pub entries: Vec<Entry>,
    /// Length of the valid part: everything after it is a line cut short by a crash.
    pub valid_len: u64,
    /// Bytes dropped from the end.
    pub torn: u64,
}

/// Reads a journal, dropping a last line cut short by a crash (see the module's
/// documentation); any other invalid line is an error naming it.
pub fn read(path: &Path) -> Result<Contents, JournalError> {
    let mut entries = Vec::new();
    let end = read_each(path, |_, entry, _| entries.push(entry.into_owned()))?;
    Ok(Contents {
        header: end.header,
        entries,
        valid_len: end.valid_len,
        torn: end.torn,
    })
}

/// What [`read_each`] found besides the games.
pub struct ReadEnd {
    /// `None` for an empty file (or one whose header was cut short).
    pub header: Option<Header>,
    /// Length of the valid part: everything after it is a line cut short by a crash.
    pub valid_len: u64,
    /// Bytes dropped from the end.
    pub torn: u64,
}

/// Reads a journal as [`read`] does, handing each game to `each` as it is read, with the
/// journal's header and the game's players as their places in the header's list, so that a
/// journal of millions of games is never held whole.
pub fn read_each(
    path: &Path,
    mut each: impl FnMut(&Header, Entry<Text<'_>>, [usize; 2]),
) -> Result<ReadEnd, JournalError> {
    let io_error = |source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut reader = BufReader::with_capacity(1 << 16, File::open(path).map_err(io_error)?);
    let mut end = ReadEnd {
        header: None,
        valid_len: 0,
        torn: 0,
    };
    let mut players = HashMap::new();
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
        let known = end.header.as_ref().map(|header| (header, &players));
        if line.last() != Some(&b'\n') {
            if length > MAX_LINE {
                return Err(corrupt(format!(
                    "longer than {} MiB, which no journal line is",
                    MAX_LINE >> 20
                )));
            }
            // The end of the file: a line cut short by a crash, or not a journal.
            if !is_torn(&line) {
                let problem = parse_line(&line, known).err().unwrap_or_default();
                return Err(corrupt(format!("{problem} (and no end of line)")));
            }
            end.torn = length;
            break;
        }
        match parse_line(&line, known).map_err(corrupt)? {
            Line::Header(header) => {
                players = header.tournament.players.iter().cloned().zip(0..).collect();
                end.header = Some(header);
            }
            Line::Entry(entry, seats) => each(
                end.header.as_ref().expect("entries follow a header"),
                entry,
                seats,
            ),
        }
        end.valid_len += length;
    }
    Ok(end)
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

enum Line<'a> {
    Header(Header),
    /// A game, and its players' places in the header's list.
    Entry(Entry<Text<'a>>, [usize; 2]),
}

/// Reads a complete line: the header when `header` is none yet, else a game of its
/// tournament (whose players are given by name too, with their places in its list).
fn parse_line<'a>(
    line: &'a [u8],
    header: Option<(&Header, &HashMap<String, usize>)>,
) -> Result<Line<'a>, String> {
    let text = std::str::from_utf8(line)
        .map_err(|e| format!("not text ({e})"))?
        .trim_end();
    let Some((header, players)) = header else {
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
    let entry: Entry<Text> =
        serde_json::from_str(text).map_err(|e| format!("not a journal line ({e})"))?;
    let seats = check_entry(&entry, header, players)?;
    Ok(Line::Entry(entry, seats))
}

/// Refuses a game that cannot be one of `header`'s: outside its schedule or shard, between
/// players it does not have or a player and itself, or with a winner its reason cannot have.
/// Returns the players' places in the header's list.
fn check_entry(
    entry: &Entry<Text>,
    header: &Header,
    players: &HashMap<String, usize>,
) -> Result<[usize; 2], String> {
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
    let mut seats = [0; 2];
    for (seat, player) in seats.iter_mut().zip(&entry.players) {
        let player = player.as_ref();
        *seat = *players.get(player).ok_or_else(|| {
            format!("game {game} names '{player}', who is not a player of the tournament")
        })?;
    }
    if seats[0] == seats[1] {
        return Err(format!(
            "game {game} has '{}' playing itself",
            entry.players[0].as_ref()
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
        _ if entry.violation.is_some()
            && !matches!(
                entry.reason,
                Termination::IllegalMove | Termination::ForbiddenMove
            ) =>
        {
            Err(format!(
                "game {game} names a violation, but its reason is '{}'",
                entry.reason
            ))
        }
        _ => Ok(seats),
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
            Ending::Line | Ending::MoreSmallBoards | Ending::NoLegalMove | Ending::Forbidden(_) => {
                (true, false)
            }
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
pub(crate) struct WriterLock {
    _file: Flock<File>,
}

impl WriterLock {
    pub(crate) fn take(journal: &Path) -> Result<WriterLock, JournalError> {
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
                    said => referee_rules::quote::escape(said),
                };
                return Err(JournalError::Busy {
                    path: journal.to_path_buf(),
                    holder,
                });
            }
            Err((_, errno)) => return Err(io_error(errno.into())),
        };
        let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        // Lossy: an argument that is not UTF-8 (a file name) must not stop the run.
        let command: Vec<String> = std::env::args_os()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
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
    file: Arc<File>,
    committer: Committer,
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
            std::fs::create_dir_all(dir).map_err(|source| JournalError::OutputDir {
                dir: dir.to_path_buf(),
                source,
            })?;
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
                let differences = differences(&found.tournament, &header.tournament, &[]);
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
        let file = Arc::new(file);
        let committer = Committer::start(Arc::clone(&file)).map_err(io_error)?;
        let journal = Journal {
            path: path.to_path_buf(),
            file,
            committer,
            _lock: lock,
        };
        Ok((journal, finished))
    }

    /// Appends a finished game: written at once, on disk within [`COMMIT_INTERVAL`] (see the
    /// module's documentation). Fails when an earlier sync failed.
    pub fn append(&mut self, entry: &Entry) -> Result<(), JournalError> {
        let io_error = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line = serde_json::to_string(entry)
            .map_err(io::Error::other)
            .map_err(io_error)?;
        line.push('\n');
        self.committer.failure().map_err(io_error)?;
        // One write per line: a crash leaves at most this line torn.
        (&*self.file).write_all(line.as_bytes()).map_err(io_error)?;
        self.committer.written();
        Ok(())
    }

    /// Syncs every game appended, and ends the committer: the end of a run.
    pub fn close(mut self) -> Result<(), JournalError> {
        let path = self.path.clone();
        self.committer
            .stop()
            .map_err(|source| JournalError::Io { path, source })
    }
}

/// The thread that syncs the journal's lines in groups.
struct Committer {
    shared: Arc<Commits>,
    thread: Option<JoinHandle<()>>,
}

struct Commits {
    state: Mutex<CommitState>,
    /// Signalled when a line is written or the journal closes.
    wake: Condvar,
}

#[derive(Default)]
struct CommitState {
    /// Lines written since the last sync began.
    unsynced: bool,
    closing: bool,
    /// The first sync that failed: every later append fails with it.
    failed: Option<io::Error>,
}

impl Commits {
    fn state(&self) -> MutexGuard<'_, CommitState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Committer {
    fn start(file: Arc<File>) -> io::Result<Committer> {
        let shared = Arc::new(Commits {
            state: Mutex::new(CommitState::default()),
            wake: Condvar::new(),
        });
        let commits = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("journal-commit".into())
            .spawn(move || commit_until_closed(&commits, &file))?;
        Ok(Committer {
            shared,
            thread: Some(thread),
        })
    }

    fn written(&self) {
        self.shared.state().unsynced = true;
        self.shared.wake.notify_one();
    }

    /// The error of a sync that failed, as a new error of the same kind and message.
    fn failure(&self) -> io::Result<()> {
        match &self.shared.state().failed {
            Some(error) => Err(io::Error::new(error.kind(), error.to_string())),
            None => Ok(()),
        }
    }

    /// Has the thread sync what is left and end; returns the first failure.
    fn stop(&mut self) -> io::Result<()> {
        self.shared.state().closing = true;
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        match self.shared.state().failed.take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

impl Drop for Committer {
    /// A run that ends on an error still syncs the games it played.
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// The committer's loop: waits for a line, gathers for [`COMMIT_INTERVAL`], syncs; once closing,
/// syncs what is left and returns.
fn commit_until_closed(commits: &Commits, file: &File) {
    loop {
        let mut state = commits
            .wake
            .wait_while(commits.state(), |state| !state.unsynced && !state.closing)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !state.closing {
            drop(state);
            std::thread::sleep(COMMIT_INTERVAL);
            state = commits.state();
        }
        let closing = state.closing;
        let unsynced = std::mem::take(&mut state.unsynced);
        drop(state);
        if unsynced {
            if let Err(error) = file.sync_data() {
                commits.state().failed.get_or_insert(error);
            }
        }
        if closing {
            return;
        }
    }
}

/// The fields of an identity that follow from its players: a contest knows them only once its
/// players are built and checked.
const PLAYER_FIELDS: [&str; 4] = ["players", "challengers", "total_games", "versions"];

/// Refuses, before anything costly is done, what [`Journal::open`] will refuse of the journal
/// at `path` whoever the players are: finished games without `resume`, or, with it, a
/// journal of another tournament (its players aside).
pub fn precheck(path: &Path, identity: &Identity, resume: bool) -> Result<(), JournalError> {
    let contents = match read(path) {
        Ok(contents) => contents,
        Err(JournalError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            return Ok(())
        }
        Err(error) => return Err(error),
    };
    let Some(found) = contents.header else {
        return Ok(());
    };
    if !resume {
        if contents.entries.is_empty() {
            return Ok(());
        }
        return Err(JournalError::Exists {
            path: path.to_path_buf(),
            games: contents.entries.len(),
        });
    }
    let differences: Vec<String> = differences(&found.tournament, identity, &PLAYER_FIELDS);
    if differences.is_empty() {
        Ok(())
    } else {
        Err(JournalError::Mismatch {
            path: path.to_path_buf(),
            differences: differences.join("; "),
        })
    }
}

/// Whether two identities are of one tournament but for its players (the field of a contest
/// whose entrants changed).
pub fn same_but_players(journal: &Identity, now: &Identity) -> bool {
    differences(journal, now, &PLAYER_FIELDS).is_empty()
}

/// The fields that differ between two identities, but those named in `skip`, for the user.
/// How the games are played is compared setting by setting, a player's own as `SETTING (NAME)`
/// (the tournament's where it has none) for the players of both; not at all when the journal
/// did not record it.
fn differences(journal: &Identity, now: &Identity, skip: &[&str]) -> Vec<String> {
    let now = Identity {
        conditions: now
            .conditions
            .clone()
            .filter(|_| journal.conditions.is_some()),
        ..now.clone()
    };
    let (old, new) = (fields(journal), fields(&now));
    // A field left out when empty (the versions) is in one map only.
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let value = |map: &Fields, key: &str| {
        map.get(key)
            .or_else(|| map.get(key.split_once(" (")?.0))
            .cloned()
    };
    let shown = |map: &Fields, key: &str| {
        value(map, key).map_or_else(|| "{}".to_string(), |value| value.to_string())
    };
    let of_both = |key: &str| {
        key.split_once(" (").map_or(true, |(_, name)| {
            let name = name.trim_end_matches(')');
            [journal, &now]
                .iter()
                .all(|identity| identity.players.iter().any(|player| player == name))
        })
    };
    keys.into_iter()
        .filter(|key| {
            !skip.contains(&key.as_str()) && of_both(key) && value(&old, key) != value(&new, key)
        })
        .map(|key| {
            format!(
                "{key}: {} in the journal, {} now",
                shown(&old, key),
                shown(&new, key)
            )
        })
        .collect()
}

/// An identity's fields as JSON values, by name.
type Fields = serde_json::Map<String, serde_json::Value>;

/// The fields of `identity` as [`differences`] compares them: [`Conditions`]'s settings among the
/// others, each player's own as `SETTING (NAME)`.
fn fields(identity: &Identity) -> Fields {
    use serde_json::Value;
    let mut fields = match serde_json::to_value(identity) {
        Ok(Value::Object(map)) => map,
        _ => Fields::new(),
    };
    if let Some(Value::Object(mut conditions)) = fields.remove("conditions") {
        if let Some(Value::Object(own)) = conditions.remove("own") {
            for (name, settings) in own {
                if let Value::Object(settings) = settings {
                    fields.extend(
                        settings
                            .into_iter()
                            .map(|(key, value)| (format!("{key} ({name})"), value)),
                    );
                }
            }
        }
        fields.extend(conditions);
    }
    fields
}

#[cfg(test)]
mod tests;
