//! The strong built-in bots on a busy machine: with a fixed search (`builtin:strong,nodes=N`)
//! they play the same moves for the same seed whatever else the machine runs, what a contest's
//! boss must do to be reproducible.

use crate::common::{record_moves, Match};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};

/// A process spinning on every core, each in a session of its own (as another user's work
/// would be), until killed.
fn spinners() -> Vec<Child> {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    (0..cores)
        .map(|_| {
            let mut command = Command::new("sh");
            command.args(["-c", "while :; do :; done"]);
            // SAFETY: setsid is async-signal-safe and touches nothing of the parent's.
            unsafe {
                command.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
            command.spawn().unwrap()
        })
        .collect()
}

/// Stops the spinners.
fn stop(spinners: Vec<Child>) {
    for mut spinner in spinners {
        spinner.kill().unwrap();
        spinner.wait().unwrap();
    }
}

/// The moves of two games of `game` between two strong bots searching `nodes` each a move,
/// with seed 5, as played with or without `busy` cores.
fn games(game: &str, nodes: u64, busy: bool) -> Vec<Vec<String>> {
    let spinning = if busy { spinners() } else { Vec::new() };
    let bot = format!("builtin:strong,nodes={nodes}");
    // The clock is far more than the search needs, even in a debug build beside the spinners.
    let outcome = Match::new(game)
        .a(bot.as_str())
        .b(bot.as_str())
        .games(2)
        .time("move=5000")
        .args(&["--seed", "5"])
        .run();
    stop(spinning);
    outcome
        .records
        .iter()
        .map(|record| {
            assert_ne!(record["result"]["reason"], "timeout", "{record}");
            record_moves(record)
                .into_iter()
                .map(|(_, mv, _)| mv)
                .collect()
        })
        .collect()
}

/// Alpha-beta with threat searches (gomoku) and Monte Carlo (ultimate tic-tac-toe, counted in
/// playouts): a search cut by the clock would see less beside the spinners and choose other
/// moves somewhere in the games.
#[test]
fn a_fixed_search_plays_the_same_games_on_a_busy_machine() {
    for (game, nodes) in [("gomoku", 3000), ("uttt", 3000)] {
        let quiet = games(game, nodes, false);
        assert_eq!(quiet.len(), 2);
        assert!(quiet.iter().all(|moves| moves.len() > 10), "{quiet:?}");
        assert_eq!(quiet, games(game, nodes, true), "{game}");
    }
}
