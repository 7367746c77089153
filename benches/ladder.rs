//! The built-in bots' ladder, measured: for every game, `referee match` plays level 3 (strong)
//! against level 2 (greedy) and level 2 against level 1 (random), colours alternating, and the
//! table gives each pairing's points. Targets: the stronger level scores at least 90% of the
//! points. At tic-tac-toe and on dots boards of 3x3 and smaller level 3 plays perfectly, so
//! there it never loses from a side that perfect play does not lose with: either side at
//! tic-tac-toe (a draw), the first player on 2x2 (3-1), the second on 3x3 (6-3). From the other
//! side no player can avoid the loss against an opponent that happens to play perfectly, and
//! the table counts those losses apart.
//!
//! `cargo bench --bench ladder` plays 100 games per pairing at 100 ms per move (about eight
//! minutes on two cores); `cargo bench --bench ladder -- --games 20 --time 50 uttt dots` plays
//! fewer games of some rows. Matches run one per two cores; `--jobs 4` runs four at once, to
//! show that the bots keep to their time on a loaded machine. The table shows each level's
//! slowest answer, as the referee timed it.

use referee_rules::verdict::Termination;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

/// What perfect play gives on a row's board, where level 3 plays perfectly.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Perfect {
    /// Not solved by level 3: the 90% target applies.
    Unknown,
    /// A draw: level 3 never loses from either side.
    Draw,
    /// The first player wins: level 3 never loses as the first player.
    FirstWins,
    /// The second player wins: level 3 never loses as the second player.
    SecondWins,
}

/// A row of the ladder: a label, the game and its parameters, and what perfect play gives.
struct Row {
    label: &'static str,
    game: &'static str,
    params: &'static [&'static str],
    perfect: Perfect,
}

const ROWS: &[Row] = &[
    Row {
        label: "tictactoe",
        game: "tictactoe",
        params: &[],
        perfect: Perfect::Draw,
    },
    Row {
        label: "mnk 9x9, 5",
        game: "mnk",
        params: &["size=9", "line=5"],
        perfect: Perfect::Unknown,
    },
    Row {
        label: "gomoku",
        game: "gomoku",
        params: &[],
        perfect: Perfect::Unknown,
    },
    Row {
        label: "uttt",
        game: "uttt",
        params: &[],
        perfect: Perfect::Unknown,
    },
    Row {
        label: "dots 2x2",
        game: "dots",
        params: &["size=2"],
        perfect: Perfect::FirstWins,
    },
    Row {
        label: "dots 3x3",
        game: "dots",
        params: &["size=3"],
        perfect: Perfect::SecondWins,
    },
    Row {
        label: "dots 5x5",
        game: "dots",
        params: &["size=5"],
        perfect: Perfect::Unknown,
    },
    Row {
        label: "checkers",
        game: "checkers",
        params: &[],
        perfect: Perfect::Unknown,
    },
];

/// The two pairings of every row: the stronger level first.
const PAIRINGS: [(&str, &str); 2] = [("strong", "greedy"), ("greedy", "random")];

/// What one match gave the stronger level (player A).
#[derive(Default, Clone, Copy)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// Games lost on time or by another forfeit by either side: the ladder must have none.
    forfeits: u32,
    /// Losses of the stronger level as the first and as the second player.
    losses_as: [u32; 2],
    /// The slowest answer of the stronger and of the weaker level, in microseconds.
    slowest_us: [u64; 2],
}

impl Tally {
    fn points_share(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        (self.wins as f64 + self.draws as f64 / 2.0) / games.max(1) as f64
    }
}

