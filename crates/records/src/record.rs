//! Game records: one JSON document per game, a transcript of every line exchanged, and each
//! bot's stderr. The format is documented in protocol.md ("Records").
//!
//! A bot's text is kept exactly in the JSON (its name and version, the line a verdict quotes),
//! where JSON's own escapes make any character safe; in the transcript, a text file meant to be
//! read on a terminal, every line is escaped to printable ASCII (see [`referee_rules::quote`]). The
//! stderr files hold the bot's bytes as it wrote them.

use crate::transcript::{
    Direction, SeatLog, MAX_STAMPED_LINES, TRANSCRIPT_CAP_BYTES, TRANSCRIPT_CAP_LINES,
};
use referee_rules::clock::TimeControl;
use referee_rules::games::{Colour, Side};
use referee_rules::quote;
use referee_rules::verdict::Termination;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Read as _, Write as _};
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
    /// The bots' moves after the opening, in the order played.
    pub moves: Vec<MoveRecord>,
    /// Who won, how, and why.
    pub result: ResultRecord,
    /// Boxes (dots and boxes), first player then second.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub scores: Option<[u32; 2]>,
    /// RFC 3339 wall-clock times.
    pub started: String,
    /// When the game was decided.
    pub ended: String,
    /// The final position, drawn as text.
    pub final_position: String,
}

/// One seat of a game: who sat there, on what clock, and how it did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// `A` or `B`: the player's position on the command line.
    pub label: String,
    /// The command line (or `builtin:NAME`).
    pub command: String,
    /// Name and version from the bot's `ready` line, when it got that far.
    pub name: Option<String>,
    /// The version from the same `ready` line, when the bot gave one.
    pub version: Option<String>,
    /// The clock it played on (players of a match may have different ones).
    pub time: TimeControl,
    /// The colour it played when a swap opening chose the colours (gomoku, m,n,k), once chosen.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub colour: Option<Colour>,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub points: f64,
    /// CPU time the bot's program used during the game, in microseconds: since the end of its
    /// previous game, or for its first game since it started (when measurable: a bot process
    /// of the referee's, still running when the game ended).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cpu_us: Option<u64>,
    /// What the referee read from the bot in this game but did not keep, when anything.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub dropped: Option<DroppedRecord>,
    /// The last lines of its stderr when it lost by breaking a rule (a crash above all): where
    /// to look first, kept even when no stderr file is written. See [`stderr_tail`].
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stderr_tail: Option<Vec<String>>,
    /// When each line of its stderr file began, in microseconds since the game started (its
    /// first 4096 lines): a viewer places each line beside the move it was written during.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub stderr_at_us: Vec<u64>,
}

/// What a bot wrote in one game past the caps (protocol.md, "Records"): read, counted, and
/// dropped, so that the referee's memory stays bounded whatever a bot writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DroppedRecord {
    /// The bot's lines left out of the transcript, and their bytes (line ends not counted).
    pub transcript_lines: u64,
    /// The bytes of those lines, line ends not counted.
    pub transcript_bytes: u64,
    /// Bytes of stderr left out of the stderr file.
    pub stderr_bytes: u64,
}

impl DroppedRecord {
    /// What `log` dropped, or `None` when it dropped nothing.
    pub fn of(log: &SeatLog) -> Option<DroppedRecord> {
        let dropped = DroppedRecord {
            transcript_lines: log.transcript_dropped.lines,
            transcript_bytes: log.transcript_dropped.bytes,
            stderr_bytes: log.stderr_dropped,
        };
        (dropped.transcript_lines > 0 || dropped.stderr_bytes > 0).then_some(dropped)
    }
}

/// One move a bot played, with its timing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Who played it.
    pub side: Side,
    /// Canonical notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// Thinking time: from the request flushed to the answer's newline read, in microseconds.
    pub us: u64,
    /// When the answer was read, in microseconds since the game started.
    pub at_us: u64,
    /// The mover offered a draw with this move (checkers).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub offers_draw: bool,
    /// What the bot wrote for people while it thought (a Gomocup brain's `MESSAGE` lines, say).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub messages: Vec<String>,
    /// Under a time control with strikes (CodinGame's), a move over its limit that counted:
    /// the player's strike number, from 1. Absent for a move in time.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub strike: Option<u64>,
}

