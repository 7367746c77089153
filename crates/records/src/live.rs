//! Games being played, as a running `referee serve` sees them: while a game is played with
//! `--record DIR`, the table playing it keeps its moves so far in its live file,
//! `DIR/live-HOST-PID-N.jsonl` (a header line, then one line per move as it is played), and
//! empties it once the game's record is written. Serve rescans the directory and pushes each
//! change to the pages watching. A table keeps one file for all its games, emptied rather than
//! removed, so that games played by the thousand do not create and delete a file each (on ext4,
//! each deleted inode slows the next file creations), and the host name and process id in the
//! name keep apart the tables of shards sharing a directory, from one machine or several.
//!
//! A referee killed outright (SIGKILL, a crash) leaves its live files behind: a file named with
//! this machine's name and a process id no process has now is [abandoned](is_abandoned), its
//! game cut short. It is not shown as being played, and it is kept: the game is in no journal
//! (a resumed run plays it again), and its moves are all that is left of it. The next table to
//! record into the directory removes the abandoned files that hold no game. Files named
//! `live-PID-N.jsonl`, without the host, are an earlier referee's, and read as before.

use crate::record::MoveRecord;
use referee_rules::clock::TimeControl;
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// What a live game is, before its first move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveHeader {
    /// The game's number, as its record will have it.
    pub number: u32,
    /// The game and its parameters, as in a record.
    pub game: String,
    /// What each player is called, first then second.
    pub players: [String; 2],
    /// Each player's clock, first then second.
    pub time: [TimeControl; 2],
    /// Moves played before the bots took over.
    pub opening: Vec<String>,
    /// RFC 3339, as a record's `started`.
    pub started: String,
}

/// A live game read back: its header and the moves played so far.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveGame {
    /// The file's first line.
    pub header: LiveHeader,
    /// The moves whose lines were complete when read, in order.
    pub moves: Vec<MoveRecord>,
}

impl LiveGame {
    /// Reads a live file; a last line being written (no newline yet) is left for next time.
    pub fn read(path: &Path) -> io::Result<LiveGame> {
        let mut lines = BufReader::new(File::open(path)?).split(b'\n');
        let header = lines.next().ok_or(io::ErrorKind::UnexpectedEof)??;
        let header: LiveHeader = serde_json::from_slice(&header).map_err(io::Error::other)?;
        let moves = lines
            .map_while(|line| serde_json::from_slice(&line.ok()?).ok())
            .collect();
        Ok(LiveGame { header, moves })
    }
}

/// Who wrote a live file, as its name says: the host (none in an earlier referee's name) and
/// the process id, from `live-HOST-PID-N.jsonl` or `live-PID-N.jsonl`.
fn writer(name: &str) -> Option<(Option<&str>, u32)> {
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let numbers = name.strip_prefix("live-")?.strip_suffix(".jsonl")?;
    let (named, _) = numbers
        .rsplit_once('-')
        .filter(|(_, table)| digits(table))?;
    if digits(named) {
        return Some((None, named.parse().ok()?));
    }
    let (host, pid) = named
        .rsplit_once('-')
        .filter(|(host, pid)| !host.is_empty() && host.bytes().all(host_byte) && digits(pid))?;
    Some((Some(host), pid.parse().ok()?))
}

/// Whether a byte is kept as it is in the host part of a live file's name.
fn host_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'-' | b'_')
}

/// This machine's name as live files' names carry it: its host name, every byte but a letter,
/// a digit, `.`, `-` or `_` made `_`.
fn this_host() -> &'static str {
    static HOST: OnceLock<String> = OnceLock::new();
    HOST.get_or_init(|| {
        let name = fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let name: String = (name.trim().bytes())
            .map(|b| if host_byte(b) { char::from(b) } else { '_' })
            .collect();
        if name.is_empty() {
            "localhost".into()
        } else {
            name
        }
    })
}

/// Whether a file name is a live file's, `live-HOST-PID-N.jsonl` (or an earlier referee's
/// `live-PID-N.jsonl`).
pub fn is_live_name(name: &str) -> bool {
    writer(name).is_some()
}

/// Whether the live file at `path` was left by a referee process gone from this machine: its
/// name carries this machine's name and a process id no process has now. The file of another
/// machine sharing the directory, or of an earlier referee (no host in its name), is never
/// taken for abandoned.
pub fn is_abandoned(path: &Path) -> bool {
    let named = path.file_name().and_then(|name| name.to_str());
    match named.and_then(writer) {
        Some((Some(host), pid)) => {
            host == this_host() && !Path::new("/proc").join(pid.to_string()).exists()
        }
        _ => false,
    }
}

