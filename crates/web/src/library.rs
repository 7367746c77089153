//! What `referee serve` serves: the games found in the directories it was given, kept up to
//! date by rescanning them. A directory holds records (`NNNN.json`, a `--record` directory) or
//! a tournament's output (`journal.jsonl`, with its records file `games.jsonl` or its `games/`
//! folder of record files); each such directory, and each one directly inside a directory
//! given, is a *source*. A records file is read incrementally: each scan reads only the lines
//! appended since the last. Pages and the API name a game by its source's id and its number; the
//! id is looked up among the sources found, never joined to a path, so nothing outside the
//! served directories can be reached. Ids are names, not positions, so that a link to a game
//! keeps its meaning when folders are added beside it.

use referee_records::export::{is_record_name, read_record};
use referee_records::live::{is_abandoned, is_live_name, LiveGame};
use referee_records::record::{read_stored, GameRecord, StoredGame};
use referee_records::record_pack::{
    is_pack_name, read_game, GameAt, Indexed, PackError, PackIndex,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A directory of games: a `--record` directory, or a tournament's output.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Source {
    /// Stable: the served directory's own name (`league`), and for a folder directly inside
    /// it that name, a slash and the folder's (`runs/day1`); `~2`, `~3` set apart served
    /// directories of the same name, in the order given.
    pub id: String,
    /// The directory as given on the command line (joined with the subdirectory's name).
    pub name: String,
    #[serde(skip)]
    pub dir: PathBuf,
    #[serde(skip)]
    pub journal: Option<PathBuf>,
    /// Whether it is a tournament's output (it has standings).
    pub tournament: bool,
}

/// One game in the index: enough to list and filter it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct GameSummary {
    /// Its source's id.
    pub source: String,
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

/// A file read once and kept until it changes (a file that is no record too: it is said once,
/// and read again only once it changed).
#[derive(Clone, Debug)]
struct Seen {
    modified: SystemTime,
    len: u64,
    source: String,
    summary: Option<GameSummary>,
}

/// A records file, indexed as far as it was read, and its games' lines in the index.
#[derive(Debug)]
struct IndexedPack {
    source: String,
    index: PackIndex,
    games: BTreeMap<u32, GameSummary>,
}

/// Where a game of the library is kept.
#[derive(Clone, Debug)]
pub(crate) enum Place {
    /// Its record file, `NNNN.json`, with its transcript and stderr files beside it.
    Record(PathBuf),
    /// Its lines in a records file.
    Pack(PathBuf, GameAt),
    /// Being played: a live file in this directory holds it.
    Live(PathBuf),
}

impl Place {
    /// The finished game as stored; none for a live game, or one that cannot be read.
    pub(crate) fn stored(&self) -> Option<StoredGame> {
        match self {
            Place::Record(path) => Some(read_stored(path.parent()?, read_record(path).ok()?)),
            Place::Pack(path, at) => read_game(path, at).ok(),
            Place::Live(_) => None,
        }
    }
}

/// The served directories and what was found in them.
#[derive(Debug, Default)]
pub(crate) struct Library {
    roots: Vec<PathBuf>,
    pub sources: Vec<Source>,
    /// Record files and live files.
    files: BTreeMap<PathBuf, Seen>,
    packs: BTreeMap<PathBuf, IndexedPack>,
    /// Bumped whenever a scan finds anything new or changed: what live pages wait on.
    pub generation: u64,
}

impl Library {
    pub(crate) fn new(roots: Vec<PathBuf>) -> Library {
        let mut library = Library {
            roots,
            ..Library::default()
        };
        library.scan();
        library
    }