/// How a game ended: who won, the code of the ending, and a sentence for people.
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
    /// A sentence for people: who did what, on which move. Whatever it quotes of a bot is
    /// escaped to printable ASCII and shortened.
    pub detail: String,
    /// The bot's line the detail quotes, exactly as read (for `not-a-move`, `illegal-move`,
    /// `unrequested-output` and `refused-board`, and for a `timeout` naming the move the bot
    /// wrote on standard error).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<String>,
    /// For `illegal-move`: the move as the rules read it, in the referee's notation (`line` as
    /// a bot of another protocol's adapter translated it): a viewer marks it on the board.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none", default)]
    pub notation: Option<String>,
    /// For `illegal-move` and `not-a-move`, when the referee read the answer itself (not a
    /// seat's adapter): its time in microseconds, as a move's ([`MoveRecord::us`]).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub us: Option<u64>,
    /// The timeout coincided with a stall of the referee longer than the time margin: the
    /// verdict may be the referee's fault (such games are replayed by default).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub stalled: bool,
    /// For a timeout: the machine had more tasks ready to run than processors when it was
    /// taken, so the bot may have been kept waiting for one (its detail says so too).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub overloaded: Option<Overload>,
}

/// How overloaded the machine was when a timeout was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overload {
    /// Tasks ready to run (the referee's reading one among them).
    pub runnable: u32,
    /// Processors online.
    pub processors: u32,
}

impl std::fmt::Display for Overload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the machine was overloaded then ({} tasks ready to run on {} processors): the bot may have waited for one",
            self.runnable, self.processors
        )
    }
}

impl GameRecord {
    /// Points scored by `side`.
    pub fn points(&self, side: Side) -> f64 {
        self.players[side.index()].points
    }
}

/// Lines of a bot's stderr kept in its record by [`stderr_tail`], and the longest line kept.
pub const STDERR_TAIL_LINES: usize = 10;

/// The largest record file read: far more than any game's record (its moves and their
/// messages; transcripts and stderr are bounded and kept apart), so that a file this large is
/// no record, and reading it would only cost memory.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;
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

/// When each line of a log's stderr began, in microseconds since `started_at`.
pub fn stderr_line_times(log: &SeatLog, started_at: Instant) -> Vec<u64> {
    log.stderr_line_starts
        .iter()
        .map(|at| micros(at.saturating_duration_since(started_at)))
        .collect()
}

/// Where one game's files went.
#[derive(Clone, Debug)]
pub struct RecordFiles {
    /// The record itself, `NNNN.json`.
    pub record: PathBuf,
    /// Every line exchanged, `NNNN.transcript.txt`.
    pub transcript: PathBuf,
    /// Each side's stderr file (first, second), when the bot wrote anything there.
    pub stderr: [Option<PathBuf>; 2],
}

impl RecordFiles {
    /// Where the stderr of the player labelled `label` goes: `NNNN.LABEL.stderr.txt`.
    fn stderr_path(&self, label: &str) -> PathBuf {
        stderr_path(&self.record.with_extension(""), label)
    }
}

/// `NNNN.LABEL.stderr.txt` beside `stem` (the game's `NNNN`).
fn stderr_path(stem: &Path, label: &str) -> PathBuf {
    let mut name = stem.as_os_str().to_owned();
    name.push(format!(".{label}.stderr.txt"));
    PathBuf::from(name)
}

/// What is kept of a finished game: its record, its transcript, and the stderr of each player
/// (first, second) that wrote anything there. It is written as the game's own files
/// ([`write_stored`]) or as a line of a records file ([`crate::record_pack`]), and read back
/// from either.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    /// The game's record, as in `NNNN.json`.
    pub record: GameRecord,
    /// Both seats' lines merged in time order, escaped, as in `NNNN.transcript.txt`.
    pub transcript: String,
    /// Each player's stderr file as written (with its note of bytes dropped), when it wrote
    /// anything.
    pub stderr: [Option<Vec<u8>>; 2],
}

impl StoredGame {
    /// The stored form of a game just played, from its seats' logs.
    pub fn of(record: &GameRecord, logs: &[SeatLog; 2], started_at: Instant) -> StoredGame {
        StoredGame {
            record: record.clone(),
            transcript: transcript(record, logs, started_at),
            stderr: [0, 1].map(|side| stderr_bytes(&logs[side])),
        }
    }

    /// Adds an epilogue of the player labelled `label` (see [`append_epilogue`]): its lines go
    /// at the end of the transcript, its stderr at the end of the player's stderr.
    pub fn add_epilogue(&mut self, label: &str, transcript: &str, stderr: &[u8]) {
        self.transcript.push_str(transcript);
        let side = self.record.players.iter().position(|p| p.label == label);
        if let (Some(side), false) = (side, stderr.is_empty()) {
            self.stderr[side]
                .get_or_insert_with(Vec::new)
                .extend_from_slice(stderr);
        }
    }
}

