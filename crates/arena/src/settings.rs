//! `arena.toml`: the arena's settings, every default given once here, and the commented file
//! `referee arena init` writes (which parses to exactly these defaults: a test says so).

use referee_cage::build::compile::BuildOptions;
use referee_cage::build::profile::{self, Profile, ProfileOverride};
use referee_cage::limits::Limits;
use referee_cage::Protocol;
use referee_core::table::{Player, TableSettings};
use referee_core::tournament::config::Tournament;
use referee_rules::clock::TimeControl;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// The file `referee arena init` writes: every key with its default, commented.
pub const TEMPLATE: &str = r#"# arena.toml: the settings of an arena (`referee arena serve DIR` reads DIR/arena.toml).
# Every key shown has its default value; delete a key to keep its default.

# Who may make an account: "open" (anyone), "invitation" (with invitation_code) or "closed"
# (only `referee arena token DIR USER` makes users).
signup = "open"
invitation_code = ""
# Mark the session cookie Secure: set it when the arena is served over HTTPS (behind a proxy).
secure_cookies = false
# Names the arena may be reached by besides the address it listens on (NAME or NAME:PORT).
allowed_hosts = []
# A person's clock in every game they play (30 s a move), as --time.
people_time = "move=30000"
# How long an invitation to a game waits to be accepted, in seconds.
invitation_expiry_s = 600
# A friendly match between two bots (unrated) is at most this many games, and a user may have
# this many friendly games waiting to be played at once.
friendly_games = 20

[limits]
upload_bytes = 2097152          # one upload (a .tar.gz of the sources), at most 2 MiB
unpacked_bytes = 16777216       # what it may unpack to, at most 16 MiB
files = 1000                    # files (and folders) it may hold
uploads_per_hour = 30           # uploads a user may make in an hour
min_free_mb = 256               # below this much free disk in DIR, no new game starts
build_timeout_s = 300           # wall-clock time one build may take
build_limits = "memory=4096,filesize=1024,processes=256,files=4096"

[matchmaking]
scheduled = 4                   # games waiting per ladder, besides those being played
window = 5.0                    # opponents within this many rating points (mu) ...
widen = 2.0                     # ... plus this many times the larger uncertainty (sigma)
placement = true                # a new version first plays each boss, with both colours

[workers]
lease_s = 30                    # a game being played is leased for this long, renewed every
                                # third of it; a game whose lease ran out is played again

# Language profiles, changed or added as in a contest file:
# [languages.python]
# run = "pypy3 {dir}/main.py"

[[ladders]]
name = "tictactoe"
game = "tictactoe"
params = {}                     # the game's parameters, as -p takes them
time = "move=1000"              # the time control, as --time
limits = "memory=512"           # each bot's limits, as --limits
protocols = ["native"]          # protocols a bot may speak (where the game allows them)
bosses = ["random", "greedy", "strong"]   # built-in bots, permanent landmarks
sandbox = true                  # every bot in the sandbox (bubblewrap)

[[ladders]]
name = "uttt"
game = "uttt"
params = {}
time = "move=1000"
limits = "memory=512"
protocols = ["native", "codingame", "theaigames", "riddles"]
bosses = ["random", "greedy", "strong"]
sandbox = true
"#;

/// The arena's settings as the file gives them.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Who may make an account.
    #[serde(default)]
    pub signup: Signup,
    /// The code an invitation sign-up must give.
    #[serde(default)]
    pub invitation_code: String,
    /// Mark the session cookie `Secure`.
    #[serde(default)]
    pub secure_cookies: bool,
    /// Extra names the server answers to.
    #[serde(default)]
    pub allowed_hosts: Vec<String>,
    /// A person's clock, as `--time`.
    #[serde(default = "default_people_time")]
    pub people_time: String,
    /// Seconds an invitation waits.
    #[serde(default = "default_invitation_expiry")]
    pub invitation_expiry_s: u64,
    /// Games a friendly match may have, and a user may have waiting.
    #[serde(default = "default_friendly_games")]
    pub friendly_games: u32,
    /// Sizes, rates and the free disk asked for.
    #[serde(default)]
    pub limits: ArenaLimits,
    /// How pairs are chosen.
    #[serde(default)]
    pub matchmaking: Matchmaking,
    /// The games' leases, for the server's slots and the workers alike.
    #[serde(default)]
    pub workers: Workers,
    /// Language profiles over the built-in ones.
    #[serde(default)]
    pub languages: BTreeMap<String, ProfileOverride>,
    /// The ladders.
    #[serde(default = "default_ladders")]
    pub ladders: Vec<LadderSettings>,
}

