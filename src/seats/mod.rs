//! The seats of a game: who answers the referee's requests, a bot process or a person at the
//! console. A seat speaks the protocol's messages and measures time; the arbiter checks the
//! moves (the console also checks them first, to refuse a person's slip without a verdict). A
//! bot process speaks the referee's own protocol; the adapters translate for bots written for
//! other systems (Gomocup, CodinGame, theaigames and riddles.io).

pub(crate) mod adapters;
pub(crate) mod bot_cgroups;
mod bot_output;
mod bot_stderr;
pub mod browser;
mod cage;
pub(crate) mod cgroup;
pub mod console;
pub mod cpus;
mod leftovers;
pub mod limits;
pub(crate) mod memory_cgroup;
pub(crate) mod pid_namespace;
pub(crate) mod pids_cgroup;
mod pipes;
pub mod process;
pub mod process_options;
mod procfs;
mod requests;
pub(crate) mod sandbox;
pub mod supervisor;

use crate::bots::{Level, UnknownLevel};
use crate::games::GameSpec;
use crate::protocol::{Ready, RefereeMessage};
use crate::verdict::Fault;
use process::SpawnError;
use process_options::{ClockStart, ProcessOptions};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::{Duration, Instant};
use supervisor::Supervisor;

/// A line a seat answered and how long it took: from the moment the request was flushed to
/// the moment the answer's newline was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The answer in the referee's own protocol.
    pub line: String,
    pub elapsed: Duration,
    /// The bot's own line, when an adapter translated it from another protocol (so a verdict
    /// can quote what the bot really wrote).
    pub original: Option<String>,
    /// What the bot wrote for people while the answer was awaited (Gomocup's `MESSAGE`
    /// lines: a brain's evaluation, depth, best line), escaped to printable ASCII, at most
    /// [`MAX_MESSAGES`] of at most [`MAX_MESSAGE_CHARS`] each, kept in the move's record.
    pub messages: Vec<String>,
}

/// The most messages kept with one move; later ones are only in the transcript.
pub const MAX_MESSAGES: usize = 16;
/// The longest message kept with a move, in characters once escaped; the rest of it is only
/// in the transcript.
pub const MAX_MESSAGE_CHARS: usize = 256;

/// What a seat makes of a line its bot wrote while an answer was awaited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The awaited answer, in the referee's own protocol.
    Answer(String),
    /// A line logged and passed over (Gomocup's `DEBUG`, `ERROR`, ...); the clock runs on.
    Skip,
    /// A line for people, logged and kept with the move (the text of Gomocup's `MESSAGE`);
    /// the clock runs on.
    Message(String),
    /// Lines to write to the bot before waiting on (Gomocup's `PLAY` after a `SUGGEST`).
    Reply(Vec<String>),
    /// A line that breaks the bot's protocol.
    Refuse(Fault),
}

/// Which way a transcript line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    ToBot,
    FromBot,
}

/// One line exchanged with a seat, stamped when it was written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptLine {
    pub at: Instant,
    pub direction: Direction,
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
    pub lines: u64,
    pub bytes: u64,
}

/// One game's lines both ways with a seat. Lines to the seat are the referee's own and all
/// kept; of the bot's, the first are kept up to [`TRANSCRIPT_CAP_LINES`] and
/// [`TRANSCRIPT_CAP_BYTES`], and every later one is counted and dropped, so a bot that writes without end (Gomocup's `MESSAGE` lines
/// are allowed at any time) cannot fill the referee's memory, recorded or not.
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
    pub transcript: Vec<TranscriptLine>,
    /// The bot's lines left out of the transcript past its caps.
    pub transcript_dropped: LineCount,
    pub stderr: Vec<u8>,
    /// Bytes of stderr dropped past the cap.
    pub stderr_dropped: u64,
    /// When each line of `stderr` began, in order (the first lines only, see
    /// [`bot_stderr::MAX_STAMPED_LINES`]).
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
        let room = bot_stderr::MAX_STAMPED_LINES.saturating_sub(self.stderr_line_starts.len());
        self.stderr_line_starts
            .extend(later.stderr_line_starts.into_iter().take(room));
        self.cpu = match (self.cpu, later.cpu) {
            (Some(cpu), Some(more)) => Some(cpu + more),
            (cpu, more) => cpu.or(more),
        };
    }
}

/// A player's seat in a game.
pub trait Seat {
    /// Sends a game's setup and waits for `ready` within `allowance` (not charged to the clock).
    fn setup(&mut self, messages: &[RefereeMessage], allowance: Duration) -> Result<Ready, Fault>;

    /// Sends `messages` (ending with a `turn`) and waits for one line for at most `watchdog`
    /// after they were flushed. The caller decides the verdict from [`Answer::elapsed`].
    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault>;

    /// Sends messages that need no answer (the result); failures are ignored because the
    /// game is already decided.
    fn tell(&mut self, messages: &[RefereeMessage]);

    /// Takes what was logged since the last call.
    fn take_log(&mut self) -> SeatLog;

    /// Ends the player after its last game: tells its program to exit the way its protocol
    /// does, waits a grace period, then kills whatever is left of it.
    fn finish(&mut self);
}