/// What a player's stderr file holds: the bytes kept, and a last line saying how many more
/// were dropped; none when the bot wrote nothing there.
pub fn stderr_bytes(log: &SeatLog) -> Option<Vec<u8>> {
    if log.stderr.is_empty() && log.stderr_dropped == 0 {
        return None;
    }
    let mut bytes = log.stderr.clone();
    if log.stderr_dropped > 0 {
        bytes.extend_from_slice(
            format!("\n[referee: {} more bytes dropped]\n", log.stderr_dropped).as_bytes(),
        );
    }
    Some(bytes)
}

/// Writes `NNNN.json`, `NNNN.transcript.txt` and `NNNN.LABEL.stderr.txt` (when the bot wrote
/// anything to stderr) into `dir`.
pub fn write_game(
    dir: &Path,
    record: &GameRecord,
    logs: &[SeatLog; 2],
    started_at: Instant,
) -> io::Result<RecordFiles> {
    write_stored(dir, &StoredGame::of(record, logs, started_at))
}

/// Writes a stored game's files into `dir`, as [`write_game`] does.
pub fn write_stored(dir: &Path, game: &StoredGame) -> io::Result<RecordFiles> {
    fs::create_dir_all(dir)?;
    let record = &game.record;
    let stem = format!("{:04}", record.number);
    let record_path = dir.join(format!("{stem}.json"));
    let mut json = serde_json::to_string_pretty(record).map_err(io::Error::other)?;
    json.push('\n');
    fs::write(&record_path, json)?;

    let transcript_path = dir.join(format!("{stem}.transcript.txt"));
    fs::write(&transcript_path, game.transcript.as_bytes())?;

    let mut stderr = [None, None];
    for (side, bytes) in game.stderr.iter().enumerate() {
        let Some(bytes) = bytes else {
            continue;
        };
        let label = &record.players[side].label;
        let path = stderr_path(&dir.join(&stem), label);
        fs::write(&path, bytes)?;
        stderr[side] = Some(path);
    }
    Ok(RecordFiles {
        record: record_path,
        transcript: transcript_path,
        stderr,
    })
}

/// The most bytes read back of a stderr file: the referee writes at most 64 KiB a game, and as
/// much again as the bot exits, so a larger file was not written by it.
const STDERR_READ_CAP: u64 = 1 << 20;

/// Reads back, beside `record` read from its `NNNN.json` in `dir`, the game's transcript and
/// stderr files as [`write_stored`] wrote them (a missing transcript reads as empty, a missing
/// stderr file as none).
pub fn read_stored(dir: &Path, record: GameRecord) -> StoredGame {
    let stem = dir.join(format!("{:04}", record.number));
    let mut transcript_path = stem.clone().into_os_string();
    transcript_path.push(".transcript.txt");
    let transcript = fs::read_to_string(transcript_path).unwrap_or_default();
    let stderr = [0, 1].map(|side| {
        let label = &record.players[side].label;
        // A label names a file only when it is a plain name: a path must never come from
        // anything but the directory.
        let plain =
            !label.is_empty() && !label.contains(['/', '\\']) && label != "." && label != "..";
        if !plain {
            return None;
        }
        let mut bytes = Vec::new();
        fs::File::open(stderr_path(&stem, label))
            .ok()?
            .take(STDERR_READ_CAP)
            .read_to_end(&mut bytes)
            .ok()?;
        Some(bytes)
    });
    StoredGame {
        record,
        transcript,
        stderr,
    }
}

/// Both seats' lines merged in time order: `+12.345 ms A> turn 1000` for a line sent to
/// player A, `A<` for a line read from it, `A!` for a line A wrote on stderr (at the time it
/// began, for the stamped lines of [`stderr_line_times`], at most
/// [`TRANSCRIPT_STDERR_CAP_BYTES`] of them), so that a bot's debug output is read beside the
/// turn it was written in. Each line is escaped to printable ASCII, so that a bot's control
/// characters reach nobody's terminal and a CR cannot fake a line; what a bot wrote past the
/// transcript's caps is told at the end.
pub fn transcript(record: &GameRecord, logs: &[SeatLog; 2], started_at: Instant) -> String {
    let mut out = transcript_lines(
        record
            .players
            .iter()
            .zip(logs)
            .map(|(player, log)| (player.label.as_str(), log)),
        started_at,
    );
    for (player, log) in record.players.iter().zip(logs) {
        let dropped = log.transcript_dropped;
        if dropped.lines > 0 {
            let _ = writeln!(
                out,
                "[referee: {} wrote {} more lines ({} bytes) past the transcript's cap of \
                 {TRANSCRIPT_CAP_LINES} lines or {} KiB a game; they were read and dropped]",
                player.label,
                dropped.lines,
                dropped.bytes,
                TRANSCRIPT_CAP_BYTES / 1024
            );
        }
    }
    out
}

