//! A tournament resumed after its field changed: a contestant resubmitted (a new build is a new
//! version of the player), joined or left. The schedule is made again for the new field; a
//! finished game whose two players are both still there, each in the same version, is kept,
//! moved to its place in the new schedule (with its record); every other game is dropped and
//! is played by the resumed run. A format paired by results (Swiss, knock-out) keeps no game
//! once its field changed: every later pairing depended on the results that changed.
//!
//! Nothing is lost whatever is killed: the new journals and records are written beside the old
//! ones (`*.next`), then a marker file says they are whole, then they replace the old ones one
//! rename at a time. A run finding the marker finishes the replacing; one finding `*.next`
//! files without it drops them and starts again from the old files.

use super::config::{RecordLayout, Tournament};
use super::journal::{self, Entry, Header, Identity, JournalError, WriterLock};
use super::runner::{identity, journal_path, journals_in};
use super::schedule::{Format, Shard};
use referee_records::record_pack::pack_path;
use referee_records::renumber::{renumber_files, renumber_pack};
use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Says that every `*.next` file of a carry-over is whole, and lists the renames left to do.
const PENDING: &str = "carry.pending";
/// What a renamed file is written as first.
const NEXT: &str = "next";

/// What a carry-over did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carried {
    /// Games kept, at their new places.
    pub kept: usize,
    /// Games dropped, to be played again (or no more, a player having left).
    pub dropped: usize,
    /// The players new to the journal or in a new version, by name.
    pub changed: Vec<String>,
    /// The players judged again as asked, their builds unchanged, by name.
    pub rejudged: Vec<String>,
}

