//! What `referee serve` serves: the games found in the directories it was given, kept up to
//! date by rescanning them. A directory holds records (`NNNN.json`, a `--record` directory) or
//! a tournament's output (`journal.jsonl` and `games/`); each such directory, and each one
//! directly inside a directory given, is a *source*. Pages and the API name a game by its
//! source's index and its number only: no part of a path ever comes from a request, so nothing
//! outside the served directories can be reached.

use crate::export::is_record_name;
use crate::record::GameRecord;
use crate::web::live::{is_live_name, LiveGame};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A directory of games: a `--record` directory, or a tournament's output.
#[derive(Clone, Debug, Serialize)]
pub struct Source {
    pub id: usize,
    /// The directory as given on the command line (joined with the subdirectory's name).
    pub name: String,
    #[serde(skip)]
    pub records: PathBuf,
    #[serde(skip)]
    pub journal: Option<PathBuf>,
    /// Whether it is a tournament's output (it has standings).
    pub tournament: bool,
}

/// One game in the index: enough to list and filter it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSummary {
    pub source: usize,
    pub number: u32,
    pub game: String,
    /// What each player is called, first then second.
    pub players: [String; 2],
    /// `first`, `second`, or none for a draw (and for a game still being played).
    pub winner: Option<String>,
    /// The result's reason code, or `playing` for a live game.
    pub reason: String,
    pub moves: usize,
    pub started: String,
    pub live: bool,
}

/// A file read once and kept until it changes.
#[derive(Clone, Debug)]
struct Seen {
    modified: SystemTime,
    len: u64,
    summary: Option<GameSummary>,
}

/// The served directories and what was found in them.
#[derive(Debug, Default)]
pub struct Library {
    roots: Vec<PathBuf>,
    pub sources: Vec<Source>,
    files: BTreeMap<PathBuf, Seen>,
    /// Bumped whenever a scan finds anything new or changed: what live pages wait on.
    pub generation: u64,
}

impl Library {
    pub fn new(roots: Vec<PathBuf>) -> Library {
        let mut library = Library {
            roots,
            ..Library::default()
        };
        library.scan();
        library
    }

    /// Looks at the directories again; reads only the files that are new or changed. Returns
    /// whether anything changed.
    pub fn scan(&mut self) -> bool {
        let mut sources = Vec::new();
        for root in &self.roots {
            let mut candidates = vec![(root.clone(), root.display().to_string())];
            let mut inside: Vec<PathBuf> = fs::read_dir(root)
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| entry.path())
                .filter(|path| path.is_dir() && path.file_name() != Some("games".as_ref()))
                .collect();
            inside.sort();
            candidates.extend(inside.into_iter().map(|path| {
                let name = path.display().to_string();
                (path, name)
            }));
            for (dir, name) in candidates {
                let journal = dir.join("journal.jsonl");
                let (records, journal) = if journal.is_file() {
                    (dir.join("games"), Some(journal))
                } else {
                    (dir.clone(), None)
                };
                if journal.is_some() || holds_games(&records) {
                    sources.push(Source {
                        id: sources.len(),
                        name,
                        records,
                        tournament: journal.is_some(),
                        journal,
                    });
                }
            }
        }
        let mut changed = sources.len() != self.sources.len();
        let mut files = BTreeMap::new();
        for source in &sources {
            for path in game_files(&source.records) {
                let Ok(meta) = fs::metadata(&path) else {
                    continue;
                };
                let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                let seen = match self.files.remove(&path) {
                    Some(seen)
                        if seen.modified == modified
                            && seen.len == meta.len()
                            && seen.summary.as_ref().map(|s| s.source) == Some(source.id) =>
                    {
                        seen
                    }
                    _ => {
                        changed = true;
                        Seen {
                            modified,
                            len: meta.len(),
                            summary: summarise(source.id, &path),
                        }
                    }
                };
                files.insert(path, seen);
            }
        }
        changed |= !self.files.is_empty();
        self.files = files;
        self.sources = sources;
        if changed {
            self.generation += 1;
        }
        changed
    }

    /// Every game, finished or live, by source and number (a finished record hides the live
    /// file of the same game).
    pub fn games(&self) -> Vec<GameSummary> {
        let mut games: BTreeMap<(usize, u32), GameSummary> = BTreeMap::new();
        for summary in self.files.values().filter_map(|seen| seen.summary.clone()) {
            let key = (summary.source, summary.number);
            if summary.live && games.contains_key(&key) {
                continue;
            }
            games.insert(key, summary);
        }
        games.into_values().collect()
    }

    pub fn source(&self, id: usize) -> Option<&Source> {
        self.sources.get(id)
    }
}

