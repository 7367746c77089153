//! Timing fairness with the default margin:
//! - two matches at once: a bot answering 20 ms under the limit must never be forfeited, and
//!   one answering 20 ms over the limit must always be;
//! - under load, twice as many matches as cores: bots answering in 50 ms at a 100 ms limit must
//!   see no false timeout.
//!
//! `cargo bench --bench timing_fairness` prints the counts. Each bot is the scripted test bot
//! (tests/bots/scripted.py) sleeping a fixed time after every `turn`.

use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command};

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

fn main() {
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