/// Who may make an account.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Signup {
    /// Anyone.
    #[default]
    Open,
    /// Whoever gives the invitation code.
    Invitation,
    /// Nobody: users are made with `referee arena token`.
    Closed,
}

/// Sizes, rates and disk.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default, expecting = "a table, [limits]")]
pub struct ArenaLimits {
    /// Bytes of one upload.
    pub upload_bytes: u64,
    /// Bytes an upload may unpack to.
    pub unpacked_bytes: u64,
    /// Entries an upload may hold.
    pub files: u64,
    /// Uploads per user per hour.
    pub uploads_per_hour: u32,
    /// Free MiB under which no game starts.
    pub min_free_mb: u64,
    /// Seconds a build may take.
    pub build_timeout_s: u64,
    /// A build's limits, as `--limits`.
    pub build_limits: String,
}

impl Default for ArenaLimits {
    fn default() -> Self {
        ArenaLimits {
            upload_bytes: 2 << 20,
            unpacked_bytes: 16 << 20,
            files: 1000,
            uploads_per_hour: 30,
            min_free_mb: 256,
            build_timeout_s: 300,
            build_limits: referee_contest::config::DEFAULT_BUILD_LIMITS.into(),
        }
    }
}

/// How pairs are chosen (see [`crate::ladder`]).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default, expecting = "a table, [matchmaking]")]
pub struct Matchmaking {
    /// Games kept waiting per ladder.
    pub scheduled: u32,
    /// The rating window's base, in rating points (mu).
    pub window: f64,
    /// How much the window widens per point of uncertainty.
    pub widen: f64,
    /// Placement games against each boss for a new version.
    pub placement: bool,
}

impl Default for Matchmaking {
    fn default() -> Self {
        Matchmaking {
            scheduled: 4,
            window: 5.0,
            widen: 2.0,
            placement: true,
        }
    }
}

/// How games being played are leased (see [`crate::scheduler`]).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default, expecting = "a table, [workers]")]
pub struct Workers {
    /// Seconds a claim or a renewal holds a game.
    pub lease_s: u64,
}

impl Default for Workers {
    fn default() -> Self {
        Workers { lease_s: 30 }
    }
}

impl Workers {
    /// The lease, at least a second.
    pub fn lease(&self) -> Duration {
        Duration::from_secs(self.lease_s.max(1))
    }
}

/// One ladder as the file gives it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(
    deny_unknown_fields,
    expecting = "a ladder's table, [[ladders]] with name = \"...\" and game = \"...\""
)]
pub struct LadderSettings {
    /// Its name in addresses and commands.
    pub name: String,
    /// The game.
    pub game: String,
    /// The game's parameters.
    #[serde(default)]
    pub params: toml::Table,
    /// The time control, as `--time`.
    #[serde(default = "default_time")]
    pub time: String,
    /// Each bot's limits, as `--limits`.
    #[serde(default = "default_limits")]
    pub limits: String,
    /// The protocols a bot may speak.
    #[serde(default = "default_protocols")]
    pub protocols: Vec<String>,
    /// Built-in levels playing as bosses.
    #[serde(default = "default_bosses")]
    pub bosses: Vec<String>,
    /// Bots run in the sandbox.
    #[serde(default = "yes")]
    pub sandbox: bool,
}

fn yes() -> bool {
    true
}
fn default_time() -> String {
    "move=1000".into()
}
fn default_limits() -> String {
    "memory=512".into()
}
fn default_protocols() -> Vec<String> {
    vec!["native".into()]
}
fn default_bosses() -> Vec<String> {
    vec!["random".into(), "greedy".into(), "strong".into()]
}

