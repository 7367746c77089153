//! `referee check` against the scripted bot in its good and bad modes: each fault is reported in
//! plain words, and the exit code says whether the bot is compliant.

use crate::common::{bot, marker, referee, survivors};
use std::time::{Duration, Instant};

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
    assert!(stdout.contains("\ncompliant: 0 problems"), "{stdout}");
}

#[test]
fn a_missing_flush_is_named_once_and_ends_the_check() {
    let started = Instant::now();
    let (code, stdout) = check("no-flush", &[]);
    let took = started.elapsed();
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(
        stdout
            .matches(
                "PROBLEM  game 1 (from the start, as the first player): missing flush: the bot \
                 wrote 'ready scripted 1' only when its input was closed"
            )
            .count(),
        1,
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("missing flush:").count(),
        1,
        "said once: {stdout}"
    );
    assert!(
        stdout.contains(
            "stopped  the last 2 games were not played: every game would end the same way until \
             the bot flushes its output"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nnot compliant: 1 problem, 0 warnings"),
        "{stdout}"
    );
    // The 1.5 s start-up allowance, the watch after closing the input, and no other game.
    assert!(took < Duration::from_secs(6), "{took:?}");
}

#[test]
fn a_bot_relying_on_pythonunbuffered_is_checked_as_a_contest_server_runs_it() {
    let marker = marker();
    let output = referee()
        .args([
            "check",
            "tictactoe",
            &bot("plain-print", &marker),
            "--startup-ms",
            "1500",
        ])
        .env("PYTHONUNBUFFERED", "1")
        .output()
        .unwrap();
    assert!(survivors(&marker).is_empty());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "(PYTHONUNBUFFERED is set in this shell; the bot runs without it, as a contest server runs it"
        ) && stdout.contains("missing flush: the bot wrote 'ready scripted 1'"),
        "{stdout}"
    );
}

#[test]
fn a_crash_shows_the_end_of_the_bots_stderr_and_record_keeps_all_of_it() {
    let (code, stdout) = check("crash-noisy", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(
            "  PROBLEM  game 1 (from the start, as the first player): crash: bot (first player) exited"
        ) && stdout.contains(
            "           its stderr ended with:\n           | pid "
        ) && stdout.contains(
            "\n           | Traceback: \\x1b[2Jboom\\x07\n           | ValueError: bad move\n           (check again with --record DIR to keep all of it"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains('\x1b'), "escaped: {stdout}");
    // Said once, where it was seen; the check stops when the setups can only repeat it.
    assert_eq!(stdout.matches("crash:").count(), 1, "{stdout}");
    assert!(
        stdout.contains("  again    game 2 (from the start, as the second player): crash again, as in game 1\n  stopped  the last game was not played: the bot failed the same way before its first move in games 1 and 2"),
        "{stdout}"
    );

    let dir = tempfile::tempdir().unwrap();
    let (_, stdout) = check("crash-noisy", &["--record", dir.path().to_str().unwrap()]);
    let file = dir.path().join("0001.bot.stderr.txt");
    assert!(
        stdout.contains(&format!("           (all of it: {})", file.display())),
        "{stdout}"
    );
    let whole = std::fs::read_to_string(&file).unwrap();
    assert!(
        whole.ends_with("Traceback: \x1b[2Jboom\x07\n\nValueError: bad move\n"),
        "{whole:?}"
    );
    assert!(dir.path().join("0002.transcript.txt").exists());
}

#[test]
fn a_bot_that_plays_from_the_legal_line_is_checked_with_legal_moves() {
    let (code, stdout) = check("needs-legal", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("IndexError")
            && stdout.contains(
                "; if your bot plays from the 'legal' line, check (and play) with --legal-moves"
            ),
        "{stdout}"
    );
    let (code, stdout) = check("needs-legal", &["--legal-moves"]);
    assert_eq!(code, 0, "{stdout}");
    // An opening and the other match options that change what a bot is sent are taken too.
    let (code, stdout) = check(
        "needs-legal",
        &[
            "--legal-moves",
            "--opening",
            "1 1",
            "--limits",
            "memory=512",
            "--time",
            "move=500",
        ],
    );
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("game 1 (from the opening '1 1', as the first player)"),
        "{stdout}"
    );
}

