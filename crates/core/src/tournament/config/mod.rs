//! The tournament configuration file (TOML), checked completely before any bot starts: an
//! unknown key, a missing one or a bad value is refused with a message naming it.

use super::openings::{DeckOrder, Openings, OpeningsError};
use super::schedule::{Format, Schedule};
use crate::players::{PlayerSpec, PlayerSpecError};
use crate::settings::Settings;
use crate::table::{Player, TableSettings};
use referee_cage::limits::{Limits, LimitsError};
use referee_cage::Protocol;
use referee_rules::clock::{TimeControl, TimeSpecError};
use referee_rules::games::{GameSpec, SpecError};
use serde::de::{self, DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The file as written, but for the [`Settings`], which are read from the same top-level
/// table. Its own tables refuse keys they do not know; the top level's are checked by
/// [`refuse_unknown_keys`].
#[derive(Debug, Deserialize)]
struct RawConfig {
    /// Defaults to the file's name without its extension.
    name: Option<String>,
    game: String,
    #[serde(default)]
    params: toml::Table,
    players: Vec<RawPlayer>,
    #[serde(default)]
    format: FormatName,
    #[serde(default)]
    gauntlet: Vec<String>,
    /// Rounds of a Swiss tournament.
    rounds: Option<u32>,
    /// Tie-break game pairs of a knock-out match drawn after its games.
    tiebreaks: Option<u32>,
    /// Games per pairing.
    #[serde(default = "default_games")]
    games: u32,
    openings: Option<RawOpenings>,
    /// Games played at once (`-j` overrides it).
    concurrency: Option<usize>,
    /// Output directory (`--out` overrides it).
    output: Option<PathBuf>,
    #[serde(default = "default_true")]
    reuse_processes: bool,
    /// Each game on a processor of its own (its table and both bots), as fastchess' affinity
    /// option does: running games never share a processor.
    #[serde(default)]
    pin_games: bool,
    #[serde(default)]
    records: RecordsKey,
}

/// How a tournament keeps its games' records: the `records` key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordLayout {
    /// One records file beside the journal, a line per game (`records = true`, the default).
    Pack,
    /// Files of its own for each game in `games/` (`records = "files"`).
    Files,
}

/// The `records` key as written: `true`, `false` or `"files"`.
#[derive(Debug)]
struct RecordsKey(Option<RecordLayout>);

impl Default for RecordsKey {
    fn default() -> RecordsKey {
        RecordsKey(Some(RecordLayout::Pack))
    }
}

impl<'de> Deserialize<'de> for RecordsKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RecordsKey, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = RecordsKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("true (one records file, games.jsonl), \"files\" (files of its own for each game) or false (no records)")
            }
            fn visit_bool<E: de::Error>(self, kept: bool) -> Result<RecordsKey, E> {
                Ok(RecordsKey(kept.then_some(RecordLayout::Pack)))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<RecordsKey, E> {
                match text {
                    "files" => Ok(RecordsKey(Some(RecordLayout::Files))),
                    _ => Err(E::invalid_value(de::Unexpected::Str(text), &self)),
                }
            }
        }
        deserializer.deserialize_any(KeyVisitor)
    }
}

fn default_games() -> u32 {
    2
}
fn default_true() -> bool {
    true
}

/// Refuses a top-level key that neither [`RawConfig`] nor [`Settings`] reads, at its line, as
/// `deny_unknown_fields` does for one struct. (With the settings a `#[serde(flatten)]` field,
/// serde would read them from a copy of the values without their places in the file, and a
/// bad value would be reported at the file's first line.)
fn refuse_unknown_keys(text: &str) -> Result<(), toml::de::Error> {
    struct TopLevel;
    impl<'de> Visitor<'de> for TopLevel {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a table")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while map.next_key_seed(KnownKey)?.is_some() {
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }
    /// Fails on reading a key not known: the deserializer then places the error at the key.
    struct KnownKey;
    impl<'de> DeserializeSeed<'de> for KnownKey {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, key: D) -> Result<(), D::Error> {
            let key = String::deserialize(key)?;
            if known_keys().contains(&key.as_str()) {
                Ok(())
            } else {
                Err(de::Error::unknown_field(&key, known_keys()))
            }
        }
    }
    toml::Deserializer::new(text).deserialize_map(TopLevel)
}

fn known_keys() -> &'static [&'static str] {
    static KEYS: OnceLock<Vec<&'static str>> = OnceLock::new();
    KEYS.get_or_init(|| [keys_of::<RawConfig>(), keys_of::<Settings>()].concat())
}