fn ladder(name: &str, protocols: &[&str]) -> LadderSettings {
    LadderSettings {
        name: name.into(),
        game: name.into(),
        params: toml::Table::new(),
        time: default_time(),
        limits: default_limits(),
        protocols: protocols.iter().map(|p| (*p).to_string()).collect(),
        bosses: default_bosses(),
        sandbox: true,
    }
}

fn default_invitation_expiry() -> u64 {
    600
}

fn default_friendly_games() -> u32 {
    20
}

fn default_people_time() -> String {
    "move=30000".into()
}

fn default_ladders() -> Vec<LadderSettings> {
    vec![
        ladder("tictactoe", &["native"]),
        ladder("uttt", &["native", "codingame", "theaigames", "riddles"]),
    ]
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            signup: Signup::Open,
            invitation_code: String::new(),
            secure_cookies: false,
            allowed_hosts: Vec::new(),
            people_time: default_people_time(),
            invitation_expiry_s: default_invitation_expiry(),
            friendly_games: default_friendly_games(),
            limits: ArenaLimits::default(),
            matchmaking: Matchmaking::default(),
            workers: Workers::default(),
            languages: BTreeMap::new(),
            ladders: default_ladders(),
        }
    }
}

/// A settings file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SettingsError(pub String);

/// A ladder ready to play: its settings and what the tournament parser made of them.
#[derive(Clone, Debug)]
pub struct Ladder {
    /// As the file gives it.
    pub settings: LadderSettings,
    /// How its games are played.
    pub table: TableSettings,
    /// The clock and limits every bot of the ladder gets (as a player template).
    pub template: Player,
    /// The protocols allowed.
    pub protocols: Vec<Protocol>,
}

/// The arena's settings, read and checked.
#[derive(Clone, Debug)]
pub struct Arena {
    /// The file as read.
    pub settings: Settings,
    /// The ladders, checked.
    pub ladders: Vec<Ladder>,
    /// The language profiles.
    pub profiles: Vec<(String, Profile)>,
    /// How builds run.
    pub build: BuildOptions,
    /// A person's clock.
    pub people_time: TimeControl,
}

impl Settings {
    /// Parses the text of an `arena.toml`.
    pub fn parse(text: &str) -> Result<Settings, SettingsError> {
        toml::from_str(text).map_err(|e| SettingsError(e.to_string()))
    }
}

impl Arena {
    /// Reads `DIR/arena.toml` and checks every ladder.
    pub fn load(dir: &Path) -> Result<Arena, SettingsError> {
        let path = dir.join("arena.toml");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| SettingsError(format!("cannot read {}: {e}", path.display())))?;
        let settings = Settings::parse(&text)
            .map_err(|e| SettingsError(format!("{}: {}", path.display(), e.0)))?;
        Arena::new(settings, dir)
    }

    /// Checks `settings` for an arena in `dir`.
    pub fn new(settings: Settings, dir: &Path) -> Result<Arena, SettingsError> {
        for host in &settings.allowed_hosts {
            referee_web::shield::check_allowed_host(host)
                .map_err(|e| SettingsError(format!("allowed_hosts: {e}")))?;
        }
        let mut ladders = Vec::new();
        for ladder in &settings.ladders {
            if !crate::store::valid_name(&ladder.name) {
                return Err(SettingsError(format!(
                    "ladder '{}': a name is 1 to 40 letters, digits, '-', '_' or '.'",
                    ladder.name
                )));
            }
            if ladders
                .iter()
                .any(|l: &Ladder| l.settings.name == ladder.name)
            {
                return Err(SettingsError(format!(
                    "two ladders are named '{}'",
                    ladder.name
                )));
            }
            ladders.push(
                check_ladder(ladder)
                    .map_err(|e| SettingsError(format!("ladder '{}': {e}", ladder.name)))?,
            );
        }
        let profiles = profile::with_overrides(&settings.languages).map_err(SettingsError)?;
        let limits = Limits::parse_over(
            Limits::default(),
            &format!(
                "{},{}",
                referee_contest::config::DEFAULT_BUILD_LIMITS,
                settings.limits.build_limits
            ),
        )
        .map_err(|e| SettingsError(format!("limits.build_limits: {e}")))?;
        let build = BuildOptions::new(
            dir.join("builds"),
            limits,
            Duration::from_secs(settings.limits.build_timeout_s),
        );
        let people_time = TimeControl::parse_over(TimeControl::default(), &settings.people_time)
            .map_err(|e| SettingsError(format!("people_time: {e}")))?;
        Ok(Arena {
            settings,
            ladders,
            profiles,
            build,
            people_time,
        })
    }

    /// The ladder named `name`.
    pub fn ladder(&self, name: &str) -> Option<&Ladder> {
        self.ladders.iter().find(|l| l.settings.name == name)
    }
}

