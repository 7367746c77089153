//! The contest file (TOML): a tournament file (see [`referee_core::tournament::config`]) whose players
//! may also be source folders, built with language profiles. Its own keys are taken out here;
//! everything else is the tournament's, checked by the tournament's own parser once the
//! players are built, so the two files never disagree on a key.

use referee_cage::boxes::BoxIds;
use referee_cage::build::compile::BuildOptions;
use referee_cage::build::profile::{self, Profile, ProfileOverride};
use referee_cage::limits::Limits;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Limits of a build unless `build_limits` says otherwise: room for a compiler (a JVM, rustc)
/// and its temporary files, not for a runaway. The processes limit is each build's own when
/// the referee runs as root (each build is a box of its own; see `referee_cage::boxes`): room
/// for a parallel compiler's jobs and threads, not for a fork bomb.
pub const DEFAULT_BUILD_LIMITS: &str = "memory=4096,filesize=1024,processes=256,files=4096";
/// Wall-clock time a build may take unless `build_timeout_s` says otherwise.
pub const DEFAULT_BUILD_TIMEOUT_S: u64 = 300;

/// The contest's own top-level keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContestKeys {
    /// A folder holding one source folder per player, named after it.
    sources: Option<PathBuf>,
    #[serde(default)]
    languages: BTreeMap<String, ProfileOverride>,
    #[serde(default)]
    failed_check: FailedCheck,
    build_limits: Option<String>,
    build_timeout_s: Option<u64>,
    /// Where builds are cached [default: OUTPUT/builds].
    build_cache: Option<PathBuf>,
    /// The user ids the boxes are given, as root: `FIRST-LAST`.
    box_ids: Option<String>,
}

const CONTEST_KEYS: [&str; 7] = [
    "sources",
    "languages",
    "failed_check",
    "build_limits",
    "build_timeout_s",
    "build_cache",
    "box_ids",
];

/// What becomes of a player that fails `referee check`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailedCheck {
    /// Listed with the reason, and left out of the tournament.
    #[default]
    LeaveOut,
    /// Listed with the reason, and kept (flagged in the list of players).
    Keep,
}

/// A player of the contest as the file gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct ContestPlayer {
    /// Its name in the standings: its table's `name`, or its source folder's.
    pub name: String,
    /// Its source folder and the language named for it, if it is one.
    pub source: Option<(PathBuf, Option<String>)>,
    /// Its `[[players]]` table for the tournament, but for the command of a source folder.
    pub table: toml::Table,
}

/// A contest file read, before any build.
#[derive(Debug)]
pub struct Contest {
    /// The contest's and its tournament's name: the file's `name`, else the file's stem.
    pub name: String,
    /// The file's tournament keys, players left out.
    pub tournament: toml::Table,
    /// The source folders under `sources`, in name order, then the `[[players]]` tables.
    pub players: Vec<ContestPlayer>,
    /// The language profiles by name, the built-in ones with the file's `[languages]` over them,
    /// in the order detection tries them.
    pub profiles: Vec<(String, Profile)>,
    /// How the source folders are built: cache, limits and timeout.
    pub build: BuildOptions,
    /// What becomes of a player that fails its check.
    pub failed_check: FailedCheck,
    /// Where the contest writes its results: the file's `output`, else `results/NAME`.
    pub output: PathBuf,
    /// The file says `sandbox = false`: strangers' bots run unboxed, which the run warns of.
    pub unboxed: bool,
    /// The user ids the boxes (each build, each bot) are given as root: the file's
    /// `box_ids`, else the sandbox's default range.
    pub box_ids: BoxIds,
}

/// A contest file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ContestConfigError {
    /// The file could not be read (or is larger than an input file may be).
    #[error("cannot read {path}")]
    Unreadable {
        /// The contest file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a contest file: bad TOML, a bad key or value, an unknown language.
    #[error("{path}: {message}")]
    Invalid {
        /// The contest file.
        path: PathBuf,
        /// What is wrong, naming the key or player.
        message: String,
    },
}

impl Contest {
    /// Reads `path`; relative paths in it are taken from the directory the referee runs in, as
    /// in a tournament file.
    pub fn load(path: &Path) -> Result<Contest, ContestConfigError> {
        let text = referee_records::input_files::read_text(
            path,
            referee_records::input_files::MAX_INPUT_FILE,
        )
        .map_err(|source| ContestConfigError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        let default_name = path
            .file_stem()
            .map_or_else(|| "contest".into(), |s| s.to_string_lossy().into_owned());
        Contest::parse(&text, &default_name).map_err(|message| ContestConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        })
    }