/// Whether a directory holds a record or a live game.
fn holds_games(dir: &Path) -> bool {
    !game_files(dir).is_empty()
}

/// The records and live games of a directory.
fn game_files(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| is_record_name(name) || is_live_name(name))
        })
        .map(|entry| entry.path())
        .collect()
}

/// What the index shows of a record or a live game; none for a file that is neither.
fn summarise(source: usize, path: &Path) -> Option<GameSummary> {
    let name = path.file_name()?.to_str()?;
    if is_live_name(name) {
        let live = LiveGame::read(path).ok()?;
        return Some(GameSummary {
            source,
            number: live.header.number,
            game: live.header.game.clone(),
            players: live.header.players.clone(),
            winner: None,
            reason: "playing".to_string(),
            moves: live.moves.len(),
            started: live.header.started.clone(),
            live: true,
        });
    }
    let record: GameRecord = serde_json::from_str(&fs::read_to_string(path).ok()?).ok()?;
    Some(summary(source, &record))
}

/// The index's line of a finished game.
pub fn summary(source: usize, record: &GameRecord) -> GameSummary {
    GameSummary {
        source,
        number: record.number,
        game: record.game.clone(),
        players: [0, 1].map(|i| player_name(record, i)),
        winner: record.result.winner.map(|side| side.as_str().to_string()),
        reason: record.result.reason.code().to_string(),
        moves: record.moves.len(),
        started: record.started.clone(),
        live: false,
    }
}

/// What a player is called: its label, and its name from `ready` when it differs.
pub fn player_name(record: &GameRecord, index: usize) -> String {
    let player = &record.players[index];
    match &player.name {
        Some(name) if *name != player.label => format!("{} ({name})", player.label),
        _ => player.label.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::live::{LiveFile, LiveHeader};

    #[test]
    fn sources_are_found_one_level_down_and_a_record_hides_its_live_file() {
        let root = tempfile::tempdir().unwrap();
        let records = root.path().join("records");
        fs::create_dir_all(&records).unwrap();
        fs::create_dir_all(root.path().join("empty")).unwrap();
        let header = LiveHeader {
            number: 1,
            game: "tictactoe width=3 height=3 line=3 exact=no".into(),
            players: ["A".into(), "B".into()],
            time: Default::default(),
            opening: Vec::new(),
            started: String::new(),
        };
        let mut table = LiveFile::new(&records);
        let live = table.start(&header);
        let mut library = Library::new(vec![root.path().to_path_buf()]);
        assert_eq!(library.sources.len(), 1, "{:?}", library.sources);
        assert!(library.sources[0].name.ends_with("records"));
        let games = library.games();
        assert_eq!(
            (games.len(), games[0].live, games[0].reason.as_str()),
            (1, true, "playing")
        );
        assert!(!library.scan(), "nothing changed");
        // A file named like a record that is no record is no game: the live one stays.
        fs::write(records.join("0001.json"), "not a record").unwrap();
        assert!(library.scan());
        assert!(library.games()[0].live, "an unreadable record is no game");
        drop(live);
        assert!(library.scan());
        assert!(library.games().is_empty());
    }
}