/// A carry-over that could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CarryError {
    /// A journal could not be read.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A file of the output folder could not be written or renamed.
    #[error("cannot carry the finished games over in {path}")]
    Io {
        /// The file or folder at fault.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The folder holds journals of different tournaments or shardings.
    #[error("{0} holds journals of different runs (other tournaments, or other shardings): keep one run's journals in an output folder")]
    Mixed(PathBuf),
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> CarryError + '_ {
    move |source| CarryError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One journal found in the output folder.
struct Found {
    path: PathBuf,
    header: Header,
    entries: Vec<Entry>,
}

/// Carries the finished games of the journals in `out` over to `tournament` when its field
/// changed (see the module's documentation), the players named in `rejudge` taken as changed
/// too (their games are played again). None when there is nothing to carry: no journal, the
/// same field and no one to rejudge, or a journal of another tournament (which opening it
/// will refuse).
pub fn carry_over(
    tournament: &Tournament,
    out: &Path,
    rejudge: &[String],
) -> Result<Option<Carried>, CarryError> {
    finish(out)?;
    let found = journals(out)?;
    let Some(first) = found.first() else {
        return Ok(None);
    };
    // No other run may write these journals while they are carried over.
    let _locks = found
        .iter()
        .map(|journal| WriterLock::take(&journal.path))
        .collect::<Result<Vec<_>, _>>()?;
    let old = first.header.tournament.clone();
    if found.iter().any(|f| f.header.tournament != old) {
        return Err(CarryError::Mixed(out.to_path_buf()));
    }
    let now = identity(tournament);
    if (old == now && rejudge.is_empty()) || !journal::same_but_players(&old, &now) {
        return Ok(None);
    }
    let count = sharding(&found, out)?;
    let new_version = |name: &String| {
        !old.players.contains(name) || old.versions.get(name) != now.versions.get(name)
    };
    let (changed, rejudged): (Vec<String>, Vec<String>) = now
        .players
        .iter()
        .filter(|name| new_version(name) || rejudge.contains(name))
        .cloned()
        .partition(new_version);
    let places = places(tournament, &old);
    let mut plan = Plan::default();
    let mut dropped = 0;
    for journal in &found {
        for entry in &journal.entries {
            let kept = entry.players.iter().all(|name| {
                now.players.contains(name) && !changed.contains(name) && !rejudged.contains(name)
            });
            let place = cycle(tournament, &old, entry.index).and_then(|cycle| {
                places.get(&(entry.players[0].clone(), entry.players[1].clone(), cycle))
            });
            match place {
                Some(&index) if kept => plan.keep(&journal.path, entry, index, count),
                _ => dropped += 1,
            }
        }
    }
    let kept = plan.entries.values().map(Vec::len).sum();
    plan.write(out, tournament, &now, &found, count)?;
    finish(out)?;
    Ok(Some(Carried {
        kept,
        dropped,
        changed,
        rejudged,
    }))
}

/// The journals in `out`, read (an empty one, or one whose header was cut short, left out).
fn journals(out: &Path) -> Result<Vec<Found>, CarryError> {
    let mut found = Vec::new();
    for path in journals_in(out).map_err(io_error(out))? {
        let contents = journal::read(&path)?;
        if let Some(header) = contents.header {
            found.push(Found {
                path,
                header,
                entries: contents.entries,
            });
        }
    }
    Ok(found)
}

/// The shard count the journals share: 1 for a whole tournament's.
fn sharding(found: &[Found], out: &Path) -> Result<u32, CarryError> {
    let counts: Vec<u32> = found
        .iter()
        .map(|f| {
            f.header
                .shard
                .as_deref()
                .and_then(|text| text.parse::<Shard>().ok())
                .map_or(1, |shard| shard.count)
        })
        .collect();
    if counts.iter().any(|&n| n != counts[0]) {
        return Err(CarryError::Mixed(out.to_path_buf()));
    }
    Ok(counts[0])
}

/// The cycle game `index` of the journal's schedule belonged to; none for a format paired by
/// results, whose games keep no place once the field changed.
fn cycle(tournament: &Tournament, old: &Identity, index: u64) -> Option<u64> {
    let players = old.players.len() as u64;
    let pairings = match &tournament.format {
        Format::RoundRobin => players * players.saturating_sub(1) / 2,
        Format::Gauntlet { .. } => {
            let challengers = old.challengers.len() as u64;
            challengers * players.saturating_sub(challengers)
        }
        Format::Swiss { .. } | Format::Knockout { .. } => return None,
    };
    (pairings > 0).then(|| index / 2 / pairings)
}

/// Every game of the new schedule, by who plays first and second and in which cycle.
fn places(tournament: &Tournament, old: &Identity) -> HashMap<(String, String, u64), u64> {
    if cycle(tournament, old, 0).is_none() {
        return HashMap::new();
    }
    let names: Vec<&str> = tournament.names().collect();
    tournament
        .schedule
        .pairs(Shard::WHOLE)
        .flatten()
        .map(|slot| {
            let [first, second] = slot.seats.map(|seat| names[seat].to_string());
            ((first, second, slot.cycle), slot.index)
        })
        .collect()
}

/// The games kept, by the journal they go to, and where each came from.
#[derive(Default)]
struct Plan {
    /// By new journal: the entries, renumbered, in their new order.
    entries: BTreeMap<PathBuf, Vec<Entry>>,
    /// By new journal, then by old journal: old game numbers to new ones.
    numbers: BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeMap<u32, u32>>>,
}

impl Plan {
    fn keep(&mut self, from: &Path, entry: &Entry, index: u64, count: u32) {
        let shard = Shard {
            index: u32::try_from(index / 2 % u64::from(count)).unwrap_or(0) + 1,
            count,
        };
        let to = journal_path(from.parent().unwrap_or(Path::new("")), shard);
        // Schedules are capped at u32::MAX games by the configuration.
        let number = |index: u64| u32::try_from(index + 1).unwrap_or(u32::MAX);
        self.numbers
            .entry(to.clone())
            .or_default()
            .entry(from.to_path_buf())
            .or_default()
            .insert(number(entry.index), number(index));
        let mut moved = entry.clone();
        moved.index = index;
        self.entries.entry(to).or_default().push(moved);
    }

    /// Writes the new journals and records beside the old ones, then the marker listing the
    /// renames that put them in place.
    fn write(
        mut self,
        out: &Path,
        tournament: &Tournament,
        now: &Identity,
        found: &[Found],
        count: u32,
    ) -> Result<(), CarryError> {
        let mut renames = Vec::new();
        if tournament.records == Some(RecordLayout::Files) {
            let games = out.join("games");
            let all: BTreeMap<u32, u32> = self
                .numbers
                .values()
                .flat_map(BTreeMap::values)
                .flatten()
                .map(|(&old, &new)| (old, new))
                .collect();
            let staged = next(&games);
            remove(&staged)?;
            if games.is_dir() {
                renumber_files(&games, &staged, &all).map_err(io_error(&games))?;
            } else {
                fs::create_dir_all(&staged).map_err(io_error(&staged))?;
            }
            renames.push((staged, games));
        }
        let mut targets: Vec<(PathBuf, Option<String>)> = (1..=count)
            .map(|index| {
                let shard = Shard { index, count };
                (
                    journal_path(out, shard),
                    (count > 1).then(|| shard.to_string()),
                )
            })
            .collect();
        // An old journal the new layout has no place for is emptied, not left to count.
        for old in found {
            if !targets.iter().any(|(path, _)| *path == old.path) {
                targets.push((old.path.clone(), old.header.shard.clone()));
            }
        }
        for (target, shard) in targets {
            let mut entries = self.entries.remove(&target).unwrap_or_default();
            entries.sort_by_key(|entry| entry.index);
            let numbers = self.numbers.remove(&target).unwrap_or_default();
            let pack = pack_path(&target);
            match tournament.records {
                Some(RecordLayout::Pack) => {
                    write_pack(&numbers, &next(&pack))?;
                    renames.push((next(&pack), pack.clone()));
                    let name = pack.file_name().map(|n| n.to_string_lossy().into_owned());
                    for entry in &mut entries {
                        entry.record.clone_from(&name);
                    }
                }
                Some(RecordLayout::Files) => {
                    for entry in &mut entries {
                        entry.record = Some(format!("games/{:04}.json", entry.index + 1));
                    }
                }
                None => {}
            }
            let header = Header {
                journal: journal::FORMAT,
                tournament: now.clone(),
                shard,
            };
            write_journal(&next(&target), &header, &entries)?;
            renames.push((next(&target), target));
        }
        write_marker(out, &renames)
    }
}

/// Where a file is written before it replaces `path`.
fn next(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{NEXT}"));
    PathBuf::from(name)
}

/// Removes a file or folder, if it is there.
fn remove(path: &Path) -> Result<(), CarryError> {
    let removed = if path.is_dir() {
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
    };
    match removed {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(io_error(path)(error)),
        _ => Ok(()),
    }
}

/// The records file of a new journal: the kept games' lines from each old journal's.
fn write_pack(
    numbers: &BTreeMap<PathBuf, BTreeMap<u32, u32>>,
    to: &Path,
) -> Result<(), CarryError> {
    let mut writer = BufWriter::new(File::create(to).map_err(io_error(to))?);
    for (journal, numbers) in numbers {
        let pack = pack_path(journal);
        if pack.exists() {
            renumber_pack(&pack, &mut writer, numbers).map_err(io_error(&pack))?;
        }
    }
    let file = writer
        .into_inner()
        .map_err(|e| io_error(to)(e.into_error()))?;
    file.sync_all().map_err(io_error(to))
}

/// A journal holding `header` and `entries`, synced.
fn write_journal(to: &Path, header: &Header, entries: &[Entry]) -> Result<(), CarryError> {
    let mut text = serde_json::to_string(header).map_err(|e| io_error(to)(io::Error::other(e)))?;
    text.push('\n');
    for entry in entries {
        text.push_str(
            &serde_json::to_string(entry).map_err(|e| io_error(to)(io::Error::other(e)))?,
        );
        text.push('\n');
    }
    let mut file = File::create(to).map_err(io_error(to))?;
    file.write_all(text.as_bytes()).map_err(io_error(to))?;
    file.sync_all().map_err(io_error(to))
}

/// Writes the marker: from now on the new files replace the old ones.
fn write_marker(out: &Path, renames: &[(PathBuf, PathBuf)]) -> Result<(), CarryError> {
    let marker = out.join(PENDING);
    let staged = next(&marker);
    let text = serde_json::to_string_pretty(renames)
        .map_err(|e| io_error(&marker)(io::Error::other(e)))?;
    let mut file = File::create(&staged).map_err(io_error(&staged))?;
    file.write_all(text.as_bytes()).map_err(io_error(&staged))?;
    file.sync_all().map_err(io_error(&staged))?;
    fs::rename(&staged, &marker).map_err(io_error(&marker))?;
    File::open(out)
        .and_then(|dir| dir.sync_all())
        .map_err(io_error(out))
}

/// Finishes a carry-over whose marker is written (each rename not yet done is done), or drops
/// the `*.next` files of one killed before it was.
fn finish(out: &Path) -> Result<(), CarryError> {
    let marker = out.join(PENDING);
    let text = match fs::read_to_string(&marker) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return drop_staged(out),
        Err(error) => return Err(io_error(&marker)(error)),
    };
    let renames: Vec<(PathBuf, PathBuf)> = serde_json::from_str(&text)
        .map_err(|e| io_error(&marker)(io::Error::new(io::ErrorKind::InvalidData, e)))?;
    for (from, to) in &renames {
        if !from.exists() {
            continue;
        }
        if from.is_dir() {
            // A folder cannot be renamed over another: the old one goes aside first.
            let aside = to.with_extension("old");
            if to.exists() {
                remove(&aside)?;
                fs::rename(to, &aside).map_err(io_error(to))?;
            }
            fs::rename(from, to).map_err(io_error(to))?;
            remove(&aside)?;
        } else {
            fs::rename(from, to).map_err(io_error(to))?;
        }
    }
    File::open(out)
        .and_then(|dir| dir.sync_all())
        .map_err(io_error(out))?;
    fs::remove_file(&marker).map_err(io_error(&marker))
}