/// The keys serde's derive reads for `T`, a struct without flattened fields: it names them to
/// the deserializer, and this one keeps them and reads nothing.
fn keys_of<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Probe<'a>(&'a Cell<&'static [&'static str]>);
    impl<'de> Deserializer<'de> for Probe<'_> {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.set(fields);
            Err(de::Error::custom("keys taken"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    let keys = Cell::new(&[][..]);
    // Always an error: the probe has no values to give.
    let _ = T::deserialize(Probe(&keys));
    keys.get()
}

/// Tie-break game pairs of a knock-out match unless `tiebreaks` says otherwise.
const DEFAULT_TIEBREAKS: u32 = 1;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum FormatName {
    #[default]
    RoundRobin,
    Gauntlet,
    Swiss,
    Knockout,
}

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a player's table, [[players]] with name = \"...\" and command = \"...\" or builtin = \"...\""
)]
struct RawPlayer {
    name: String,
    command: Option<String>,
    builtin: Option<String>,
    /// The protocol the command speaks, when it is not the referee's own.
    protocol: Option<Protocol>,
    /// Overrides the tournament's time control where it names a key.
    time: Option<String>,
    /// Overrides the tournament's limits where it names a key.
    limits: Option<String>,
    /// Which build of the player this is (a contest writes its build's hash): a journal's
    /// games of another version are not resumed.
    version: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a table, { file = \"openings.txt\" } or { plies = N }"
)]
struct RawOpenings {
    file: Option<PathBuf>,
    #[serde(default)]
    order: DeckOrder,
    plies: Option<u32>,
}

impl FormatName {
    fn name(self) -> &'static str {
        match self {
            FormatName::RoundRobin => "round-robin",
            FormatName::Gauntlet => "gauntlet",
            FormatName::Swiss => "swiss",
            FormatName::Knockout => "knockout",
        }
    }
}

impl RawConfig {
    /// The game, with its `params` written as the command line takes them.
    fn game_spec(&self) -> Result<GameSpec, Problem> {
        let params: Vec<(String, String)> = self
            .params
            .iter()
            .map(|(key, value)| {
                let text = match value {
                    toml::Value::String(s) => s.clone(),
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Boolean(b) => if *b { "yes" } else { "no" }.to_string(),
                    other => {
                        return Err(Problem::Invalid(format!(
                            "params.{key}: expected a number, a string or a boolean, not {}",
                            other.type_str()
                        )))
                    }
                };
                Ok((key.clone(), text))
            })
            .collect::<Result<_, _>>()?;
        GameSpec::from_parts(&self.game, &params).map_err(Problem::from)
    }

    /// The players' versions, by name: short printable text, as they show in standings.
    fn versions(&self) -> Result<BTreeMap<String, String>, Problem> {
        let mut versions = BTreeMap::new();
        for player in &self.players {
            let Some(version) = &player.version else {
                continue;
            };
            let fine = !version.is_empty()
                && version.len() <= MAX_NAME
                && version.chars().all(|c| c.is_ascii_graphic());
            if !fine {
                return Err(Problem::Invalid(format!(
                    "players ({}).version: '{}' is not a usable version (1 to {MAX_NAME} printable ASCII characters, no space)",
                    player.name,
                    referee_rules::quote::escape(version)
                )));
            }
            versions.insert(player.name.clone(), version.clone());
        }
        Ok(versions)
    }

    /// The players, in the file's order, with uniquely usable names, each with the tournament's
    /// `time` control and `limits` under its own.
    fn players(&self, time: TimeControl, limits: Limits) -> Result<Vec<Player>, Problem> {
        if self.players.len() < 2 {
            return Err(Problem::Invalid(format!(
                "players: a tournament needs at least 2 players, found {}",
                self.players.len()
            )));
        }
        let mut seen = HashSet::new();
        let mut players = Vec::with_capacity(self.players.len());
        for (at, player) in self.players.iter().enumerate() {
            let key = format!("players[{at}] ({})", player.name);
            check_name(&format!("players[{at}].name"), &player.name)?;
            if !seen.insert(player.name.clone()) {
                return Err(Problem::Invalid(format!(
                    "{key}: the name '{}' is taken by an earlier player",
                    player.name
                )));
            }
            players.push(player.player(&key, time, limits)?);
        }
        Ok(players)
    }

