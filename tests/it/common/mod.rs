//! Helpers shared by the integration tests: the referee binary, the test bots (tests/bots/), the
//! search for bot processes a test left behind, and [`Match`], a builder for `referee match`
//! that checks the run and reads what it recorded:
//!
//! ```ignore
//! let outcome = Match::new("tictactoe")
//!     .a(scripted("slow:600"))
//!     .b(scripted("good"))
//!     .time("move=200")
//!     .games(2)
//!     .run();
//! assert_eq!(outcome.records[0]["result"]["reason"], "timeout");
//! ```

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The standard output of a command that must have succeeded; its stderr is shown if not.
pub(crate) fn succeeded(output: &Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

pub(crate) fn referee() -> Command {
    Command::new(env!("CARGO_BIN_EXE_referee"))
}

/// A file of the repository.
pub(crate) fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

pub(crate) fn script() -> PathBuf {
    repo_file("tests/bots/scripted.py")
}

/// A unique word put on each bot's command line, to find its processes afterwards.
pub(crate) fn marker() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "marker-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// The scripted bot misbehaving as `mode`, tagged with `marker`.
pub(crate) fn bot(mode: &str, marker: &str) -> String {
    scripted(mode).command(marker)
}

/// Processes whose command line (or status, for zombies) mentions `marker`, after giving the
/// kernel (and a referee finishing its last games) a moment to end them.
pub(crate) fn survivors(marker: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
                continue;
            };
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            // Zombies have an empty cmdline; check their status too.
            let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
            if cmdline.contains(marker) || (status.contains("State:\tZ") && status.contains(marker))
            {
                found.push(format!(
                    "{}: {cmdline}",
                    entry.file_name().to_string_lossy()
                ));
            }
        }
        if found.is_empty() || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The referee's random bot.
pub(crate) const RANDOM: &str = "builtin:random";

