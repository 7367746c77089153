//! The strong gomoku bot against two opponents, through `referee match` from a deck of balanced
//! openings (`openings/gomoku.txt` unless `--deck PATH`), each opening played with both colours:
//!
//! - another build's strong bot, run as `PREVIOUS bot strong` from a referee built at another
//!   commit (`GOMOKU_PREVIOUS_REFEREE=PATH`, or `--previous PATH`), e.g. `git worktree add
//!   /tmp/previous COMMIT && cargo build --release --manifest-path /tmp/previous/Cargo.toml`,
//!   then `/tmp/previous/target/release/referee`: to measure a change to the bot;
//! - a Gomocup engine through the referee's Gomocup adapter (`GOMOCUP_ENGINE=PATH`, or
//!   `--engine PATH`), e.g. Rapfi built from its public source with `tools/build-rapfi.sh`, or
//!   figrid: `cargo install figrid-board --version 1.2.0 --features embed-weights --root
//!   /tmp/figrid`, then `/tmp/figrid/bin/pbrain-figrid`.
//!
//! An opponent that is not given is skipped with a message saying how to get it. At 1 s per move
//! (the default; `--time MS` changes it), with two matches per core at once (`--jobs N`), so the
//! bots play under load. `cargo bench --bench gomoku_strength` plays all 35 openings (70 games
//! per opponent, a game is about half a minute, so about twenty minutes per opponent on two
//! cores); `cargo bench --bench gomoku_strength -- --openings 10 --time 300` plays fewer.
//! `--deck openings/gomoku-rapfi.txt` plays the 33 openings Rapfi judges even, the deck that
//! measures a bot against a stronger one fairly (the shipped deck favours the first player);
//! `--gomocup-memory-mb N` is passed on to the referee (a brain told Gomocup's 350 MiB may spend
//! its first move sizing its hash table).
//!
//! Each opponent's line gives the strong bot's score, its wins as the first and as the second
//! player, and the median and longest time it took to answer a move; `--record DIR` keeps the
//! games (`DIR/N/0001.json` and `0002.json` for the N-th opening).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../tests/support/workload.rs"]
mod workload;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the matches gave the strong bot (player A).
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// Of the wins, those as the first player (Black, who placed the opening's third stone).
    wins_first: u32,
    /// Games lost on time or by another forfeit, by either side.
    forfeits: u32,
    /// How long the strong bot took over each of its moves, as the referee measured it.
    think: Vec<Duration>,
}

impl Tally {
    fn add(&mut self, record: &Value) {
        let players = record["players"].as_array().expect("players");
        let seat = players
            .iter()
            .position(|p| p["label"] == "A")
            .expect("player A");
        let side = ["first", "second"][seat];
        match players[seat]["points"].as_f64().expect("points") {
            p if p > 0.75 => {
                self.wins += 1;
                self.wins_first += u32::from(seat == 0);
            }
            p if p > 0.25 => self.draws += 1,
            _ => self.losses += 1,
        }
        let moves = record["moves"].as_array().expect("moves");
        self.think.extend(
            moves
                .iter()
                .filter(|m| m["side"] == side)
                .filter_map(|m| m["us"].as_u64())
                .map(Duration::from_micros),
        );
        let reason: referee_rules::verdict::Termination =
            serde_json::from_value(record["result"]["reason"].clone()).expect("a reason code");
        if reason.is_forfeit() {
            self.forfeits += 1;
            eprintln!("forfeit: {}", record["result"]["detail"]);
        }
    }

    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score, a win 1 and a draw a half, as a percentage of the games (0 without games).
    fn percent(&self) -> f64 {
        let points = f64::from(self.wins) + f64::from(self.draws) / 2.0;
        points * 100.0 / f64::from(self.games().max(1))
    }

    /// The median and the longest of the strong bot's move times, in milliseconds.
    fn think_ms(&mut self) -> (u128, u128) {
        self.think.sort();
        let millis = |time: Option<&Duration>| time.map_or(0, Duration::as_millis);
        (
            millis(self.think.get(self.think.len() / 2)),
            millis(self.think.last()),
        )
    }
}

/// What the benchmark was asked to play.
struct Options {
    time_ms: u64,
    count: usize,
    jobs: usize,
    deck: PathBuf,
    /// Passed on as `--gomocup-memory-mb`, if given.
    memory_mb: Option<String>,
    /// Where the games are kept, if anywhere.
    record: Option<PathBuf>,
    previous: Option<PathBuf>,
    engine: Option<PathBuf>,
}