/// The most bytes of a bot's stderr lines, escaped, that a transcript shows in one game; its
/// stderr file has all of it.
pub const TRANSCRIPT_STDERR_CAP_BYTES: usize = 64 * 1024;

/// The logs' lines merged in time order, stamped from `started_at`, each seat's stderr lines
/// among them (see [`transcript`]), then a note for each seat whose stderr lines were not all
/// shown.
fn transcript_lines<'a>(
    logs: impl IntoIterator<Item = (&'a str, &'a SeatLog)>,
    started_at: Instant,
) -> String {
    let mut lines: Vec<(Instant, &str, &str, String)> = Vec::new();
    let mut notes = String::new();
    for (label, log) in logs {
        for entry in &log.transcript {
            let arrow = match entry.direction {
                Direction::ToBot => ">",
                Direction::FromBot => "<",
            };
            lines.push((entry.at, label, arrow, quote::escape(&entry.line)));
        }
        let stderr = stderr_lines(log);
        let left_out = stderr.left_out;
        lines.extend(
            stderr
                .shown
                .into_iter()
                .map(|(at, text)| (at, label, "!", text)),
        );
        if left_out > 0 {
            let _ = writeln!(
                notes,
                "[referee: {left_out} more lines {label} wrote on stderr are not shown here (past \
                 the first {MAX_STAMPED_LINES} or {} KiB); its stderr file has them]",
                TRANSCRIPT_STDERR_CAP_BYTES / 1024
            );
        }
    }
    // Stable: a seat's lines stamped at the same moment keep their order.
    lines.sort_by_key(|(at, ..)| *at);
    let mut out = String::new();
    for (at, label, arrow, text) in lines {
        let micros = at.saturating_duration_since(started_at).as_micros();
        let _ = writeln!(
            out,
            "+{}.{:03} ms {label}{arrow} {text}",
            micros / 1000,
            micros % 1000,
        );
    }
    out.push_str(&notes);
    out
}

/// A seat's stderr lines as a transcript shows them: the stamped ones, escaped, up to
/// [`TRANSCRIPT_STDERR_CAP_BYTES`], and how many lines were left out.
struct StderrLines {
    shown: Vec<(Instant, String)>,
    left_out: usize,
}

/// Splits a log's stderr into lines as the viewer does (the `n`th line began at the `n`th
/// stamp) and escapes them.
fn stderr_lines(log: &SeatLog) -> StderrLines {
    let text = String::from_utf8_lossy(&log.stderr);
    let mut shown = Vec::new();
    let mut bytes = 0;
    // Once a line is left out, so is every later one: the lines shown are the first.
    let mut full = false;
    for (line, at) in text.lines().zip(&log.stderr_line_starts) {
        let escaped = quote::escape(line);
        full = full || bytes + escaped.len() > TRANSCRIPT_STDERR_CAP_BYTES;
        if !full {
            bytes += escaped.len();
            shown.push((*at, escaped));
        }
    }
    let total = text.lines().count();
    StderrLines {
        left_out: total - shown.len(),
        shown,
    }
}

/// The lines of an epilogue, what a kept bot logged after its last game's record was filed
/// (the `quit` or `END` it was sent when the table was done with it, and what it read on its
/// way out), timed from that game's start, `started_at`.
pub fn epilogue_transcript(label: &str, log: &SeatLog, started_at: Instant) -> String {
    transcript_lines([(label, log)], started_at)
}