/// The protocol a player's program speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// The referee's own (protocol.md).
    #[default]
    Native,
    /// Gomocup (piskvork) brains: gomoku and other m,n,k boards with a line of five.
    Gomocup,
    /// CodinGame's ultimate tic-tac-toe bots.
    Codingame,
    /// theaigames.com's (2016) ultimate tic-tac-toe bots.
    Theaigames,
    /// riddles.io's (2017) ultimate tic-tac-toe bots.
    Riddles,
}

impl Protocol {
    pub const ALL: [Protocol; 5] = [
        Protocol::Native,
        Protocol::Gomocup,
        Protocol::Codingame,
        Protocol::Theaigames,
        Protocol::Riddles,
    ];

    /// The name used as a player's prefix (`gomocup:./pbrain-x`) and in configurations.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Native => "native",
            Protocol::Gomocup => "gomocup",
            Protocol::Codingame => "codingame",
            Protocol::Theaigames => "theaigames",
            Protocol::Riddles => "riddles",
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A protocol name that is not one of [`Protocol::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown protocol '{0}' (protocols: native, gomocup, codingame, theaigames, riddles)")]
pub struct UnknownProtocol(pub String);

impl FromStr for Protocol {
    type Err = UnknownProtocol;

    fn from_str(text: &str) -> Result<Protocol, UnknownProtocol> {
        Protocol::ALL
            .into_iter()
            .find(|protocol| protocol.name() == text)
            .ok_or_else(|| UnknownProtocol(text.to_string()))
    }
}

/// Who takes a seat, as written on the command line: a command line, optionally prefixed by
/// the protocol its program speaks (`gomocup:./pbrain-foo`), or `builtin:LEVEL`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A program and its arguments, speaking `protocol`.
    Command {
        protocol: Protocol,
        words: Vec<String>,
    },
    Builtin(Level),
}

/// A player that cannot be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerSpecError {
    #[error("empty player command")]
    Empty,
    #[error("cannot split the command line '{0}' (unbalanced quotes?)")]
    Unsplittable(String),
    #[error(transparent)]
    UnknownBuiltin(#[from] UnknownLevel),
    #[error("built-in bots speak the native protocol only, not {0}")]
    BuiltinProtocol(Protocol),
}

impl Protocol {
    /// The margin a player of this protocol gets past its limit: `base` (`--margin-ms`), or
    /// the tolerance its own managers allow when that is larger. Gomocup brains time their
    /// moves to the limit as Piskvork and GomocupJudge judge them, with 1000 ms of tolerance;
    /// a native bot in the same game keeps `base`, since the margin is each player's own.
    pub fn margin(self, base: Duration) -> Duration {
        match self {
            Protocol::Gomocup => base.max(Duration::from_millis(1000)),
            _ => base,
        }
    }

    /// When a move's clock starts for this protocol's bots: CodinGame's timer starts once the
    /// bot has read its turn's input (its staff and its runner, cited in protocol.md 12), and
    /// CodinGame bots time themselves from that read; every other system's, when the request
    /// is sent.
    pub fn clock_start(self) -> ClockStart {
        match self {
            Protocol::Codingame => ClockStart::Read,
            _ => ClockStart::Written,
        }
    }

    /// How this protocol's players are timed where that differs from the referee's own (with
    /// `base` the match's margin), for the match and tournament headers.
    pub fn timing_note(self, base: Duration) -> Option<String> {
        let margin = self.margin(base);
        let mut notes = Vec::new();
        if margin != base {
            notes.push(format!(
                "margin {} ms, as its protocol's managers allow",
                margin.as_millis()
            ));
        }
        if self.clock_start() == ClockStart::Read {
            notes.push("its clock starts once it has read its input, as CodinGame's".into());
        }
        (!notes.is_empty()).then(|| notes.join("; "))
    }
}

impl PlayerSpec {
    /// The program and arguments that start this player. Built-in bots are the referee
    /// executable `referee_exe` re-invoked as `referee bot LEVEL --seed SEED`.
    pub fn command_line(&self, referee_exe: &Path, seed: u64) -> Vec<String> {
        match self {
            PlayerSpec::Command { words, .. } => words.clone(),
            PlayerSpec::Builtin(level) => vec![
                referee_exe.display().to_string(),
                "bot".into(),
                level.name().into(),
                "--seed".into(),
                seed.to_string(),
            ],
        }
    }

    /// The protocol the player's program speaks.
    pub fn protocol(&self) -> Protocol {
        match self {
            PlayerSpec::Command { protocol, .. } => *protocol,
            PlayerSpec::Builtin(_) => Protocol::Native,
        }
    }

    /// The same player speaking `protocol` (as a configuration's `protocol` key sets it).
    pub fn with_protocol(self, protocol: Protocol) -> Result<PlayerSpec, PlayerSpecError> {
        match self {
            PlayerSpec::Command { words, .. } => Ok(PlayerSpec::Command { protocol, words }),
            PlayerSpec::Builtin(_) if protocol != Protocol::Native => {
                Err(PlayerSpecError::BuiltinProtocol(protocol))
            }
            builtin => Ok(builtin),
        }
    }

    /// Reads `builtin:LEVEL`, `PROTOCOL:COMMAND` (a protocol of [`Protocol::ALL`]) or a plain
    /// command line (the native protocol).
    pub fn parse(text: &str) -> Result<PlayerSpec, PlayerSpecError> {
        if let Some(name) = text.strip_prefix("builtin:") {
            return Ok(PlayerSpec::Builtin(name.parse()?));
        }
        let (protocol, command) = match text.split_once(':') {
            Some((prefix, command)) => match prefix.parse() {
                Ok(protocol) => (protocol, command),
                Err(_) => (Protocol::Native, text),
            },
            None => (Protocol::Native, text),
        };
        let words =
            shlex::split(command).ok_or_else(|| PlayerSpecError::Unsplittable(text.into()))?;
        if words.is_empty() {
            return Err(PlayerSpecError::Empty);
        }
        Ok(PlayerSpec::Command { protocol, words })
    }

    /// Refuses, before any bot starts, a game the player's protocol cannot express.
    pub fn check_game(
        &self,
        spec: &GameSpec,
        opening: &[String],
    ) -> Result<(), adapters::UnsupportedGame> {
        adapters::check_game(self.protocol(), spec, opening)
    }

    /// Starts the player's program for one game or more, as a seat speaking its protocol and a
    /// bot of `supervisor`; its games must have passed [`PlayerSpec::check_game`].
    /// `referee_exe` and `seed` serve built-in bots (see [`PlayerSpec::command_line`]); `seed`
    /// also decides what an adapter leaves to chance.
    pub fn start(
        &self,
        supervisor: &Supervisor,
        referee_exe: &Path,
        seed: u64,
        options: ProcessOptions,
    ) -> Result<Box<dyn Seat + Send>, SpawnError> {
        adapters::start(
            supervisor,
            self.protocol(),
            &self.command_line(referee_exe, seed),
            options,
            seed,
        )
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(level) => write!(f, "builtin:{level}"),
            PlayerSpec::Command { protocol, words } => {
                if *protocol != Protocol::Native {
                    write!(f, "{protocol}:")?;
                }
                f.write_str(
                    &shlex::try_join(words.iter().map(String::as_str))
                        .unwrap_or_else(|_| words.join(" ")),
                )
            }
        }
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

    #[test]
    fn player_specs() {
        assert_eq!(
            PlayerSpec::parse("builtin:random").unwrap(),
            PlayerSpec::Builtin(Level::Random)
        );
        assert_eq!(
            PlayerSpec::parse("python3 'my bot.py' -v").unwrap(),
            PlayerSpec::Command {
                protocol: Protocol::Native,
                words: vec!["python3".into(), "my bot.py".into(), "-v".into()]
            }
        );
        assert_eq!(
            PlayerSpec::parse("python3 'my bot.py' -v")
                .unwrap()
                .to_string(),
            "python3 'my bot.py' -v"
        );
        assert!(PlayerSpec::parse("  ").is_err());
        assert!(PlayerSpec::parse("python3 'oops").is_err());
        assert_eq!(
            PlayerSpec::parse("builtin:3").unwrap().to_string(),
            "builtin:strong"
        );
        let err = PlayerSpec::parse("builtin:deep-blue").unwrap_err();
        assert!(err.to_string().contains("built-in bots: random"), "{err}");
    }

    #[test]
    fn a_prefix_names_the_protocol() {
        for protocol in Protocol::ALL {
            let text = format!("{protocol}:python3 'my bot.py'");
            let spec = PlayerSpec::parse(&text).unwrap();
            assert_eq!(spec.protocol(), protocol);
            assert_eq!(
                spec.command_line(Path::new("referee"), 0),
                ["python3", "my bot.py"]
            );
            let shown = spec.to_string();
            assert_eq!(PlayerSpec::parse(&shown).unwrap(), spec, "{shown}");
        }
        assert_eq!(
            PlayerSpec::parse("gomocup:./pbrain-x").unwrap().to_string(),
            "gomocup:./pbrain-x"
        );
        // A colon that names no protocol belongs to the command.
        let spec = PlayerSpec::parse("./bot --addr=host:80").unwrap();
        assert_eq!(spec.protocol(), Protocol::Native);
        assert_eq!(
            spec.command_line(Path::new("referee"), 0),
            ["./bot", "--addr=host:80"]
        );
        assert_eq!(PlayerSpec::parse("riddles:"), Err(PlayerSpecError::Empty));
        assert_eq!(
            PlayerSpec::parse("builtin:random")
                .unwrap()
                .with_protocol(Protocol::Gomocup),
            Err(PlayerSpecError::BuiltinProtocol(Protocol::Gomocup))
        );
        assert_eq!(
            PlayerSpec::parse("./x")
                .unwrap()
                .with_protocol(Protocol::Riddles)
                .unwrap()
                .to_string(),
            "riddles:./x"
        );
        assert!("piskvork"
            .parse::<Protocol>()
            .unwrap_err()
            .to_string()
            .contains("gomocup"));
    }
}
