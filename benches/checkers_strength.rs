//! The strong checkers bot against itself as it was before it opened with the 3-move ballots
//! (searching from the first move), at equal time: whether the variety costs strength. Colours
//! alternate and games run four at once (two per core on two cores), so the bots also play
//! under load.
//!
//! `cargo bench --bench checkers_strength` plays 40 games at 100 ms per move;
//! `cargo bench --bench checkers_strength -- --games 10 500` 10 games at 500 ms.

use referee::bots::checkers::SearchBrain;
use referee::bots::{Brain, Budget};
use referee::clock::TimeControl;
use referee::games::checkers::Checkers;
use referee::games::{Game, Side};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Games longer than this are scored as draws (the rules' move count ends most before).
const MAX_PLIES: u32 = 400;

/// The points of the bot with the ballots in game `number`.
fn play(ms: u64, number: u32) -> f64 {
    let control = TimeControl::parse_over(TimeControl::default(), &format!("move={ms}"))
        .expect("a time control");
    let seed = u64::from(number) * 7919 + ms;
    let mut brains = [
        SearchBrain::new(seed),
        SearchBrain::without_ballots(seed + 1),
    ];
    // brains[0] plays first in even games.
    let first = (number % 2) as usize;
    let mut game = Checkers::default();
    let mut plies = 0;
    while game.outcome().is_none() && plies < MAX_PLIES {
        let mover = match game.side_to_move() {
            Side::First => first,
            Side::Second => 1 - first,
        };
        let budget = Budget::for_turn(ms, &control, plies < 2, Instant::now());
        let mv = brains[mover].choose(&game, &budget);
        game.play(mv).expect("a legal move");
        plies += 1;
    }
    let ours = if first == 0 {
        Side::First
    } else {
        Side::Second
    };
    match game.outcome().and_then(|outcome| outcome.winner) {
        Some(winner) if winner == ours => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

fn main() {
    let mut games = 40;
    let mut jobs = 4;
    let mut ms = 100;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--games" => games = args.next().and_then(|n| n.parse().ok()).expect("--games N"),
            "--jobs" => jobs = args.next().and_then(|n| n.parse().ok()).expect("--jobs N"),
            "--bench" => {}
            other => ms = other.parse().expect("a time per move in ms"),
        }
    }
    let next = AtomicU32::new(0);
    let points = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let number = next.fetch_add(1, Ordering::Relaxed);
                if number >= games {
                    return;
                }
                let result = play(ms, number);
                points.lock().unwrap().push(result);
            });
        }
    });
    let points = points.into_inner().unwrap();
    let count = |value: f64| points.iter().filter(|&&p| p == value).count();
    println!(
        "{ms} ms per move, {games} games: with ballots won {}, drawn {}, lost {} against the \
         previous strong level: {:.1}%",
        count(1.0),
        count(0.5),
        count(0.0),
        points.iter().sum::<f64>() / games as f64 * 100.0
    );
}
