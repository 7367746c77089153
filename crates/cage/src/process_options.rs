//! How a bot's process is started: what the referee's settings decide about each bot process.

use super::limits::Limits;
use std::path::PathBuf;
use std::time::Duration;

/// How a bot process is started.
#[derive(Clone, Debug)]
pub struct ProcessOptions {
    /// Longest accepted line from the bot, newline excluded.
    pub max_line: usize,
    /// Most stderr bytes kept per game; the rest is counted and dropped.
    pub stderr_cap: usize,
    /// How long a bot told to `quit` may take to exit before its group is killed.
    pub exit_grace: Duration,
    /// Working directory of the bot (the referee's when `None`).
    pub working_dir: Option<PathBuf>,
    /// Resource limits set in the bot before it starts (and its cgroups, where the referee can
    /// make them).
    pub limits: Limits,
    /// Run the bot under bubblewrap (see the crate-internal `seats::sandbox`); otherwise it
    /// gets a PID namespace of its own where it can (see `seats::pid_namespace`).
    pub sandbox: bool,
    /// The memory the bot is told it may use, in MiB (0: no limit told), for protocols that
    /// tell it (Gomocup's `INFO max_memory`); the enforced limit is in `limits`.
    pub memory_budget_mb: u64,
    /// How lines end on the bot's pipes.
    pub line_ends: LineEnds,
    /// When a move's clock starts.
    pub clock_start: ClockStart,
    /// Environment variables the bot does not inherit from the referee (`referee check` runs
    /// a bot without those that make output unbuffered, as a contest server would).
    pub env_removed: &'static [&'static str],
}

/// How lines end on a bot's pipes, in both directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnds {
    /// Lines to the bot end in LF; the bot's lines end in LF or CR LF (the referee's own
    /// protocol, CodinGame, riddles.io).
    #[default]
    Lf,
    /// Lines to the bot end in CR LF, and a CR alone also ends a line of the bot's: what
    /// Gomocup managers do and what Gomocup brains may rely on.
    CrLf,
}

/// When a move's clock starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClockStart {
    /// When the request is written into the bot's input pipe (the referee's own protocol).
    #[default]
    Written,
    /// When the bot has read the whole request out of its pipe (seen within about a
    /// millisecond), but no later than the move's limit after it was written: CodinGame's
    /// timer starts once a bot reads its turn's first input, and CodinGame bots time
    /// themselves from that read.
    Read,
}

impl Default for ProcessOptions {
    fn default() -> Self {
        ProcessOptions {
            max_line: referee_rules::protocol::DEFAULT_MAX_LINE,
            stderr_cap: 64 * 1024,
            exit_grace: Duration::from_millis(1000),
            working_dir: None,
            limits: Limits::default(),
            sandbox: false,
            memory_budget_mb: 350,
            line_ends: LineEnds::default(),
            clock_start: ClockStart::default(),
            env_removed: &[],
        }
    }
}
