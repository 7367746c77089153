//! Runs a tournament (or one shard of it): `jobs` worker threads take game pairs from the lazy
//! schedule, each plays them at its own [`Table`] (so a `multi` bot's process serves both games
//! of a pair, and the next pair too when it plays again), and every finished game is appended
//! to the journal before its worker takes another game.

use super::config::{RecordLayout, Tournament};
use super::journal::{
    self, Conditions, Entry, Header, Identity, Journal, JournalError, OwnConditions,
};
use super::merge::merge;
use super::openings::OpeningsError;
use super::progress::Progress;
use super::rounds::{Played, Results, Rounds};
use super::schedule::{Format, Shard};
use super::slot::Slot;
use crate::standings::render::{self, WriteError, STANDINGS_FORMATS};
use crate::standings::Standings;
use crate::table::{GameError, Recorder, ScheduledGame, Table, Venue};
use referee_cage::cpus;
use referee_cage::supervisor::Supervisor;
use referee_records::record_pack::{pack_path, RecordPack};
use referee_rules::games::Side;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;

/// Pairs looked ahead per worker for one whose bots a worker can reuse: a few rounds' worth
/// for small fields, while games are still handed out close to schedule order.
const LOOKAHEAD_PER_JOB: usize = 4;

/// The CPU cores of this machine.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// How many games (or a contest's builds) run at once: what the command line asks, else the
/// file's `concurrency`, else half the CPU cores (a game runs two bots), at least 1.
pub fn jobs(asked: Option<usize>, configured: Option<usize>) -> usize {
    asked.or(configured).unwrap_or((cores() / 2).max(1))
}

/// The processor each table runs on, with its bots: one of its own each when there are as many
/// tables as processors, so that a game's bot and its referee wake each other on one processor
/// (no wake-up crosses processors, no table's bot is slowed by another table's) and `-j 2`
/// plays twice the games of `-j 1`; with fewer tables, only when `pin` asks (a contest: games
/// must never share a processor), as several runs at once with fewer tables each would all
/// pin theirs to the first processors; none (the scheduler places them) otherwise.
fn table_cores(jobs: usize, pin: bool) -> Vec<usize> {
    let mut allowed = cpus::allowed();
    if allowed.len() == jobs || (pin && jobs < allowed.len()) {
        allowed.truncate(jobs);
        allowed
    } else {
        Vec::new()
    }
}

/// Games a machine holds at once, each on a processor of its own: its processors, fewer when
/// its available memory would not hold `memory_per_game_mb` for each (at least 1).
pub fn games_the_machine_holds(memory_per_game_mb: Option<u64>) -> usize {
    let processors = cpus::allowed().len().max(1);
    let available_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| memory_available_mb(&text));
    match (memory_per_game_mb, available_mb) {
        (Some(per_game), Some(available)) if per_game > 0 => processors.min(
            usize::try_from(available / per_game)
                .unwrap_or(usize::MAX)
                .max(1),
        ),
        _ => processors,
    }
}

/// `MemAvailable` of `/proc/meminfo`, in MiB.
fn memory_available_mb(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// How to run a tournament.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Games played at once.
    pub jobs: usize,
    /// The part of the schedule this run plays; [`Shard::WHOLE`] for all of it.
    pub shard: Shard,
    /// Continue the journal in `out` instead of refusing it.
    pub resume: bool,
    /// The output directory: journal, records and standings.
    pub out: PathBuf,
    /// The referee executable, re-invoked as `referee bot NAME` for built-in bots.
    pub referee_exe: PathBuf,
    /// Each table on a processor of its own, however few the tables (see `table_cores`).
    pub pin: bool,
}

