//! Game records: one JSON document per game, a transcript of every line exchanged, and each
//! bot's stderr. The format is documented in protocol.md ("Records").

use crate::clock::TimeControl;
use crate::games::Side;
use crate::seats::{Direction, SeatLog};
use crate::verdict::Termination;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A duration in whole microseconds, as records keep times (saturating: a record never wraps).
pub fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros()).unwrap_or(u64::MAX)
}

/// Everything about one finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Version of the referee that played it.
    pub referee: String,
    /// Game number within its match (from 1).
    pub number: u32,
    /// The game and all its parameters, as in the protocol's `game` line.
    pub game: String,
    /// The seats, first player then second.
    pub players: [PlayerRecord; 2],
    /// Moves played before the bots took over.
    pub opening: Vec<String>,
    pub moves: Vec<MoveRecord>,
    pub result: ResultRecord,
    /// Boxes (dots and boxes), first player then second.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub scores: Option<[u32; 2]>,
    /// RFC 3339 wall-clock times.
    pub started: String,
    pub ended: String,
    /// The final position, drawn as text.
    pub final_position: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// `A` or `B`: the player's position on the command line.
    pub label: String,
    /// The command line (or `builtin:NAME`).
    pub command: String,
    /// Name and version from the bot's `ready` line, when it got that far.
    pub name: Option<String>,
    pub version: Option<String>,
    pub time: TimeControl,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub points: f64,
    /// The last lines of its stderr when it lost by breaking a rule (a crash above all): where
    /// to look first, kept even when no stderr file is written. See [`stderr_tail`].
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stderr_tail: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub side: Side,
    /// Canonical notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// Thinking time: from the request flushed to the answer's newline read, in microseconds.
    pub us: u64,
    /// CPU time the bot's process used during the move, in microseconds (when measurable).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cpu_us: Option<u64>,
    /// When the answer was read, in microseconds since the game started.
    pub at_us: u64,
    /// The mover offered a draw with this move (checkers).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub offers_draw: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// `null` for a draw.
    pub winner: Option<Side>,
    /// A stable code: an ending of the rules (`line`, `board-full`, ...) or a forfeit
    /// (`timeout`, `illegal-move`, ...). See protocol.md.
    pub reason: Termination,
    /// For `illegal-move`: which rule was broken (`occupied`, `off-board`, ...).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub violation: Option<String>,
    /// A sentence for people: who did what, on which move.
    pub detail: String,
    /// The timeout coincided with a stall of the referee longer than the time margin: the
    /// verdict may be the referee's fault (such games are replayed by default).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub stalled: bool,
}

impl GameRecord {
    /// Points scored by `side`.
    pub fn points(&self, side: Side) -> f64 {
        self.players[side.index()].points
    }
}

/// Lines of a bot's stderr kept in its record by [`stderr_tail`], and the longest line kept.
pub const STDERR_TAIL_LINES: usize = 10;
const STDERR_TAIL_LINE_CHARS: usize = 300;

/// The last lines of what a bot wrote on stderr (blank lines left out, each cut to a length a
/// person reads), as the bot wrote them: whoever shows them must escape them (a bot's bytes are
/// hostile). A last line past the cap says how much was dropped. None when it wrote nothing.
pub fn stderr_tail(log: &SeatLog) -> Option<Vec<String>> {
    let text = String::from_utf8_lossy(&log.stderr);
    let mut lines: Vec<String> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .rev()
        .take(STDERR_TAIL_LINES)
        .map(|line| {
            let mut kept: String = line.chars().take(STDERR_TAIL_LINE_CHARS).collect();
            if kept.len() < line.len() {
                kept.push_str("...");
            }
            kept
        })
        .collect();
    lines.reverse();
    if log.stderr_dropped > 0 {
        lines.push(format!(
            "[referee: {} more bytes dropped]",
            log.stderr_dropped
        ));
    }
    (!lines.is_empty()).then_some(lines)
}

