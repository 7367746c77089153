//! Whether the strong dots-and-boxes bot plays 3x3 perfectly at contest speed: it chooses a
//! move in 600 early positions (random games after 0 to 8 lines) under the budget a match
//! gives it, and an exact search grades each choice: a move that gives up part of the
//! position's value (the mover's boxes minus the opponent's, with perfect play from then on)
//! is a mistake.
//!
//! `cargo bench --bench dots_perfect` grades 50 ms and 100 ms per move; `cargo bench --bench
//! dots_perfect -- 20` one limit of your choice. Run it with other matches going on to see the
//! bot under load.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use referee_bots::dots::{Coins, DotsStrong, Solver};
use referee_bots::{Brain, Budget};
use referee_rules::games::dots::{Dots, DotsParams};
use referee_rules::games::{Game, Side};
use std::time::Instant;

const POSITIONS: usize = 600;
/// Early positions: at most this many random lines drawn.
const MOST_LINES: u16 = 8;
/// The exact search's table: 2^22 entries, room for the whole 3x3 game.
const SOLVER_TABLE_BITS: u32 = 22;

fn positions(start: &Dots) -> Vec<Dots> {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut moves = Vec::new();
    (0..POSITIONS)
        .map(|index| {
            let mut game = start.clone();
            while game.drawn_count() < index as u16 % (MOST_LINES + 1) {
                game.generate_moves(&mut moves);
                game.play_unchecked(*moves.choose(&mut rng).expect("an early position"));
            }
            game
        })
        .collect()
}

/// The exact value of `game` for its side to move.
fn value(solver: &mut Solver, game: &Dots) -> i32 {
    if game.outcome().is_some() {
        return 0;
    }
    solver.value(game, None).expect("no deadline")
}

fn main() {
    let limits: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let limits = if limits.is_empty() {
        vec![50, 100]
    } else {
        limits
    };
    let start = Dots::new(DotsParams { rows: 3, cols: 3 });
    let mut solver = Solver::new(SOLVER_TABLE_BITS);
    solver.set_view(&start, Coins::whole_board(&start));
    let positions = positions(&start);
    let values: Vec<i32> = positions
        .iter()
        .map(|game| value(&mut solver, game))
        .collect();
    for ms in limits {
        let mut brain = DotsStrong::new(ms);
        let began = Instant::now();
        brain.new_game(&start, Side::First);
        let prepared = began.elapsed();
        let (mut mistakes, mut lost, mut slowest) = (0, 0, 0.0f64);
        for (game, &before) in positions.iter().zip(&values) {
            let received = Instant::now();
            let budget = Budget::for_limit(ms, received);
            let line = brain.choose(game, &budget);
            slowest = slowest.max(received.elapsed().as_secs_f64() * 1000.0);
            let mut after = game.clone();
            after.play(line).expect("a legal move");
            let gain = after.box_counts().iter().sum::<u32>() as i32
                - game.box_counts().iter().sum::<u32>() as i32;
            let rest = value(&mut solver, &after);
            let got = if after.side_to_move() == game.side_to_move() {
                gain + rest
            } else {
                -rest
            };
            if got < before {
                mistakes += 1;
                lost += before - got;
            }
        }
        println!(
            "3x3 at {ms} ms per move: {mistakes} of {POSITIONS} moves gave up value \
             ({lost} boxes in all); slowest move {slowest:.1} ms; table ready in {:.0} ms \
             (built once per process)",
            prepared.as_secs_f64() * 1000.0
        );
    }
}
