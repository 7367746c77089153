//! The seats of a game: who answers the referee's requests, a bot process or a person at the
//! console. A seat speaks the protocol's messages and measures time; the arbiter checks the
//! moves (the console also checks them first, to refuse a person's slip without a verdict).

pub mod cleanup;
pub mod console;
pub mod limits;
pub mod pids_cgroup;
pub mod process;
pub mod sandbox;

use crate::bots::{Level, UnknownLevel};
use crate::protocol::{Ready, RefereeMessage};
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

/// Something a seat did wrong, or could not do, that forfeits its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No valid `ready` line within the start-up allowance.
    NotReady { detail: String },
    /// No answer before the watchdog gave up waiting.
    Timeout { waited: Duration },
    /// A line longer than the maximum, newline not yet seen.
    LineTooLong { limit: usize },
    /// A line written when no answer was asked for.
    Unrequested { line: String },
    /// The bot closed its output, exited or was killed before the game ended.
    Exited { detail: String },
    /// The bot died on one of its resource limits; `code` names it (`memory-limit`, ...).
    Limit { code: &'static str, detail: String },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::NotReady { detail } => write!(f, "not ready: {detail}"),
            Fault::Timeout { waited } => {
                write!(f, "no answer after {} ms", waited.as_millis())
            }
            Fault::LineTooLong { limit } => {
                write!(f, "wrote a line longer than {limit} bytes")
            }
            Fault::Unrequested { line } => {
                write!(f, "wrote when not asked: '{}'", shorten(line, 80))
            }
            Fault::Exited { detail } | Fault::Limit { detail, .. } => f.write_str(detail),
        }
    }
}

/// Cuts `text` to at most `max` characters for messages, marking the cut.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut cut: String = text.chars().take(max).collect();
        cut.push_str("...");
        cut
    }
}

/// A line a seat answered and how long it took: from the moment the request was flushed to
/// the moment the answer's newline was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub line: String,
    pub elapsed: Duration,
    /// CPU time the bot used meanwhile, where the system can tell.
    pub cpu: Option<Duration>,
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

/// What a seat leaves behind after a game: its transcript and (for processes) its stderr.
#[derive(Clone, Debug, Default)]
pub struct SeatLog {
    pub transcript: Vec<TranscriptLine>,
    pub stderr: Vec<u8>,
    /// Bytes of stderr dropped past the cap.
    pub stderr_dropped: u64,
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
}

/// Who takes a seat, as written on the command line: a command line, or `builtin:LEVEL`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Command(Vec<String>),
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
}

impl PlayerSpec {
    /// The program and arguments that start this player. Built-in bots are the referee
    /// executable `referee_exe` re-invoked as `referee bot LEVEL --seed SEED`.
    pub fn command_line(&self, referee_exe: &Path, seed: u64) -> Vec<String> {
        match self {
            PlayerSpec::Command(words) => words.clone(),
            PlayerSpec::Builtin(level) => vec![
                referee_exe.display().to_string(),
                "bot".into(),
                level.name().into(),
                "--seed".into(),
                seed.to_string(),
            ],
        }
    }

    pub fn parse(text: &str) -> Result<PlayerSpec, PlayerSpecError> {
        if let Some(name) = text.strip_prefix("builtin:") {
            return Ok(PlayerSpec::Builtin(name.parse()?));
        }
        let words = shlex::split(text).ok_or_else(|| PlayerSpecError::Unsplittable(text.into()))?;
        if words.is_empty() {
            return Err(PlayerSpecError::Empty);
        }
        Ok(PlayerSpec::Command(words))
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(level) => write!(f, "builtin:{level}"),
            PlayerSpec::Command(words) => f.write_str(
                &shlex::try_join(words.iter().map(String::as_str))
                    .unwrap_or_else(|_| words.join(" ")),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs() {
        assert_eq!(
            PlayerSpec::parse("builtin:random").unwrap(),
            PlayerSpec::Builtin(Level::Random)
        );
        assert_eq!(
            PlayerSpec::parse("python3 'my bot.py' -v").unwrap(),
            PlayerSpec::Command(vec!["python3".into(), "my bot.py".into(), "-v".into()])
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
    fn long_lines_are_shortened_for_messages() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdef", 3), "abc...");
    }
}
