//! The cost of renju's forbidden-point check: the time per point of listing Black's moves
//! (every empty point checked, as a move generator and the `legal` line do) and per move of
//! playing one (the move checked, as the referee does), against the same work under
//! freestyle rules, over positions from seeded random renju games. Each figure is the quickest
//! of several runs.
//!
//! `cargo bench --bench renju`.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use referee_rules::games::{AnyGame, GameSpec, Side};
use std::hint::black_box;
use std::time::Instant;

/// Positions with Black to move after this many moves, from each game.
const AFTER: [usize; 4] = [10, 30, 60, 100];
const GAMES: u64 = 25;
/// Times each position's moves are listed, for a measurable total.
const ROUNDS: u32 = 20;
/// Each measure is taken this many times and the quickest kept: on a shared machine the others
/// include time the process was not running.
const TRIES: usize = 7;

/// Black-to-move positions of seeded random renju games, as the moves that lead to them.
fn positions() -> Vec<Vec<String>> {
    let spec = GameSpec::from_words("gomoku", &["rule=renju"]).unwrap();
    let mut found = Vec::new();
    for seed in 0..GAMES {
        let mut rng = ChaCha12Rng::seed_from_u64(seed);
        let mut game = spec.new_game();
        let mut moves = Vec::new();
        while game.outcome().is_none() && moves.len() <= *AFTER.last().unwrap() {
            if AFTER.contains(&moves.len()) && game.side_to_move() == Side::First {
                found.push(moves.clone());
            }
            // Near the stones, as games are played: a random point next to the last move.
            let legal = game.legal_moves_text();
            let near: Vec<&String> = legal.iter().filter(|mv| close(mv, moves.last())).collect();
            let choice = near.choose(&mut rng).copied().unwrap_or(&legal[0]).clone();
            game.play_text(&choice).unwrap();
            moves.push(choice);
        }
    }
    found
}

/// Whether `mv` lies within two points of `last`.
fn close(mv: &str, last: Option<&String>) -> bool {
    let Some(last) = last else { return true };
    let xy = |text: &str| -> (i32, i32) {
        let mut words = text.split(' ').map(|w| w.parse::<i32>().unwrap());
        (words.next().unwrap(), words.next().unwrap())
    };
    let ((x, y), (lx, ly)) = (xy(mv), xy(last));
    (x - lx).abs() <= 2 && (y - ly).abs() <= 2
}

fn game_after(words: &[&str], moves: &[String]) -> Box<dyn AnyGame> {
    let mut game = GameSpec::from_words("gomoku", words).unwrap().new_game();
    for mv in moves {
        game.play_text(mv).unwrap();
    }
    game
}

/// Seconds to list the moves of every position `ROUNDS` times, and the points listed.
fn listing(words: &[&str], positions: &[Vec<String>]) -> (f64, usize) {
    let games: Vec<_> = positions.iter().map(|m| game_after(words, m)).collect();
    let started = Instant::now();
    let mut points = 0;
    for _ in 0..ROUNDS {
        for game in &games {
            points += black_box(game.legal_moves_text()).len();
        }
    }
    (started.elapsed().as_secs_f64(), points)
}

/// Seconds to play each of Black's moves in every position once (from a copy), and the moves.
fn playing(words: &[&str], positions: &[Vec<String>]) -> (f64, usize) {
    let games: Vec<_> = positions.iter().map(|m| game_after(words, m)).collect();
    let lists: Vec<Vec<String>> = games.iter().map(|g| g.legal_moves_text()).collect();
    let mut copies = Vec::new();
    for (game, moves) in games.iter().zip(&lists) {
        copies.extend(moves.iter().map(|mv| (game.boxed_clone(), mv)));
    }
    let count = copies.len();
    let started = Instant::now();
    for (mut game, mv) in copies {
        black_box(game.play_text(mv).unwrap());
    }
    (started.elapsed().as_secs_f64(), count)
}

/// The quickest of [`TRIES`] runs of `measure`, with its count.
fn quickest(measure: impl Fn() -> (f64, usize)) -> (f64, usize) {
    (0..TRIES)
        .map(|_| measure())
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .expect("at least one try")
}

fn main() {
    let positions = positions();
    println!("{} positions with Black to move", positions.len());
    let (renju, points) = quickest(|| listing(&["rule=renju"], &positions));
    let (free, free_points) = quickest(|| listing(&[], &positions));
    let per_point = (renju - free) / points as f64 * 1e9;
    println!(
        "listing Black's moves: renju {:.1} ns a point ({points} points), freestyle {:.1} ns \
         ({free_points}): the check costs {per_point:.1} ns a point",
        renju / points as f64 * 1e9,
        free / free_points as f64 * 1e9,
    );
    let (renju, moves) = quickest(|| playing(&["rule=renju"], &positions));
    let (free, free_moves) = quickest(|| playing(&[], &positions));
    println!(
        "playing a move of Black's: renju {:.0} ns ({moves} moves), freestyle {:.0} ns \
         ({free_moves}): the check costs {:.0} ns a move",
        renju / moves as f64 * 1e9,
        free / free_moves as f64 * 1e9,
        (renju / moves as f64 - free / free_moves as f64) * 1e9
    );
}
