//! The strong ultimate tic-tac-toe bot against plain UCT at equal time: OpenSpiel's `MCTSBot`
//! as its MCTS example runs it (rebuilt here, see [`plain_uct`], so that the benchmark needs
//! nothing installed; OpenSpiel's own plays through the protocol with `benches/openspiel`) and
//! the strong bot before issue 19. Target: at least 90% of the points against OpenSpiel's MCTS
//! at 100 ms and at 1000 ms per move.
//!
//! Both bots get the budget a match gives for `turn MS` (0.8 x MS - 30 ms, the hard deadline aside), colours
//! alternate, and games run four at once (two per core on two cores), so the bots also play
//! under load. `cargo bench --bench uttt_strength` plays 40 games per pairing at 100 ms and 20
//! at 1000 ms (about twenty minutes on two cores); `cargo bench --bench uttt_strength --
//! --games 10 100` plays 10 games per pairing at 100 ms only, and `--opponent openspiel-mcts`
//! (or `--opponent "previous strong"`) plays that pairing only. `--speed` measures instead how
//! many iterations a second the strong bot's search runs, one core, alone, through a game.

mod plain_uct;

use plain_uct::PlainUct;
use referee_bots::uttt::UtttMcts;
use referee_bots::{Brain, Budget};
use referee_rules::games::uttt::{Uttt, UtttParams};
use referee_rules::games::{Game, Side};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A bot of the benchmark for a seed.
type Opponent = fn(u64) -> PlainUct;

/// The opponents, by name.
const OPPONENTS: [(&str, Opponent); 2] = [
    ("openspiel-mcts", PlainUct::openspiel),
    ("previous strong", PlainUct::previous_strong),
];

/// What one game gave the strong bot, and its slowest move in milliseconds.
fn play(ms: u64, opponent: Opponent, number: u32) -> (f64, f64) {
    let seed = u64::from(number) * 7919 + ms;
    let mut strong = UtttMcts::new(seed);
    let mut other = opponent(seed + 1);
    let strong_side = if number % 2 == 0 {
        Side::First
    } else {
        Side::Second
    };
    let mut game = Uttt::new(UtttParams::default());
    strong.new_game(&game, strong_side);
    other.new_game(&game, strong_side.opponent());
    let mut slowest = 0.0f64;
    while game.outcome().is_none() {
        let side = game.side_to_move();
        let received = Instant::now();
        let budget = Budget::for_limit(ms, received);
        let square = if side == strong_side {
            let square = strong.choose(&game, &budget);
            slowest = slowest.max(received.elapsed().as_secs_f64() * 1000.0);
            square
        } else {
            other.choose(&game, &budget)
        };
        game.play(square).expect("a legal move");
    }
    let points = match game.outcome().and_then(|outcome| outcome.winner) {
        Some(winner) if winner == strong_side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    (points, slowest)
}

/// Prints the strong bot's iterations a second at every fifth move of a game it plays against
/// itself, each search a fixed 200,000 iterations from a fresh tree. A search that ends early
/// (a win at once, a root proven) would read far too fast; the game is the same on every run
/// (a seeded search bounded by iterations), and none of its first 26 moves does.
fn measure_speed() {
    const ITERATIONS: u64 = 200_000;
    let mut game = Uttt::new(UtttParams::default());
    let mut brain = UtttMcts::new(1);
    println!("{:>5} {:>14}", "move", "iterations/s");
    for number in 0..30 {
        if game.outcome().is_some() {
            break;
        }
        // A new game each move, so that no tree is kept and every search starts afresh.
        brain.new_game(&game, game.side_to_move());
        let started = Instant::now();
        let square = brain.choose(&game, &Budget::nodes(ITERATIONS));
        if number % 5 == 0 {
            let rate = ITERATIONS as f64 / started.elapsed().as_secs_f64();
            println!("{number:>5} {rate:>14.0}");
        }
        game.play(square).expect("a legal move");
    }
}

fn main() {
    if std::env::args().any(|arg| arg == "--speed") {
        measure_speed();
        return;
    }
    let mut games = None;
    let mut jobs = 4;
    let mut only = None;
    let mut limits = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--games" => games = args.next().and_then(|n| n.parse().ok()),
            "--jobs" => jobs = args.next().and_then(|n| n.parse().ok()).expect("--jobs N"),
            "--opponent" => only = Some(args.next().expect("--opponent NAME")),
            "--bench" => {}
            other => limits.push(other.parse::<u64>().expect("a time per move in ms")),
        }
    }
    if let Some(only) = &only {
        let names: Vec<&str> = OPPONENTS.iter().map(|(name, _)| *name).collect();
        assert!(
            names.contains(&only.as_str()),
            "--opponent: one of {names:?}"
        );
    }
    if limits.is_empty() {
        limits = vec![100, 1000];
    }
    println!(
        "{:>6} {:<16} {:>5} {:>5} {:>5} {:>7} {:>11}",
        "ms", "opponent", "won", "drawn", "lost", "score", "slowest ms"
    );
    for ms in limits {
        let games = games.unwrap_or(if ms >= 1000 { 20 } else { 40 });
        let chosen = OPPONENTS
            .into_iter()
            .filter(|(name, _)| only.as_ref().map_or(true, |only| only == name));
        for (name, opponent) in chosen {
            let next = AtomicU32::new(0);
            let results = Mutex::new(Vec::new());
            std::thread::scope(|scope| {
                for _ in 0..jobs {
                    scope.spawn(|| loop {
                        let number = next.fetch_add(1, Ordering::Relaxed);
                        if number >= games {
                            return;
                        }
                        let result = play(ms, opponent, number);
                        results.lock().unwrap().push(result);
                    });
                }
            });
            let results = results.into_inner().unwrap();
            let count = |points: f64| results.iter().filter(|r| r.0 == points).count();
            let score = results.iter().map(|r| r.0).sum::<f64>() / games as f64;
            let slowest = results.iter().map(|r| r.1).fold(0.0, f64::max);
            println!(
                "{ms:>6} {name:<16} {:>5} {:>5} {:>5} {:>6.1}% {slowest:>11.1}",
                count(1.0),
                count(0.5),
                count(0.0),
                score * 100.0
            );
        }
    }
}