    /// Looks at the directories again; reads only the files that are new or changed, and of a
    /// records file only what was appended. Returns whether anything changed.
    pub(crate) fn scan(&mut self) -> bool {
        let sources = find_sources(&self.roots);
        let ids = |sources: &[Source]| sources.iter().map(|s| s.id.clone()).collect::<Vec<_>>();
        let mut changed = ids(&sources) != ids(&self.sources);
        let mut files = BTreeMap::new();
        let mut packs = BTreeMap::new();
        for source in &sources {
            for path in game_files(&source.dir) {
                let is_pack = path
                    .file_name()
                    .and_then(|name| name.to_str())
                    .is_some_and(is_pack_name);
                if is_pack {
                    let pack = self.packs.remove(&path);
                    changed |= index_pack(&mut packs, &source.id, path, pack);
                    continue;
                }
                let Ok(meta) = fs::metadata(&path) else {
                    continue;
                };
                let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                let seen = match self.files.remove(&path) {
                    Some(seen)
                        if seen.modified == modified
                            && seen.len == meta.len()
                            && seen.source == source.id =>
                    {
                        seen
                    }
                    _ => {
                        changed = true;
                        Seen {
                            modified,
                            len: meta.len(),
                            source: source.id.clone(),
                            summary: summarise(&source.id, &path),
                        }
                    }
                };
                files.insert(path, seen);
            }
        }
        changed |= !self.files.is_empty() || !self.packs.is_empty();
        self.files = files;
        self.packs = packs;
        self.sources = sources;
        if changed {
            self.generation += 1;
        }
        changed
    }

    /// Every game, finished or live, by source and number (a finished record hides the live
    /// file of the same game).
    pub(crate) fn games(&self) -> Vec<GameSummary> {
        let mut games: BTreeMap<(&str, u32), &GameSummary> = BTreeMap::new();
        let finished = self.packs.values().flat_map(|pack| pack.games.values());
        let found = self.files.values().filter_map(|seen| seen.summary.as_ref());
        for summary in found.chain(finished) {
            let key = (summary.source.as_str(), summary.number);
            if summary.live && games.contains_key(&key) {
                continue;
            }
            games.insert(key, summary);
        }
        games.into_values().cloned().collect()
    }

    pub(crate) fn source(&self, id: &str) -> Option<&Source> {
        self.sources.iter().find(|source| source.id == id)
    }

    /// Where game `number` of source `source` is kept: its line in a records file, else its
    /// record file, else the live file playing it.
    pub(crate) fn find(&self, source: &str, number: u32) -> Option<Place> {
        let in_pack = self.packs.iter().find_map(|(path, pack)| {
            let at = pack.index.games().get(&number)?;
            (pack.source == source).then(|| Place::Pack(path.clone(), at.clone()))
        });
        if in_pack.is_some() {
            return in_pack;
        }
        let dir = &self.source(source)?.dir;
        let name = format!("{number:04}.json");
        for dir in [dir.clone(), dir.join("games")] {
            let path = dir.join(&name);
            let finished = self.files.get(&path).and_then(|seen| seen.summary.as_ref());
            if finished.is_some_and(|summary| summary.source == source) {
                return Some(Place::Record(path));
            }
        }
        self.files.iter().find_map(|(path, seen)| {
            let summary = seen.summary.as_ref()?;
            (summary.live && summary.source == source && summary.number == number)
                .then(|| Place::Live(path.parent().unwrap_or(Path::new("")).to_path_buf()))
        })
    }
}

/// The sources in `roots`: each root, and each folder directly inside one (but `games/`), that
/// holds a journal or game files; named as [`Source::id`] says.
fn find_sources(roots: &[PathBuf]) -> Vec<Source> {
    let mut sources = Vec::new();
    let mut root_names: Vec<String> = Vec::new();
    for root in roots {
        let base = dir_name(root);
        let taken = root_names.iter().filter(|name| **name == base).count();
        root_names.push(base.clone());
        let root_id = if taken == 0 {
            base
        } else {
            format!("{base}~{}", taken + 1)
        };
        let mut inside: Vec<PathBuf> = fs::read_dir(root)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.is_dir() && path.file_name() != Some("games".as_ref()))
            .collect();
        inside.sort();
        let mut candidates = vec![(root.clone(), root_id.clone())];
        candidates.extend(inside.into_iter().map(|path| {
            let id = format!("{root_id}/{}", dir_name(&path));
            (path, id)
        }));
        for (dir, id) in candidates {
            let journal = Some(dir.join("journal.jsonl")).filter(|path| path.is_file());
            if journal.is_some() || !game_files(&dir).is_empty() {
                sources.push(Source {
                    id,
                    name: dir.display().to_string(),
                    dir,
                    tournament: journal.is_some(),
                    journal,
                });
            }
        }
    }
    sources
}

