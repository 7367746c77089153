//! `referee perft`: the counts, and a depth too deep to wait for foretold rather than run in
//! silence.

use crate::common::referee;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

#[test]
fn a_count_is_printed_and_a_depth_past_every_game_s_end_is_zero_at_once() {
    let output = referee().args(["perft", "uttt", "4"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), "55080\n");
    // Tic-tac-toe never lasts 10 moves: no sequence of 99 exists, and the count says so now.
    let output = referee()
        .args(["perft", "tictactoe", "99"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), "0\n");
}

#[test]
fn a_depth_too_deep_to_wait_for_says_how_long_it_would_take() {
    let mut child = referee()
        .args(["perft", "uttt", "99"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let first = BufReader::new(child.stderr.take().unwrap())
        .lines()
        .next()
        .expect("a line before long")
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        first.starts_with("referee: perft uttt tiebreak=none depth ")
            && first.contains("; depth 99 will take about ")
            && first.ends_with(" years at this rate (Ctrl-C stops it)"),
        "{first}"
    );
}

#[test]
fn an_illegal_opening_move_says_why_once() {
    let output = referee()
        .args(["perft", "gomoku", "1", "--opening", "99 99"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "referee: opening move '99 99': illegal move: 99 99 is off the 15x15 board \
         (x from 0 to 14, y from 0 to 14)\n"
    );
}
