//! What the referee keeps of its exchange with a seat in one game: the lines both ways, capped,
//! and the bot's stderr. The cage fills these; records store them.

use referee_rules::protocol::RefereeMessage;
use std::time::{Duration, Instant};

/// The most stderr lines whose start is stamped in one game (the rest are kept unstamped).
pub const MAX_STAMPED_LINES: usize = 4096;

/// Which way a transcript line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Written by the referee to the bot (`>` in a transcript).
    ToBot,
    /// Read from the bot (`<` in a transcript).
    FromBot,
}

/// One line exchanged with a seat, stamped when it was written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptLine {
    /// When it was written to the seat or read from it.
    pub at: Instant,
    /// Which way it went.
    pub direction: Direction,
    /// The line as sent or read, without its line end and unescaped.
    pub line: String,
}

impl TranscriptLine {
    /// The lines of `messages`, sent to a seat at `at`.
    pub fn sent(
        messages: &[RefereeMessage],
        at: Instant,
    ) -> impl Iterator<Item = TranscriptLine> + '_ {
        messages.iter().map(move |message| TranscriptLine {
            at,
            direction: Direction::ToBot,
            line: message.to_string(),
        })
    }
}

/// The most lines a bot's transcript keeps of what the bot wrote in one game.
pub const TRANSCRIPT_CAP_LINES: u64 = 10_000;
/// The most bytes of the bot's lines a transcript keeps in one game.
pub const TRANSCRIPT_CAP_BYTES: u64 = 1 << 20;

/// A number of a bot's lines and their bytes (line ends not counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineCount {
    /// How many lines.
    pub lines: u64,
    /// Their bytes together.
    pub bytes: u64,
}

/// One game's lines both ways with a seat. Lines to the seat are the referee's own and all
/// kept; of the bot's, the first are kept up to [`TRANSCRIPT_CAP_LINES`] and
/// [`TRANSCRIPT_CAP_BYTES`], and every later one is counted and dropped, so a bot that writes
/// without end (Gomocup's `MESSAGE` lines are allowed at any time) cannot fill the referee's
/// memory, recorded or not.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    lines: Vec<TranscriptLine>,
    /// The bot's lines kept.
    kept: LineCount,
    /// The bot's lines dropped past the caps.
    dropped: LineCount,
}

impl Transcript {
    /// Logs a line written to the seat at `at`.
    pub fn sent(&mut self, line: String, at: Instant) {
        self.lines.push(TranscriptLine {
            at,
            direction: Direction::ToBot,
            line,
        });
    }

    /// Logs a line the bot wrote, read at `at`, if the caps leave room for it.
    pub fn received(&mut self, line: &str, at: Instant) {
        let bytes = line.len() as u64;
        let room = self.kept.lines < TRANSCRIPT_CAP_LINES
            && self.kept.bytes + bytes <= TRANSCRIPT_CAP_BYTES;
        if room && self.dropped.lines == 0 {
            self.kept.lines += 1;
            self.kept.bytes += bytes;
            self.lines.push(TranscriptLine {
                at,
                direction: Direction::FromBot,
                line: line.to_string(),
            });
        } else {
            self.dropped.lines += 1;
            self.dropped.bytes += bytes;
        }
    }

    /// Everything logged so far, leaving the transcript empty for the next game.
    pub fn take(&mut self) -> (Vec<TranscriptLine>, LineCount) {
        let taken = std::mem::take(self);
        (taken.lines, taken.dropped)
    }
}

/// What a seat leaves behind after a game: its transcript and (for processes) its stderr.
#[derive(Clone, Debug, Default)]
pub struct SeatLog {
    /// The lines both ways, in the order logged (the bot's only up to the caps).
    pub transcript: Vec<TranscriptLine>,
    /// The bot's lines left out of the transcript past its caps.
    pub transcript_dropped: LineCount,
    /// The bot's stderr bytes as it wrote them, up to the cap.
    pub stderr: Vec<u8>,
    /// Bytes of stderr dropped past the cap.
    pub stderr_dropped: u64,
    /// When each line of `stderr` began, in order (the first lines only, see
    /// [`MAX_STAMPED_LINES`]).
    pub stderr_line_starts: Vec<Instant>,
    /// CPU time the bot's program used since the previous game's log was taken (the first game:
    /// since it started), where the system can tell. Read once per game, not per move: each
    /// reading is a system call, and a move cycle should cost little more than the pipes.
    pub cpu: Option<Duration>,
}

impl SeatLog {
    /// Adds what the seat logged later (while its program exited, say) to this log.
    pub fn append(&mut self, mut later: SeatLog) {
        self.transcript.extend(later.transcript);
        self.transcript_dropped.lines += later.transcript_dropped.lines;
        self.transcript_dropped.bytes += later.transcript_dropped.bytes;
        if !self.stderr.is_empty() && !self.stderr.ends_with(b"\n") && !later.stderr.is_empty() {
            // The later bytes carry on a line begun before: not a line of their own.
            later
                .stderr_line_starts
                .drain(..1.min(later.stderr_line_starts.len()));
        }
        self.stderr.extend(later.stderr);
        self.stderr_dropped += later.stderr_dropped;
        let room = MAX_STAMPED_LINES.saturating_sub(self.stderr_line_starts.len());
        self.stderr_line_starts
            .extend(later.stderr_line_starts.into_iter().take(room));
        self.cpu = match (self.cpu, later.cpu) {
            (Some(cpu), Some(more)) => Some(cpu + more),
            (cpu, more) => cpu.or(more),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_keeps_the_first_lines_of_a_bot_up_to_its_caps() {
        let at = Instant::now();
        let mut transcript = Transcript::default();
        let long = "7".repeat(4096);
        let fit = TRANSCRIPT_CAP_BYTES / 4096;
        for _ in 0..fit {
            transcript.received(&long, at);
        }
        transcript.received("", at);
        transcript.received("1 1", at);
        transcript.received("", at);
        transcript.sent("turn 1000".into(), at);
        let (lines, dropped) = transcript.take();
        assert_eq!(lines.len() as u64, fit + 2);
        assert_eq!(
            lines.last().unwrap().direction,
            Direction::ToBot,
            "the referee's lines stay"
        );
        assert_eq!(
            dropped,
            LineCount { lines: 2, bytes: 3 },
            "once one is dropped, all later are"
        );

        for _ in 0..TRANSCRIPT_CAP_LINES + 5 {
            transcript.received("", at);
        }
        let (lines, dropped) = transcript.take();
        assert_eq!(lines.len() as u64, TRANSCRIPT_CAP_LINES);
        assert_eq!(dropped, LineCount { lines: 5, bytes: 0 });
        assert!(transcript.take().0.is_empty(), "each game starts afresh");
    }
}
