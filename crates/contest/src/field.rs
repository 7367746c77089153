//! A contest's field before play: every player built (a source folder, with its language's
//! profile) and checked (`referee check` as a gate), with what became of it, as the organiser
//! reads it and as the tournament file is written from it.

use super::config::{Contest, FailedCheck};
use referee_cage::build::compile::{self, BuildError, Built};
use referee_cage::build::profile;
use referee_cage::host::Host;
use referee_cage::process_options::ProcessOptions;
use referee_cage::sandbox::{self, SandboxError};
use referee_cage::supervisor::Supervisor;
use referee_core::check::{run_check, CheckConfig, CheckError, Finding, Severity};
use referee_core::players::PlayerSpec;
use referee_core::tournament::config::Tournament;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Characters of a check's problem kept in the list of players.
const REASON_CHARS: usize = 400;

/// What became of one player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Built and passed its check (or had none to pass): it plays.
    Plays,
    /// Failed the check, kept as the contest file asks.
    Flagged,
    /// Its sources gave no bot.
    BuildFailed,
    /// Failed the check, left out.
    LeftOut,
}

impl Status {
    /// The status in words, as the list of players and the results page say it.
    pub fn text(&self) -> &'static str {
        match self {
            Status::Plays => "plays",
            Status::Flagged => "plays, FLAGGED: failed the check",
            Status::BuildFailed => "LEFT OUT: no bot from its sources",
            Status::LeftOut => "LEFT OUT: failed the check",
        }
    }
}

/// One player of the field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Its name in the standings.
    pub name: String,
    /// The language its sources were built as (none for a command or a built-in bot).
    pub language: Option<String>,
    /// The build: `built in N s`, `cached`, or why it failed (the compiler's message).
    pub build: Option<String>,
    /// The command it plays with (none when its build failed).
    pub command: Option<String>,
    /// Which build of the player this is: its build's hash (the hash of its command for a
    /// player given as one), short. A resumed contest replays the games of a player whose
    /// version changed; none for a built-in bot or a failed build.
    #[serde(default)]
    pub version: Option<String>,
    /// Its language's toolchain as the build's sandbox showed it (`Python 3.11.2`): one per
    /// language for build, check and games.
    #[serde(default)]
    pub toolchain: Option<String>,
    /// The problems `referee check` found (none when it was not checked).
    pub problems: Option<Vec<String>>,
    /// Whether it plays, and if not, why.
    pub status: Status,
    /// Its `[[players]]` table for the tournament.
    #[serde(skip)]
    pub table: toml::Table,
    /// Built by this run rather than taken from the cache (a first build, a rebuild, or a
    /// cached build found changed since): its check is never taken from an earlier run.
    #[serde(skip)]
    pub built_now: bool,
}