/// Removes the live files in `dir` that processes gone from this machine left empty (a run
/// interrupted between games); those holding a game cut short are kept.
fn remove_abandoned(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let empty = || {
            entry
                .metadata()
                .is_ok_and(|meta| meta.is_file() && meta.len() == 0)
        };
        if is_abandoned(&path) && empty() {
            let _ = fs::remove_file(&path);
        }
    }
}

/// The live game numbered `number` in `dir`, if one of its live files holds it now (an
/// abandoned one holds none).
pub fn find_live(dir: &Path, number: u32) -> Option<LiveGame> {
    fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|entry| entry.file_name().to_str().is_some_and(is_live_name))
        .filter(|entry| !is_abandoned(&entry.path()))
        .filter_map(|entry| LiveGame::read(&entry.path()).ok())
        .find(|game| game.header.number == number)
}

/// A table's live file: empty between games, the game being played during one. Writing it
/// never stops a game: a file that cannot be written is given up.
pub struct LiveFile {
    path: PathBuf,
    file: Option<File>,
}

impl LiveFile {
    /// The live file of a new table recording into `dir` (made at its first game).
    pub fn new(dir: &Path) -> LiveFile {
        static TABLES: AtomicU32 = AtomicU32::new(1);
        let n = TABLES.fetch_add(1, Ordering::Relaxed);
        LiveFile {
            path: dir.join(format!(
                "live-{}-{}-{n}.jsonl",
                this_host(),
                std::process::id()
            )),
            file: None,
        }
    }

    /// Where the file is (made at the table's first game).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this is a live file in `dir`.
    pub fn is_in(&self, dir: &Path) -> bool {
        self.path.parent() == Some(dir)
    }

    /// Begins a game: the file holds its header until the returned writer is dropped. The
    /// table's first game makes the file, and removes the empty ones abandoned beside it.
    pub fn start(&mut self, header: &LiveHeader) -> LiveWriter<'_> {
        let file = match self.file.take() {
            Some(file) => Ok(file),
            None => self.create(),
        };
        self.file = file
            .and_then(|mut file| {
                let mut line = serde_json::to_vec(header).map_err(io::Error::other)?;
                line.push(b'\n');
                file.write_all(&line)?;
                Ok(file)
            })
            .ok();
        LiveWriter { live: self }
    }

    /// Makes the file, and its directory if need be, removing the abandoned files there that
    /// hold no game.
    fn create(&self) -> io::Result<File> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
            remove_abandoned(dir);
        }
        File::create(&self.path)
    }
}

