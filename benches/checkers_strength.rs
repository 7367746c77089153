//! The strong checkers bot against an earlier strong level at equal time. Colours alternate and
//! games run four at once (two per core on two cores), so the bots also play under load.
//!
//! Two pairings:
//! - `endgame` (the default): the strong bot against itself without the endgame database,
//!   both opening with the 3-move ballots: what the database is worth. The database is loaded
//!   (or built and cached) before the games, and its size and time printed.
//! - `ballots`: the strong bot against itself as it was before it opened with the ballots
//!   (searching from the first move), neither with the database: whether the variety costs
//!   strength.
//!
//! `cargo bench --bench checkers_strength` plays 40 games at 100 ms per move;
//! `cargo bench --bench checkers_strength -- --games 10 500` 10 games at 500 ms;
//! `cargo bench --bench checkers_strength -- --pairing ballots` the other pairing;
//! `cargo bench --bench checkers_strength -- --build --games 0` only times a build of the
//! database (without the cache).

use referee_bots::checkers::{EndgameDb, SearchBrain};
use referee_bots::{Brain, Budget};
use referee_rules::games::checkers::Checkers;
use referee_rules::games::{Game, Side};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Games longer than this are scored as draws (the rules' move count ends most before).
const MAX_PLIES: u32 = 400;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pairing {
    Endgame,
    Ballots,
}

impl Pairing {
    /// The bot measured and its opponent.
    fn brains(self, seed: u64) -> [SearchBrain; 2] {
        match self {
            Pairing::Endgame => [
                SearchBrain::new(seed),
                SearchBrain::without_endgame(seed + 1),
            ],
            Pairing::Ballots => [
                SearchBrain::without_endgame(seed),
                SearchBrain::without_ballots(seed + 1),
            ],
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Pairing::Endgame => "with the endgame database against the strong level without",
            Pairing::Ballots => "with ballots against the previous strong level without",
        }
    }
}

/// The points of the measured bot in game `number`.
fn play(pairing: Pairing, ms: u64, number: u32) -> f64 {
    let seed = u64::from(number) * 7919 + ms;
    let mut brains = pairing.brains(seed);
    // brains[0] plays first in even games.
    let first = (number % 2) as usize;
    let mut game = Checkers::default();
    for (i, brain) in brains.iter_mut().enumerate() {
        let side = if i == first {
            Side::First
        } else {
            Side::Second
        };
        brain.new_game(&game, side);
    }
    let mut plies = 0;
    while game.outcome().is_none() && plies < MAX_PLIES {
        let mover = match game.side_to_move() {
            Side::First => first,
            Side::Second => 1 - first,
        };
        let budget = Budget::for_limit(ms, Instant::now());
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
    let mut pairing = Pairing::Endgame;
    let mut build = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--games" => games = args.next().and_then(|n| n.parse().ok()).expect("--games N"),
            "--jobs" => jobs = args.next().and_then(|n| n.parse().ok()).expect("--jobs N"),
            "--pairing" => {
                pairing = match args.next().as_deref() {
                    Some("endgame") => Pairing::Endgame,
                    Some("ballots") => Pairing::Ballots,
                    _ => panic!("--pairing endgame|ballots"),
                }
            }
            "--build" => build = true,
            "--bench" => {}
            other => ms = other.parse().expect("a time per move in ms"),
        }
    }
    if pairing == Pairing::Endgame {
        let started = Instant::now();
        let db = EndgameDb::shared().expect("the endgame database");
        println!(
            "endgame database of {} pieces: {} bytes, ready in {} ms (from the cache if it was \
             there)",
            db.pieces(),
            db.bytes(),
            started.elapsed().as_millis()
        );
        if build {
            let started = Instant::now();
            EndgameDb::build(db.pieces()).expect("the endgame database");
            println!("built in {} ms", started.elapsed().as_millis());
        }
    }
    if games == 0 {
        return;
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
                let result = play(pairing, ms, number);
                points.lock().unwrap().push(result);
            });
        }
    });
    let points = points.into_inner().unwrap();
    let count = |value: f64| points.iter().filter(|&&p| p == value).count();
    println!(
        "{ms} ms per move, {games} games: {} won {}, drawn {}, lost {}: {:.1}%",
        pairing.describe(),
        count(1.0),
        count(0.5),
        count(0.0),
        points.iter().sum::<f64>() / games as f64 * 100.0
    );
}