/// The referee's own failures while preparing the field.
#[derive(Debug, thiserror::Error)]
pub enum FieldError {
    /// A build failed on the referee's side (not the entrant's compile error).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// Source folders are to be built and the sandbox cannot work here.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// A check failed on the referee's side (not a problem of the bot's).
    #[error(transparent)]
    Check(#[from] CheckError),
}

/// Builds every source folder, `jobs` at a time, the builds' processes started by `supervisor`;
/// `report` hears each player's line as it is done.
pub fn build_all(
    contest: &Contest,
    supervisor: &Supervisor,
    jobs: usize,
    report: &(dyn Fn(&Entry) + Sync),
) -> Result<Vec<Entry>, FieldError> {
    if contest.players.iter().any(|p| p.source.is_some()) {
        sandbox::check_available()?;
    }
    parallel(contest.players.len(), jobs, |at| {
        let player = &contest.players[at];
        let mut entry = Entry {
            name: player.name.clone(),
            language: None,
            build: None,
            command: None,
            version: None,
            toolchain: None,
            problems: None,
            status: Status::Plays,
            table: player.table.clone(),
            built_now: false,
        };
        if let Some((dir, named)) = &player.source {
            match language(contest, dir, named.as_deref()) {
                Err(reason) => {
                    entry.build = Some(reason);
                    entry.status = Status::BuildFailed;
                }
                Ok((language, profile)) => {
                    entry.language = Some(language.to_string());
                    match compile::build(dir, language, profile, &contest.build, supervisor)? {
                        Ok(built) => {
                            entry.build = Some(describe(&built));
                            entry.version = Some(short(&built.hash));
                            entry.built_now = !built.cached;
                            entry.toolchain = Some(built.toolchain.clone());
                            entry.table.insert(
                                "command".into(),
                                toml::Value::String(built.command.clone()),
                            );
                        }
                        Err(failure) => {
                            entry.build = Some(failure.to_string());
                            entry.status = Status::BuildFailed;
                        }
                    }
                }
            }
        }
        entry.command = match entry.table.get("command") {
            Some(toml::Value::String(command)) => Some(command.clone()),
            _ => None,
        };
        if entry.version.is_none() {
            entry.version = entry.command.as_deref().map(version);
        }
        if let Some(version) = &entry.version {
            entry
                .table
                .insert("version".into(), toml::Value::String(version.clone()));
        }
        report(&entry);
        Ok(entry)
    })
}

/// Characters of a version: enough hex that two builds never share one.
const VERSION_CHARS: usize = 12;

/// The version of a player given as a command: the hash of its command line.
fn version(command: &str) -> String {
    use sha2::{Digest, Sha256};
    short(
        &Sha256::digest(command.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
    )
}

/// A hash cut to [`VERSION_CHARS`].
fn short(hash: &str) -> String {
    hash.chars().take(VERSION_CHARS).collect()
}

fn describe(built: &Built) -> String {
    let mut text = if built.cached {
        "cached".to_string()
    } else {
        format!("built in {:.1} s", built.elapsed.as_secs_f64())
    };
    text.push_str(&format!(" with {}", built.toolchain));
    if let Some(note) = &built.note {
        text.push_str(&format!("\n  ({note})"));
    }
    text
}

/// The language of the sources in `dir`: the one named, else the one its files show.
fn language<'c>(
    contest: &'c Contest,
    dir: &Path,
    named: Option<&str>,
) -> Result<(&'c str, &'c profile::Profile), String> {
    let find = |name: &str| {
        contest
            .profiles
            .iter()
            .find(|(known, _)| known == name)
            .map(|(known, profile)| (known.as_str(), profile))
    };
    if let Some(name) = named {
        return find(name).ok_or_else(|| format!("no language is named '{name}'"));
    }
    let found = profile::detect(&contest.profiles, dir)
        .map_err(|e| format!("cannot read its sources {}: {e}", dir.display()))?;
    match found.as_slice() {
        [] => Err(format!(
            "no source file of a known language in {} (a main.cpp, main.c, main.rs, main.go, Main.java, main.py or main.js){}",
            dir.display(),
            no_language_hint(contest, dir)
        )),
        [(name, _)] => find(name).ok_or_else(|| format!("no language is named '{name}'")),
        several => Err(format!(
            "its files show several languages ({}): name one with language = \"...\" in its [[players]] table",
            several
                .iter()
                .map(|(name, file)| format!("{name}: {}", referee_rules::quote::escape(file)))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Why a folder showed no language, where its layout tells: a build file of its own, or
/// sources in a subfolder (the profiles look at the top level only).
fn no_language_hint(contest: &Contest, dir: &Path) -> String {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return String::new();
    };
    let mut hints = Vec::new();
    for entry in entries.filter_map(Result::ok).take(MAX_HINT_ENTRIES) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if BUILD_FILES.contains(&name.as_str()) {
            hints.push(format!(
                "it has a {name}, which no built-in profile runs: add a language for it in the contest file ([languages.NAME] with detect = [\"{name}\"], compile and run) and name it with language = \"NAME\""
            ));
        } else if is_dir {
            if let Ok(found) = profile::detect(&contest.profiles, &entry.path()) {
                if let Some((language, file)) = found.first() {
                    hints.push(format!(
                        "its {language} sources are in the subfolder {}/ ({}): the entry file must be at the folder's top level",
                        referee_rules::quote::escape(&name),
                        referee_rules::quote::escape(file)
                    ));
                }
            }
        }
    }
    hints.sort();
    hints.iter().map(|hint| format!("; {hint}")).collect()
}

/// Files that show a folder builds itself.
const BUILD_FILES: [&str; 4] = ["Makefile", "makefile", "GNUmakefile", "CMakeLists.txt"];
/// Entries of a folder looked at for a hint: a contestant's folder may hold anything.
const MAX_HINT_ENTRIES: usize = 200;

/// Runs `referee check` on every built player of `tournament` (all but the built-in bots) with
/// bots of `host`, `jobs` at a time, and decides who plays; a player checked before with the same command
/// (in `earlier`, from a run being resumed) is not checked again.
pub fn gate(
    contest: &Contest,
    mut entries: Vec<Entry>,
    tournament: &Tournament,
    host: &Host,
    earlier: &[Entry],
    jobs: usize,
    report: &(dyn Fn(&Entry) + Sync),
) -> Result<Vec<Entry>, FieldError> {
    let playing: Vec<usize> = (0..entries.len())
        .filter(|&at| entries[at].status == Status::Plays)
        .collect();
    let problems = parallel(playing.len(), jobs, |k| -> Result<_, FieldError> {
        let entry = &entries[playing[k]];
        let Some(player) = tournament.players.iter().find(|p| p.label == entry.name) else {
            return Ok(None);
        };
        if matches!(player.spec, PlayerSpec::Builtin(_)) {
            return Ok(None);
        }
        let checked_before = earlier
            .iter()
            .find(|e| e.name == entry.name && e.command == entry.command && e.problems.is_some());
        if let Some(before) = checked_before.filter(|_| !entry.built_now) {
            return Ok(before.problems.clone());
        }
        let config = CheckConfig {
            rules: tournament.table.rules.clone(),
            player: player.spec.clone(),
            time: player.time,
            opening: Vec::new(),
            process: ProcessOptions {
                limits: player.limits,
                ..tournament.table.process.clone()
            },
            record_dir: Some(contest.output.join("checks").join(&entry.name)),
            referee_exe: host.referee_exe.clone(),
        };
        let findings = run_check(&config, &host.supervisor, |_| {}).map_err(FieldError::Check)?;
        Ok(Some(
            findings
                .into_iter()
                .filter(|f| f.severity == Severity::Problem)
                .map(|f| with_cause(&f))
                .collect(),
        ))
    })?;
    for (at, problems) in playing.into_iter().zip(problems) {
        let entry = &mut entries[at];
        if problems.as_ref().is_some_and(|p| !p.is_empty()) {
            entry.status = match contest.failed_check {
                FailedCheck::LeaveOut => Status::LeftOut,
                FailedCheck::Keep => Status::Flagged,
            };
        }
        entry.problems = problems;
        report(entry);
    }
    Ok(entries)
}

/// A check's problem for the list, with the last line of the bot's stderr when it wrote one
/// (a crash's cause: `ModuleNotFoundError: No module named 'numpy'`), which the list would
/// otherwise leave in the check's files.
fn with_cause(finding: &Finding) -> String {
    match &finding.stderr_end {
        Some(line) => format!("{} [its stderr ended: {}]", cut(&finding.text), cut(line)),
        None => cut(&finding.text),
    }
}

/// A check's problem cut for the list (it is already escaped by the check).
fn cut(text: &str) -> String {
    match text.char_indices().nth(REASON_CHARS) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

/// Runs `task` for 0..count on `jobs` threads; the results in order, or the first error.
fn parallel<T: Send, E: Send>(
    count: usize,
    jobs: usize,
    task: impl Fn(usize) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<T, E>>>> = Mutex::new((0..count).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, count.max(1)) {
            scope.spawn(|| loop {
                let at = next.fetch_add(1, Ordering::Relaxed);
                if at >= count {
                    break;
                }
                let result = task(at);
                let failed = result.is_err();
                results
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)[at] = Some(result);
                if failed {
                    next.store(count, Ordering::Relaxed);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .flatten()
        .collect()
}

/// The list of players as printed and saved (`players.txt`): each with its language, build,
/// check and status, the compiler's or the check's words under it.
pub fn listing(entries: &[Entry]) -> String {
    let mut out = String::new();
    for entry in entries {
        out.push_str(&line(entry));
        out.push('\n');
    }
    out
}

/// One player's lines.
pub fn line(entry: &Entry) -> String {
    let mut text = format!("{:<24} {}", entry.name, entry.status.text());
    if let Some(language) = &entry.language {
        text.push_str(&format!("; {language}"));
    }
    let mut build_lines = entry.build.as_deref().map(str::lines);
    if let Some(first) = build_lines.as_mut().and_then(Iterator::next) {
        text.push_str(&format!(", {first}"));
    }
    if let Some(version) = &entry.version {
        text.push_str(&format!("; version {version}"));
    }
    for more in build_lines.into_iter().flatten() {
        text.push_str(&format!("\n    {more}"));
    }
    match &entry.problems {
        Some(problems) if problems.is_empty() => text.push_str("; check: compliant"),
        Some(problems) => {
            text.push_str(&format!("; check: {} problem(s)", problems.len()));
            for problem in problems {
                text.push_str(&format!("\n    {problem}"));
            }
        }
        None => {}
    }
    text
}

/// Where the field is saved, for the organiser and for a resumed run.
pub fn saved(out: &Path) -> [PathBuf; 2] {
    [out.join("players.json"), out.join("players.txt")]
}

/// The field saved by an earlier run in `out` (none if it cannot be read).
pub fn earlier(out: &Path) -> Vec<Entry> {
    let [json, _] = saved(out);
    referee_records::input_files::read_text(&json, referee_records::input_files::MAX_INPUT_FILE)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Saves the field as JSON and as the listing.
pub fn save(out: &Path, entries: &[Entry]) -> std::io::Result<()> {
    std::fs::create_dir_all(out)?;
    let [json, text] = saved(out);
    let mut encoded = serde_json::to_string_pretty(entries).map_err(std::io::Error::other)?;
    encoded.push('\n');
    std::fs::write(json, encoded)?;
    std::fs::write(text, listing(entries))
}

/// The `[[players]]` tables of those who play.
pub fn playing(entries: &[Entry]) -> Vec<toml::Table> {
    entries
        .iter()
        .filter(|e| matches!(e.status, Status::Plays | Status::Flagged))
        .map(|e| e.table.clone())
        .collect()
}