    fn parse(text: &str, default_name: &str) -> Result<Contest, String> {
        let mut table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut own = toml::Table::new();
        for key in CONTEST_KEYS {
            if let Some(value) = table.remove(key) {
                own.insert(key.to_string(), value);
            }
        }
        let keys: ContestKeys = own.try_into().map_err(|e: toml::de::Error| e.to_string())?;
        let name = match table.get("name") {
            Some(toml::Value::String(name)) => name.clone(),
            _ => default_name.to_string(),
        };
        // The tournament's name, and so its default output, follow the contest file's.
        table
            .entry("name")
            .or_insert_with(|| toml::Value::String(name.clone()));
        let unboxed = contest_defaults(&mut table)?;
        let output = match table.get("output") {
            Some(toml::Value::String(dir)) => PathBuf::from(dir),
            _ => Path::new("results").join(&name),
        };

        let mut players = Vec::new();
        if let Some(dir) = &keys.sources {
            players.extend(source_folders(dir)?);
        }
        let listed = match table.remove("players") {
            None => Vec::new(),
            Some(toml::Value::Array(listed)) => listed,
            Some(_) => return Err("players: expected [[players]] tables".into()),
        };
        for (at, value) in listed.into_iter().enumerate() {
            let toml::Value::Table(mut player) = value else {
                return Err(format!("players[{at}]: expected a table"));
            };
            let name = match player.get("name") {
                Some(toml::Value::String(name)) => name.clone(),
                _ => return Err(format!("players[{at}]: name = \"...\" is missing")),
            };
            let language = match player.remove("language") {
                None => None,
                Some(toml::Value::String(language)) => Some(language),
                Some(_) => {
                    return Err(format!(
                        "players[{at}] ({name}).language: expected a string"
                    ))
                }
            };
            let source = match player.remove("source") {
                None => None,
                Some(toml::Value::String(dir)) => Some(PathBuf::from(dir)),
                Some(_) => return Err(format!("players[{at}] ({name}).source: expected a folder")),
            };
            let given = ["command", "builtin"]
                .iter()
                .any(|key| player.contains_key(*key));
            let source = match (source, given) {
                (Some(dir), false) => Some((dir, language)),
                (None, _) if language.is_some() => {
                    return Err(format!(
                        "players[{at}] ({name}).language: only for a player given as source = \"FOLDER\""
                    ))
                }
                (None, _) => None,
                (Some(_), true) => {
                    return Err(format!(
                        "players[{at}] ({name}): give source = \"FOLDER\", command = \"...\" or builtin = \"LEVEL\", only one"
                    ))
                }
            };
            players.push(ContestPlayer {
                name,
                source,
                table: player,
            });
        }
        let profiles = profile::with_overrides(&keys.languages)?;
        for player in &players {
            if let Some((_, Some(language))) = &player.source {
                if !profiles.iter().any(|(known, _)| known == language) {
                    let known: Vec<&str> = profiles.iter().map(|(n, _)| n.as_str()).collect();
                    return Err(format!(
                        "player {}: no language is named '{language}' (known: {}; add one in [languages.{language}])",
                        player.name,
                        known.join(", ")
                    ));
                }
            }
        }
        let limits = Limits::parse_over(
            Limits::default(),
            &format!(
                "{DEFAULT_BUILD_LIMITS},{}",
                keys.build_limits.as_deref().unwrap_or("")
            ),
        )
        .map_err(|e| format!("build_limits: {e}"))?;
        let build = BuildOptions::new(
            keys.build_cache.unwrap_or_else(|| output.join("builds")),
            limits,
            Duration::from_secs(keys.build_timeout_s.unwrap_or(DEFAULT_BUILD_TIMEOUT_S)),
        );
        let box_ids = match &keys.box_ids {
            Some(text) => text.parse().map_err(|e| format!("box_ids: {e}"))?,
            None => BoxIds::default(),
        };
        Ok(Contest {
            box_ids,
            name,
            tournament: table,
            players,
            profiles,
            build,
            failed_check: keys.failed_check,
            output,
            unboxed,
        })
    }

    /// The file's `concurrency`, if it is a usable one (the tournament's parser judges it).
    pub fn concurrency(&self) -> Option<usize> {
        self.tournament
            .get("concurrency")
            .and_then(toml::Value::as_integer)
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n >= 1)
    }

    /// Writes into `out` (`--out`): the tournament file says so, and builds are cached there
    /// unless the file names a cache.
    pub fn set_output(&mut self, out: &Path) {
        if self.build.cache == self.output.join("builds") {
            self.build.cache = out.join("builds");
        }
        self.output = out.to_path_buf();
        self.tournament.insert(
            "output".into(),
            toml::Value::String(out.to_string_lossy().into_owned()),
        );
    }

    /// The tournament file for `players` (name and `[[players]]` table each, commands filled
    /// in): the contest's keys but its own.
    pub fn tournament_text(&self, players: &[toml::Table]) -> String {
        let mut table = self.tournament.clone();
        table.insert(
            "players".into(),
            toml::Value::Array(players.iter().cloned().map(toml::Value::Table).collect()),
        );
        toml::to_string(&table).expect("a TOML table serialises")
    }
}

