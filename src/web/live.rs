//! Games being played, as a running `referee serve` sees them: while a game is played with
//! `--record DIR`, the referee keeps `DIR/NNNN.live.jsonl` (a header line, then one line per
//! move as it is played) and removes it once the game's record is written. Serve rescans the
//! directory and pushes each change to the pages watching.

use crate::clock::TimeControl;
use crate::record::MoveRecord;
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// What a live game is, before its first move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveHeader {
    pub number: u32,
    /// The game and its parameters, as in a record.
    pub game: String,
    /// What each player is called, first then second.
    pub players: [String; 2],
    pub time: [TimeControl; 2],
    pub opening: Vec<String>,
    /// RFC 3339, as a record's `started`.
    pub started: String,
}

/// A live game read back: its header and the moves played so far.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveGame {
    pub header: LiveHeader,
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

/// The name of game `number`'s live file.
pub fn live_name(number: u32) -> String {
    format!("{number:04}.live.jsonl")
}

/// Whether a file name is a live game's, `NNNN.live.jsonl`.
pub fn is_live_name(name: &str) -> bool {
    name.strip_suffix(".live.jsonl")
        .is_some_and(|stem| stem.len() >= 4 && stem.bytes().all(|b| b.is_ascii_digit()))
}

/// The live file of a game being played. Writing it never stops a game: a file that cannot be
/// written is given up.
pub struct LiveFile {
    path: PathBuf,
    file: Option<File>,
}

impl LiveFile {
    /// Starts the live file of a game in `dir`.
    pub fn start(dir: &Path, header: &LiveHeader) -> LiveFile {
        let path = dir.join(live_name(header.number));
        let file = fs::create_dir_all(dir)
            .and_then(|()| File::create(&path))
            .and_then(|mut file| {
                let mut line = serde_json::to_vec(header).map_err(io::Error::other)?;
                line.push(b'\n');
                file.write_all(&line)?;
                Ok(file)
            })
            .ok();
        LiveFile { path, file }
    }

    /// Adds a move just played.
    pub fn moved(&mut self, played: &MoveRecord) {
        let Some(file) = &mut self.file else {
            return;
        };
        let written = serde_json::to_vec(played)
            .map_err(io::Error::other)
            .and_then(|mut line| {
                line.push(b'\n');
                file.write_all(&line)
            });
        if written.is_err() {
            self.file = None;
        }
    }
}

impl Drop for LiveFile {
    /// The game is over (its record written, or the game abandoned): the live file goes.
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side;

    #[test]
    fn moves_are_read_back_as_written_and_the_file_goes_when_done() {
        let dir = tempfile::tempdir().unwrap();
        let header = LiveHeader {
            number: 7,
            game: "tictactoe width=3 height=3 line=3 exact=no".into(),
            players: ["A".into(), "B".into()],
            time: [TimeControl::default(); 2],
            opening: vec!["1 1".into()],
            started: "2026-11-24T00:00:00.000Z".into(),
        };
        let mut live = LiveFile::start(dir.path(), &header);
        let played = MoveRecord {
            side: Side::Second,
            notation: "0 0".into(),
            us: 12,
            cpu_us: None,
            at_us: 40,
            offers_draw: false,
            messages: Vec::new(),
        };
        live.moved(&played);
        let path = dir.path().join("0007.live.jsonl");
        // A line being written is not read yet.
        fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"side\":")
            .unwrap();
        let read = LiveGame::read(&path).unwrap();
        assert_eq!((read.header, read.moves), (header, vec![played]));
        assert!(is_live_name("0007.live.jsonl"));
        assert!(!is_live_name("../0007.live.jsonl"));
        drop(live);
        assert!(!path.exists());
    }
}
