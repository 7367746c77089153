//! Timing fairness with the default margin:
//! - two matches at once: a bot answering 20 ms under the limit must never be forfeited, and
//!   one answering 20 ms over the limit must always be;
//! - under load, twice as many matches as cores: bots answering in 50 ms at a 100 ms limit must
//!   see no false timeout.
//!
//! `cargo bench --bench timing_fairness -- scripted` prints the counts. Each bot is the scripted
//! test bot (tests/bots/scripted.py) sleeping a fixed time after every `turn`.
//!
//! `cargo bench --bench timing_fairness -- builtin` measures how much of its clock the strong
//! built-in bot uses: gomoku, strong against strong from the balanced openings, under each kind
//! of time control (a move cap, a first-move allowance, a bank, a bank with an increment, a bank
//! with a move cap), until each has at least `--moves N` moves (500 by default). It prints the
//! median and 90th percentile of the recorded move times and the games lost on time. `--busy`
//! keeps every core busy meanwhile with a spinning process each; `--game uttt` plays another
//! game (from the empty board); `TIMING_REFEREE=PATH` measures another build's bots. With no
//! part named, both parts run.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

#[path = "../tests/support/workload.rs"]
mod workload;

const LIMIT_MS: u64 = 100;

fn spawn_match(dir: &Path, a: &str, b: &str, games: u32, params: &[&str]) -> Child {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/scripted.py");
    let bot = |mode: &str| format!("python3 {} {mode}", script.display());
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command
        .args(["match", "mnk", &bot(a), &bot(b)])
        .args(["--games", &games.to_string()])
        .args(["--time", &format!("move={LIMIT_MS}")])
        .arg("--record")
        .arg(dir)
        .stdout(std::process::Stdio::null());
    for param in params {
        command.args(["-p", param]);
    }
    command.spawn().expect("referee starts")
}

fn records(dir: &Path) -> Vec<Value> {
    (1..)
        .map(|n| dir.join(format!("{n:04}.json")))
        .take_while(|path| path.exists())
        .map(|path| serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap())
        .collect()
}

fn scripted() {
    let under = format!("slow:{}", LIMIT_MS - 20);
    let over = format!("slow:{}", LIMIT_MS + 20);
    let dirs: Vec<tempfile::TempDir> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();

    // Two matches at once, each with both bots 20 ms under: first-free-square play on a 20x20
    // board with lines of 10 lasts about 190 moves a game.
    let board = ["size=20", "line=10"];
    let mut running: Vec<Child> = dirs[..2]
        .iter()
        .map(|dir| spawn_match(dir.path(), &under, &under, 2, &board))
        .collect();
    for child in &mut running {
        assert!(child.wait().unwrap().success());
    }
    let mut under_moves = 0;
    let mut under_forfeits = 0;
    let mut slowest_us = 0;
    for dir in &dirs[..2] {
        for record in records(dir.path()) {
            let moves = record["moves"].as_array().unwrap();
            under_moves += moves.len();
            slowest_us = moves
                .iter()
                .map(|m| m["us"].as_u64().unwrap())
                .max()
                .unwrap_or(0)
                .max(slowest_us);
            if record["result"]["reason"] == "timeout" {
                under_forfeits += 1;
            }
        }
    }
    println!(
        "{} ms under a {LIMIT_MS} ms limit: {under_moves} moves in 4 games, {under_forfeits} forfeited on time, slowest answer {:.1} ms",
        20,
        slowest_us as f64 / 1000.0
    );

    // Two matches at once, a bot 20 ms over against an instant one: every game must end on
    // the late bot's first move.
    let mut running: Vec<Child> = dirs[2..]
        .iter()
        .map(|dir| spawn_match(dir.path(), &over, "good", 100, &["size=20", "line=10"]))
        .collect();
    for child in &mut running {
        assert!(child.wait().unwrap().success());
    }
    let mut over_games = 0;
    let mut over_forfeits = 0;
    for dir in &dirs[2..] {
        for record in records(dir.path()) {
            over_games += 1;
            let late_side = if record["players"][0]["label"] == "A" {
                "second"
            } else {
                "first"
            };
            if record["result"]["reason"] == "timeout" && record["result"]["winner"] == late_side {
                over_forfeits += 1;
            }
        }
    }
    println!(
        "20 ms over a {LIMIT_MS} ms limit: {over_games} answers, {over_forfeits} forfeited on time"
    );
    // Oversubscribed: twice as many matches as cores, bots at half the limit.
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let load_dirs: Vec<tempfile::TempDir> = (0..2 * cores)
        .map(|_| tempfile::tempdir().unwrap())
        .collect();
    let mut running: Vec<Child> = load_dirs
        .iter()
        .map(|dir| spawn_match(dir.path(), "slow:50", "slow:50", 1, &board))
        .collect();
    for child in &mut running {
        assert!(child.wait().unwrap().success());
    }
    let (mut load_moves, mut false_timeouts, mut replayed) = (0, 0, 0);
    for dir in &load_dirs {
        for record in records(dir.path()) {
            load_moves += record["moves"].as_array().unwrap().len();
            if record["result"]["reason"] == "timeout" {
                false_timeouts += 1;
            }
            if record["result"]["stalled"] == true {
                replayed += 1;
            }
        }
    }
    println!(
        "{} matches at once on {cores} cores, 50 ms answers, {LIMIT_MS} ms limit: {load_moves} moves, {false_timeouts} timeouts, {replayed} stalled",
        2 * cores
    );
    assert_eq!(under_forfeits, 0, "a bot under the limit was forfeited");
    assert_eq!(
        false_timeouts, 0,
        "a bot at half the limit was forfeited under load"
    );
    assert_eq!(over_forfeits, over_games, "a late bot was not forfeited");
}