/// The referee's own failures during a tournament.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The journal cannot be used: unreadable, corrupt, another tournament's, or busy.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A game could not be played or filed.
    #[error(transparent)]
    Game(#[from] GameError),
    /// No random opening of the plies asked leaves a game going.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// The records file cannot be opened.
    #[error("cannot open the records file {path}")]
    Records {
        /// The records file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A shard of a Swiss or knock-out, whose rounds depend on every result before them.
    #[error("a {format} tournament cannot be split into shards: each round is paired from the results of the whole round before; run it on one machine (with -j), or shard a round robin")]
    ShardedByResults {
        /// The format as its journal names it.
        format: String,
    },
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// The journal the run wrote to.
    pub journal: PathBuf,
    /// Games played by this run.
    pub played: u64,
    /// Wall-clock time of the run.
    pub elapsed: std::time::Duration,
}

/// `journal.jsonl` for a whole tournament, `journal-K-of-N.jsonl` for a shard, so that the
/// shards may share one output directory.
pub fn journal_path(out: &Path, shard: Shard) -> PathBuf {
    if shard.is_whole() {
        out.join("journal.jsonl")
    } else {
        out.join(format!("journal-{}-of-{}.jsonl", shard.index, shard.count))
    }
}

/// The journals in `out`, by name: a whole tournament's, or its shards' (see
/// [`journal_path`]); none when `out` does not exist.
pub fn journals_in(out: &Path) -> std::io::Result<Vec<PathBuf>> {
    let listing = match std::fs::read_dir(out) {
        Ok(listing) => listing,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut found = Vec::new();
    for entry in listing {
        let name = entry?.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("journal") && name.ends_with(".jsonl") {
            found.push(out.join(&*name));
        }
    }
    found.sort();
    Ok(found)
}

/// The journals of `shard` and its siblings, as a shell pattern: what to hand `referee
/// standings` once every shard is done.
pub fn shard_journals(out: &Path, shard: Shard) -> PathBuf {
    out.join(format!("journal-*-of-{}.jsonl", shard.count))
}

impl RunSummary {
    /// The standings of this run's journal (only this shard's games, for a shard).
    pub fn standings(&self) -> Result<Standings, JournalError> {
        Ok(merge(std::slice::from_ref(&self.journal))?.standings())
    }

    /// A knock-out's bracket as played (see [`super::rounds::KnockoutLayout::report`]); None
    /// for another format.
    pub fn bracket_report(&self, tournament: &Tournament) -> Result<Option<String>, JournalError> {
        let Some(Rounds::Knockout(layout)) = tournament.schedule.rounds() else {
            return Ok(None);
        };
        let entries = journal::read(&self.journal)?.entries;
        let names: Vec<&str> = tournament.names().collect();
        Ok(Some(
            layout.report(&names, &pairing_results(tournament, &entries)),
        ))
    }

    /// Writes `standings` in each of [`STANDINGS_FORMATS`] next to the journal, named after it
    /// (`standings.json`, or `standings-K-of-N.json` for a shard); returns the files.
    pub fn save_standings(&self, standings: &Standings) -> Result<Vec<PathBuf>, WriteError> {
        let stem = self.journal.file_stem().map_or_else(
            || "standings".into(),
            |s| s.to_string_lossy().replacen("journal", "standings", 1),
        );
        STANDINGS_FORMATS
            .into_iter()
            .map(|format| {
                let path = self
                    .journal
                    .with_file_name(format!("{stem}.{}", format.extension()));
                render::write_file(format, &path, standings)?;
                Ok(path)
            })
            .collect()
    }
}

/// What identifies the tournament in its journal.
pub fn identity(tournament: &Tournament) -> Identity {
    let names: Vec<String> = tournament.names().map(String::from).collect();
    let challengers = match &tournament.format {
        Format::Gauntlet { challengers } => challengers.iter().map(|&c| names[c].clone()).collect(),
        _ => Vec::new(),
    };
    Identity {
        name: tournament.name.clone(),
        game: tournament.table.rules.spec.to_string(),
        format: tournament.format.description(),
        challengers,
        players: names,
        games_per_pairing: tournament.games_per_pairing,
        openings: tournament.openings.description(),
        seed: tournament.table.seed,
        total_games: tournament.schedule.total_games(),
        versions: tournament.versions.clone(),
        conditions: Some(conditions(tournament)),
    }
}

/// How `tournament`'s games are played, as its journal records it.
fn conditions(tournament: &Tournament) -> Conditions {
    let table = &tournament.table;
    let own = tournament
        .players
        .iter()
        .filter(|player| player.time != tournament.time || player.limits != tournament.limits)
        .map(|player| {
            let own = OwnConditions {
                time: player.time.spec(),
                limits: player.limits.to_string(),
            };
            (player.label.clone(), own)
        })
        .collect();
    Conditions {
        time: tournament.time.spec(),
        limits: tournament.limits.to_string(),
        margin_ms: table.rules.margin.as_millis() as u64,
        startup_ms: table.rules.startup.as_millis() as u64,
        legal_moves: table.rules.send_legal_moves,
        max_line: table.process.max_line,
        gomocup_memory_mb: table.process.memory_budget_mb,
        sandbox: table.process.sandbox,
        score_stalled: !table.replay_stalled,
        reuse_processes: table.reuse_processes,
        own,
    }
}

/// The journal's games as pairing needs them (players by index).
fn pairing_results(tournament: &Tournament, entries: &[Entry]) -> Results {
    let index: HashMap<&str, usize> = tournament
        .names()
        .enumerate()
        .map(|(i, n)| (n, i))
        .collect();
    entries
        .iter()
        .filter_map(|entry| {
            let seats = [
                index.get(entry.players[0].as_str())?,
                index.get(entry.players[1].as_str())?,
            ];
            let points_first = match entry.winner {
                None => 0.5,
                Some(Side::First) => 1.0,
                Some(Side::Second) => 0.0,
            };
            Some((
                entry.index,
                Played {
                    seats: seats.map(|&s| s),
                    points_first,
                },
            ))
        })
        .collect()
}

/// Hands out the games still to play, a pair at a time, nearly in schedule order: among the
/// next few pairs, a worker gets one whose players it already has processes for, if any.
struct Dispatcher<'a> {
    pairs: Box<dyn Iterator<Item = Vec<Slot>> + Send + 'a>,
    /// The next pairs (their games not yet finished), at most `lookahead` of them.
    window: VecDeque<Vec<Slot>>,
    lookahead: usize,
    /// Handouts since the front pair entered the front: it goes next once this reaches
    /// `lookahead`, so no pair waits long.
    front_waited: usize,
    done: HashSet<u64>,
    /// A worker failed: hand out nothing more.
    stopped: bool,
}

impl Dispatcher<'_> {
    /// The next pair for a worker holding processes of the `seated` players.
    fn next(&mut self, seated: &[usize]) -> Option<Vec<Slot>> {
        if self.stopped {
            return None;
        }
        while self.window.len() < self.lookahead {
            let Some(pair) = self.pairs.next() else {
                break;
            };
            let left: Vec<Slot> = pair
                .into_iter()
                .filter(|slot| !self.done.contains(&slot.index))
                .collect();
            if !left.is_empty() {
                self.window.push_back(left);
            }
        }
        let shared = |games: &Vec<Slot>| {
            games[0]
                .seats
                .iter()
                .filter(|player| seated.contains(player))
                .count()
        };
        let best = if self.front_waited >= self.lookahead {
            0
        } else {
            (0..self.window.len())
                .max_by_key(|&at| (shared(&self.window[at]), std::cmp::Reverse(at)))?
        };
        if best == 0 {
            self.front_waited = 0;
        } else {
            self.front_waited += 1;
        }
        self.window.remove(best)
    }
}

