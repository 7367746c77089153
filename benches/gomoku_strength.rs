//! The strong gomoku bot against two opponents, through `referee match` from the balanced
//! openings of `openings/gomoku.txt`, each opening played with both colours:
//!
//! - another build's strong bot, run as `PREVIOUS bot strong` from a referee built at another
//!   commit (`GOMOKU_PREVIOUS_REFEREE=PATH`, or `--previous PATH`), e.g. `git worktree add
//!   /tmp/previous COMMIT && cargo build --release --manifest-path /tmp/previous/Cargo.toml`,
//!   then `/tmp/previous/target/release/referee`: to measure a change to the bot;
//! - a Gomocup engine through the referee's Gomocup adapter (`GOMOCUP_ENGINE=PATH`, or
//!   `--engine PATH`), e.g. figrid: `cargo install figrid-board --version 1.2.0 --features
//!   embed-weights --root /tmp/figrid`, then `/tmp/figrid/bin/pbrain-figrid`.
//!
//! An opponent that is not given is skipped with a message saying how to get it. At 1 s per move
//! (the default; `--time MS` changes it), with two matches per core at once (`--jobs N`), so the
//! bots play under load. `cargo bench --bench gomoku_strength` plays all 35 openings (70 games
//! per opponent, a game is about half a minute, so about twenty minutes per opponent on two
//! cores); `cargo bench --bench gomoku_strength -- --openings 10 --time 300` plays fewer.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

#[path = "../tests/support/workload.rs"]
mod workload;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What the matches gave the strong bot (player A).
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// Games lost on time or by another forfeit, by either side.
    forfeits: u32,
}

impl Tally {
    fn add(&mut self, record: &Value) {
        let a = record["players"]
            .as_array()
            .expect("players")
            .iter()
            .find(|p| p["label"] == "A")
            .expect("player A");
        match a["points"].as_f64().expect("points") {
            p if p > 0.75 => self.wins += 1,
            p if p > 0.25 => self.draws += 1,
            _ => self.losses += 1,
        }
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
}

/// Plays one opening with both colours against `opponent` and adds the games to `tally`.
fn play(opponent: &str, opening: &str, time_ms: u64, tally: &Mutex<Tally>) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["match", "gomoku", "builtin:strong", opponent])
        .args(["--opening", opening, "--games", "2"])
        .args(["--time", &format!("move={time_ms}")])
        .arg("--record")
        .arg(dir.path())
        .output()
        .expect("the referee runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for number in 1..=2 {
        let text = std::fs::read_to_string(dir.path().join(format!("{number:04}.json")))
            .expect("a game record");
        tally
            .lock()
            .unwrap()
            .add(&serde_json::from_str(&text).expect("a JSON record"));
    }
}

/// The path given by `flag` or else by `variable`, if it names a file.
fn given(flag: Option<PathBuf>, variable: &str) -> Option<PathBuf> {
    flag.or_else(|| std::env::var_os(variable).map(PathBuf::from))
        .filter(|path| path.is_file())
}

fn main() {
    let mut time_ms = 1000;
    let mut count = usize::MAX;
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let mut jobs = 2 * cores;
    let (mut previous, mut engine) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--time" => time_ms = value().parse().expect("--time MS"),
            "--openings" => count = value().parse().expect("--openings N"),
            "--jobs" => jobs = value().parse().expect("--jobs N"),
            "--previous" => previous = Some(PathBuf::from(value())),
            "--engine" => engine = Some(PathBuf::from(value())),
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    let openings: Vec<String> = workload::gomoku_openings()
        .into_iter()
        .take(count)
        .collect();
    let mut opponents = Vec::new();
    match given(previous, "GOMOKU_PREVIOUS_REFEREE") {
        Some(path) => opponents.push(("previous strong", format!("{} bot strong", path.display()))),
        None => println!(
            "skipped the previous strong bot: set GOMOKU_PREVIOUS_REFEREE (or --previous) to a \
             referee built from another commit, to measure a change to the bot"
        ),
    }
    match given(engine, "GOMOCUP_ENGINE") {
        Some(path) => opponents.push(("gomocup engine", format!("gomocup:{}", path.display()))),
        None => println!(
            "skipped the Gomocup engine: set GOMOCUP_ENGINE (or --engine) to a Gomocup brain, \
             e.g. `cargo install figrid-board --version 1.2.0 --features embed-weights --root \
             /tmp/figrid` and GOMOCUP_ENGINE=/tmp/figrid/bin/pbrain-figrid"
        ),
    }
    for (name, opponent) in opponents {
        let started = Instant::now();
        let tally = Mutex::new(Tally::default());
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(|| {
                    while let Some(opening) = openings.get(next.fetch_add(1, Ordering::Relaxed)) {
                        play(&opponent, opening, time_ms, &tally);
                    }
                });
            }
        });
        let tally = tally.into_inner().unwrap();
        println!(
            "strong - {name} ({opponent}): won {}, drawn {}, lost {} of {} games ({} forfeits), \
             {} openings x 2 colours, move={time_ms} ms, {jobs} matches at once ({:.0} s)",
            tally.wins,
            tally.draws,
            tally.losses,
            tally.games(),
            tally.forfeits,
            openings.len(),
            started.elapsed().as_secs_f64()
        );
    }
}