/// Reads a ladder through the tournament parser, so that its game, time and limits mean
/// what they mean in a tournament file.
fn check_ladder(ladder: &LadderSettings) -> Result<Ladder, String> {
    let mut table = toml::Table::new();
    let text = |s: &str| toml::Value::String(s.to_string());
    table.insert("game".into(), text(&ladder.game));
    table.insert("params".into(), toml::Value::Table(ladder.params.clone()));
    table.insert("time".into(), text(&ladder.time));
    table.insert("limits".into(), text(&ladder.limits));
    table.insert("sandbox".into(), toml::Value::Boolean(ladder.sandbox));
    table.insert("reuse_processes".into(), toml::Value::Boolean(false));
    table.insert("records".into(), toml::Value::Boolean(false));
    let mut players = Vec::new();
    for (at, level) in ladder
        .bosses
        .iter()
        .chain(["random".to_string()].iter())
        .enumerate()
    {
        let mut player = toml::Table::new();
        player.insert("name".into(), text(&format!("p{at}")));
        player.insert("builtin".into(), text(level));
        players.push(toml::Value::Table(player));
    }
    players.push(players[0].clone());
    if let Some(toml::Value::Table(last)) = players.last_mut() {
        last.insert("name".into(), text("last"));
    }
    table.insert("players".into(), toml::Value::Array(players));
    let file = toml::to_string(&table).map_err(|e| e.to_string())?;
    let tournament =
        Tournament::from_text(&file, &ladder.name, Path::new(".")).map_err(|e| format!("{e:#}"))?;
    let mut protocols = Vec::new();
    for name in &ladder.protocols {
        let protocol: Protocol = name.parse().map_err(|e| format!("{e}"))?;
        protocol
            .check_game(&tournament.table.rules.spec, &[])
            .map_err(|e| e.to_string())?;
        protocols.push(protocol);
    }
    if protocols.is_empty() {
        return Err("protocols: name at least one".into());
    }
    let mut template = tournament.players[0].clone();
    template.label = String::new();
    Ok(Ladder {
        settings: ladder.clone(),
        table: tournament.table,
        template,
        protocols,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_parses_to_the_defaults() {
        assert_eq!(Settings::parse(TEMPLATE).unwrap(), Settings::default());
        assert_eq!(Settings::parse("").unwrap(), Settings::default());
        let arena = Arena::new(Settings::default(), Path::new("/tmp/arena")).unwrap();
        assert_eq!(arena.ladders.len(), 2);
        assert_eq!(arena.ladders[1].protocols.len(), 4);
    }

    #[test]
    fn mistakes_are_named() {
        let bad = |text: &str| {
            Arena::new(Settings::parse(text).unwrap(), Path::new("/tmp"))
                .unwrap_err()
                .0
        };
        assert!(
            bad("[[ladders]]\nname = \"g\"\ngame = \"gomoku\"\nprotocols = [\"riddles\"]\n")
                .contains("ladder 'g'")
        );
        assert!(bad("[[ladders]]\nname = \"a b\"\ngame = \"uttt\"\n").contains("a name is"));
        assert!(Settings::parse("signup = \"maybe\"\n").is_err());
    }
}
