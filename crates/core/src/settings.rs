//! How bots are refereed, in one type for both places that set it: `referee match` takes these
//! settings as options and a tournament file as keys of the same names (`--margin-ms` and
//! `margin_ms`), so both start from the same defaults, the [`Default`] impl below, which clap
//! also shows in `--help`. `referee check` and `referee play` take a few of them, worded for
//! their own use (so they declare those options themselves, with these defaults), and leave the
//! rest at their defaults.

use crate::arbiter::GameRules;
use crate::table::TableSettings;
use clap::Args;
use referee_cage::limits::{Limits, LimitsError};
use referee_cage::process_options::ProcessOptions;
use referee_rules::clock::{TimeControl, TimeSpecError};
use referee_rules::games::GameSpec;
use serde::Deserialize;
use std::time::Duration;

/// The settings as given; [`Settings::rules`] and its siblings turn them into what the library
/// runs on. Time controls and limits stay text: each player's own override them key by key, and
/// each caller words the error of a bad one its own way.
#[derive(Args, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(default)]
pub struct Settings {
    /// Time control for both players, in milliseconds: move=N (limit per move, default 1000),
    /// bank=N (a time bank; with move=N too, each move is also capped, as Gomocup's
    /// move=5000,bank=120000), increment=N (added to the bank after each move), first=N (limit
    /// of a player's first move, not charged to the bank), strikes=N and hard=N (moves over
    /// the limit forgiven, N of them, each at most hard=N ms over); the preset codingame is
    /// move=100,first=1000,strikes=2,hard=50.
    #[arg(long, value_name = "SPEC", default_value_t = Settings::default().time)]
    pub time: String,
    /// A reply may arrive this many milliseconds after the limit and still count (Gomocup
    /// brains get at least 1000, the tolerance of Gomocup's managers).
    #[arg(long, default_value_t = Settings::default().margin_ms)]
    pub margin_ms: u64,
    /// Time a bot has to answer `start` with `ready`, not charged to its clock.
    #[arg(long, default_value_t = Settings::default().startup_ms)]
    pub startup_ms: u64,
    /// Send the list of legal moves before every turn (for beginners' bots).
    #[arg(long)]
    pub legal_moves: bool,
    /// Resource limits for both bots: memory=MiB (default 4096; the address space of each
    /// process, and, where the referee can make a memory cgroup, the bot as a whole, its
    /// children and its sandbox's tmpfs included), cpu=seconds (CPU time of the bot's own
    /// process, default none), processes=N (processes and threads at once, default none; for
    /// the bot as a whole with a pids cgroup where the referee can make one, otherwise
    /// RLIMIT_NPROC, which counts the user's every process and does not hold for root),
    /// filesize=MiB (each file written, default 64; also the size of the sandbox's /tmp and
    /// /dev/shm), files=N (open files of each process, default 1024); 'none' lifts one, e.g.
    /// memory=none. Cgroups need root or a delegated cgroup v2.
    #[arg(long, value_name = "SPEC", default_value_t = Settings::default().limits)]
    pub limits: String,
    /// The memory, in MiB, that Gomocup brains are told they may use (INFO max_memory): a
    /// brain sizes its hash table to it, so it must stay well below what --limits enforces
    /// (it is capped at half the memory limit). Gomocup's own budget by default; 0 tells
    /// brains there is no limit.
    #[arg(long, value_name = "MIB", default_value_t = Settings::default().gomocup_memory_mb)]
    pub gomocup_memory_mb: u64,
    /// Run every bot under bubblewrap (0.8 or later) as the unprivileged user nobody, without
    /// capabilities, network or other processes in sight, seeing only the system's directories
    /// and its own (read-only) and a private /tmp. Refused where unprivileged user namespaces
    /// are not allowed. Without it, a bot runs as the referee's user, in a PID namespace of its
    /// own where the kernel allows one.
    #[arg(long)]
    pub sandbox: bool,
    /// Longest line, in bytes, accepted from a bot.
    #[arg(long, default_value_t = Settings::default().max_line)]
    pub max_line: usize,
    /// Seed handed to built-in bots.
    #[arg(long, default_value_t = Settings::default().seed)]
    pub seed: u64,
    /// Score a timeout that coincided with a stall of the referee's own machine (longer than
    /// the margin) instead of replaying the game.
    #[arg(long)]
    pub score_stalled: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            // The clock's own default, written the way `--time` takes it.
            time: format!("move={}", TimeControl::default().move_ms),
            margin_ms: 10,
            startup_ms: referee_rules::protocol::DEFAULT_STARTUP_MS,
            legal_moves: false,
            // Nothing over the defaults of [`Limits`].
            limits: String::new(),
            gomocup_memory_mb: 350,
            sandbox: false,
            max_line: referee_rules::protocol::DEFAULT_MAX_LINE,
            seed: 1,
            score_stalled: false,
        }
    }
}