/// A directory's own name (that of the current directory for `.`), as shown in an address.
fn dir_name(dir: &Path) -> String {
    let named = dir
        .file_name()
        .map(|name| name.to_string_lossy().into_owned());
    named
        .or_else(|| {
            let full = fs::canonicalize(dir).ok()?;
            Some(full.file_name()?.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "games".to_string())
}

/// Brings a records file's index up to date (`pack` is what the last scan found of it), keeping
/// it in `packs`; returns whether it found anything. A line that is not a records line is
/// passed over (a viewer has nobody to tell).
fn index_pack(
    packs: &mut BTreeMap<PathBuf, IndexedPack>,
    source: &str,
    path: PathBuf,
    pack: Option<IndexedPack>,
) -> bool {
    let mut changed = false;
    let mut pack = pack.unwrap_or_else(|| IndexedPack {
        source: source.to_string(),
        index: PackIndex::new(&path),
        games: BTreeMap::new(),
    });
    if pack.source != source {
        pack.source = source.to_string();
        pack.games
            .values_mut()
            .for_each(|game| game.source = source.to_string());
        changed = true;
    }
    let IndexedPack { index, games, .. } = &mut pack;
    loop {
        let read = index.update(|read| match read {
            Indexed::Restarted => games.clear(),
            Indexed::Game(record) => {
                games.insert(record.number, summary(source, record));
            }
        });
        match read {
            Ok(found) => {
                changed |= found;
                break;
            }
            Err(PackError::Corrupt { .. }) => changed = true,
            Err(PackError::Io { .. }) => break,
        }
    }
    packs.insert(path, pack);
    changed
}

/// The record files, records files and live files of a directory and of its `games/` folder;
/// not the live files abandoned by a referee killed on this machine (their games are not being
/// played), looked at again at each scan since a file does not change when its writer dies.
fn game_files(dir: &Path) -> Vec<PathBuf> {
    [dir.to_path_buf(), dir.join("games")]
        .iter()
        .flat_map(|dir| fs::read_dir(dir).into_iter().flatten().flatten())
        .filter(|entry| {
            entry.file_name().to_str().is_some_and(|name| {
                is_record_name(name)
                    || (is_live_name(name) && !is_abandoned(&entry.path()))
                    || is_pack_name(name)
            })
        })
        .map(|entry| entry.path())
        .collect()
}

/// What the index shows of a record or a live game; none for a file that is neither.
fn summarise(source: &str, path: &Path) -> Option<GameSummary> {
    let name = path.file_name()?.to_str()?;
    if is_live_name(name) {
        let live = LiveGame::read(path).ok()?;
        return Some(GameSummary {
            source: source.to_string(),
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
    match read_record(path) {
        Ok(record) => Some(summary(source, &record)),
        Err(error) => {
            // Said once: the file is read again only once it changed.
            let why: Vec<String> =
                std::iter::successors(Some(&error as &dyn std::error::Error), |e| e.source())
                    .map(ToString::to_string)
                    .collect();
            eprintln!("referee: note: {}; left out", why.join(": "));
            None
        }
    }
}

/// The index's line of a finished game.
pub(crate) fn summary(source: &str, record: &GameRecord) -> GameSummary {
    GameSummary {
        source: source.to_string(),
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
pub(crate) fn player_name(record: &GameRecord, index: usize) -> String {
    let player = &record.players[index];
    match &player.name {
        Some(name) if *name != player.label => format!("{} ({name})", player.label),
        _ => player.label.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay;
    use referee_records::live::{LiveFile, LiveHeader};
    use referee_records::record_pack::RecordPack;
    use referee_records::transcript::{SeatLog, Transcript};
    use std::collections::HashSet;
    use std::io::Write as _;
    use std::time::{Duration, Instant};

    /// A seat's log of one line sent a millisecond after `started`, and its stderr.
    fn log(started: Instant, line: &str, stderr: &[u8]) -> SeatLog {
        let mut transcript = Transcript::default();
        transcript.sent(line.into(), started + Duration::from_millis(1));
        SeatLog {
            transcript: transcript.take().0,
            stderr: stderr.to_vec(),
            ..SeatLog::default()
        }
    }

    fn record(number: u32) -> GameRecord {
        let player = |label: &str| {
            serde_json::json!({"label": label, "command": "bot", "name": null, "version": null,
                "time": {"move": 1000, "bank": 0, "increment": 0, "first": 0}, "points": 0.5,
                "stderr_at_us": [1500]})
        };
        serde_json::from_value(serde_json::json!({
            "referee": "0", "number": number, "game": "tictactoe width=3 height=3 line=3 exact=no",
            "players": [player("ann"), player("bob")], "opening": [],
            "moves": [{"side": "first", "move": "1 1", "us": 10, "at_us": 2000}],
            "result": {"winner": null, "reason": "agreement", "detail": "draw"},
            "started": "", "ended": "", "final_position": ""
        }))
        .unwrap()
    }

    /// Another server (the arena) shows a player's stderr only to some: the evaluations read
    /// from it go with it.
    #[test]
    fn a_stderr_left_out_takes_its_evaluations_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0001.json");
        std::fs::write(&path, serde_json::to_string(&record(1)).unwrap()).unwrap();
        std::fs::write(dir.path().join("0001.ann.stderr.txt"), "info score 7\n").unwrap();
        let seen = |shown| {
            let view = crate::recorded_view(&path, shown).unwrap();
            let evaluations = view["evaluations"].as_array().map_or(0, Vec::len);
            (view["stderr"][0].is_null(), evaluations)
        };
        assert_eq!(seen([true, false]), (false, 1));
        assert_eq!(seen([false, true]), (true, 0));
    }

    /// A file that is no record (malformed, or larger than any record) is not listed, and is
    /// read once, not again at every scan (it was, four times a second, 1 GiB files included).
    #[test]
    fn a_file_that_is_no_record_is_read_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("0001.json"),
            serde_json::to_string(&record(1)).unwrap(),
        )
        .unwrap();
        std::fs::write(dir.path().join("0002.json"), "{ not a record").unwrap();
        // Sparse: large on paper, nothing on disk.
        let huge = std::fs::File::create(dir.path().join("0003.json")).unwrap();
        huge.set_len(referee_records::record::MAX_RECORD_BYTES + 1)
            .unwrap();
        let mut library = Library::new(vec![dir.path().to_path_buf()]);
        let numbers: Vec<u32> = library.games().iter().map(|g| g.number).collect();
        assert_eq!(numbers, [1]);
        assert!(!library.scan(), "nothing changed, nothing read again");
        std::fs::write(
            dir.path().join("0002.json"),
            serde_json::to_string(&record(2)).unwrap(),
        )
        .unwrap();
        assert!(library.scan(), "a file that changed is read again");
        assert_eq!(library.games().len(), 2);

        // A records file with a line that is no records line: it changes the library once.
        let out = dir.path().join("league");
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("journal.jsonl"), "").unwrap();
        let path = out.join("games.jsonl");
        let pack = RecordPack::open(&path, &HashSet::new()).unwrap();
        let started = Instant::now();
        let logs = [log(started, "x", b""), log(started, "y", b"")];
        pack.append_game(&record(7), &logs, started).unwrap();
        fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"not\": \"a records line\"}\n")
            .unwrap();
        assert!(library.scan());
        assert!(!library.scan(), "the bad line is not read again");
        assert!(library.games().iter().any(|game| game.number == 7));
    }

    /// A link names a game by its folder, so a folder added beside it (first in name order)
    /// changes no link's meaning: `#/game/1/1` used to show another game then.
    #[test]
    fn a_source_keeps_its_id_when_folders_are_added() {
        let root = tempfile::tempdir().unwrap();
        let served = root.path().join("served");
        let write = |folder: &str, first: &str| {
            let dir = served.join(folder);
            fs::create_dir_all(&dir).unwrap();
            let mut game = record(1);
            game.players[0].label = first.to_string();
            fs::write(dir.join("0001.json"), serde_json::to_string(&game).unwrap()).unwrap();
        };
        write("b", "bea");
        let mut library = Library::new(vec![served.clone()]);
        let first_player = |library: &Library, id: &str| {
            library
                .find(id, 1)?
                .stored()
                .map(|game| game.record.players[0].label.clone())
        };
        assert_eq!(first_player(&library, "served/b").as_deref(), Some("bea"));
        write("a", "abe");
        assert!(library.scan());
        assert_eq!(first_player(&library, "served/b").as_deref(), Some("bea"));
        assert_eq!(first_player(&library, "served/a").as_deref(), Some("abe"));
        assert_eq!(first_player(&library, "0").as_deref(), None);

        // Two served directories of one name are told apart in the order given.
        let other = root.path().join("elsewhere/served");
        fs::create_dir_all(&other).unwrap();
        fs::write(
            other.join("0001.json"),
            serde_json::to_string(&record(1)).unwrap(),
        )
        .unwrap();
        let library = Library::new(vec![served, other]);
        let ids: Vec<&str> = library.sources.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["served/a", "served/b", "served~2"]);
    }

    #[test]
    fn a_records_file_is_indexed_as_it_grows_and_its_games_replayed() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("league");
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("journal.jsonl"), "").unwrap();
        let path = out.join("games.jsonl");
        let pack = RecordPack::open(&path, &HashSet::new()).unwrap();
        let started = Instant::now();
        let logs = [
            log(started, "turn 1000", b"thinking\n"),
            log(started, "x", b""),
        ];
        pack.append_game(&record(1), &logs, started).unwrap();
        let mut library = Library::new(vec![root.path().to_path_buf()]);
        assert!(library.sources[0].tournament);
        assert_eq!(library.games().len(), 1);

        // A game and an epilogue of the first are appended, then half a line: the scan reads
        // what is whole, and nothing is an error.
        pack.append_game(&record(2), &logs, started).unwrap();
        pack.append_epilogue(1, "bob", &log(started, "quit", b"bye\n"), started)
            .unwrap();
        let whole = fs::read(&path).unwrap();
        fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(&whole[..100])
            .unwrap();
        assert!(library.scan());
        let numbers: Vec<u32> = library.games().iter().map(|game| game.number).collect();
        assert_eq!(numbers, [1, 2]);
        assert!(!library.scan(), "nothing more");

        let league = library.sources[0].id.clone();
        assert!(league.ends_with("/league"), "{league}");
        let place = library.find(&league, 1).unwrap();
        assert!(matches!(place, Place::Pack(..)), "{place:?}");
        let view = replay::finished(&place.stored().unwrap());
        let sent: Vec<&str> = view.turns[1].iter().map(|l| l.text.as_str()).collect();
        assert_eq!(sent, ["turn 1000", "x", "quit"], "the epilogue is merged");
        let stderr = |side: usize| -> Vec<String> {
            view.stderr[side]
                .iter()
                .flatten()
                .map(|l| l.text.clone())
                .collect()
        };
        assert_eq!(stderr(0), ["thinking"]);
        assert_eq!(stderr(1), ["bye"]);
        assert!(library.find(&league, 3).is_none());
    }

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

    /// A referee killed in a game (SIGKILL) leaves its live file as it was: once no process on
    /// this machine has the id in its name, the game is no longer listed as being played, and
    /// the file is kept.
    #[test]
    fn a_game_whose_referee_was_killed_is_not_listed_as_being_played() {
        let records = tempfile::tempdir().unwrap();
        let header = LiveHeader {
            number: 2,
            game: "tictactoe width=3 height=3 line=3 exact=no".into(),
            players: ["A".into(), "B".into()],
            time: Default::default(),
            opening: Vec::new(),
            started: String::new(),
        };
        let mut table = LiveFile::new(records.path());
        let path = table.path().to_path_buf();
        let live = table.start(&header);
        let mut library = Library::new(vec![records.path().to_path_buf()]);
        assert!(library.games()[0].live);
        // The same file, as a process that is gone left it.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        child.wait().unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        let own = format!("-{}-", std::process::id());
        let left = records
            .path()
            .join(name.replacen(&own, &format!("-{}-", child.id()), 1));
        fs::copy(&path, &left).unwrap();
        drop(live);
        assert!(library.scan());
        assert!(library.games().is_empty(), "{:?}", library.games());
        assert!(library.find(&library.sources[0].id.clone(), 2).is_none());
        assert!(left.exists(), "kept");
    }
}
