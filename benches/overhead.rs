//! The referee's cost per move against the cost of the pipes themselves, measured in one run.
//!
//! 1. Raw round trip: a line written to `cat` and read back (two processes, two pipes).
//! 2. Referee move cycle: two instant built-in bots play tic-tac-toe through the real protocol;
//!    a cycle is the time between two consecutive answers read by the referee, which covers
//!    checking the move, writing the next request, the bot waking, answering, and the reader
//!    thread handing the line over.
//!
//! `cargo bench --bench overhead` prints both medians and their ratio (target: at most 2).

use referee::arbiter::GameRules;
use referee::bots::Level;
use referee::clock::TimeControl;
use referee::games::GameSpec;
use referee::matches::{run_match, MatchConfig};
use referee::players::limits::Limits;
use referee::players::process::ProcessOptions;
use referee::players::PlayerSpec;
use referee::table::{Entrant, Venue};
use std::io::{BufRead, BufReader, Write};
use std::ops::ControlFlow;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn summary(name: &str, mut micros: Vec<f64>) -> f64 {
    micros.sort_by(f64::total_cmp);
    let median = percentile(&micros, 0.5);
    println!(
        "{name:<28} n={:<6} median {median:>8.1} us  p10 {:>8.1}  p90 {:>8.1}",
        micros.len(),
        percentile(&micros, 0.1),
        percentile(&micros, 0.9)
    );
    median
}

fn raw_round_trips(count: usize) -> Vec<f64> {
    let mut cat = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat is needed for the raw pipe measurement");
    let mut input = cat.stdin.take().unwrap();
    let mut output = BufReader::new(cat.stdout.take().unwrap());
    let mut line = String::new();
    let mut times = Vec::with_capacity(count);
    for _ in 0..count {
        let start = Instant::now();
        input.write_all(b"turn 1000\n").unwrap();
        input.flush().unwrap();
        line.clear();
        output.read_line(&mut line).unwrap();
        times.push(start.elapsed().as_secs_f64() * 1e6);
        assert_eq!(line, "turn 1000\n");
    }
    drop(input);
    cat.wait().unwrap();
    times
}

fn referee_cycles(games: u32) -> Vec<f64> {
    let random = |label: &str| Entrant {
        label: label.to_string(),
        player: PlayerSpec::Builtin(Level::Random),
        time: TimeControl::default(),
        limits: Limits::default(),
    };
    let config = MatchConfig {
        venue: Venue {
            rules: GameRules {
                spec: GameSpec::Tictactoe,
                margin: Duration::from_millis(10),
                startup: Duration::from_secs(5),
                send_legal_moves: false,
            },
            process: ProcessOptions::default(),
            referee_exe: env!("CARGO_BIN_EXE_referee").into(),
            seed: 1,
            record_dir: None,
            replay_stalled: true,
            reuse_processes: true,
        },
        entrants: [random("A"), random("B")],
        opening: Vec::new(),
        games: Some(games),
    };
    let mut cycles = Vec::new();
    run_match(
        &config,
        |game| {
            let moves = &game.played.record.moves;
            for pair in moves.windows(2) {
                cycles.push((pair[1].at_us - pair[0].at_us) as f64);
            }
            ControlFlow::Continue(())
        },
        |_| {},
    )
    .expect("the match runs");
    cycles
}

fn main() {
    // Warm up both paths once so neither pays for first-touch costs.
    raw_round_trips(1000);
    referee_cycles(10);
    let raw = summary("raw pipe round trip (cat)", raw_round_trips(20_000));
    let cycle = summary("referee move cycle", referee_cycles(2_000));
    println!(
        "ratio: referee move cycle / raw round trip = {:.2}",
        cycle / raw
    );
}