    /// Who plays whom, refusing a key of another format.
    fn format(&self, players: &[Player]) -> Result<Format, Problem> {
        let misplaced = [
            ("gauntlet", !self.gauntlet.is_empty(), FormatName::Gauntlet),
            ("rounds", self.rounds.is_some(), FormatName::Swiss),
            ("tiebreaks", self.tiebreaks.is_some(), FormatName::Knockout),
        ]
        .into_iter()
        .find(|&(_, given, owner)| given && owner != self.format);
        if let Some((key, _, owner)) = misplaced {
            return Err(Problem::Invalid(format!(
                "{key}: only for format = \"{}\"",
                owner.name()
            )));
        }
        Ok(match self.format {
            FormatName::RoundRobin => Format::RoundRobin,
            FormatName::Swiss => Format::Swiss {
                rounds: swiss_rounds(self.rounds, players.len())?,
            },
            FormatName::Knockout => Format::Knockout {
                tiebreaks: self.tiebreaks.unwrap_or(DEFAULT_TIEBREAKS),
            },
            FormatName::Gauntlet => Format::Gauntlet {
                challengers: challengers(&self.gauntlet, players)?,
            },
        })
    }

    /// The games of `format` between `players` players, `games` per pairing.
    fn schedule(&self, format: &Format, players: usize) -> Result<Schedule, Problem> {
        if self.games == 0 || (self.games % 2 == 1 && !format.is_paired_by_results()) {
            return Err(Problem::Invalid(format!(
                "games = {}: games per pairing must be even and at least 2, so that every opening is played once with each colour (a Swiss or knock-out may play any number from 1)",
                self.games
            )));
        }
        let schedule = Schedule::new(players, format.clone(), self.games);
        if schedule.total_games() > MAX_GAMES {
            return Err(Problem::Invalid(format!(
                "the schedule holds {} games, more than the {MAX_GAMES} a tournament may have",
                schedule.total_games()
            )));
        }
        Ok(schedule)
    }

    /// Where each cycle's opening comes from: a file, random plies, or none.
    fn openings(&self, spec: &GameSpec, seed: u64) -> Result<Openings, Problem> {
        match &self.openings {
            None => Ok(Openings::None),
            Some(RawOpenings {
                file: Some(file),
                plies: None,
                ..
            }) if file.as_os_str().is_empty() => Err(Problem::Invalid(
                "openings: file = \"\": name the openings file, one opening a line (e.g. \
                 file = \"openings/gomoku.txt\")"
                    .into(),
            )),
            Some(RawOpenings {
                file: Some(file),
                order,
                plies: None,
            }) => Openings::from_file(file, spec, *order, seed).map_err(Problem::from),
            Some(RawOpenings {
                file: None,
                order: DeckOrder::Random,
                plies: Some(plies),
            }) if *plies > 0 => Openings::random(*plies, seed, spec).map_err(Problem::from),
            Some(_) => Err(Problem::Invalid(
                "openings: give either file = \"PATH\" (with an optional order = \"random\" or \"file\") or plies = N (N >= 1, random openings)".into(),
            )),
        }
    }
}

impl RawPlayer {
    /// The player, `key` naming it in errors: its program, and its own time control and limits
    /// over the tournament's.
    fn player(&self, key: &str, time: TimeControl, limits: Limits) -> Result<Player, Problem> {
        let spec = match (&self.command, &self.builtin) {
            (Some(command), None) => PlayerSpec::parse(command),
            (None, Some(level)) => PlayerSpec::parse(&format!("builtin:{level}")),
            _ => {
                return Err(Problem::Invalid(format!(
                    "{key}: give either command = \"...\" or builtin = \"random|greedy|strong\", not both or neither"
                )))
            }
        }
        .and_then(|spec| match self.protocol {
            Some(protocol) => spec.with_protocol(protocol),
            None => Ok(spec),
        })
        .map_err(|e: PlayerSpecError| Problem::Invalid(format!("{key}: {e}")))?;
        let time = TimeControl::parse_over(time, self.time.as_deref().unwrap_or(""))
            .map_err(|e: TimeSpecError| Problem::Invalid(format!("{key}.time: {e}")))?;
        let limits = Limits::parse_over(limits, self.limits.as_deref().unwrap_or(""))
            .map_err(|e: LimitsError| Problem::Invalid(format!("{key}.limits: {e}")))?;
        Ok(Player {
            label: self.name.clone(),
            spec,
            time,
            limits,
        })
    }
}

