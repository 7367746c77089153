//! A tournament's records file, `games.jsonl` beside its journal: every game's record,
//! transcript and stderr as one JSON line, instead of three files per game (creating files by
//! the thousand a second costs more than the games of instant bots: ext4 allocates an inode
//! for each). The format is documented in protocol.md ("Records").
//!
//! Each line is written with one `write` on a file opened for appending, under a lock, so the
//! lines of a run's workers never mix, and a run killed at any moment (SIGKILL) leaves at most
//! its last line cut short. Nothing is synced: records are not the journal, and a game whose
//! line was lost is in no journal either, so `--resume` plays it again. A game's line is
//! written before its journal line, so a killed run may leave the line of a game the journal
//! does not hold: the journal is the truth, and a resumed run first drops such lines (see
//! [`RecordPack::open`]), so that the game it plays again has one line. Readers take a game's
//! last line all the same (files of earlier versions may hold two).
//!
//! A `multi` bot kept for its next game is told to quit after its last game's line was
//! written: what it logged then (its *epilogue*) is a later line naming that game, which
//! readers add to the game's transcript and stderr, as they would be in the game's own files.

use crate::record::{epilogue_transcript, GameRecord, StoredGame};
use crate::transcript::SeatLog;
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// The longest line read: a game's transcript holds at most 1 MiB of each bot's lines (escaped,
/// a few times that at worst) and its stderr 64 KiB, so a longer line is no records line.
pub(crate) const MAX_LINE: u64 = 64 << 20;

/// The records file beside a journal: `games.jsonl` beside `journal.jsonl`,
/// `games-K-of-N.jsonl` beside a shard's `journal-K-of-N.jsonl`.
pub fn pack_path(journal: &Path) -> PathBuf {
    let name = journal.file_name().map_or_else(
        || "games.jsonl".into(),
        |name| name.to_string_lossy().replacen("journal", "games", 1),
    );
    journal.with_file_name(name)
}

/// Whether a file name is a records file's: `games.jsonl`, or `games-K-of-N.jsonl`.
pub fn is_pack_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("games") else {
        return false;
    };
    let Some(shard) = rest.strip_suffix(".jsonl") else {
        return false;
    };
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    shard.is_empty()
        || shard
            .strip_prefix('-')
            .and_then(|shard| shard.split_once("-of-"))
            .is_some_and(|(k, n)| digits(k) && digits(n))
}

/// A game's line: its record, its transcript, and each player's stderr by label, as text when
/// it is UTF-8 and as base64 otherwise.
#[derive(Serialize, Deserialize)]
struct GameLine<R> {
    record: R,
    transcript: String,
    #[serde(flatten)]
    stderr: Stderrs,
}

/// An epilogue's line: the game it ends, the player's label, its lines and its stderr (by
/// label, as in a game's line).
#[derive(Serialize, Deserialize)]
struct EpilogueLine {
    epilogue: u32,
    label: String,
    transcript: String,
    #[serde(flatten)]
    stderr: Stderrs,
}

/// What indexing reads of a line: which kind it is, and a game's record.
#[derive(Deserialize)]
struct LineHead {
    record: Option<GameRecord>,
    epilogue: Option<u32>,
}

/// The players' stderr in a line, by label: as text when it is UTF-8, as base64 otherwise.
#[derive(Default, Serialize, Deserialize)]
struct Stderrs {
    #[serde(default, rename = "stderr", skip_serializing_if = "BTreeMap::is_empty")]
    text: BTreeMap<String, String>,
    #[serde(
        default,
        rename = "stderr_base64",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    base64: BTreeMap<String, String>,
}

impl Stderrs {
    /// Files `bytes`, a player's stderr, under `label` in one of the two fields.
    fn insert(&mut self, label: &str, bytes: &[u8]) {
        match std::str::from_utf8(bytes) {
            Ok(valid) => self.text.insert(label.to_string(), valid.to_string()),
            Err(_) => self.base64.insert(label.to_string(), BASE64.encode(bytes)),
        };
    }

