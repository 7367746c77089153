//! The contest's results page, `OUTPUT/index.html`: the page of `referee report` (every game
//! replayable, in one file that needs no server) opening on the contest itself: its title,
//! its standings with their tie-breaks and each player's version, every entrant (those left
//! out with the reason), a page per entrant (its build's log, its check, its games) and the
//! languages played with. Written from what the output folder holds, so that a contest played
//! in shards on a cluster gets the same page once its shards are done.

use super::field::{self, Entry, Status};
use super::ContestError;
use referee_core::tournament::config::Tournament;
use referee_core::tournament::runner::journals_in;
use referee_web::report::{write_report, Written};
use referee_web::server::tournament_standings;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Writes the page of the contest `title` whose field is `entries` into `out`. None when the
/// contest keeps no game records (`records = false`): there would be no game to show.
pub fn write(
    title: &str,
    entries: &[Entry],
    records: bool,
    out: &Path,
) -> Result<Option<Written>, ContestError> {
    if !records {
        return Ok(None);
    }
    let data = section(title, entries, out);
    Ok(Some(write_report(&[out.to_path_buf()], out, Some(&data))?))
}

/// The contest section of the page of the contest whose output folder is `out`, from what its
/// preparation saved there (the list of players, and the tournament file naming the contest),
/// so that `referee report --from OUTPUT` makes the contest's own page. None when `out` holds
/// no list of players or no tournament file: it is no contest's output, or one that played
/// no game.
pub fn saved_section(out: &Path) -> Result<Option<Value>, ContestError> {
    let entries = field::earlier(out);
    let tournament_file = out.join("tournament.toml");
    if entries.is_empty() || !tournament_file.is_file() {
        return Ok(None);
    }
    let tournament = Tournament::load(&tournament_file)?;
    Ok(Some(section(&tournament.name, &entries, out)))
}

/// What the page shows of the contest `title` whose field is `entries`: its standings (those
/// of the journals in `out`), its entrants and their languages.
fn section(title: &str, entries: &[Entry], out: &Path) -> Value {
    json!({
        "title": title,
        // The whole run's journal, or every shard's.
        "standings": tournament_standings(&journals_in(out).unwrap_or_default()),
        "entrants": entries.iter().map(entrant).collect::<Vec<_>>(),
        "languages": languages(entries),
    })
}

/// What the page shows of an entrant (every text already escaped by the build or the check).
fn entrant(entry: &Entry) -> Value {
    json!({
        "name": entry.name,
        "plays": matches!(entry.status, Status::Plays | Status::Flagged),
        "status": entry.status.text(),
        "language": entry.language,
        "version": entry.version,
        "toolchain": entry.toolchain,
        "build": entry.build.as_deref().map(|build| build.lines().collect::<Vec<_>>()),
        "problems": entry.problems,
    })
}

/// The languages the entrants were built as, each with how many entrants and its toolchain.
fn languages(entries: &[Entry]) -> Vec<Value> {
    let mut seen: BTreeMap<&str, (usize, Option<&str>)> = BTreeMap::new();
    for entry in entries {
        let Some(language) = entry.language.as_deref() else {
            continue;
        };
        let (count, toolchain) = seen.entry(language).or_default();
        *count += 1;
        *toolchain = toolchain.or(entry.toolchain.as_deref());
    }
    seen.into_iter()
        .map(|(name, (entrants, toolchain))| {
            json!({ "name": name, "entrants": entrants, "toolchain": toolchain })
        })
        .collect()
}
