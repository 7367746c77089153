//! The seats of a game: who answers the referee's requests, a bot process or a person at the
//! console. A seat speaks the protocol's messages and measures time; the arbiter checks the
//! moves (the console also checks them first, to refuse a person's slip without a verdict). A
//! bot process speaks the referee's own protocol; the adapters translate for bots written for
//! other systems (Gomocup, CodinGame, theaigames and riddles.io).

pub mod adapters;
pub(crate) mod bot_cgroups;
mod bot_output;
mod bot_stderr;
pub mod build;
mod cage;
pub(crate) mod cgroup;
pub mod console;
pub mod cpus;
pub mod host;
mod leftovers;
pub mod limits;
pub(crate) mod memory_cgroup;
pub(crate) mod pid_namespace;
pub(crate) mod pids_cgroup;
mod pipes;
pub mod process;
pub mod process_options;
mod procfs;
pub mod requests;
pub mod sandbox;
pub mod stall;
pub mod supervisor;

use process_options::ClockStart;
use referee_records::transcript::SeatLog;
use referee_rules::protocol::{Ready, RefereeMessage};
use referee_rules::verdict::Fault;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A line a seat answered and how long it took: from the moment the request was flushed to
/// the moment the answer's newline was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The answer in the referee's own protocol.
    pub line: String,
    /// From the flush of the request to the read of the answer's newline.
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
    /// Every protocol, the referee's own first.
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