/// A player of a test match. The test bots get the match's marker on their command line, so
/// that [`Match::run`] can tell whether any of their processes survived it.
#[derive(Clone, Debug)]
pub(crate) enum Bot {
    /// tests/bots/scripted.py in a mode (the script lists them).
    Scripted(String),
    /// A Gomocup brain, tests/bots/gomocup_brain.py, in a mode.
    Gomocup(String),
    /// A CodinGame ultimate tic-tac-toe bot, tests/bots/codingame_uttt.py, in a mode.
    Codingame(String),
    /// A theaigames or riddles.io bot, tests/bots/riddles_uttt.py: the dialect and a mode.
    Riddles(&'static str, String),
    /// A hostile bot, tests/bots/bytes.py, in a mode, speaking `protocol` (a prefix such as
    /// `gomocup:`, or nothing for the referee's own).
    Hostile {
        protocol: &'static str,
        mode: String,
    },
    /// A command line as it is: a built-in bot, a starter bot.
    Command(String),
}

impl Bot {
    /// The player as `referee match` takes it.
    pub(crate) fn command(&self, marker: &str) -> String {
        let python = |file: &str| format!("python3 {}", repo_file(file).display());
        match self {
            Bot::Scripted(mode) => format!("{} {mode} {marker}", python("tests/bots/scripted.py")),
            Bot::Gomocup(mode) => format!(
                "gomocup:{} {mode} {marker}",
                python("tests/bots/gomocup_brain.py")
            ),
            Bot::Codingame(mode) => format!(
                "codingame:{} {mode} {marker}",
                python("tests/bots/codingame_uttt.py")
            ),
            Bot::Riddles(dialect, mode) => format!(
                "{dialect}:{} {dialect} {mode} {marker}",
                python("tests/bots/riddles_uttt.py")
            ),
            Bot::Hostile { protocol, mode } => format!(
                "{protocol}{} {mode} {marker}",
                python("tests/bots/bytes.py")
            ),
            Bot::Command(command) => command.clone(),
        }
    }
}

impl From<&str> for Bot {
    fn from(command: &str) -> Bot {
        Bot::Command(command.to_string())
    }
}

impl From<String> for Bot {
    fn from(command: String) -> Bot {
        Bot::Command(command)
    }
}

/// The scripted test bot in `mode`.
pub(crate) fn scripted(mode: &str) -> Bot {
    Bot::Scripted(mode.to_string())
}

/// The test Gomocup brain in `mode`.
pub(crate) fn brain(mode: &str) -> Bot {
    Bot::Gomocup(mode.to_string())
}

/// The test CodinGame bot in `mode`.
pub(crate) fn codingame(mode: &str) -> Bot {
    Bot::Codingame(mode.to_string())
}

/// The test theaigames or riddles.io bot: `dialect` is the protocol's name.
pub(crate) fn riddles(dialect: &'static str, mode: &str) -> Bot {
    Bot::Riddles(dialect, mode.to_string())
}

/// The hostile test bot in `mode`, speaking the referee's own protocol.
pub(crate) fn hostile(mode: &str) -> Bot {
    Bot::Hostile {
        protocol: "",
        mode: mode.to_string(),
    }
}

/// The hostile test bot as a Gomocup brain, in `mode`.
pub(crate) fn hostile_brain(mode: &str) -> Bot {
    Bot::Hostile {
        protocol: "gomocup:",
        mode: mode.to_string(),
    }
}

/// A Python starter bot of bots/python/.
pub(crate) fn starter(file: &str) -> Bot {
    Bot::Command(format!(
        "python3 {}",
        repo_file(&format!("bots/python/{file}")).display()
    ))
}

/// `referee match GAME A B ...` to run: the players, the options, and where the games are
/// recorded (a new temporary directory unless [`Match::record`] names one).
#[derive(Clone, Debug)]
pub(crate) struct Match {
    game: String,
    a: Bot,
    b: Bot,
    args: Vec<String>,
    record: Option<PathBuf>,
    marker: String,
}

impl Match {
    /// A match of `game` between two random bots, until [`Match::a`] and [`Match::b`] say
    /// otherwise.
    pub(crate) fn new(game: &str) -> Match {
        Match {
            game: game.to_string(),
            a: RANDOM.into(),
            b: RANDOM.into(),
            args: Vec::new(),
            record: None,
            marker: marker(),
        }
    }

    pub(crate) fn a(mut self, bot: impl Into<Bot>) -> Match {
        self.a = bot.into();
        self
    }

    pub(crate) fn b(mut self, bot: impl Into<Bot>) -> Match {
        self.b = bot.into();
        self
    }

    /// `--games N`.
    pub(crate) fn games(self, games: u32) -> Match {
        self.args(&["--games", &games.to_string()])
    }

    /// `--time SPEC`.
    pub(crate) fn time(self, spec: &str) -> Match {
        self.args(&["--time", spec])
    }

    /// `-p NAME=VALUE`, a game parameter.
    pub(crate) fn param(self, param: &str) -> Match {
        self.args(&["-p", param])
    }

    /// `--opening MOVES`.
    pub(crate) fn opening(self, moves: &str) -> Match {
        self.args(&["--opening", moves])
    }

    /// `--legal-moves`.
    pub(crate) fn legal_moves(self) -> Match {
        self.args(&["--legal-moves"])
    }

    /// Any other options, as they are.
    pub(crate) fn args(mut self, args: &[&str]) -> Match {
        self.args.extend(args.iter().map(|arg| (*arg).to_string()));
        self
    }

    /// Records the games into `dir` rather than into a temporary directory of the outcome's.
    pub(crate) fn record(mut self, dir: &Path) -> Match {
        self.record = Some(dir.to_path_buf());
        self
    }

    /// The word on the test bots' command lines.
    pub(crate) fn marker(&self) -> &str {
        &self.marker
    }