    /// The stderr filed under `label`, if any.
    fn get(&self, label: &str) -> Result<Option<Vec<u8>>, String> {
        if let Some(valid) = self.text.get(label) {
            return Ok(Some(valid.as_bytes().to_vec()));
        }
        self.base64
            .get(label)
            .map(|encoded| {
                BASE64
                    .decode(encoded)
                    .map_err(|e| format!("stderr_base64 of {label}: {e}"))
            })
            .transpose()
    }
}

/// A records file open for appending, shared by a run's tables.
#[derive(Debug)]
pub struct RecordPack {
    path: PathBuf,
    /// None once a write failed: nothing more is appended, so that a line cut short by the
    /// failure stays the last.
    file: Mutex<Option<File>>,
}

impl RecordPack {
    /// Opens the records file at `path` for a run, holding the lines of the games in
    /// `journaled` (the games its journal holds, none for a new run) and nothing else: see
    /// [`keep_only`].
    pub fn open(path: &Path, journaled: &HashSet<u32>) -> io::Result<RecordPack> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir)?;
        }
        if !journaled.is_empty() {
            keep_only(path, journaled)?;
        }
        let file = OpenOptions::new().append(true).create(true).open(path)?;
        if journaled.is_empty() {
            file.set_len(0)?;
        }
        Ok(RecordPack {
            path: path.to_path_buf(),
            file: Mutex::new(Some(file)),
        })
    }

    /// Where the records file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a finished game's line.
    pub fn append_game(
        &self,
        record: &GameRecord,
        logs: &[SeatLog; 2],
        started_at: Instant,
    ) -> io::Result<()> {
        let mut line = GameLine {
            record,
            transcript: crate::record::transcript(record, logs, started_at),
            stderr: Stderrs::default(),
        };
        for (player, log) in record.players.iter().zip(logs) {
            if let Some(bytes) = crate::record::stderr_bytes(log) {
                line.stderr.insert(&player.label, &bytes);
            }
        }
        self.append(&line)
    }

    /// Appends the epilogue of the bot labelled `label`, whose last game was `number` and began
    /// at `started_at`.
    pub fn append_epilogue(
        &self,
        number: u32,
        label: &str,
        log: &SeatLog,
        started_at: Instant,
    ) -> io::Result<()> {
        let mut line = EpilogueLine {
            epilogue: number,
            label: label.to_string(),
            transcript: epilogue_transcript(label, log, started_at),
            stderr: Stderrs::default(),
        };
        if !log.stderr.is_empty() {
            line.stderr.insert(label, &log.stderr);
        }
        self.append(&line)
    }

    /// Writes one line in one `write`.
    fn append(&self, line: &impl Serialize) -> io::Result<()> {
        let mut bytes = serde_json::to_vec(line).map_err(io::Error::other)?;
        bytes.push(b'\n');
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(open) = file.as_mut() else {
            return Err(io::Error::other("an earlier write to it failed"));
        };
        match open.write(&bytes) {
            Ok(written) if written == bytes.len() => Ok(()),
            failed => {
                *file = None;
                Err(failed.err().unwrap_or_else(|| {
                    io::Error::new(io::ErrorKind::WriteZero, "only part of a line was written")
                }))
            }
        }
    }
}

/// Leaves in the records file at `path` only each game of `journaled`'s last line and its
/// epilogues, as a resumed run finds it: the journal is the truth, so the line of a game it
/// does not hold (filed before a kill came, and played again by this run), a game's earlier
/// line (files of earlier versions), a line that is no records line and a last line cut short
/// go. The file is rewritten beside and renamed over, synced, only when a complete line goes.
fn keep_only(path: &Path, journaled: &HashSet<u32>) -> io::Result<()> {
    let mut index = PackIndex::new(path);
    loop {
        match index.update(|_| ()) {
            Ok(_) => break,
            // Passed over: the next call goes on after it.
            Err(PackError::Corrupt { .. }) => continue,
            Err(PackError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                return Ok(())
            }
            Err(PackError::Io { source, .. }) => return Err(source),
        }
    }
    let mut kept: Vec<u64> = index
        .games
        .iter()
        .filter(|(number, _)| journaled.contains(number))
        .flat_map(|(_, game)| std::iter::once(game.at).chain(game.epilogues.iter().copied()))
        .collect();
    if kept.len() == index.lines {
        return OpenOptions::new()
            .write(true)
            .open(path)?
            .set_len(index.read_to);
    }
    kept.sort_unstable();
    let rewritten = path.with_extension("jsonl.next");
    let mut reader = BufReader::new(File::open(path)?);
    let mut writer = BufWriter::new(File::create(&rewritten)?);
    let mut line = Vec::new();
    for at in kept {
        line.clear();
        reader.seek(SeekFrom::Start(at))?;
        (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line)?;
        writer.write_all(&line)?;
    }
    writer
        .into_inner()
        .map_err(io::IntoInnerError::into_error)?
        .sync_all()?;
    fs::rename(&rewritten, path)
}