/// Removes what a carry-over killed before its marker left.
fn drop_staged(out: &Path) -> Result<(), CarryError> {
    let Ok(listing) = fs::read_dir(out) else {
        return Ok(());
    };
    for dir_entry in listing.filter_map(Result::ok) {
        let path = dir_entry.path();
        if path.extension().is_some_and(|ext| ext == NEXT) {
            remove(&path)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn staged(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
        let (journal, games) = (dir.join("journal.jsonl"), dir.join("games"));
        fs::write(&journal, "old").unwrap();
        fs::create_dir(&games).unwrap();
        fs::write(games.join("0001.json"), "old").unwrap();
        fs::write(next(&journal), "new").unwrap();
        fs::create_dir(next(&games)).unwrap();
        fs::write(next(&games).join("0002.json"), "new").unwrap();
        vec![(next(&games), games), (next(&journal), journal)]
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_carry_over_killed_after_its_marker_is_finished_by_the_next_run() {
        let dir = tempfile::tempdir().unwrap();
        let renames = staged(dir.path());
        write_marker(dir.path(), &renames).unwrap();
        // Killed after the first rename.
        fs::rename(dir.path().join("games"), dir.path().join("games.old")).unwrap();
        finish(dir.path()).unwrap();
        assert_eq!(names(dir.path()), ["games", "journal.jsonl"]);
        assert_eq!(names(&dir.path().join("games")), ["0002.json"]);
        let journal = fs::read_to_string(dir.path().join("journal.jsonl")).unwrap();
        assert_eq!(journal, "new");
        finish(dir.path()).unwrap();
        assert_eq!(names(dir.path()), ["games", "journal.jsonl"]);
    }

    #[test]
    fn a_carry_over_killed_before_its_marker_leaves_the_old_files() {
        let dir = tempfile::tempdir().unwrap();
        staged(dir.path());
        fs::write(next(&dir.path().join(PENDING)), "[").unwrap();
        finish(dir.path()).unwrap();
        assert_eq!(names(dir.path()), ["games", "journal.jsonl"]);
        assert_eq!(names(&dir.path().join("games")), ["0001.json"]);
        let journal = fs::read_to_string(dir.path().join("journal.jsonl")).unwrap();
        assert_eq!(journal, "old");
    }
}
