//! The seats of a game: who answers the referee's requests, a bot process or a person at the
//! console. A seat speaks the protocol's messages and measures time; the arbiter checks the
//! moves (the console also checks them first, to refuse a person's slip without a verdict). A
//! bot process speaks the referee's own protocol; the adapters translate for bots written for
//! other systems (Gomocup, CodinGame, theaigames and riddles.io).

pub mod adapters;
pub(crate) mod bot_cgroups;
mod bot_output;
mod bot_stderr;
pub mod boxes;
pub mod build;
mod cage;
pub(crate) mod cgroup;
pub mod console;
pub mod cpus;
pub mod host;
mod late;
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

pub use late::LateAnswer;
use process::SpawnError;
use process_options::{ClockStart, ProcessOptions};
use referee_records::transcript::SeatLog;
use referee_rules::games::GameSpec;
use referee_rules::protocol::{Ready, RefereeMessage};
use referee_rules::verdict::Fault;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use supervisor::Supervisor;

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
    /// A line for people logged and passed over (Gomocup's `DEBUG`, an empty line); the clock
    /// runs on.
    Skip,
    /// A line logged and passed over that is no move (Gomocup's `ERROR ...`, or `7 7` for
    /// `7,7`); the clock runs on, and a timeout names the last one, with what a move is (this).
    NoMove(&'static str),
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

    /// After the bot lost on time or never got ready: what it writes once the game is over,
    /// watched for up to three seconds (see [`LateAnswer`]), which tells its author a missing
    /// flush from a slow bot. `None` for a seat that is no bot's, and when it wrote nothing.
    fn late_answer(&mut self) -> Option<LateAnswer> {
        None
    }
}

/// The protocol a player's program speaks: the referee's own, or one of the foreign ones its
/// adapters translate. Each is defined in its adapter's file and listed once, in
/// [`adapters::PROTOCOLS`].
#[derive(Clone, Copy)]
pub struct Protocol(&'static adapters::Definition);

impl Protocol {
    /// The referee's own protocol (protocol.md).
    pub const NATIVE: Protocol = Protocol(&adapters::NATIVE);

    /// Every protocol, in the order of the registry.
    pub fn all() -> impl Iterator<Item = Protocol> {
        adapters::PROTOCOLS.into_iter().map(Protocol)
    }

    /// The name used as a player's prefix (`gomocup:./pbrain-x`) and in configurations.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The margin a player of this protocol gets past its limit: `base` (`--margin-ms`), or
    /// the tolerance its own managers allow when that is larger (Gomocup's 1000 ms, as
    /// Piskvork and GomocupJudge judge their brains); the margin is each player's own.
    pub fn margin(self, base: Duration) -> Duration {
        base.max(self.0.margin_floor)
    }

    /// When a move's clock starts for this protocol's bots (see [`ClockStart`]).
    pub fn clock_start(self) -> ClockStart {
        self.0.clock_start
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

    /// Checks that bots of this protocol can play `spec` from `opening`: a game the protocol
    /// cannot express is the user's mistake, reported before any bot starts.
    pub fn check_game(
        self,
        spec: &GameSpec,
        opening: &[String],
    ) -> Result<(), adapters::UnsupportedGame> {
        (self.0.check_game)(spec, opening).map_err(|reason| adapters::UnsupportedGame {
            protocol: self,
            game: spec.to_string(),
            reason,
        })
    }

    /// Starts `command` as a seat speaking this protocol, a bot of `supervisor`. The games it
    /// is then given must have passed [`Protocol::check_game`]. `seed` decides what the bot's
    /// own system leaves to chance (the order of CodinGame's valid actions), so that the same
    /// seed replays the same game.
    pub fn start(
        self,
        supervisor: &Supervisor,
        command: &[String],
        options: ProcessOptions,
        seed: u64,
    ) -> Result<Box<dyn Seat + Send>, SpawnError> {
        let options = ProcessOptions {
            clock_start: self.clock_start(),
            ..options
        };
        (self.0.start)(supervisor, command, options, seed)
    }
}

impl Default for Protocol {
    fn default() -> Protocol {
        Protocol::NATIVE
    }
}

impl PartialEq for Protocol {
    fn eq(&self, other: &Protocol) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Protocol {}

impl std::hash::Hash for Protocol {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A protocol name that is not in [`adapters::PROTOCOLS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown protocol '{0}' (protocols: {names})", names = protocol_names())]
pub struct UnknownProtocol(pub String);

/// The protocols' names, for messages: `native, gomocup, ...`.
fn protocol_names() -> String {
    let names: Vec<&str> = Protocol::all().map(Protocol::name).collect();
    names.join(", ")
}

impl FromStr for Protocol {
    type Err = UnknownProtocol;

    fn from_str(text: &str) -> Result<Protocol, UnknownProtocol> {
        Protocol::all()
            .find(|protocol| protocol.name() == text)
            .ok_or_else(|| UnknownProtocol(text.to_string()))
    }
}

impl Serialize for Protocol {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Protocol {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Protocol, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}