    /// The command, for a test that drives the process itself (recording only where
    /// [`Match::record`] said).
    pub(crate) fn command(&self) -> Command {
        let mut command = referee();
        command
            .arg("match")
            .arg(&self.game)
            .arg(self.a.command(&self.marker))
            .arg(self.b.command(&self.marker))
            .args(&self.args);
        if let Some(dir) = &self.record {
            command.arg("--record").arg(dir);
        }
        command.stdin(Stdio::null());
        command
    }

    /// Runs the match, asserting a clean exit and that no test bot's process survives it, and
    /// reads every game's record.
    pub(crate) fn run(self) -> Outcome {
        let (dir, temporary) = match &self.record {
            Some(dir) => (dir.clone(), None),
            None => {
                let temporary = tempfile::tempdir().unwrap();
                (temporary.path().to_path_buf(), Some(temporary))
            }
        };
        let started = Instant::now();
        let output = self.clone().record(&dir).command().output().unwrap();
        let took = started.elapsed();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            output.status.success(),
            "referee match {} failed: {stderr}\n{stdout}",
            self.game
        );
        let left = survivors(&self.marker);
        assert!(left.is_empty(), "bot processes left running: {left:?}");
        let mut records = Vec::new();
        for number in 1.. {
            let Ok(text) = std::fs::read_to_string(dir.join(format!("{number:04}.json"))) else {
                break;
            };
            records.push(serde_json::from_str(&text).unwrap());
        }
        Outcome {
            stdout,
            records,
            took,
            dir,
            _temporary: temporary,
        }
    }

    /// Runs a match the referee must refuse (exit code 2) without leaving a bot running;
    /// returns its message.
    pub(crate) fn refused(self) -> String {
        let output = self.command().output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{self:?}: {stderr}");
        let left = survivors(&self.marker);
        assert!(left.is_empty(), "bot processes left running: {left:?}");
        stderr
    }
}

/// A match that ran to its end.
pub(crate) struct Outcome {
    pub stdout: String,
    /// Every game's record, in order.
    pub records: Vec<Value>,
    /// How long the referee ran.
    pub took: Duration,
    /// Where the games were recorded.
    pub dir: PathBuf,
    _temporary: Option<tempfile::TempDir>,
}

impl Outcome {
    /// The record of a one-game match.
    pub(crate) fn record(&self) -> &Value {
        assert_eq!(self.records.len(), 1, "{}", self.stdout);
        &self.records[0]
    }

    /// The text of a file of the record directory, `0001.transcript.txt` for example.
    pub(crate) fn file(&self, name: &str) -> String {
        let path = self.dir.join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Whether the record directory has a file of this name.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.dir.join(name).exists()
    }

    /// Every file of the record directory whose name ends with `suffix`, with its text, by
    /// name.
    pub(crate) fn files_ending(&self, suffix: &str) -> Vec<(String, String)> {
        let mut files: Vec<(String, String)> = std::fs::read_dir(&self.dir)
            .unwrap()
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(suffix))
            .map(|name| {
                let text = self.file(&name);
                (name, text)
            })
            .collect();
        files.sort();
        files
    }
}

/// The moves of a game record: side, notation, time in microseconds.
pub(crate) fn record_moves(record: &Value) -> Vec<(referee_rules::games::Side, String, u64)> {
    use referee_rules::games::Side;
    record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| {
            let side = if mv["side"] == "first" {
                Side::First
            } else {
                Side::Second
            };
            (
                side,
                mv["move"].as_str().unwrap().to_string(),
                mv["us"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The lines a transcript shows the referee sent to player `label` (`A` or `B`), in order.
pub(crate) fn sent_to<'a>(transcript: &'a str, label: &str) -> Vec<&'a str> {
    let mark = format!(" {label}> ");
    transcript
        .lines()
        .filter_map(|line| line.split_once(mark.as_str()).map(|(_, text)| text))
        .collect()
}