/// The time controls of the built-in part: Gomocup's `move=5000,bank=120000` scaled down to
/// 200 ms a move and a bank of 24 of them, and CodinGame's without strikes, so that each gets
/// its moves in a minute or two.
const CONTROLS: [&str; 5] = [
    "move=100",
    "move=100,first=1000",
    "bank=3000",
    "bank=2000,increment=100",
    "move=200,bank=4800",
];

/// Move times of one time control, in microseconds, and the games lost on time.
#[derive(Default)]
struct ThinkTimes {
    us: Vec<u64>,
    games: usize,
    timeouts: usize,
}

impl ThinkTimes {
    /// The `share` quantile of the move times, in milliseconds.
    fn quantile_ms(&self, share: f64) -> f64 {
        let mut sorted = self.us.clone();
        sorted.sort_unstable();
        let index = ((sorted.len() as f64 - 1.0) * share).round() as usize;
        sorted.get(index).map_or(0.0, |&us| us as f64 / 1000.0)
    }
}

/// Plays strong against strong under `control` from the openings in turn, two games each (the
/// colours swapped), until at least `moves` moves are recorded.
fn think_times(game: &str, control: &str, moves: usize, openings: &[String]) -> ThinkTimes {
    let mut times = ThinkTimes::default();
    for opening in openings.iter().cycle() {
        if times.us.len() >= moves {
            break;
        }
        let dir = tempfile::tempdir().unwrap();
        let mut command = Command::new(referee());
        command
            .args(["match", game, "builtin:strong", "builtin:strong"])
            .args(["--games", "2", "--time", control])
            .args(["--seed", &(times.games + 1).to_string()])
            .arg("--record")
            .arg(dir.path())
            .stdout(std::process::Stdio::null());
        if !opening.is_empty() {
            command.args(["--opening", opening]);
        }
        let status = command.status().expect("referee starts");
        assert!(status.success(), "referee match under {control} failed");
        for record in records(dir.path()) {
            times.games += 1;
            let played = record["moves"].as_array().unwrap();
            times
                .us
                .extend(played.iter().filter_map(|m| m["us"].as_u64()));
            if record["result"]["reason"] == "timeout" {
                times.timeouts += 1;
                eprintln!("{control}: {}", record["result"]["detail"]);
            }
        }
    }
    times
}

/// The referee whose built-in bots are measured: this build's, or another's given by
/// `TIMING_REFEREE=PATH` (to measure a build from before a change).
fn referee() -> PathBuf {
    std::env::var_os("TIMING_REFEREE").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_referee")),
        PathBuf::from,
    )
}

fn builtin(game: &str, moves: usize, busy: bool) {
    let spinners = if busy {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        workload::spinners(cores)
    } else {
        Vec::new()
    };
    // Balanced openings for gomoku, whose games from the empty board would repeat; the other
    // games vary with the seed.
    let openings = if game == "gomoku" {
        workload::gomoku_openings(Path::new(workload::GOMOKU_DECK))
    } else {
        vec![String::new()]
    };
    println!(
        "{game}, builtin:strong against itself{}: recorded move times",
        if busy { ", every core kept busy" } else { "" }
    );
    let mut timeouts = 0;
    for control in CONTROLS {
        let times = think_times(game, control, moves, &openings);
        println!(
            "{control:<24} {:>5} moves in {:>3} games: median {:>7.1} ms, 90% {:>7.1} ms, slowest {:>7.1} ms, {} lost on time",
            times.us.len(),
            times.games,
            times.quantile_ms(0.5),
            times.quantile_ms(0.9),
            times.quantile_ms(1.0),
            times.timeouts,
        );
        timeouts += times.timeouts;
    }
    for mut spinner in spinners {
        spinner.kill().expect("a spinner stops");
        spinner.wait().expect("a spinner exits");
    }
    assert_eq!(timeouts, 0, "the strong bot lost on time");
}

fn main() {
    let (mut parts, mut moves, mut busy, mut game) = (Vec::new(), 500, false, "gomoku".to_string());
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--moves" => moves = args.next().and_then(|n| n.parse().ok()).expect("--moves N"),
            "--busy" => busy = true,
            "--game" => game = args.next().expect("--game NAME"),
            "--bench" => {}
            part => parts.push(part.to_string()),
        }
    }
    let wanted = |part: &str| parts.is_empty() || parts.iter().any(|p| p == part);
    if wanted("scripted") {
        scripted();
    }
    if wanted("builtin") {
        builtin(&game, moves, busy);
    }
}