/// A Swiss tournament's `rounds`: given, and at most half the field of `players`.
fn swiss_rounds(rounds: Option<u32>, players: usize) -> Result<u32, Problem> {
    let most = super::swiss::max_rounds(players);
    match rounds {
        Some(rounds) if (1..=most).contains(&rounds) => Ok(rounds),
        Some(rounds) => Err(Problem::Invalid(format!(
            "rounds = {rounds}: a Swiss tournament of {players} players has 1 to {most} rounds (half the field, so that nobody meets an opponent twice); for more, play a round robin"
        ))),
        None => Err(Problem::Invalid(format!(
            "rounds: a Swiss tournament needs its number of rounds, e.g. rounds = {} for {players} players (about log2 of the field, plus one or two)",
            (usize::BITS - players.leading_zeros()).min(most)
        ))),
    }
}

/// A gauntlet's challengers, the player indices of the names listed, in order: each once,
/// leaving a field to face.
fn challengers(names: &[String], players: &[Player]) -> Result<Vec<usize>, Problem> {
    let mut challengers = Vec::new();
    for name in names {
        let index = players
            .iter()
            .position(|e| &e.label == name)
            .ok_or_else(|| Problem::Invalid(format!("gauntlet: no player is named '{name}'")))?;
        if challengers.contains(&index) {
            return Err(Problem::Invalid(format!(
                "gauntlet: '{name}' is listed twice"
            )));
        }
        challengers.push(index);
    }
    if challengers.is_empty() {
        return Err(Problem::Invalid(
            "gauntlet: name the players facing the field, e.g. gauntlet = [\"mybot\"]".into(),
        ));
    }
    if challengers.len() == players.len() {
        return Err(Problem::Invalid(
            "gauntlet: every player is a challenger, which leaves no field to face".into(),
        ));
    }
    challengers.sort_unstable();
    Ok(challengers)
}

/// Refuses, before any game, a player whose protocol cannot express the game or an opening.
fn check_protocols(
    players: &[Player],
    spec: &GameSpec,
    openings: &Openings,
) -> Result<(), Problem> {
    let sample_opening = openings
        .for_cycle(spec, 0)
        .map_err(|e| Problem::Invalid(format!("openings: {e}")))?;
    for player in players {
        player
            .spec
            .check_game(spec, &sample_opening)
            .map_err(|e| Problem::Invalid(format!("players ({}): {e}", player.label)))?;
    }
    Ok(())
}

/// A tournament ready to run.
#[derive(Debug)]
pub struct Tournament {
    /// From the `name` key, else the file's name; it names the default output directory.
    pub name: String,
    /// In the file's order, which gives each its index everywhere else.
    pub players: Vec<Player>,
    /// The tournament's time control, which a player's own overrides key by key.
    pub time: TimeControl,
    /// The tournament's limits, which a player's own override key by key.
    pub limits: Limits,
    /// Who plays whom.
    pub format: Format,
    /// Games each pairing plays: even, so that each opening is played with both colours, except
    /// in a Swiss or knock-out (a knock-out's tie-breaks come on top).
    pub games_per_pairing: u32,
    /// The games to play, in order.
    pub schedule: Schedule,
    /// Where each cycle's opening comes from.
    pub openings: Openings,
    /// How every table plays its games: the game and its rules, every bot's process, the seed
    /// (of the built-in bots, the random openings and the Swiss pairings), stalls, processes
    /// kept. A run's [`crate::table::Venue`] adds the referee executable and the records.
    pub table: TableSettings,
    /// Games played at once, unless `-j` says; `None` for half the CPU cores.
    pub concurrency: Option<usize>,
    /// Where the journal, records and standings go, unless `--out` says; `results/NAME` when the
    /// file does not say.
    pub output: PathBuf,
    /// How the games' records are kept; none when they are not. The run opens where they go
    /// (a [`crate::table::Recorder`]) once it has its journal.
    pub records: Option<RecordLayout>,
    /// The version of each player that gives one (`version = "..."`), by name.
    pub versions: BTreeMap<String, String>,
    /// Each running game on a processor of its own (`pin_games = true`; a contest's default).
    pub pin_games: bool,
}

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("cannot read {path}")]
    Unreadable {
        /// The file as given.
        path: PathBuf,
        /// Why it cannot be read.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML, or a key is unknown, missing or of the wrong type.
    #[error("{path}: {message}")]
    Syntax {
        /// The file as given.
        path: PathBuf,
        /// The parser's message, which places the error in the file.
        message: String,
    },
    /// A value is out of range or contradicts another: a player named twice, an odd number of
    /// games, a player that cannot play the game.
    #[error("{path}: {message}")]
    Invalid {
        /// The file as given.
        path: PathBuf,
        /// The key at fault and what to write instead.
        message: String,
    },
}

/// The most games a schedule may hold (records are numbered with 32 bits).
const MAX_GAMES: u64 = u32::MAX as u64;