/// What a contest sets unless its file says otherwise, where a tournament file's defaults
/// suit trusted bots: every bot in the sandbox (strangers' code must not read or rewrite
/// each other's programs), a fresh process for every game (a bot's game then depends on its
/// seed alone, so one machine and a cluster play the same games), and each running game on a
/// processor of its own (no game slows another's bots). Returns whether the file
/// turned the sandbox off.
fn contest_defaults(table: &mut toml::Table) -> Result<bool, String> {
    for key in ["sandbox", "reuse_processes", "pin_games"] {
        match table.get(key) {
            None | Some(toml::Value::Boolean(_)) => {}
            Some(_) => return Err(format!("{key}: expected true or false")),
        }
    }
    table
        .entry("reuse_processes")
        .or_insert(toml::Value::Boolean(false));
    table
        .entry("pin_games")
        .or_insert(toml::Value::Boolean(true));
    let sandbox = table.entry("sandbox").or_insert(toml::Value::Boolean(true));
    Ok(sandbox.as_bool() == Some(false))
}

/// One player per folder of `dir`, named after it, in name order.
fn source_folders(dir: &Path) -> Result<Vec<ContestPlayer>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("sources: cannot read {}: {e}", dir.display()))?;
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| entry.path())
        .collect();
    folders.sort();
    Ok(folders
        .into_iter()
        .map(|folder| {
            let name = folder
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut table = toml::Table::new();
            table.insert("name".into(), toml::Value::String(name.clone()));
            ContestPlayer {
                name,
                source: Some((folder, None)),
                table,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contest_keys_are_taken_out_and_players_sorted_out() {
        let contest = Contest::parse(
            r#"
game = "tictactoe"
format = "swiss"
rounds = 2
failed_check = "keep"
build_timeout_s = 60
[languages.python]
run = "pypy3 {dir}/main.py"
[[players]]
name = "alice"
source = "subs/alice"
language = "cpp"
[[players]]
name = "boss"
builtin = "strong"
"#,
            "cup",
        )
        .unwrap();
        assert_eq!(contest.name, "cup");
        assert_eq!(contest.output, Path::new("results/cup"));
        assert_eq!(contest.failed_check, FailedCheck::Keep);
        assert_eq!(contest.build.timeout, Duration::from_secs(60));
        assert_eq!(contest.build.cache, Path::new("results/cup/builds"));
        assert_eq!(contest.build.limits.memory_mb, Some(4096));
        assert_eq!(contest.build.limits.processes, Some(256));
        assert_eq!(contest.build.max_output_bytes, 64 << 20);
        assert!(!contest.tournament.contains_key("failed_check"));
        // Strangers' bots are boxed, and start afresh for every game, unless the file says.
        assert_eq!(contest.tournament["sandbox"].as_bool(), Some(true));
        assert_eq!(contest.tournament["reuse_processes"].as_bool(), Some(false));
        assert_eq!(contest.tournament["pin_games"].as_bool(), Some(true));
        assert!(!contest.unboxed);
        let unboxed = Contest::parse("game = \"tictactoe\"\nsandbox = false\n", "c").unwrap();
        assert!(unboxed.unboxed);
        assert_eq!(unboxed.tournament["sandbox"].as_bool(), Some(false));
        assert_eq!(contest.tournament["rounds"].as_integer(), Some(2));
        assert_eq!(
            contest.players[0].source,
            Some((PathBuf::from("subs/alice"), Some("cpp".into())))
        );
        assert!(!contest.players[0].table.contains_key("source"));
        assert_eq!(contest.players[1].source, None);
        let text = contest.tournament_text(&[contest.players[1].table.clone()]);
        assert!(
            text.contains("builtin = \"strong\"") && text.contains("name = \"cup\""),
            "{text}"
        );
    }

    /// The default of `failed_check` is the one docs/contests.md states (it stated none).
    #[test]
    fn a_player_failing_its_check_is_left_out_by_default_as_the_docs_say() {
        let contest = Contest::parse("game = \"tictactoe\"\n", "c").unwrap();
        assert_eq!(contest.failed_check, FailedCheck::LeaveOut);
        let docs = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/contests.md"),
        )
        .unwrap();
        let docs = docs.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            docs.contains("(`failed_check = \"leave-out\"`, the default)"),
            "docs/contests.md"
        );
    }

    #[test]
    fn mistakes_are_named() {
        for (text, expected) in [
            ("game = \"tictactoe\"\nfailed_check = \"maybe\"\n", "unknown variant `maybe`"),
            (
                "game = \"tictactoe\"\n[[players]]\nname = \"a\"\nsource = \"x\"\nlanguage = \"cobol\"\n",
                "no language is named 'cobol'",
            ),
            (
                "game = \"tictactoe\"\n[[players]]\nname = \"a\"\nsource = \"x\"\ncommand = \"y\"\n",
                "only one",
            ),
            (
                "game = \"tictactoe\"\nbuild_limits = \"memory=lots\"\n",
                "build_limits: bad limits",
            ),
        ] {
            let error = Contest::parse(text, "c").unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
