//! Tournament throughput and memory, measured on the real binary (`cargo bench --bench
//! tournament`).
//!
//! 1. Throughput: a 10-bot round robin of instant bots (`builtin:random`) at tic-tac-toe,
//!    10 games per pairing (450 games), `-j 2`, with and without reusing the bots' processes
//!    (and reused with records written: into the records file, `games.jsonl`, and as three
//!    files a game, `records = "files"`); the median of three runs, in games per second as the
//!    referee reports it. Then 1,800 games with records, `-j 1` against `-j 2` (target: at
//!    least 1.7 times as many games a second with two workers).
//! 2. Memory: the referee's own peak resident size (VmHWM, polled from /proc while it runs)
//!    during shard 1/20 of a 100-bot round robin (495 of its 9,900 games), and during shard
//!    1/4000 of a 1000-bot round robin (250 of its 999,000 games): the schedule's size does not
//!    show in the referee's memory.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn config(dir: &Path, name: &str, players: usize, games: u32, extra: &str) -> std::path::PathBuf {
    let mut text = format!("game = \"tictactoe\"\ngames = {games}\n{extra}\n");
    for i in 1..=players {
        text.push_str(&format!(
            "[[players]]\nname = \"r{i}\"\nbuiltin = \"random\"\n"
        ));
    }
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs a tournament into a new directory under `out` (so that no run creates its files where
/// another's were just deleted: ext4 without a journal searches its recently deleted inodes at
/// each file creation, which would charge one run with the cleaning of the last); returns the
/// games per second it printed and its peak RSS in KiB.
fn run(config: &Path, out: &Path, extra: &[&str]) -> (f64, u64) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let out = &out.join(
        RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .to_string(),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("tournament")
        .arg(config)
        .arg("--out")
        .arg(out)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap());
    while child.try_wait().unwrap().is_none() {
        if let Ok(status) = std::fs::read_to_string(&status_path) {
            if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:")) {
                let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
                peak_kib = peak_kib.max(kib);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = reader.join().unwrap();
    let played = output
        .lines()
        .find(|l| l.starts_with("played "))
        .unwrap_or_else(|| panic!("no summary in:\n{output}"));
    let rate = played
        .split('(')
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|rate| rate.parse().ok())
        .unwrap_or_else(|| panic!("no rate in: {played}"));
    (rate, peak_kib)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    println!("{cores} cores; load average before: {}", load_average());
    for (name, extra) in [
        ("reuse", "records = false\nreuse_processes = true"),
        ("no-reuse", "records = false\nreuse_processes = false"),
        ("reuse+records", "records = true\nreuse_processes = true"),
        (
            "reuse+records-files",
            "records = \"files\"\nreuse_processes = true",
        ),
    ] {
        let path = config(dir.path(), name, 10, 10, extra);
        let rates: Vec<f64> = (0..3).map(|_| run(&path, &out, &["-j", "2"]).0).collect();
        println!(
            "10-bot round robin, tic-tac-toe, 450 games, -j 2, {name}: {:.1} games/s (median of {:?})",
            median(rates.clone()),
            rates
        );
    }
    // Scaling: the same games with one worker and with two, alternating, records on.
    let path = config(
        dir.path(),
        "scaling",
        10,
        40,
        "records = true\nreuse_processes = true",
    );
    let (mut one, mut two) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        one.push(run(&path, &out, &["-j", "1"]).0);
        two.push(run(&path, &out, &["-j", "2"]).0);
    }
    let (one, two) = (median(one), median(two));
    println!(
        "10-bot round robin, 1,800 games, reuse+records: -j 1 {one:.1} games/s, -j 2 {two:.1} games/s, ratio {:.2} (target: at least 1.7)",
        two / one
    );
    let path = config(dir.path(), "hundred", 100, 2, "records = false");
    let (_, peak) = run(&path, &out, &["-j", "2", "--shard", "1/20"]);
    println!("100-bot round robin (9,900 games), shard 1/20 (495 games), -j 2: referee peak RSS {peak} KiB");
    let path = config(dir.path(), "thousand", 1000, 2, "records = false");
    let (_, peak) = run(&path, &out, &["-j", "2", "--shard", "1/4000"]);
    println!("1000-bot round robin (999,000 games), shard 1/4000 (250 games), -j 2: referee peak RSS {peak} KiB");
    println!("load average after: {}", load_average());
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}