/// A records file that cannot be read, or a line in it that is not a records line.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// The file could not be opened or read.
    #[error("cannot read the records file {path}")]
    Io {
        /// The records file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: io::Error,
    },
    /// A complete line is not a records line, or a game's line cannot be read back.
    #[error("records file {path}, line {line}: {message}")]
    Corrupt {
        /// The records file.
        path: PathBuf,
        /// The line's number, from 1; 0 when a game was read by its offset, where lines are
        /// not counted (the message then gives the byte).
        line: usize,
        /// What is wrong with the line.
        message: String,
    },
}

/// Where a game's lines are in a records file: its own (the last written for its number), then
/// its epilogues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAt {
    /// The byte offset of the game's own line.
    pub at: u64,
    /// The byte offsets of its epilogues' lines, in the order written.
    pub epilogues: Vec<u64>,
}

/// What [`PackIndex::update`] found.
pub enum Indexed<'a> {
    /// The file is shorter than what was read, or another file: it is read again from its
    /// start, and what was found before is gone.
    Restarted,
    /// A game's line, the last for its number so far.
    Game(&'a GameRecord),
}

/// The games of a records file by number, read as far as its last complete line and brought
/// up to date by reading only what was appended since.
#[derive(Debug)]
pub struct PackIndex {
    path: PathBuf,
    /// The file read (its inode), and how far: the start of the next line to read.
    inode: u64,
    read_to: u64,
    lines: usize,
    games: BTreeMap<u32, GameAt>,
}

impl PackIndex {
    /// An index of `path`, empty until [`PackIndex::update`].
    pub fn new(path: &Path) -> PackIndex {
        PackIndex {
            path: path.to_path_buf(),
            inode: 0,
            read_to: 0,
            lines: 0,
            games: BTreeMap::new(),
        }
    }

    /// The games found so far, by number.
    pub fn games(&self) -> &BTreeMap<u32, GameAt> {
        &self.games
    }

