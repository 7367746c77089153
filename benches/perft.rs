//! Perft benchmark: counts move sequences from the start of each game, checks them against the
//! published tables (`shared/reference/rules-tables.md`) and reports the speed, so that a faster
//! move generator is never a wrong one.
//!
//! `cargo bench --bench perft` runs every row; `cargo bench --bench perft -- uttt` only one game.

use referee_rules::games::GameSpec;
use std::time::Instant;

/// Game name, its parameters as `key=value` words, depth, and the published count.
const ROWS: &[(&str, &[&str], u32, u64)] = &[
    ("tictactoe", &[], 9, 127_872),
    ("uttt", &[], 6, 4_020_960),
    ("uttt", &[], 7, 33_782_544),
    ("uttt", &[], 8, 281_067_408),
    ("checkers", &[], 1, 7),
    ("checkers", &[], 2, 49),
    ("checkers", &[], 3, 302),
    ("checkers", &[], 4, 1_469),
    ("checkers", &[], 5, 7_361),
    ("checkers", &[], 6, 36_768),
    ("checkers", &[], 7, 179_740),
    ("checkers", &[], 8, 845_931),
    ("checkers", &[], 9, 3_963_680),
    ("checkers", &[], 10, 18_391_564),
    ("checkers", &[], 11, 85_242_128),
    ("checkers", &[], 12, 388_623_673),
];

fn main() {
    // Cargo adds its own flags (`--bench`); the first other word, if any, names the game to run.
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let rows: Vec<_> = ROWS
        .iter()
        .filter(|(game, ..)| filter.as_deref().map_or(true, |wanted| wanted == *game))
        .collect();
    if rows.is_empty() {
        let mut games: Vec<&str> = ROWS.iter().map(|(game, ..)| *game).collect();
        games.dedup();
        panic!(
            "no perft rows for game '{}' (games with rows: {})",
            filter.unwrap_or_default(),
            games.join(", ")
        );
    }
    println!(
        "{:<12} {:<16} {:>5} {:>14} {:>9} {:>14}",
        "game", "params", "depth", "nodes", "seconds", "nodes/s"
    );
    for &&(game, params, depth, expected) in &rows {
        let spec = GameSpec::from_words(game, params)
            .unwrap_or_else(|err| panic!("bad perft row {game} {params:?}: {err}"));
        let start = Instant::now();
        let nodes = spec.perft(depth);
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{:<12} {:<16} {:>5} {:>14} {:>9.3} {:>14.0}",
            game,
            if params.is_empty() {
                "-".to_string()
            } else {
                params.join(" ")
            },
            depth,
            nodes,
            seconds,
            nodes as f64 / seconds
        );
        assert_eq!(
            nodes, expected,
            "{spec}: perft({depth}) counted {nodes} but the published figure is {expected}"
        );
    }
}
