//! Games being played, as a running `referee serve` sees them: while a game is played with
//! `--record DIR`, the table playing it keeps its moves so far in its live file,
//! `DIR/live-PID-N.jsonl` (a header line, then one line per move as it is played), and empties
//! it once the game's record is written. Serve rescans the directory and pushes each change to
//! the pages watching. A table keeps one file for all its games, emptied rather than removed,
//! so that games played by the thousand do not create and delete a file each (on ext4, each
//! deleted inode slows the next file creations), and the process id in the name keeps the
//! tables of shards sharing a directory apart.

use crate::record::MoveRecord;
use referee_rules::clock::TimeControl;
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

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

/// Whether a file name is a live file's, `live-PID-N.jsonl`.
pub fn is_live_name(name: &str) -> bool {
    name.strip_prefix("live-")
        .and_then(|rest| rest.strip_suffix(".jsonl"))
        .and_then(|numbers| numbers.split_once('-'))
        .is_some_and(|(pid, n)| {
            [pid, n]
                .iter()
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// The live game numbered `number` in `dir`, if one of its live files holds it now.
pub fn find_live(dir: &Path, number: u32) -> Option<LiveGame> {
    fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|entry| entry.file_name().to_str().is_some_and(is_live_name))
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
            path: dir.join(format!("live-{}-{n}.jsonl", std::process::id())),
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

    /// Begins a game: the file holds its header until the returned writer is dropped.
    pub fn start(&mut self, header: &LiveHeader) -> LiveWriter<'_> {
        let file = match self.file.take() {
            Some(file) => Ok(file),
            None => self
                .path
                .parent()
                .map_or(Ok(()), fs::create_dir_all)
                .and_then(|()| File::create(&self.path)),
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
    fn live_files_are_named_by_process_and_table() {
        assert!(is_live_name("live-123-4.jsonl"));
        assert!(!is_live_name("live-123.jsonl"));
        assert!(!is_live_name("live--4.jsonl"));
        assert!(!is_live_name("live-1-x.jsonl"));
        assert!(!is_live_name("0007.json"));
    }
}