    /// Reads the lines appended since the last call, handing each game found to `each`. A last
    /// line without its newline (being written, or cut short by a crash) is left for the next
    /// call. A complete line that is not a records line is an error naming it; the next call
    /// goes on after it. Returns whether anything was found.
    pub fn update(&mut self, mut each: impl FnMut(Indexed<'_>)) -> Result<bool, PackError> {
        let path = self.path.clone();
        let io_error = |source| PackError::Io {
            path: path.clone(),
            source,
        };
        let file = File::open(&self.path).map_err(io_error)?;
        let meta = file.metadata().map_err(io_error)?;
        let mut changed = false;
        if meta.ino() != self.inode || meta.len() < self.read_to {
            changed = self.inode != 0 || self.read_to > 0;
            if changed {
                each(Indexed::Restarted);
            }
            *self = PackIndex {
                inode: meta.ino(),
                ..PackIndex::new(&path)
            };
        }
        if meta.len() == self.read_to {
            return Ok(changed);
        }
        let mut reader = BufReader::with_capacity(1 << 16, file);
        reader
            .seek(SeekFrom::Start(self.read_to))
            .map_err(io_error)?;
        let mut line = Vec::new();
        loop {
            line.clear();
            let length = (&mut reader)
                .take(MAX_LINE + 1)
                .read_until(b'\n', &mut line)
                .map_err(io_error)? as u64;
            if length == 0 || (line.last() != Some(&b'\n') && length <= MAX_LINE) {
                // The end, or a last line not yet whole.
                return Ok(changed);
            }
            let at = self.read_to;
            self.read_to += length;
            self.lines += 1;
            let head = (line.last() == Some(&b'\n'))
                .then(|| serde_json::from_slice::<LineHead>(&line))
                .ok_or_else(|| format!("longer than {} MiB", MAX_LINE >> 20))
                .and_then(|head| head.map_err(|e| format!("not a records line ({e})")));
            let line_number = self.lines;
            let corrupt = |message| PackError::Corrupt {
                path: path.clone(),
                line: line_number,
                message,
            };
            match head.map_err(corrupt)? {
                LineHead {
                    record: Some(record),
                    ..
                } => {
                    self.games.insert(
                        record.number,
                        GameAt {
                            at,
                            epilogues: Vec::new(),
                        },
                    );
                    each(Indexed::Game(&record));
                }
                LineHead {
                    epilogue: Some(number),
                    ..
                } => {
                    // An epilogue follows its game's line; one of a game not found is dropped.
                    if let Some(game) = self.games.get_mut(&number) {
                        game.epilogues.push(at);
                    }
                }
                _ => {
                    return Err(corrupt(
                        "neither a game's line (no \"record\") nor an epilogue".into(),
                    ))
                }
            }
            changed = true;
        }
    }

    /// Reads the file to its end as [`PackIndex::update`] does, stopping at the first line
    /// that is not a records line.
    pub fn read_whole(path: &Path) -> Result<PackIndex, PackError> {
        let mut index = PackIndex::new(path);
        index.update(|_| ())?;
        Ok(index)
    }

    /// Game `number` as stored, its epilogues added; none when the file has no such game.
    pub fn read(&self, number: u32) -> Result<Option<StoredGame>, PackError> {
        self.games
            .get(&number)
            .map(|at| read_game(&self.path, at))
            .transpose()
    }
}

/// Reads the game whose lines are `at` in the records file `path`, its epilogues added.
pub fn read_game(path: &Path, at: &GameAt) -> Result<StoredGame, PackError> {
    let io_error = |source| PackError::Io {
        path: path.to_path_buf(),
        source,
    };
    let corrupt = |message: String| PackError::Corrupt {
        path: path.to_path_buf(),
        line: 0,
        message,
    };
    let mut reader = BufReader::new(File::open(path).map_err(io_error)?);
    let mut read_line = |offset: u64| -> Result<Vec<u8>, PackError> {
        reader.seek(SeekFrom::Start(offset)).map_err(io_error)?;
        let mut line = Vec::new();
        (&mut reader)
            .take(MAX_LINE)
            .read_until(b'\n', &mut line)
            .map_err(io_error)?;
        Ok(line)
    };
    let game: GameLine<GameRecord> = serde_json::from_slice(&read_line(at.at)?)
        .map_err(|e| corrupt(format!("the game at byte {}: {e}", at.at)))?;
    let stderr = [0, 1].map(|side| game.stderr.get(&game.record.players[side].label));
    let [first, second] = stderr;
    let mut stored = StoredGame {
        stderr: [first.map_err(&corrupt)?, second.map_err(&corrupt)?],
        record: game.record,
        transcript: game.transcript,
    };
    for &offset in &at.epilogues {
        let epilogue: EpilogueLine = serde_json::from_slice(&read_line(offset)?)
            .map_err(|e| corrupt(format!("the epilogue at byte {offset}: {e}")))?;
        let stderr = epilogue
            .stderr
            .get(&epilogue.label)
            .map_err(&corrupt)?
            .unwrap_or_default();
        stored.add_epilogue(&epilogue.label, &epilogue.transcript, &stderr);
    }
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{write_game, PlayerRecord, ResultRecord};
    use crate::transcript::{Direction, TranscriptLine};
    use referee_rules::clock::TimeControl;
    use referee_rules::games::{Ending, Side};
    use referee_rules::verdict::Termination;
    use std::time::Duration;

    fn record(number: u32) -> GameRecord {
        let player = |label: &str| PlayerRecord {
            label: label.into(),
            command: "bot".into(),
            name: Some("bot".into()),
            version: None,
            time: TimeControl::default(),
            colour: None,
            points: 0.5,
            cpu_us: Some(1234),
            dropped: None,
            stderr_tail: None,
            stderr_at_us: vec![12],
        };
        GameRecord {
            referee: "0".into(),
            number,
            game: "tictactoe width=3 height=3 line=3 exact=no".into(),
            players: [player("ann"), player("bob")],
            opening: vec!["1 1".into()],
            moves: Vec::new(),
            result: ResultRecord {
                winner: Some(Side::First),
                reason: Termination::Rules(Ending::Line),
                violation: None,
                detail: "ann (first player) wins: line completed".into(),
                line: None,
                notation: None,
                us: None,
                stalled: false,
                overloaded: None,
            },
            scores: None,
            started: "2026-11-24T05:00:00.000Z".into(),
            ended: "2026-11-24T05:00:00.010Z".into(),
            final_position: "X\n".into(),
        }
    }

    /// A seat's log of one line sent at `started` + 1 ms, with `stderr` (shared with the
    /// viewer's tests).
    fn log(started: Instant, line: &str, stderr: &[u8]) -> SeatLog {
        SeatLog {
            transcript: vec![TranscriptLine {
                at: started + Duration::from_millis(1),
                direction: Direction::ToBot,
                line: line.into(),
            }],
            stderr: stderr.to_vec(),
            ..SeatLog::default()
        }
    }

    /// Every file in `dir`, by name.
    fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        fs::read_dir(dir)
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                (
                    entry.file_name().to_string_lossy().into_owned(),
                    fs::read(entry.path()).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn a_game_read_back_writes_the_files_the_table_would_have_written() {
        let dir = tempfile::tempdir().unwrap();
        let started = Instant::now();
        // Stderr that is not UTF-8 (kept as base64), and an epilogue after another game.
        let logs = [
            log(started, "turn 1000", b"\xff\x1b[2J raw\n"),
            log(started, "opponent 1 1", b""),
        ];
        let epilogue = log(started, "quit", b"bye\n");
        let pack = RecordPack::open(&dir.path().join("games.jsonl"), &HashSet::new()).unwrap();
        pack.append_game(&record(1), &logs, started).unwrap();
        pack.append_game(&record(2), &logs, started).unwrap();
        pack.append_epilogue(1, "bob", &epilogue, started).unwrap();

        let direct = dir.path().join("direct");
        let files_of_1 = write_game(&direct, &record(1), &logs, started).unwrap();
        crate::record::append_epilogue(&files_of_1, "bob", &epilogue, started).unwrap();
        write_game(&direct, &record(2), &logs, started).unwrap();

        let index = PackIndex::read_whole(pack.path()).unwrap();
        assert_eq!(index.games().keys().copied().collect::<Vec<_>>(), [1, 2]);
        let unpacked = dir.path().join("unpacked");
        for number in [1, 2] {
            let game = index.read(number).unwrap().unwrap();
            crate::record::write_stored(&unpacked, &game).unwrap();
        }
        assert_eq!(files(&unpacked), files(&direct));
        assert!(files(&direct).contains_key("0001.bob.stderr.txt"));
    }

    #[test]
    fn a_torn_last_line_is_left_and_cut_off_on_resuming_and_the_last_line_of_a_game_counts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let started = Instant::now();
        let logs = [log(started, "a", b""), log(started, "b", b"")];
        let pack = RecordPack::open(&path, &HashSet::new()).unwrap();
        pack.append_game(&record(1), &logs, started).unwrap();
        drop(pack);
        let whole = fs::read(&path).unwrap();
        // A run killed while writing game 2's line leaves its beginning.
        let mut torn = whole.clone();
        torn.extend_from_slice(&whole[..whole.len() / 2]);
        fs::write(&path, &torn).unwrap();
        let mut index = PackIndex::new(&path);
        let mut found = Vec::new();
        let changed = index
            .update(|read| {
                if let Indexed::Game(record) = read {
                    found.push(record.number);
                }
            })
            .unwrap();
        assert!(changed);
        assert_eq!(found, [1]);
        assert!(!index.update(|_| ()).unwrap(), "nothing new");

        // Resumed with game 1 journaled: the torn line goes. A second line of game 1 (as an
        // earlier version wrote when it played a game again) is the one read.
        let pack = RecordPack::open(&path, &HashSet::from([1])).unwrap();
        assert_eq!(fs::read(&path).unwrap(), whole);
        let mut again = record(1);
        again.final_position = "again\n".into();
        pack.append_game(&again, &logs, started).unwrap();
        let mut found = Vec::new();
        assert!(index
            .update(|read| {
                if let Indexed::Game(record) = read {
                    found.push(record.number);
                }
            })
            .unwrap());
        assert_eq!(found, [1]);
        assert_eq!(index.games().len(), 1);
        assert_eq!(
            index.read(1).unwrap().unwrap().record.final_position,
            "again\n"
        );

        // A new run empties the file: the index starts over.
        let pack = RecordPack::open(&path, &HashSet::new()).unwrap();
        pack.append_game(&record(3), &logs, started).unwrap();
        let mut restarted = false;
        index
            .update(|read| restarted |= matches!(read, Indexed::Restarted))
            .unwrap();
        assert!(restarted);
        assert_eq!(index.games().keys().copied().collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn a_line_that_is_no_records_line_is_named_and_passed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let started = Instant::now();
        let logs = [log(started, "a", b""), log(started, "b", b"")];
        let pack = RecordPack::open(&path, &HashSet::new()).unwrap();
        fs::write(&path, "{\"something\": 1}\n").unwrap();
        pack.append_game(&record(4), &logs, started).unwrap();
        let mut index = PackIndex::new(&path);
        let error = index.update(|_| ()).unwrap_err().to_string();
        assert!(error.contains("line 1: neither a game's line"), "{error}");
        index.update(|_| ()).unwrap();
        assert_eq!(index.games().keys().copied().collect::<Vec<_>>(), [4]);
    }

    #[test]
    fn a_resumed_run_keeps_only_the_last_line_of_each_journaled_game_and_its_epilogues() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let started = Instant::now();
        let logs = [log(started, "a", b""), log(started, "b", b"")];
        let bye = log(started, "quit", b"");
        let mut again = record(1);
        again.final_position = "again\n".into();
        let pack = RecordPack::open(&path, &HashSet::new()).unwrap();
        pack.append_game(&record(1), &logs, started).unwrap();
        pack.append_game(&record(2), &logs, started).unwrap();
        pack.append_epilogue(2, "bob", &bye, started).unwrap();
        pack.append_game(&record(3), &logs, started).unwrap();
        pack.append_game(&again, &logs, started).unwrap();
        pack.append_epilogue(1, "ann", &bye, started).unwrap();
        pack.append_epilogue(3, "bob", &bye, started).unwrap();
        drop(pack);
        let lines: Vec<String> = fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|line| format!("{line}\n"))
            .collect();
        let mut torn = lines.concat();
        torn.push_str("{\"something\": 1}\n");
        torn.push_str(&lines[0][..10]);
        fs::write(&path, torn).unwrap();

        // Game 3 was filed but not journaled, game 1 filed twice.
        let pack = RecordPack::open(&path, &HashSet::from([1, 2])).unwrap();
        let kept = [1, 2, 4, 5].map(|at| lines[at].as_str()).concat();
        assert_eq!(fs::read_to_string(&path).unwrap(), kept);
        assert!(!path.with_extension("jsonl.next").exists());
        pack.append_game(&record(3), &logs, started).unwrap();
        let index = PackIndex::read_whole(&path).unwrap();
        assert_eq!(index.lines, 5);
        assert_eq!(index.games().keys().copied().collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(
            index.read(1).unwrap().unwrap().record.final_position,
            "again\n"
        );
    }

    #[test]
    fn records_files_are_named_after_their_journals() {
        assert_eq!(
            pack_path(Path::new("out/journal.jsonl")),
            Path::new("out/games.jsonl")
        );
        assert_eq!(
            pack_path(Path::new("out/journal-3-of-8.jsonl")),
            Path::new("out/games-3-of-8.jsonl")
        );
        for name in ["games.jsonl", "games-3-of-8.jsonl"] {
            assert!(is_pack_name(name), "{name}");
        }
        for name in [
            "games.json",
            "games-3.jsonl",
            "games-a-of-8.jsonl",
            "journal.jsonl",
        ] {
            assert!(!is_pack_name(name), "{name}");
        }
    }
}
