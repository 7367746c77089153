//! `referee standings` on a journal of a million games, measured on the real binary (`cargo
//! bench --bench standings`): its wall time and peak resident size, against the targets of
//! 2 s and 64 MiB, the median of three runs; and once more writing the JSON (with its million-cell
//! crosstable) and the CSV as well.
//!
//! The journal is made here: a 1000-player round robin of tic-tac-toe, 999,000 games between
//! random pairs (seeded), won by the first or the second player, drawn, lost on time or by an
//! illegal move, each line as the referee writes it (players' names as long as people choose,
//! an opening, a record's path).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PLAYERS: usize = 1000;
const GAMES: u64 = 999_000;
const TARGET_SECONDS: f64 = 2.0;
const TARGET_MIB: f64 = 64.0;

fn write_journal(path: &Path) {
    let names: Vec<String> = (1..=PLAYERS)
        .map(|i| format!("contestant-{i:04}-final-submission"))
        .collect();
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let header = json!({
        "journal": 1,
        "tournament": {
            "name": "thousand",
            "game": "tictactoe width=3 height=3 line=3 exact=no",
            "format": "round-robin",
            "challengers": [],
            "players": names,
            "games_per_pairing": 2,
            "openings": "none",
            "seed": 1,
            "total_games": GAMES,
        },
    });
    writeln!(file, "{header}").unwrap();
    let results = [
        (Some("first"), "line"),
        (Some("second"), "line"),
        (None, "board-full"),
        (Some("first"), "timeout"),
        (Some("second"), "illegal-move"),
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for index in 0..GAMES {
        let pair: Vec<&String> = names.choose_multiple(&mut rng, 2).collect();
        let (winner, reason) = results[rng.gen_range(0..results.len())];
        let mut entry =
            json!({"index": index, "players": pair, "winner": winner, "reason": reason});
        if reason == "illegal-move" {
            entry["violation"] = json!("occupied square (1,1)");
        }
        entry["opening"] = json!(["1 1", "0 0"]);
        entry["moves"] = json!(rng.gen_range(5..=9));
        entry["record"] = json!(format!("games/{:06}.json", index + 1));
        writeln!(file, "{entry}").unwrap();
    }
    file.flush().unwrap();
}

/// Runs `referee standings` with `extra` arguments; returns its wall time and peak RSS (MiB).
fn run(journal: &Path, extra: &[&Path]) -> (Duration, f64) {
    let start = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("standings")
        .arg(journal)
        .args(extra)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let wall = start.elapsed();
    assert!(status.success(), "referee standings failed: {status}");
    // The largest child waited for so far: each run is measured alone, as runs only grow.
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    (wall, usage.max_rss() as f64 / 1024.0)
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.jsonl");
    let start = Instant::now();
    write_journal(&journal);
    let size = std::fs::metadata(&journal).unwrap().len();
    println!(
        "journal: {GAMES} games of {PLAYERS} players, {} MiB, written in {:.1} s; load average: {}",
        size >> 20,
        start.elapsed().as_secs_f64(),
        load_average()
    );
    let mut walls = Vec::new();
    let mut peak: f64 = 0.0;
    for _ in 0..3 {
        let (wall, rss) = run(&journal, &[]);
        walls.push(wall.as_secs_f64());
        peak = peak.max(rss);
    }
    walls.sort_by(f64::total_cmp);
    let wall = walls[1];
    println!(
        "referee standings: {wall:.2} s wall (median of {walls:.2?}), {:.2} of the {TARGET_SECONDS} s target; peak RSS {peak:.1} MiB, {:.2} of the {TARGET_MIB} MiB target",
        wall / TARGET_SECONDS,
        peak / TARGET_MIB
    );
    let (json, csv) = (dir.path().join("s.json"), dir.path().join("s.csv"));
    let (wall, rss) = run(
        &journal,
        &[Path::new("--json"), &json, Path::new("--csv"), &csv],
    );
    println!(
        "referee standings --json --csv: {:.2} s wall, peak RSS {rss:.1} MiB (JSON {} MiB)",
        wall.as_secs_f64(),
        std::fs::metadata(&json).unwrap().len() >> 20
    );
    println!("load average after: {}", load_average());
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}