#[test]
fn debug_output_on_stdout_is_pointed_to_stderr_once() {
    let (code, stdout) = check("debug-stdout", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(
        stdout
            .matches(
                "sent 'thinking about move 1' for move 1, which is not a move: expected 'x y', \
                 two whole numbers separated by a space (column, then row, from 0 at the top \
                 left), e.g. '1 1'; it reads like debug output: write that to stderr, stdout \
                 carries the protocol only"
            )
            .count(),
        1,
        "{stdout}"
    );
    assert_eq!(lines(&stdout, "again").len(), 2, "{stdout}");
    assert!(
        stdout.contains("\nnot compliant: 1 problem, 0 warnings"),
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
    // Said in full once, then as again (protocol.md: each cause is said once).
    assert_eq!(lines(&stdout, "PROBLEM").len(), 1, "{stdout}");
    assert!(
        stdout.contains("again    quit: still running after 'quit' again"),
        "{stdout}"
    );
}

#[test]
fn a_silent_bot_times_out_without_a_flush_diagnosis() {
    let (code, stdout) = check("silent", &["--time", "move=200"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("timeout"), "{stdout}");
    assert!(
        stdout.contains(". Answer every 'turn' within its time, and flush"),
        "{stdout}"
    );
    assert!(!stdout.contains("missing flush:"), "{stdout}");
}

/// A bot that writes its move on stderr is told where moves go, and that is all the advice it
/// gets: the generic advice to answer in time and flush would say it again.
#[test]
fn a_move_on_stderr_is_told_where_moves_go_once() {
    let (code, stdout) = check("stderr", &["--time", "move=200"]);
    assert_eq!(code, 1, "{stdout}");
    let problem = lines(&stdout, "PROBLEM").join("\n");
    assert!(
        problem
            .trim_start()
            .starts_with("PROBLEM  game 1 (from the start, as the first player): timeout: ")
            && problem.contains(
                "; it wrote '0 0' on standard error; moves must go to standard output (print / \
                 System.out / cout), flushed"
            ),
        "{stdout}"
    );
    assert!(!problem.contains("Answer every"), "{stdout}");
}

/// A bot that flushes but is slow on one move timed out: it used to be told "missing flush"
/// because its answer came once the check stopped waiting.
#[test]
fn a_slow_move_is_a_timeout_not_a_missing_flush() {
    let (code, stdout) = check("slow-once:700", &["--time", "move=300"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("timeout"), "{stdout}");
    assert!(!stdout.contains("missing flush:"), "{stdout}");
    // Slower than the check waits with the bot's input open: the answer comes well after the
    // input is closed, not as the bot exits.
    let (code, stdout) = check("slow-once:2400", &["--time", "move=200"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(!stdout.contains("missing flush:"), "{stdout}");
    assert!(
        stdout.contains("timeout: ") && stdout.contains(". It did answer, '0 0', "),
        "{stdout}"
    );
    assert!(
        stdout.contains("after the game was over: it is too slow for this time limit"),
        "{stdout}"
    );
}

/// A foreign bot is not checked from an opening its protocol cannot tell it (`match` refuses
/// the same): it would play as if the board were empty.
#[test]
fn a_foreign_bot_is_not_checked_from_an_opening_it_cannot_be_told() {
    let bot = format!(
        "codingame:python3 {}",
        crate::common::repo_file("tests/bots/codingame_uttt.py").display()
    );
    let output = referee()
        .args(["check", "uttt", &bot, "--opening", "4 4"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot start from an opening"), "{stderr}");
}

/// A move written and flushed without its line feed: the referee waits for the line's end.
#[test]
fn a_move_without_its_line_feed_is_named() {
    let (code, stdout) = check("no-newline", &["--time", "move=300"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("; it wrote '0 0' but never ended the line: end every line with a line feed ('\\n'), then flush"),
        "{stdout}"
    );
    assert!(!stdout.contains("missing flush:"), "{stdout}");
}

/// The first move is judged against the file's `first` allowance, not the usual limit.
#[test]
fn the_first_move_is_judged_against_its_own_allowance() {
    let (code, stdout) = check("slow-once:500", &["--time", "move=400,first=3000"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains("% of the"), "{stdout}");
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

/// A square already taken is explained first by the move that took it, not only by a
/// row/column mix-up (the swapped square is nearly always free); one off the board by the
/// board's coordinates.
#[test]
fn an_illegal_move_is_explained_by_what_the_bot_missed() {
    let (code, stdout) = check("occupied", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("is already taken; the "), "{stdout}");
    assert!(
        stdout.contains("played ") && stdout.contains(": its board lost that move")
            || stdout.contains("the bot did not put that move on its own board"),
        "{stdout}"
    );
    let (code, stdout) = check("offboard", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("3 0 is off the 3x3 board (x from 0 to 2, y from 0 to 2)"),
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

/// A checkers bot that exits on `offer draw` used to be called compliant (the built-in
/// opponent never offers), then lost every game to one that offers: the check offers a draw
/// with every move of the opponent, and says what the bot was sent when it died.
#[test]
fn a_checkers_bot_that_dies_on_a_draw_offer_is_told_so() {
    let (code, stdout) = check_game("checkers", "exit-on-offer", &["--legal-moves"]);
    assert_eq!(code, 1, "{stdout}");
    let problem = lines(&stdout, "PROBLEM");
    assert!(
        problem.len() == 1
            && problem[0].contains(
                "game 4 (a draw offered with every move of the opponent, as the first player): \
                 crash: bot (first player) exited"
            )
            && problem[0].contains("; it died after it was sent ..., 'offer draw', 'legal ")
            && problem[0].contains(
                " and 'turn 1000'; its opponent had offered a draw ('offer \
                 draw' before its 'turn'): answer 'draw' to accept it, or a move to decline it"
            ),
        "{stdout}"
    );
    assert!(stdout.contains("| unknown line: offer draw"), "{stdout}");
    // A bot that reads the offer and plays on is compliant.
    let (code, stdout) = check_game("checkers", "good", &["--legal-moves"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("game 4 (a draw offered with every move of the opponent"),
        "{stdout}"
    );
}

/// Any crash names the lines the bot was sent last (escaped), not only how it ended.
#[test]
fn a_crash_names_the_last_lines_the_bot_was_sent() {
    let (code, stdout) = check("exit", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(
            "PROBLEM  game 1 (from the start, as the first player): crash: bot (first player) \
             exited with code 3"
        ) && stdout.contains("; it died after it was sent 'turn 1000'\n"),
        "{stdout}"
    );
}

/// A dots bot that does not take the extra move a box gives times out; the check says why.
#[test]
fn a_dots_bot_that_misses_its_extra_move_is_told_the_rule() {
    let (code, stdout) = check_game(
        "dots",
        "no-extra-move",
        &["--legal-moves", "--time", "move=300"],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("timeout: ")
            && stdout.contains(
                "completed a box, so it had to move again, and did not: protocol.md says \"a \
                 bot whose line completes a box moves again: its next `turn` comes at once, \
                 with no `opponent` line before it\""
            ),
        "{stdout}"
    );
}

#[test]
fn a_byte_order_mark_is_named() {
    let (code, stdout) = check("bom", &[]);
    assert_eq!(code, 1, "{stdout}");
    let problems = lines(&stdout, "PROBLEM");
    assert_eq!(problems.len(), 1, "{stdout}");
    assert!(
        problems[0].contains(
            "got '\\u{feff}ready scripted 1' ('\\u{feff}' (a byte order mark, which an output \
             stream set to UTF-8 with a signature writes first, as C#'s Encoding.UTF8 does: \
             write ASCII, or UTF-8 without the mark) is not allowed: a line is printable ASCII"
        ),
        "{stdout}"
    );
}

#[test]
fn a_bot_that_reads_a_line_too_many_is_told_so_not_that_it_is_slow() {
    let (code, stdout) = check("reads-ahead", &[]);
    assert_eq!(code, 1, "{stdout}");
    let problems = lines(&stdout, "PROBLEM");
    assert_eq!(problems.len(), 1, "{stdout}");
    assert!(
        problems[0]
            .contains("did not answer move 1 within 1010 ms; the limit is 1000 ms (+10 ms margin)"),
        "{stdout}"
    );
    assert!(
        problems[0].ends_with(
            ". It did answer, '0 0', at once when it was sent the next line (the result): it \
             waited to read more than it was sent, most likely a line too many or all of its \
             input; answer each 'turn' as soon as it is read"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("too slow"), "{stdout}");
}

#[test]
fn a_multi_bot_that_exits_after_its_first_game_is_told_what_multi_means() {
    let (code, stdout) = check("multi-once", &[]);
    assert_eq!(code, 1, "{stdout}");
    let problems = lines(&stdout, "PROBLEM");
    assert_eq!(problems.len(), 1, "{stdout}");
    assert!(
        problems[0].contains("game 2 (from the start, as the second player, same process): crash")
            && problems[0].ends_with(
                "; it declared 'multi' but exited after the previous game: a 'multi' bot reads \
                 on after 'result' (the next game's 'referee 1', or 'quit'); a bot that plays \
                 one game per process answers 'ready NAME VERSION' without 'multi'"
            ),
        "{stdout}"
    );
}
