//! Who takes a seat, as an organiser names it: a program speaking a protocol, or one of the
//! built-in bots (re-invoked as `referee bot LEVEL`). Lives above the cage, since naming a
//! built-in level needs the bots, which the cage must not link.

use referee_bots::{BotSpec, BotSpecError};
use referee_cage::adapters;
use referee_cage::process::SpawnError;
use referee_cage::process_options::ProcessOptions;
use referee_cage::supervisor::Supervisor;
use referee_cage::{Protocol, Seat};
use referee_rules::games::GameSpec;
use std::fmt;
use std::path::Path;
use std::time::Duration;

/// Who takes a seat, as written on the command line: a command line, optionally prefixed by
/// the protocol its program speaks (`gomocup:./pbrain-foo`), or `builtin:LEVEL` (with a
/// fixed search, `builtin:strong,nodes=N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A program and its arguments, speaking `protocol`.
    Command {
        /// How the referee talks to the program: natively, or through an adapter.
        protocol: Protocol,
        /// The program, then its arguments, split as a shell would.
        words: Vec<String>,
    },
    /// One of the referee's own bots, run as `referee bot LEVEL`.
    Builtin(BotSpec),
}

/// A player that cannot be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerSpecError {
    /// Nothing, or only blanks, where a command was expected.
    #[error("empty player command")]
    Empty,
    /// A command line with quotes that do not close (the text as given).
    #[error("cannot split the command line '{0}' (unbalanced quotes?)")]
    Unsplittable(String),
    /// `builtin:` with a level that does not exist, or a parameter it does not take.
    #[error(transparent)]
    UnknownBuiltin(#[from] BotSpecError),
    /// A built-in bot given another protocol than the native one.
    #[error("built-in bots speak the native protocol only, not {0}")]
    BuiltinProtocol(Protocol),
}

impl PlayerSpec {
    /// The program and arguments that start this player. Built-in bots are the referee
    /// executable `referee_exe` re-invoked as `referee bot LEVEL --seed SEED --startup-ms MS`,
    /// told the start-up allowance `startup` so that they prepare within it.
    pub fn command_line(&self, referee_exe: &Path, seed: u64, startup: Duration) -> Vec<String> {
        match self {
            PlayerSpec::Command { words, .. } => words.clone(),
            PlayerSpec::Builtin(bot) => vec![
                referee_exe.display().to_string(),
                "bot".into(),
                bot.to_string(),
                "--seed".into(),
                seed.to_string(),
                "--startup-ms".into(),
                startup.as_millis().to_string(),
            ],
        }
    }

    /// The protocol the player's program speaks.
    pub fn protocol(&self) -> Protocol {
        match self {
            PlayerSpec::Command { protocol, .. } => *protocol,
            PlayerSpec::Builtin(_) => Protocol::NATIVE,
        }
    }

    /// The same player speaking `protocol` (as a configuration's `protocol` key sets it).
    pub fn with_protocol(self, protocol: Protocol) -> Result<PlayerSpec, PlayerSpecError> {
        match self {
            PlayerSpec::Command { words, .. } => Ok(PlayerSpec::Command { protocol, words }),
            PlayerSpec::Builtin(_) if protocol != Protocol::NATIVE => {
                Err(PlayerSpecError::BuiltinProtocol(protocol))
            }
            builtin => Ok(builtin),
        }
    }

    /// Reads `builtin:LEVEL[,nodes=N]`, `PROTOCOL:COMMAND` (a protocol of [`Protocol::all`]) or a plain
    /// command line (the native protocol).
    pub fn parse(text: &str) -> Result<PlayerSpec, PlayerSpecError> {
        if let Some(name) = text.strip_prefix("builtin:") {
            return Ok(PlayerSpec::Builtin(name.parse()?));
        }
        let (protocol, command) = match text.split_once(':') {
            Some((prefix, command)) => match prefix.parse() {
                Ok(protocol) => (protocol, command),
                Err(_) => (Protocol::NATIVE, text),
            },
            None => (Protocol::NATIVE, text),
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
        self.protocol().check_game(spec, opening)
    }

    /// Starts the player's program for one game or more, as a seat speaking its protocol and a
    /// bot of `supervisor`; its games must have passed [`PlayerSpec::check_game`].
    /// `referee_exe`, `seed` and `startup` serve built-in bots (see
    /// [`PlayerSpec::command_line`]); `seed` also decides what an adapter leaves to chance.
    pub fn start(
        &self,
        supervisor: &Supervisor,
        referee_exe: &Path,
        seed: u64,
        startup: Duration,
        options: ProcessOptions,
    ) -> Result<Box<dyn Seat + Send>, SpawnError> {
        self.protocol().start(
            supervisor,
            &self.command_line(referee_exe, seed, startup),
            options,
            seed,
        )
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(bot) => write!(f, "builtin:{bot}"),
            PlayerSpec::Command { protocol, words } => {
                if *protocol != Protocol::NATIVE {
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
    use referee_bots::Level;

    #[test]
    fn player_specs() {
        assert_eq!(
            PlayerSpec::parse("builtin:random").unwrap(),
            PlayerSpec::Builtin(Level::Random.into())
        );
        assert_eq!(
            PlayerSpec::parse("python3 'my bot.py' -v").unwrap(),
            PlayerSpec::Command {
                protocol: Protocol::NATIVE,
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
        let fixed = PlayerSpec::parse("builtin:3,nodes=500").unwrap();
        assert_eq!(fixed.to_string(), "builtin:strong,nodes=500");
        assert_eq!(
            fixed.command_line(Path::new("referee"), 7, Duration::from_secs(5)),
            [
                "referee",
                "bot",
                "strong,nodes=500",
                "--seed",
                "7",
                "--startup-ms",
                "5000"
            ]
        );
    }

    #[test]
    fn a_prefix_names_the_protocol() {
        for protocol in Protocol::all() {
            let text = format!("{protocol}:python3 'my bot.py'");
            let spec = PlayerSpec::parse(&text).unwrap();
            assert_eq!(spec.protocol(), protocol);
            assert_eq!(
                spec.command_line(Path::new("referee"), 0, Duration::from_secs(5)),
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
        assert_eq!(spec.protocol(), Protocol::NATIVE);
        assert_eq!(
            spec.command_line(Path::new("referee"), 0, Duration::from_secs(5)),
            ["./bot", "--addr=host:80"]
        );
        assert_eq!(PlayerSpec::parse("riddles:"), Err(PlayerSpecError::Empty));
        assert_eq!(
            PlayerSpec::parse("builtin:random")
                .unwrap()
                .with_protocol("gomocup".parse().unwrap()),
            Err(PlayerSpecError::BuiltinProtocol("gomocup".parse().unwrap()))
        );
        assert_eq!(
            PlayerSpec::parse("./x")
                .unwrap()
                .with_protocol("riddles".parse().unwrap())
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