impl Options {
    fn parse() -> Options {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let mut options = Options {
            time_ms: 1000,
            count: usize::MAX,
            jobs: 2 * cores,
            deck: PathBuf::from(workload::GOMOKU_DECK),
            memory_mb: None,
            record: None,
            previous: None,
            engine: None,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
            match arg.as_str() {
                "--time" => options.time_ms = value().parse().expect("--time MS"),
                "--openings" => options.count = value().parse().expect("--openings N"),
                "--jobs" => options.jobs = value().parse().expect("--jobs N"),
                "--deck" => options.deck = PathBuf::from(value()),
                "--gomocup-memory-mb" => options.memory_mb = Some(value()),
                "--record" => options.record = Some(PathBuf::from(value())),
                "--previous" => options.previous = Some(PathBuf::from(value())),
                "--engine" => options.engine = Some(PathBuf::from(value())),
                "--bench" => {}
                other => panic!("unknown argument {other}"),
            }
        }
        options
    }

    /// Plays the `index`-th opening with both colours against `opponent` and adds the games to
    /// `tally`.
    fn play(&self, opponent: &str, index: usize, opening: &str, tally: &Mutex<Tally>) {
        let scratch = tempfile::tempdir().expect("a temporary folder");
        let dir = match &self.record {
            Some(record) => record.join(format!("{:02}", index + 1)),
            None => scratch.path().to_path_buf(),
        };
        let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
        command
            .args(["match", "gomoku", "builtin:strong", opponent])
            .args(["--opening", opening, "--games", "2"])
            .args(["--time", &format!("move={}", self.time_ms)])
            .args(["--seed", &(index + 1).to_string()])
            .arg("--record")
            .arg(&dir);
        if let Some(mb) = &self.memory_mb {
            command.args(["--gomocup-memory-mb", mb]);
        }
        let output = command.output().expect("the referee runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        for number in 1..=2 {
            let text = std::fs::read_to_string(dir.join(format!("{number:04}.json")))
                .expect("a game record");
            tally
                .lock()
                .unwrap()
                .add(&serde_json::from_str(&text).expect("a JSON record"));
        }
    }
}

/// The path given by `flag` or else by `variable`, if it names a file.
fn given(flag: Option<PathBuf>, variable: &str) -> Option<PathBuf> {
    flag.or_else(|| std::env::var_os(variable).map(PathBuf::from))
        .filter(|path| path.is_file())
}

fn main() {
    let mut options = Options::parse();
    let openings: Vec<String> = workload::gomoku_openings(Path::new(&options.deck))
        .into_iter()
        .take(options.count)
        .collect();
    let mut opponents = Vec::new();
    match given(options.previous.take(), "GOMOKU_PREVIOUS_REFEREE") {
        Some(path) => opponents.push(("previous strong", format!("{} bot strong", path.display()))),
        None => println!(
            "skipped the previous strong bot: set GOMOKU_PREVIOUS_REFEREE (or --previous) to a \
             referee built from another commit, to measure a change to the bot"
        ),
    }
    match given(options.engine.take(), "GOMOCUP_ENGINE") {
        Some(path) => opponents.push(("gomocup engine", format!("gomocup:{}", path.display()))),
        None => println!(
            "skipped the Gomocup engine: set GOMOCUP_ENGINE (or --engine) to a Gomocup brain, \
             e.g. Rapfi built from its source by tools/build-rapfi.sh, or `cargo install \
             figrid-board --version 1.2.0 --features embed-weights --root /tmp/figrid` and \
             GOMOCUP_ENGINE=/tmp/figrid/bin/pbrain-figrid"
        ),
    }
    for (name, opponent) in opponents {
        let started = Instant::now();
        let tally = Mutex::new(Tally::default());
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..options.jobs {
                scope.spawn(|| loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(opening) = openings.get(index) else {
                        break;
                    };
                    options.play(&opponent, index, opening, &tally);
                });
            }
        });
        let mut tally = tally.into_inner().unwrap();
        let (median, longest) = tally.think_ms();
        println!(
            "strong - {name} ({opponent}): won {}, drawn {}, lost {} of {} games ({:.1}%; won \
             {} as the first player, {} as the second; {} forfeits), thought a median {median} \
             ms a move (longest {longest}), {} openings of {} x 2 colours, move={} ms, {} \
             matches at once ({:.0} s)",
            tally.wins,
            tally.draws,
            tally.losses,
            tally.games(),
            tally.percent(),
            tally.wins_first,
            tally.wins - tally.wins_first,
            tally.forfeits,
            openings.len(),
            options.deck.display(),
            options.time_ms,
            options.jobs,
            started.elapsed().as_secs_f64()
        );
    }
}