/// What workers tell the thread that shows progress.
enum Event {
    Finished(Entry),
    Replayed { number: u32, detail: String },
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Plays every game of `options.shard` not yet in the journal, with bots started by
/// `supervisor` (one for every worker).
pub fn run(
    tournament: &Tournament,
    options: &RunOptions,
    supervisor: &Supervisor,
    progress: &mut Progress,
) -> Result<RunSummary, TournamentError> {
    let header = Header {
        journal: journal::FORMAT,
        tournament: identity(tournament),
        shard: (!options.shard.is_whole()).then(|| options.shard.to_string()),
    };
    if tournament.format.is_paired_by_results() && !options.shard.is_whole() {
        return Err(TournamentError::ShardedByResults {
            format: header.tournament.format,
        });
    }
    let path = journal_path(&options.out, options.shard);
    let nothing_to_resume = options.resume && !path.exists();
    let (journal, finished) = Journal::open(&path, &header, options.resume)?;
    progress.enter_players(tournament.names());
    if nothing_to_resume {
        progress.say(&format!(
            "nothing to resume: there was no journal at {}, so the tournament starts from its \
             first game",
            path.display()
        ));
    }
    progress.resumed(&finished);
    let records = match tournament.records {
        None => None,
        Some(RecordLayout::Files) => Some(Recorder::Files(options.out.join("games"))),
        // One records file per journal, holding the games the journal holds: a game filed
        // but not journaled (a kill came between) is played again, and filed once.
        Some(RecordLayout::Pack) => {
            let pack = pack_path(&path);
            let journaled = finished
                .iter()
                .map(|entry| (entry.index + 1) as u32)
                .collect();
            let opened = RecordPack::open(&pack, &journaled);
            Some(Recorder::Pack(Arc::new(opened.map_err(|source| {
                TournamentError::Records { path: pack, source }
            })?)))
        }
    };
    let journal = Mutex::new(journal);
    let venue = Venue {
        settings: tournament.table.clone(),
        referee_exe: options.referee_exe.clone(),
        records,
    };
    let play = Play {
        tournament,
        venue: &venue,
        journal: &journal,
        supervisor,
        jobs: options.jobs.max(1),
        pin: options.pin,
        out: &options.out,
    };
    let outcome = match tournament.schedule.rounds() {
        None => {
            let done = finished.iter().map(|entry| entry.index).collect();
            drop(finished);
            let pairs = tournament.schedule.pairs(options.shard).map(Vec::from);
            play.batch(Box::new(pairs), done, progress).map(drop)
        }
        Some(rounds) => {
            let mut results = pairing_results(tournament, &finished);
            drop(finished);
            (|| {
                while let Some(batch) = rounds.next_batch(&results, tournament.table.seed) {
                    let entries =
                        play.batch(Box::new(batch.into_iter()), HashSet::new(), progress)?;
                    results.extend(pairing_results(tournament, &entries));
                }
                Ok(())
            })()
        }
    };
    let (played, elapsed) = progress.finish();
    let closed = journal
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .close();
    outcome?;
    closed?;
    Ok(RunSummary {
        journal: path,
        played,
        elapsed,
    })
}

/// What every batch of games is played with.
struct Play<'a> {
    tournament: &'a Tournament,
    venue: &'a Venue,
    journal: &'a Mutex<Journal>,
    supervisor: &'a Supervisor,
    jobs: usize,
    pin: bool,
    out: &'a Path,
}