fn play(row: &Row, (strong, weak): (&str, &str), games: u32, time_ms: u64) -> Tally {
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command
        .args(["match", row.game])
        .arg(format!("builtin:{strong}"))
        .arg(format!("builtin:{weak}"))
        .args(["--games", &games.to_string()])
        .args(["--time", &format!("move={time_ms}")])
        .arg("--record")
        .arg(dir.path());
    for param in row.params {
        command.args(["-p", param]);
    }
    let output = command.output().expect("the referee runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    tally(dir.path(), games)
}

fn tally(dir: &Path, games: u32) -> Tally {
    let mut tally = Tally::default();
    for number in 1..=games {
        let text = std::fs::read_to_string(dir.join(format!("{number:04}.json"))).unwrap();
        let record: Value = serde_json::from_str(&text).unwrap();
        // Player A is the stronger level; its seat alternates.
        let a = record["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["label"] == "A")
            .unwrap();
        let points = a["points"].as_f64().unwrap();
        if points > 0.75 {
            tally.wins += 1;
        } else if points > 0.25 {
            tally.draws += 1;
        } else {
            tally.losses += 1;
            let a_first = record["players"][0]["label"] == "A";
            tally.losses_as[usize::from(!a_first)] += 1;
        }
        for mv in record["moves"].as_array().unwrap() {
            let seat = if mv["side"] == "first" { 0 } else { 1 };
            let level = usize::from(record["players"][seat]["label"] != "A");
            let us = mv["us"].as_u64().unwrap();
            tally.slowest_us[level] = tally.slowest_us[level].max(us);
        }
        let reason: Termination = serde_json::from_value(record["result"]["reason"].clone())
            .expect("a known reason code");
        if reason.is_forfeit() {
            tally.forfeits += 1;
            eprintln!(
                "forfeit in {} game {number}: {}",
                record["game"], record["result"]["detail"]
            );
        }
    }
    tally
}

fn main() {
    let mut games = 100;
    let mut time_ms = 100;
    let mut filters = Vec::new();
    // One match per two cores, as a tournament's default: a strong bot thinking while another
    // match's bot starves it of CPU would lose on time through no fault of its own.
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let mut jobs_at_once = (cores / 2).max(1);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--games" => games = args.next().and_then(|n| n.parse().ok()).expect("--games N"),
            "--time" => time_ms = args.next().and_then(|n| n.parse().ok()).expect("--time MS"),
            "--jobs" => jobs_at_once = args.next().and_then(|n| n.parse().ok()).expect("--jobs N"),
            "--bench" => {}
            other => filters.push(other.to_string()),
        }
    }
    let rows: Vec<&Row> = ROWS
        .iter()
        .filter(|row| filters.is_empty() || filters.iter().any(|f| f == row.game))
        .collect();
    let jobs: Vec<(usize, usize)> = (0..rows.len())
        .flat_map(|row| (0..PAIRINGS.len()).map(move |pairing| (row, pairing)))
        .collect();
    let results = Mutex::new(vec![[Tally::default(); 2]; rows.len()]);
    let next = Mutex::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs_at_once {
            scope.spawn(|| loop {
                let job = {
                    let mut next = next.lock().unwrap();
                    let job = jobs.get(*next).copied();
                    *next += 1;
                    job
                };
                let Some((row, pairing)) = job else { return };
                let tally = play(rows[row], PAIRINGS[pairing], games, time_ms);
                results.lock().unwrap()[row][pairing] = tally;
            });
        }
    });
    let results = results.into_inner().unwrap();
    println!(
        "{games} games per pairing, {time_ms} ms per move, colours alternating, \
         {jobs_at_once} matches at once on {cores} cores ({:.0} s)",
        started.elapsed().as_secs_f64()
    );
    println!(
        "{:<12} {:<17} {:>5} {:>5} {:>6} {:>8} {:>8} {:>13}  target",
        "game", "pairing", "won", "drawn", "lost", "points", "forfeits", "slowest ms"
    );
    let mut failures = Vec::new();
    for (row, tallies) in rows.iter().zip(&results) {
        for (pairing, tally) in PAIRINGS.iter().zip(tallies) {
            let perfect = if pairing.0 == "strong" {
                row.perfect
            } else {
                Perfect::Unknown
            };
            // Where perfect play draws or wins for one side, the target is no loss from there.
            let [as_first, as_second] = tally.losses_as;
            let (met, target) = match perfect {
                Perfect::Unknown => (tally.points_share() >= 0.9, ">= 90%".to_string()),
                Perfect::Draw => (tally.losses == 0, "never loses".to_string()),
                Perfect::FirstWins => (
                    as_first == 0,
                    format!("never loses as first ({as_second} lost as second)"),
                ),
                Perfect::SecondWins => (
                    as_second == 0,
                    format!("never loses as second ({as_first} lost as first)"),
                ),
            };
            let met = met && tally.forfeits == 0;
            println!(
                "{:<12} {:<17} {:>5} {:>5} {:>6} {:>7.1}% {:>8} {:>13}  {target}: {}",
                row.label,
                format!("{} - {}", pairing.0, pairing.1),
                tally.wins,
                tally.draws,
                tally.losses,
                tally.points_share() * 100.0,
                tally.forfeits,
                format!(
                    "{:.1} / {:.1}",
                    tally.slowest_us[0] as f64 / 1000.0,
                    tally.slowest_us[1] as f64 / 1000.0
                ),
                if met { "met" } else { "MISSED" }
            );
            if !met {
                failures.push(format!("{} {} - {}", row.label, pairing.0, pairing.1));
            }
        }
    }
    if !failures.is_empty() {
        println!("targets missed: {}", failures.join(", "));
    }
}