/// Adds an epilogue (see [`epilogue_transcript`]) of the bot labelled `label` to the end of its
/// last game's transcript and stderr file, so that the end of every process is on file.
pub fn append_epilogue(
    files: &RecordFiles,
    label: &str,
    log: &SeatLog,
    started_at: Instant,
) -> io::Result<()> {
    let mut transcript = fs::OpenOptions::new()
        .append(true)
        .open(&files.transcript)?;
    transcript.write_all(epilogue_transcript(label, log, started_at).as_bytes())?;
    if !log.stderr.is_empty() {
        let mut stderr = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(files.stderr_path(label))?;
        stderr.write_all(&log.stderr)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{LineCount, TranscriptLine};

    fn player(label: &str) -> PlayerRecord {
        PlayerRecord {
            label: label.into(),
            command: "bot".into(),
            name: None,
            version: None,
            time: TimeControl::default(),
            colour: None,
            points: 0.5,
            cpu_us: None,
            dropped: None,
            stderr_tail: None,
            stderr_at_us: Vec::new(),
        }
    }

    /// A drawn game of players A and B.
    fn record() -> GameRecord {
        GameRecord {
            referee: "0".into(),
            number: 1,
            game: "tictactoe".into(),
            players: [player("A"), player("B")],
            opening: Vec::new(),
            moves: Vec::new(),
            result: ResultRecord {
                winner: None,
                reason: Termination::Rules(referee_rules::games::Ending::BoardFull),
                violation: None,
                detail: "draw: board full".into(),
                line: None,
                notation: None,
                us: None,
                stalled: false,
                overloaded: None,
            },
            scores: None,
            started: String::new(),
            ended: String::new(),
            final_position: String::new(),
        }
    }

    fn log(stderr: &[u8], dropped: u64) -> SeatLog {
        SeatLog {
            stderr: stderr.to_vec(),
            stderr_dropped: dropped,
            ..SeatLog::default()
        }
    }

    #[test]
    fn the_transcript_escapes_every_line_and_tells_what_was_dropped() {
        let started = Instant::now();
        let line = |ms, direction, line: &str| TranscriptLine {
            at: started + Duration::from_millis(ms),
            direction,
            line: line.into(),
        };
        let record = record();
        let logs = [
            SeatLog {
                transcript: vec![
                    line(1, Direction::ToBot, "turn 1000"),
                    line(2, Direction::FromBot, "x\rturn 1000\r\u{1b}[2J\0\u{a0}"),
                ],
                transcript_dropped: LineCount {
                    lines: 3,
                    bytes: 12,
                },
                ..SeatLog::default()
            },
            SeatLog {
                transcript: vec![line(3, Direction::FromBot, "1 1")],
                ..SeatLog::default()
            },
        ];
        assert_eq!(
            transcript(&record, &logs, started),
            "+1.000 ms A> turn 1000\n\
             +2.000 ms A< x\\rturn 1000\\r\\x1b[2J\\0\\u{a0}\n\
             +3.000 ms B< 1 1\n\
             [referee: A wrote 3 more lines (12 bytes) past the transcript's cap of 10000 lines \
             or 1024 KiB a game; they were read and dropped]\n"
        );
    }

    #[test]
    fn the_transcript_shows_stderr_lines_at_their_time_escaped_and_capped() {
        let started = Instant::now();
        let at = |us| started + Duration::from_micros(us);
        let record = record();
        let sent = |us, line: &str| TranscriptLine {
            at: at(us),
            direction: Direction::ToBot,
            line: line.into(),
        };
        let a = SeatLog {
            transcript: vec![sent(1000, "turn 1000"), sent(3000, "result draw")],
            // The third line began past the stamps kept: it is only in the stderr file.
            stderr: b"thinking \x1b[2J\n\nlate\n".to_vec(),
            stderr_line_starts: vec![at(1500), at(1500)],
            ..SeatLog::default()
        };
        let logs = [a, SeatLog::default()];
        assert_eq!(
            transcript(&record, &logs, started),
            "+1.000 ms A> turn 1000\n\
             +1.500 ms A! thinking \\x1b[2J\n\
             +1.500 ms A! \n\
             +3.000 ms A> result draw\n\
             [referee: 1 more lines A wrote on stderr are not shown here (past the first 4096 \
             or 64 KiB); its stderr file has them]\n"
        );
        // A flood is shown up to the cap, its first lines.
        let line = "x".repeat(1000);
        let flood = SeatLog {
            stderr: format!("{line}\n").repeat(100).into_bytes(),
            stderr_line_starts: (0..100).map(at).collect(),
            ..SeatLog::default()
        };
        let shown = transcript(&record, &[flood, SeatLog::default()], started);
        let lines = TRANSCRIPT_STDERR_CAP_BYTES / 1000;
        assert_eq!(shown.matches(" A! x").count(), lines, "{shown}");
        assert!(shown.contains(&format!("[referee: {} more lines A wrote", 100 - lines)));
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