impl Play<'_> {
    /// Plays the games of `pairs` not in `done` on `jobs` workers; returns the games finished.
    fn batch(
        &self,
        pairs: Box<dyn Iterator<Item = Vec<Slot>> + Send + '_>,
        done: HashSet<u64>,
        progress: &mut Progress,
    ) -> Result<Vec<Entry>, TournamentError> {
        let dispatcher = Mutex::new(Dispatcher {
            pairs,
            window: VecDeque::new(),
            lookahead: LOOKAHEAD_PER_JOB * self.jobs,
            front_waited: 0,
            done,
            stopped: false,
        });
        let mut finished = Vec::new();
        let (sender, events) = mpsc::channel();
        let cores = table_cores(self.jobs, self.pin);
        let outcome = thread::scope(|scope| {
            let workers: Vec<_> = (0..self.jobs)
                .map(|index| {
                    let sender = sender.clone();
                    let dispatcher = &dispatcher;
                    let core = cores.get(index).copied();
                    scope.spawn(move || {
                        if let Some(core) = core {
                            // Not being pinned costs speed, never a game: ignore a refusal.
                            let _ = cpus::pin_current_thread(core);
                        }
                        let table = Table::new(self.supervisor);
                        let result = self.work(table, dispatcher, &sender);
                        if result.is_err() {
                            lock(dispatcher).stopped = true;
                        }
                        result
                    })
                })
                .collect();
            drop(sender);
            for event in events {
                match event {
                    Event::Finished(entry) => {
                        progress.finished(&entry);
                        finished.push(entry);
                    }
                    Event::Replayed { number, detail } => progress.replayed(number, &detail),
                }
            }
            workers
                .into_iter()
                .map(|worker| {
                    worker
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect::<Result<Vec<()>, TournamentError>>()
        });
        outcome.map(|_| finished)
    }
}

impl Play<'_> {
    /// One worker: plays pairs until none is left (or another worker failed).
    fn work(
        &self,
        mut table: Table,
        dispatcher: &Mutex<Dispatcher<'_>>,
        events: &Sender<Event>,
    ) -> Result<(), TournamentError> {
        let (tournament, out) = (self.tournament, self.out);
        loop {
            let seated = table.seated();
            let Some(slots) = lock(dispatcher).next(&seated) else {
                return Ok(());
            };
            for slot in slots {
                let opening = tournament
                    .openings
                    .for_cycle(&tournament.table.rules.spec, slot.cycle)?;
                let game = ScheduledGame {
                    // The configuration caps schedules at u32::MAX games.
                    number: (slot.index + 1) as u32,
                    seats: slot.seats,
                    opening,
                };
                let finished = table.play(self.venue, &tournament.players, &game, |replay| {
                    let _ = events.send(Event::Replayed {
                        number: game.number,
                        detail: replay.played.record.result.detail.clone(),
                    });
                })?;
                let record = &finished.played.record;
                let entry = Entry {
                    index: slot.index,
                    players: slot.seats.map(|s| tournament.players[s].label.clone()),
                    winner: record.result.winner,
                    reason: record.result.reason,
                    violation: record.result.violation.clone(),
                    opening: record.opening.clone(),
                    moves: record.moves.len(),
                    stalled: record.result.stalled,
                    record: finished.filed.as_ref().map(|filed| {
                        let path = filed.record_path();
                        path.strip_prefix(out).unwrap_or(path).display().to_string()
                    }),
                };
                if self.supervisor.is_stopping() {
                    // The interrupt came after the game was filed (a game it ended is not
                    // filed): nothing more is journaled, and `--resume` plays it again.
                    self.supervisor.wait_for_exit();
                }
                lock(self.journal).append(&entry)?;
                let _ = events.send(Event::Finished(entry));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::schedule::Schedule;

    fn dispatcher<'a>(schedule: &'a Schedule, done: &[u64], lookahead: usize) -> Dispatcher<'a> {
        Dispatcher {
            pairs: Box::new(schedule.pairs(Shard::WHOLE).map(Vec::from)),
            window: VecDeque::new(),
            lookahead,
            front_waited: 0,
            done: done.iter().copied().collect(),
            stopped: false,
        }
    }

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2097152 kB\n";
        assert_eq!(memory_available_mb(meminfo), Some(2048));
        assert_eq!(memory_available_mb("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn every_unfinished_game_is_handed_out_once() {
        let schedule = Schedule::new(6, Format::RoundRobin, 4);
        let mut pending = dispatcher(&schedule, &[0, 1, 2, 9, 59], 8);
        let mut seen = Vec::new();
        let mut seated: Vec<usize> = Vec::new();
        while let Some(games) = pending.next(&seated) {
            seated = games[0].seats.to_vec();
            seen.extend(games.iter().map(|slot| slot.index));
        }
        seen.sort_unstable();
        let expected: Vec<u64> = (0..60).filter(|i| ![0, 1, 2, 9, 59].contains(i)).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_worker_gets_a_pair_it_holds_bots_for_but_the_front_waits_little() {
        let schedule = Schedule::new(10, Format::RoundRobin, 10);
        let mut pending = dispatcher(&schedule, &[], 8);
        let first = pending.next(&[]).unwrap();
        assert_eq!(first[0].index, 0, "nothing seated: schedule order");
        let [a, b] = first[0].seats;
        let next = pending.next(&[a, b]).unwrap();
        assert!(
            next[0].seats.contains(&a) || next[0].seats.contains(&b),
            "{:?} shares no player with {a}, {b}",
            next[0].seats
        );
        // Pair 1 was passed over; it is handed out within `lookahead` more handouts.
        let mut handed = Vec::new();
        for _ in 0..9 {
            handed.push(pending.next(&[a, b]).unwrap()[0].index);
        }
        assert!(handed.contains(&2), "{handed:?}");
        pending.stopped = true;
        assert_eq!(pending.next(&[]), None);
    }
}
