//! The strong built-in bots on a busy machine: with a fixed search (`builtin:strong,nodes=N`)
//! they play the same moves for the same seed whatever else the machine runs, what a contest's
//! boss must do to be reproducible; and the dots bot's table is ready for its first move.

use crate::common::{record_moves, Match};
use referee_rules::games::Side;
use std::process::Child;

/// A process spinning until stopped: one, so that the tests running beside these still get a
/// core.
fn spinner() -> Child {
    crate::workload::spinners(1).pop().unwrap()
}

/// Stops the spinner.
fn stop(mut spinner: Child) {
    spinner.kill().unwrap();
    spinner.wait().unwrap();
}

/// The moves of two games of `game` between two strong bots searching `nodes` each a move,
/// with seed 5, at `move_ms` a move, with a spinner running beside them or not.
fn games(game: &str, nodes: u64, move_ms: u64, busy: bool) -> Vec<Vec<String>> {
    let spinning = busy.then(spinner);
    let bot = format!("builtin:strong,nodes={nodes}");
    let outcome = Match::new(game)
        .a(bot.as_str())
        .b(bot.as_str())
        .games(2)
        .time(&format!("move={move_ms}"))
        .args(&["--seed", "5"])
        .run();
    if let Some(spinner) = spinning {
        stop(spinner);
    }
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
/// playouts): a search cut by the clock would see less with a spinner taking a core and less
/// than half the time, and choose other moves somewhere in the games. Both clocks are far more
/// than the search needs, even in a debug build.
#[test]
fn a_fixed_search_plays_the_same_games_on_a_busy_machine() {
    for (game, nodes) in [("gomoku", 3000), ("uttt", 3000)] {
        let quiet = games(game, nodes, 5000, false);
        assert_eq!(quiet.len(), 2);
        assert!(quiet.iter().all(|moves| moves.len() > 10), "{quiet:?}");
        assert_eq!(quiet, games(game, nodes, 2000, true), "{game}");
    }
}

/// A debug build beside a spinner takes seconds to value every position of a 3x3 board (more
/// than 48 s once, beside the parallel tests and a release build: hence an allowance of three
/// minutes, of which the bot uses what it needs). The
/// strong bot waits for its table within the start-up allowance (not a fixed 2.5 s), so its
/// first move of the first game is a lookup of milliseconds; without the table it would first
/// wait for it half of its time (about 390 ms at `move=1000`), then search.
#[test]
fn the_first_dots_game_is_played_from_the_table_on_a_busy_machine() {
    let spinning = spinner();
    let outcome = Match::new("dots")
        .param("size=3")
        .a("builtin:strong")
        .b("builtin:greedy")
        .games(1)
        .time("move=1000")
        .args(&["--startup-ms", "180000"])
        .run();
    stop(spinning);
    let moves = record_moves(outcome.record());
    let (_, line, us) = moves
        .iter()
        .find(|(side, _, _)| *side == Side::First)
        .unwrap();
    assert!(*us < 200_000, "the first line, {line}, took {us} us");
}