/// Longest player name: it appears in file names.
const MAX_NAME: usize = 64;

impl Tournament {
    /// Reads and checks `path`. Relative paths in it (openings file, output directory) and the
    /// players' commands are taken from the directory the referee runs in.
    pub fn load(path: &Path) -> Result<Tournament, ConfigError> {
        let text = referee_records::input_files::read_text(
            path,
            referee_records::input_files::MAX_INPUT_FILE,
        )
        .map_err(|source| ConfigError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        let default_name = path
            .file_stem()
            .map_or_else(|| "tournament".into(), |s| s.to_string_lossy().into_owned());
        Tournament::from_text(&text, &default_name, path)
    }

    /// Reads and checks a tournament file's `text` (what [`Tournament::load`] reads from
    /// `origin`, which errors name), named `default_name` unless it says otherwise.
    pub fn from_text(
        text: &str,
        default_name: &str,
        origin: &Path,
    ) -> Result<Tournament, ConfigError> {
        Tournament::parse(text, default_name).map_err(|error| match error {
            Problem::Syntax(message) => ConfigError::Syntax {
                path: origin.to_path_buf(),
                message,
            },
            Problem::Invalid(message) => ConfigError::Invalid {
                path: origin.to_path_buf(),
                message,
            },
        })
    }

    /// Reads the file's tables, then each part in turn, in the order its errors are reported.
    fn parse(text: &str, default_name: &str) -> Result<Tournament, Problem> {
        let syntax = |e: toml::de::Error| Problem::Syntax(e.to_string());
        refuse_unknown_keys(text).map_err(syntax)?;
        let raw: RawConfig = toml::from_str(text).map_err(syntax)?;
        let settings: Settings = toml::from_str(text).map_err(syntax)?;
        let name = raw.name.clone().unwrap_or_else(|| default_name.to_string());
        let key = match raw.name {
            Some(_) => "name",
            None => "name (the file's own, as it gives none: write name = \"...\")",
        };
        check_name(key, &name)?;
        let spec = raw.game_spec()?;
        let time = settings
            .time_control()
            .map_err(|e| Problem::Invalid(format!("time: {e}")))?;
        let limits = settings
            .limits()
            .map_err(|e| Problem::Invalid(format!("limits: {e}")))?;
        let players = raw.players(time, limits)?;
        let format = raw.format(&players)?;
        let schedule = raw.schedule(&format, players.len())?;
        let openings = raw.openings(&spec, settings.seed)?;
        check_protocols(&players, &spec, &openings)?;
        let versions = raw.versions()?;
        settings
            .validate()
            .map_err(|e| Problem::Invalid(format!("{}: {e}", e.key())))?;
        if raw.concurrency == Some(0) {
            return Err(Problem::Invalid("concurrency: at least 1".into()));
        }
        if raw
            .output
            .as_ref()
            .is_some_and(|out| out.as_os_str().is_empty())
        {
            return Err(Problem::Invalid(
                "output: empty: name the folder for the results, or leave output out (results/NAME)"
                    .into(),
            ));
        }
        Ok(Tournament {
            output: raw
                .output
                .unwrap_or_else(|| Path::new("results").join(&name)),
            name,
            players,
            time,
            limits,
            format,
            games_per_pairing: raw.games,
            schedule,
            openings,
            table: settings.table(spec, raw.reuse_processes),
            concurrency: raw.concurrency,
            records: raw.records.0,
            versions,
            pin_games: raw.pin_games,
        })
    }

    /// Players' names, by index.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.players.iter().map(|e| e.label.as_str())
    }
}

/// What is wrong, before the file's path is added.
#[derive(Debug)]
enum Problem {
    Syntax(String),
    Invalid(String),
}

impl From<SpecError> for Problem {
    fn from(error: SpecError) -> Problem {
        Problem::Invalid(format!("game: {error}"))
    }
}

impl From<OpeningsError> for Problem {
    fn from(error: OpeningsError) -> Problem {
        Problem::Invalid(format!("openings: {error}"))
    }
}

/// Names appear in file names and tables: letters, digits, `.`, `_`, `-`, `+`.
fn check_name(key: &str, name: &str) -> Result<(), Problem> {
    let fine = !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+'));
    if fine {
        Ok(())
    } else {
        Err(Problem::Invalid(format!(
            "{key}: '{name}' is not a usable name (1 to {MAX_NAME} letters, digits, '.', '_', '-', '+', not starting with '.')"
        )))
    }
}

#[cfg(test)]
mod tests;