impl Drop for LiveFile {
    /// The table is done: its live file goes.
    fn drop(&mut self) {
        if self.file.is_some() {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// The live file during one game.
pub struct LiveWriter<'a> {
    live: &'a mut LiveFile,
}

impl LiveWriter<'_> {
    /// Adds a move just played.
    pub fn moved(&mut self, played: &MoveRecord) {
        let Some(file) = &mut self.live.file else {
            return;
        };
        let written = serde_json::to_vec(played)
            .map_err(io::Error::other)
            .and_then(|mut line| {
                line.push(b'\n');
                file.write_all(&line)
            });
        if written.is_err() {
            self.live.file = None;
        }
    }
}

impl Drop for LiveWriter<'_> {
    /// The game is over (its record written, or the game abandoned): the file is emptied for
    /// the table's next game.
    fn drop(&mut self) {
        if let Some(file) = &mut self.live.file {
            if file.set_len(0).and_then(|()| file.rewind()).is_err() {
                self.live.file = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::Side;

    #[test]
    fn moves_are_read_back_as_written_and_the_file_is_emptied_when_done() {
        let dir = tempfile::tempdir().unwrap();
        let header = LiveHeader {
            number: 7,
            game: "tictactoe width=3 height=3 line=3 exact=no".into(),
            players: ["A".into(), "B".into()],
            time: [TimeControl::default(); 2],
            opening: vec!["1 1".into()],
            started: "2026-11-24T00:00:00.000Z".into(),
        };
        let mut table = LiveFile::new(dir.path());
        let mut live = table.start(&header);
        let played = MoveRecord {
            side: Side::Second,
            notation: "0 0".into(),
            us: 12,
            at_us: 40,
            offers_draw: false,
            messages: Vec::new(),
            strike: None,
        };
        live.moved(&played);
        let path = table_path(dir.path());
        // A line being written is not read yet.
        fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"side\":")
            .unwrap();
        let read = find_live(dir.path(), 7).unwrap();
        assert_eq!((read.header, read.moves), (header.clone(), vec![played]));
        assert!(find_live(dir.path(), 8).is_none());
        drop(live);
        assert!(
            find_live(dir.path(), 7).is_none(),
            "emptied once the game is over"
        );
        assert_eq!(fs::metadata(&path).unwrap().len(), 0);
        // The next game of the table reuses the file.
        let next = LiveHeader {
            number: 8,
            ..header
        };
        let live = table.start(&next);
        assert_eq!(find_live(dir.path(), 8).unwrap().header, next);
        assert_eq!(table_path(dir.path()), path);
        drop(live);
        drop(table);
        assert!(!path.exists(), "gone with the table");
    }

    /// The one live file in `dir`.
    fn table_path(dir: &Path) -> PathBuf {
        let names: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        names[0].clone()
    }

    #[test]
    fn live_files_are_named_by_host_process_and_table() {
        let table = LiveFile::new(Path::new("records"));
        let name = table.path().file_name().unwrap().to_str().unwrap();
        let own = format!("live-{}-{}-", this_host(), std::process::id());
        assert!(name.starts_with(&own), "{name}");
        assert!(is_live_name(name));
        assert_eq!(
            writer("live-node-7.lan-123-4.jsonl"),
            Some((Some("node-7.lan"), 123))
        );
        assert_eq!(writer("live-42-123-4.jsonl"), Some((Some("42"), 123)));
        // An earlier referee's name, without the host.
        assert_eq!(writer("live-123-4.jsonl"), Some((None, 123)));
        for not in [
            "live-123.jsonl",
            "live--4.jsonl",
            "live-1-x.jsonl",
            "live-a b-1-2.jsonl",
            "live--1-2.jsonl",
            "0007.json",
        ] {
            assert!(!is_live_name(not), "{not}");
        }
    }

    /// A process id that no process has now: a child's, once it was waited for.
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        child.wait().unwrap();
        child.id()
    }

    #[test]
    fn a_live_file_of_a_process_gone_from_this_machine_is_abandoned() {
        let dead = dead_pid();
        let host = this_host();
        let abandoned = |name: String| is_abandoned(Path::new(&name));
        assert!(abandoned(format!("live-{host}-{dead}-1.jsonl")));
        assert!(!abandoned(format!(
            "live-{host}-{}-1.jsonl",
            std::process::id()
        )));
        // Another machine's, and an earlier referee's: their processes cannot be looked at.
        assert!(!abandoned(format!("live-{host}x-{dead}-1.jsonl")));
        assert!(!abandoned(format!("live-{dead}-1.jsonl")));
    }

    /// A killed run's empty live files go when the next table records beside them; one holding
    /// a game cut short stays (the game is in no journal, its moves are all there is of it), as
    /// do the files of other machines and of earlier referees.
    #[test]
    fn a_new_table_removes_the_empty_abandoned_live_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dead_pid();
        let host = this_host();
        let file = |name: String, text: &str| {
            let path = dir.path().join(name);
            fs::write(&path, text).unwrap();
            path
        };
        let empty = file(format!("live-{host}-{dead}-1.jsonl"), "");
        let cut_short = file(format!("live-{host}-{dead}-2.jsonl"), "{\"number\":3}\n");
        let elsewhere = file(format!("live-{host}x-{dead}-1.jsonl"), "");
        let earlier = file(format!("live-{dead}-1.jsonl"), "");
        let mut table = LiveFile::new(dir.path());
        assert!(
            empty.exists(),
            "nothing removed before the table's first game"
        );
        let header = LiveHeader {
            number: 1,
            game: "tictactoe width=3 height=3 line=3 exact=no".into(),
            players: ["A".into(), "B".into()],
            time: [TimeControl::default(); 2],
            opening: Vec::new(),
            started: String::new(),
        };
        drop(table.start(&header));
        assert!(!empty.exists());
        for kept in [
            &cut_short,
            &elsewhere,
            &earlier,
            &table.path().to_path_buf(),
        ] {
            assert!(kept.exists(), "{kept:?}");
        }
    }
}