/// A setting out of range. Its message is worded to follow the setting's name, which each
/// caller spells its own way (`--max-line` on the command line, `max_line` in a file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// `max_line` below [`Settings::MIN_MAX_LINE`].
    #[error("at least {} bytes", Settings::MIN_MAX_LINE)]
    MaxLine,
}

impl SettingsError {
    /// The setting at fault, as a file's key (the option is the same with dashes).
    pub fn key(&self) -> &'static str {
        match self {
            SettingsError::MaxLine => "max_line",
        }
    }
}

impl Settings {
    /// The shortest `max_line` allowed (protocol.md, `--max-line`).
    pub const MIN_MAX_LINE: usize = 16;

    /// Refuses a setting out of range (time controls and limits are checked as they are read,
    /// by [`Settings::time_control`] and [`Settings::limits`]).
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.max_line < Settings::MIN_MAX_LINE {
            return Err(SettingsError::MaxLine);
        }
        Ok(())
    }

    /// How a table plays games of `spec`. Whether a `multi` bot's process is kept is not among
    /// these settings: `referee match` always keeps it, a tournament file has a key for it.
    pub fn table(&self, spec: GameSpec, reuse_processes: bool) -> TableSettings {
        TableSettings {
            rules: self.rules(spec),
            process: self.process(),
            seed: self.seed,
            replay_stalled: self.replay_stalled(),
            reuse_processes,
        }
    }

    /// How games of `spec` are played: margin, start-up allowance and `legal` lines.
    pub fn rules(&self, spec: GameSpec) -> GameRules {
        GameRules {
            spec,
            margin: Duration::from_millis(self.margin_ms),
            startup: Duration::from_millis(self.startup_ms),
            send_legal_moves: self.legal_moves,
            watch_late: false,
        }
    }

    /// Each bot's process: line cap, sandbox and Gomocup memory budget; the rest as default.
    pub fn process(&self) -> ProcessOptions {
        ProcessOptions {
            max_line: self.max_line,
            sandbox: self.sandbox,
            memory_budget_mb: self.gomocup_memory_mb,
            ..ProcessOptions::default()
        }
    }

    /// Every player's time control, which a player's own may override key by key.
    pub fn time_control(&self) -> Result<TimeControl, TimeSpecError> {
        TimeControl::parse_over(TimeControl::default(), &self.time)
    }

    /// Every player's limits, which a player's own may override key by key.
    pub fn limits(&self) -> Result<Limits, LimitsError> {
        Limits::parse_over(Limits::default(), &self.limits)
    }

    /// Whether a game whose timeout coincided with a stall of the referee is played again.
    pub fn replay_stalled(&self) -> bool {
        !self.score_stalled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Options {
        #[command(flatten)]
        settings: Settings,
    }

    /// The defaults are written once, in `Default`: a `default_value_t` or a serde default
    /// that strays from it fails here.
    #[test]
    fn the_command_line_and_the_file_start_from_the_same_defaults() {
        let given = Options::try_parse_from(["referee"]).unwrap().settings;
        let read: Settings = toml::from_str("").unwrap();
        assert_eq!(given, Settings::default());
        assert_eq!(read, Settings::default());
        let defaults = Settings::default();
        assert_eq!(defaults.time_control().unwrap(), TimeControl::default());
        assert_eq!(defaults.limits().unwrap(), Limits::default());
        assert_eq!(
            defaults.process().max_line,
            ProcessOptions::default().max_line
        );
    }

    #[test]
    fn options_and_keys_have_the_same_names() {
        let given = Options::try_parse_from([
            "referee",
            "--time=move=200",
            "--margin-ms=20",
            "--startup-ms=300",
            "--legal-moves",
            "--limits=memory=512",
            "--sandbox",
            "--max-line=100",
            "--seed=9",
            "--score-stalled",
        ])
        .unwrap()
        .settings;
        let read: Settings = toml::from_str(
            "time = \"move=200\"\nmargin_ms = 20\nstartup_ms = 300\nlegal_moves = true\n\
             limits = \"memory=512\"\nsandbox = true\nmax_line = 100\nseed = 9\n\
             score_stalled = true\n",
        )
        .unwrap();
        assert_eq!(given, read);
        let rules = read.rules(GameSpec::Tictactoe);
        assert_eq!(rules.margin, Duration::from_millis(20));
        assert_eq!(rules.startup, Duration::from_millis(300));
        assert!(rules.send_legal_moves && read.process().sandbox && !read.replay_stalled());
        assert_eq!(read.limits().unwrap().memory_mb, Some(512));
        assert_eq!(read.time_control().unwrap().move_ms, 200);
    }

    #[test]
    fn a_line_cap_below_the_least_is_refused() {
        let mut settings = Settings::default();
        assert_eq!(settings.validate(), Ok(()));
        settings.max_line = Settings::MIN_MAX_LINE - 1;
        let error = settings.validate().unwrap_err();
        assert_eq!(
            format!("{}: {error}", error.key()),
            "max_line: at least 16 bytes"
        );
    }
}
