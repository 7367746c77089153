//! Speed and depth of the strong checkers bot: it searches positions from real openings (the
//! 3-move ballots, then a few greedy moves into the middle game and the endgame) under the
//! budgets a match gives it, and reports nodes per second and the depth it completes.
//!
//! "late" is the most any search returned after its deadline, measured inside the process (the
//! referee also counts the pipes and the scheduler).
//!
//! Nodes per second are given per second of the clock (what the bot gets in a match on this
//! machine now) and per second of CPU time (what the code does, whatever else the machine runs).
//!
//! `cargo bench --bench checkers_search` runs the 100 ms and 1000 ms per-move limits;
//! `cargo bench --bench checkers_search -- 250` one limit of your choice.

use referee_bots::checkers::{GreedyBrain, SearchBrain};
use referee_bots::{Brain, Budget};
use referee_rules::games::checkers::Checkers;
use referee_rules::games::Game;
use std::time::{Duration, Instant};

/// Openings sampled from the ballot list, and plies of greedy play after each.
const OPENINGS: usize = 8;
const PLIES_AFTER: [usize; 3] = [0, 16, 32];

fn positions() -> Vec<Checkers> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/checkers-3move.txt");
    let text = std::fs::read_to_string(path).expect("the ballot openings");
    let ballots: Vec<Vec<&str>> = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split_whitespace().skip(1).collect())
        .collect();
    let step = ballots.len() / OPENINGS;
    let mut greedy = GreedyBrain::new(1);
    let think = Budget::fixed(Instant::now(), Default::default());
    let mut positions = Vec::new();
    for ballot in ballots.iter().step_by(step).take(OPENINGS) {
        let mut game = Checkers::default();
        for text in ballot {
            let mv = game.parse_move(text).expect("a legal ballot move");
            game.play_unchecked(mv);
        }
        let mut played = 0;
        for &plies in &PLIES_AFTER {
            while played < plies && Game::outcome(&game).is_none() {
                let mv = greedy.choose(&game, &think);
                game.play_unchecked(mv);
                played += 1;
            }
            if Game::outcome(&game).is_none() {
                positions.push(game.clone());
            }
        }
    }
    positions
}

/// CPU time this process has used, in seconds.
fn cpu_seconds() -> f64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    assert_eq!(status, 0, "the process CPU clock");
    time.tv_sec as f64 + time.tv_nsec as f64 * 1e-9
}

fn main() {
    let limits: Vec<u64> = match std::env::args().skip(1).find(|arg| !arg.starts_with('-')) {
        Some(limit) => vec![limit.parse().expect("a per-move limit in milliseconds")],
        None => vec![100, 1000],
    };
    let positions = positions();
    println!(
        "{:>9} {:>9} {:>9} {:>12} {:>12} {:>10} {:>13} {:>9}",
        "limit ms",
        "think ms",
        "positions",
        "depth (med)",
        "depth range",
        "nodes/s",
        "nodes/cpu s",
        "late ms"
    );
    for limit in limits {
        let mut brain = SearchBrain::new(1);
        let (mut depths, mut nodes, mut seconds, mut cpu) = (Vec::new(), 0u64, 0f64, 0f64);
        let mut think_ms = 0;
        let mut late = Duration::ZERO;
        for game in &positions {
            brain.new_game(game, game.side_to_move());
            let budget = Budget::for_limit(limit, Instant::now());
            think_ms = budget.total().as_millis();
            let cpu_before = cpu_seconds();
            brain.choose(game, &budget);
            late = late.max(budget.deadline().elapsed());
            let cpu_used = cpu_seconds() - cpu_before;
            let report = brain.report();
            if report.depth > 0 {
                depths.push(report.depth);
                nodes += report.nodes;
                seconds += report.elapsed.as_secs_f64();
                cpu += cpu_used;
            }
        }
        depths.sort();
        println!(
            "{:>9} {:>9} {:>9} {:>12} {:>12} {:>10.0} {:>13.0} {:>9.2}",
            limit,
            think_ms,
            depths.len(),
            depths[depths.len() / 2],
            format!("{}-{}", depths[0], depths[depths.len() - 1]),
            nodes as f64 / seconds,
            nodes as f64 / cpu,
            late.as_secs_f64() * 1000.0
        );
    }
}
