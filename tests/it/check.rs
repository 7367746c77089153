//! `referee check` against the scripted bot in its good and bad modes: each fault is reported in
//! plain words, and the exit code says whether the bot is compliant.

use crate::common::{bot, marker, referee, survivors};

/// Runs `referee check tictactoe` on the scripted bot in `mode`; returns its exit code and
/// output.
fn check(mode: &str, extra: &[&str]) -> (i32, String) {
    check_game("tictactoe", mode, extra)
}

/// Runs `referee check GAME` on the scripted bot in `mode`.
fn check_game(game: &str, mode: &str, extra: &[&str]) -> (i32, String) {
    let marker = marker();
    let output = referee()
        .args(["check", game, &bot(mode, &marker), "--startup-ms", "1500"])
        .args(extra)
        .output()
        .unwrap();
    let left = survivors(&marker);
    assert!(left.is_empty(), "{mode}: processes left running: {left:?}");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let code = output.status.code().expect("an exit code");
    assert!(
        code == 0 || code == 1,
        "{mode}: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    (code, stdout)
}

/// The report lines of a severity: `PROBLEM`, `warning` or `ok`.
fn lines<'a>(stdout: &'a str, severity: &str) -> Vec<&'a str> {
    stdout
        .lines()
        .filter(|line| line.trim_start().starts_with(severity))
        .collect()
}

#[test]
fn a_good_bot_is_compliant() {
    let (code, stdout) = check("good", &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(lines(&stdout, "PROBLEM").is_empty(), "{stdout}");
    // A loaded machine may slow the interpreter's start-up enough for a warning, nothing else.
    assert!(
        lines(&stdout, "warning")
            .iter()
            .all(|line| line.contains("start-up")),
        "{stdout}"
    );
    // Start-up, one game per process, both sides, the opening with `played` lines, and quit.
    assert_eq!(
        lines(&stdout, "ok  ").len() + lines(&stdout, "warning").len(),
        6,
        "{stdout}"
    );
    assert!(stdout.contains("one game per process"), "{stdout}");
    assert!(stdout.contains("exited"), "{stdout}");
    assert!(stdout.contains("\ncompliant: 0 problem(s)"), "{stdout}");
}

#[test]
fn a_missing_flush_is_named() {
    let (code, stdout) = check("no-flush", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(
            "missing flush: the bot wrote 'ready scripted 1' only when its input was closed"
        ),
        "{stdout}"
    );
}

#[test]
fn wrong_notation_extra_output_and_crlf() {
    let (code, stdout) = check("garbage", &[]);
    assert_eq!(code, 1);
    assert!(stdout.contains("wrong notation"), "{stdout}");
    assert!(stdout.contains("'banana'"), "{stdout}");
    let (code, stdout) = check("unasked", &[]);
    assert_eq!(code, 1);
    assert!(stdout.contains("extra output"), "{stdout}");
    let (code, stdout) = check("crlf", &[]);
    assert_eq!(code, 0, "CR LF is accepted: {stdout}");
    assert!(
        lines(&stdout, "warning")
            .iter()
            .any(|line| line.contains("ended with CR LF")),
        "{stdout}"
    );
}

#[test]
fn a_stderr_flood_a_slow_answer_and_lingering_after_quit() {
    let (code, stdout) = check("flood-stderr", &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("stderr flood"), "{stdout}");
    // One move of 2.7 s a game against 3 s: past the 80% that earns a warning, with 300 ms
    // either side for a loaded machine.
    let (code, stdout) = check("slow-once:2700", &["--time", "move=3000"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("% of the 3000 ms limit"), "{stdout}");
    let (code, stdout) = check("linger", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("quit: still running"), "{stdout}");
}

#[test]
fn a_silent_bot_times_out_without_a_flush_diagnosis() {
    let (code, stdout) = check("silent", &["--time", "move=200"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("timeout"), "{stdout}");
    assert!(!stdout.contains("missing flush"), "{stdout}");
}

#[test]
fn row_and_column_mixed_up_is_pointed_out() {
    let (code, stdout) = check_game("mnk", "swapped", &["-p", "size=3"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("would have been legal: moves are written 'x y', the column first"),
        "{stdout}"
    );
}

#[test]
fn every_game_has_its_edge_cases_played_by_the_builtin_bot() {
    for (game, edge) in [
        ("uttt", "the forced board: small board 0"),
        ("checkers", "a forced multi-jump: 1x10x19"),
        ("dots", "a box to complete, then an extra move"),
        ("gomoku", "an opening already played"),
    ] {
        let output = referee()
            .args(["check", game, "builtin:random"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{game}: {stdout}");
        assert!(stdout.contains(edge), "{game}: {stdout}");
        assert!(stdout.contains("declares 'multi'"), "{game}: {stdout}");
    }
}