/// Where one game's files went.
#[derive(Clone, Debug)]
pub struct RecordFiles {
    pub record: PathBuf,
    pub transcript: PathBuf,
    /// Each side's stderr file (first, second), when the bot wrote anything there.
    pub stderr: [Option<PathBuf>; 2],
}

/// Writes `NNNN.json`, `NNNN.transcript.txt` and `NNNN.LABEL.stderr.txt` (when the bot wrote
/// anything to stderr) into `dir`.
pub fn write_game(
    dir: &Path,
    record: &GameRecord,
    logs: &[SeatLog; 2],
    started_at: Instant,
) -> io::Result<RecordFiles> {
    fs::create_dir_all(dir)?;
    let stem = format!("{:04}", record.number);
    let record_path = dir.join(format!("{stem}.json"));
    let mut json = serde_json::to_string_pretty(record).map_err(io::Error::other)?;
    json.push('\n');
    fs::write(&record_path, json)?;

    let transcript_path = dir.join(format!("{stem}.transcript.txt"));
    fs::write(
        &transcript_path,
        transcript(record, logs, started_at).as_bytes(),
    )?;

    let mut stderr = [None, None];
    for (side, log) in Side::BOTH.iter().zip(logs) {
        if log.stderr.is_empty() && log.stderr_dropped == 0 {
            continue;
        }
        let label = &record.players[side.index()].label;
        let mut bytes = log.stderr.clone();
        if log.stderr_dropped > 0 {
            bytes.extend_from_slice(
                format!("\n[referee: {} more bytes dropped]\n", log.stderr_dropped).as_bytes(),
            );
        }
        let path = dir.join(format!("{stem}.{label}.stderr.txt"));
        fs::write(&path, bytes)?;
        stderr[side.index()] = Some(path);
    }
    Ok(RecordFiles {
        record: record_path,
        transcript: transcript_path,
        stderr,
    })
}

/// Both seats' lines merged in time order: `+12.345678 ms A> turn 1000` for a line sent to
/// player A, `A<` for a line read from it.
pub fn transcript(record: &GameRecord, logs: &[SeatLog; 2], started_at: Instant) -> String {
    let mut lines: Vec<(Instant, String, Direction, &str)> = Vec::new();
    for (side, log) in Side::BOTH.iter().zip(logs) {
        let label = record.players[side.index()].label.clone();
        for entry in &log.transcript {
            lines.push((entry.at, label.clone(), entry.direction, &entry.line));
        }
    }
    lines.sort_by_key(|(at, ..)| *at);
    let mut out = String::new();
    for (at, label, direction, line) in lines {
        let micros = at.saturating_duration_since(started_at).as_micros();
        let arrow = match direction {
            Direction::ToBot => ">",
            Direction::FromBot => "<",
        };
        let _ = writeln!(
            out,
            "+{}.{:03} ms {label}{arrow} {line}",
            micros / 1000,
            micros % 1000
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(stderr: &[u8], dropped: u64) -> SeatLog {
        SeatLog {
            transcript: Vec::new(),
            stderr: stderr.to_vec(),
            stderr_dropped: dropped,
        }
    }

    #[test]
    fn the_tail_is_the_last_lines_as_written() {
        assert_eq!(stderr_tail(&log(b"", 0)), None);
        assert_eq!(stderr_tail(&log(b"\n  \n", 0)), None);
        let many: String = (1..=30).map(|n| format!("line {n}\n\n")).collect();
        let tail = stderr_tail(&log(many.as_bytes(), 0)).unwrap();
        assert_eq!(tail.len(), STDERR_TAIL_LINES);
        assert_eq!((tail[0].as_str(), tail[9].as_str()), ("line 21", "line 30"));
        // Control characters are kept (the record is JSON); a long line is cut.
        let odd = format!("\x1b[2Jboom\r\n{}", "x".repeat(1000));
        let tail = stderr_tail(&log(odd.as_bytes(), 7)).unwrap();
        assert_eq!(tail[0], "\x1b[2Jboom");
        assert_eq!(tail[1].len(), STDERR_TAIL_LINE_CHARS + 3);
        assert_eq!(tail[2], "[referee: 7 more bytes dropped]");
    }
}
