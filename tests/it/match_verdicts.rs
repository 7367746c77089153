//! Drives the real `referee match` binary with scripted bots (tests/bots/scripted.py) and
//! checks every verdict of protocol v1, the scores, the records, and that no bot process is
//! left behind.

use crate::common::{referee, scripted, Match, RANDOM};
use serde_json::Value;
use std::time::Duration;

/// One game of tic-tac-toe with the scripted bot in `mode` as the first player (A) against a
/// good one.
fn as_first(mode: &str) -> Match {
    Match::new("tictactoe")
        .a(scripted(mode))
        .b(scripted("good"))
        .games(1)
}

/// The record of the one game of `played`.
fn verdict(played: Match) -> Value {
    played.run().record().clone()
}

fn assert_forfeit(record: &Value, loser: &str, reason: &str) {
    let winner = if loser == "first" { "second" } else { "first" };
    assert_eq!(record["result"]["reason"], reason, "{record:#}");
    assert_eq!(record["result"]["winner"], winner, "{record:#}");
    let loser_index = usize::from(loser == "second");
    assert_eq!(record["players"][loser_index]["points"], 0.0);
    assert_eq!(record["players"][1 - loser_index]["points"], 1.0);
}

#[test]
fn a_clean_match_alternates_sides_and_scores_points() {
    let outcome = Match::new("tictactoe")
        .a(scripted("good"))
        .b(scripted("good"))
        .games(4)
        .run();
    // First-free-square against itself: X wins down the first diagonal every time.
    assert_eq!(outcome.records.len(), 4);
    for (index, record) in outcome.records.iter().enumerate() {
        assert_eq!(record["number"], index + 1);
        assert_eq!(record["result"]["reason"], "line");
        assert_eq!(record["result"]["winner"], "first");
        let first_label = if index % 2 == 0 { "A" } else { "B" };
        assert_eq!(record["players"][0]["label"], first_label);
        assert_eq!(record["players"][0]["name"], "scripted");
        assert_eq!(record["game"], "tictactoe width=3 height=3 line=3 exact=no");
        let moves = record["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 7);
        assert_eq!(moves[0]["move"], "0 0");
        assert_eq!(moves[0]["side"], "first");
        assert!(moves.iter().all(|m| m["us"].as_u64().unwrap() < 1_000_000));
        assert!(record["started"].as_str().unwrap().ends_with('Z'));
    }
    assert!(
        outcome
            .stdout
            .contains("score: A 2 - 2 B  (4 games: A won 2, drew 0, lost 2)"),
        "{}",
        outcome.stdout
    );
    assert!(
        outcome.stdout.contains("game 2: B vs A  1-0  7 moves"),
        "{}",
        outcome.stdout
    );
    let transcript = outcome.file("0001.transcript.txt");
    assert!(transcript.contains("A> referee 1"), "{transcript}");
    assert!(transcript.contains("A> turn 1000"), "{transcript}");
    assert!(transcript.contains("A< 0 0"), "{transcript}");
    assert!(transcript.contains("B> result loss line"), "{transcript}");
    // Each bot logs its pid on stderr at start-up; the stderr is kept per game.
    let stderr = outcome.file("0001.A.stderr.txt");
    assert!(stderr.starts_with("pid "), "{stderr}");
}

#[test]
fn what_a_bot_writes_as_it_quits_is_in_the_games_record() {
    let outcome = Match::new("tictactoe")
        .a(scripted("farewell"))
        .b(scripted("good"))
        .games(1)
        .run();
    let stderr = outcome.file("0001.A.stderr.txt");
    assert!(stderr.ends_with("farewell after 4 moves\n"), "{stderr}");
    // The transcript has it too, after the `quit` it answers, in its own kind of line.
    let transcript = outcome.file("0001.transcript.txt");
    let quit = transcript.find(" A> quit\n");
    let farewell = transcript.find(" A! farewell after 4 moves\n");
    assert!(
        quit.zip(farewell)
            .is_some_and(|(quit, farewell)| quit < farewell),
        "{transcript}"
    );
    assert!(transcript.contains(" A! pid "), "{transcript}");
}

/// Each line of a bot's stderr file is stamped in the record with when it began, so that a
/// viewer can place it beside the move it was written during.
#[test]
fn each_stderr_line_is_stamped_in_the_record() {
    let outcome = Match::new("tictactoe")
        .a(scripted("thinks-aloud"))
        .b(scripted("good"))
        .games(1)
        .run();
    let record = &outcome.records[0];
    let stderr = outcome.file("0001.A.stderr.txt");
    let stamps: Vec<u64> = record["players"][0]["stderr_at_us"]
        .as_array()
        .unwrap()
        .iter()
        .map(|us| us.as_u64().unwrap())
        .collect();
    assert_eq!(stamps.len(), stderr.lines().count(), "{stderr}");
    assert!(
        stamps.windows(2).all(|pair| pair[0] <= pair[1]),
        "{stamps:?}"
    );
    // 'move N' is written after the request of A's move N (and before its answer, though the
    // line is stamped when read from its own pipe, which may be just after the answer).
    let answers: Vec<u64> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|mv| mv["side"] == "first")
        .map(|mv| mv["at_us"].as_u64().unwrap())
        .collect();
    for (line, &at) in stderr.lines().zip(&stamps) {
        if let Some(n) = line.strip_prefix("move ") {
            let n: usize = n.parse().unwrap();
            if n > 1 {
                assert!(at > answers[n - 2], "{line} at {at}");
            }
        }
    }
    assert!(
        record["players"][1]["stderr_at_us"]
            .as_array()
            .unwrap()
            .len()
            == 1
    );
}

#[test]
fn multi_game_bots_are_reused_and_others_restarted() {
    let outcome = Match::new("tictactoe")
        .a(scripted("multi"))
        .b(scripted("good"))
        .games(3)
        .run();
    assert_eq!(outcome.records.len(), 3);
    // A (multi) started once: its pid appears in game 1 only. B restarted every game.
    assert!(outcome.has("0001.A.stderr.txt"));
    assert!(!outcome.has("0002.A.stderr.txt"));
    assert!(!outcome.has("0003.A.stderr.txt"));
    for n in 1..=3 {
        assert!(outcome.has(&format!("{n:04}.B.stderr.txt")));
    }
    let transcript = outcome.file("0001.transcript.txt");
    assert!(!transcript.contains("A> quit"), "{transcript}");
    assert!(transcript.contains("B> quit"), "{transcript}");
    // A's process ends with the match: its quit is filed with its last game.
    let last = outcome.file("0003.transcript.txt");
    assert!(last.contains("A> quit"), "{last}");
    assert!(!outcome.file("0002.transcript.txt").contains("A> quit"));
}

#[test]
fn not_ready_in_time() {
    let record = verdict(as_first("never-ready").args(&["--startup-ms", "300"]));
    assert_forfeit(&record, "first", "not-ready");
    assert!(record["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("no 'ready' line within 300 ms"));
}

#[test]
fn not_ready_with_a_wrong_answer() {
    let record = verdict(as_first("bad-ready"));
    assert_forfeit(&record, "first", "not-ready");
    assert!(record["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("'hello'"));
}

#[test]
fn silence_is_a_timeout_within_the_limit_plus_slack() {
    let outcome = as_first("silent").time("move=200").run();
    assert_forfeit(outcome.record(), "first", "timeout");
    assert!(outcome.took < Duration::from_secs(5), "{:?}", outcome.took);
}

#[test]
fn a_late_answer_is_a_timeout_even_when_it_arrives() {
    // The answer comes at 600 ms, three times the limit of 200 ms (+10 ms margin): the referee
    // has stopped waiting (or, if it woke late, judges the late line) and rules a timeout.
    // Answers just past the limit are judged by the arbiter's own tests, without processes.
    let record = verdict(as_first("slow:600").time("move=200"));
    assert_forfeit(&record, "first", "timeout");
    let detail = record["result"]["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("A (first player) ")
            && detail.contains(" move 1 ")
            // A loaded machine adds that it was overloaded then.
            && detail.contains("; the limit is 200 ms (+10 ms margin)"),
        "{detail}"
    );
}

/// A bot that writes its move to stderr instead of stdout times out, and is told so: the
/// last line of its stderr in that turn that is a legal move (not its debug output, not a
/// taken square) is named.
#[test]
fn a_move_written_to_stderr_is_named_in_the_timeout() {
    let record = verdict(
        Match::new("tictactoe")
            .a(scripted("good"))
            .b(scripted("stderr"))
            .games(1)
            .time("move=200"),
    );
    assert_forfeit(&record, "second", "timeout");
    let detail = record["result"]["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("B (second player) did not answer move 2 within 210 ms")
            && detail.contains(
                "; it wrote '1 0' on standard error; moves must go to standard output (print / \
                 System.out / cout), flushed"
            ),
        "{detail}"
    );
    // The line the detail quotes, whole, as for any verdict that quotes one.
    assert_eq!(record["result"]["line"], "1 0", "{record:#}");
}

#[test]
fn partial_output_does_not_extend_the_deadline() {
    let outcome = as_first("partial").time("move=300").run();
    assert_forfeit(outcome.record(), "first", "timeout");
    assert!(outcome.took < Duration::from_secs(5), "{:?}", outcome.took);
}

#[test]
fn not_a_move() {
    let record = verdict(as_first("garbage"));
    assert_forfeit(&record, "first", "not-a-move");
    let detail = record["result"]["detail"].as_str().unwrap();
    assert!(detail.contains("'banana' for move 1"), "{detail}");
    // What a move is, with an example on this board (its centre).
    assert!(
        detail.contains(
            "which is not a move: expected 'x y', two whole numbers separated by a space \
             (column, then row, from 0 at the top left), e.g. '1 1'"
        ),
        "{detail}"
    );
}

#[test]
fn off_the_board() {
    let record = verdict(as_first("offboard"));
    assert_forfeit(&record, "first", "illegal-move");
    assert_eq!(record["result"]["violation"], "off-board");
}

#[test]
fn an_occupied_square() {
    let outcome = Match::new("tictactoe")
        .a(scripted("good"))
        .b(scripted("occupied"))
        .games(1)
        .run();
    let record = &outcome.records[0];
    assert_forfeit(record, "second", "illegal-move");
    assert_eq!(record["result"]["violation"], "occupied");
    assert!(record["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("'0 0' at move 2: 0 0 is already taken"));
}

#[test]
fn a_line_too_long() {
    let record = verdict(as_first("long-line"));
    assert_forfeit(&record, "first", "line-too-long");
    let record = verdict(as_first("long-line").args(&["--max-line", "20000"]));
    assert_forfeit(&record, "first", "not-a-move");
}

#[test]
fn output_when_not_asked() {
    let record = verdict(as_first("unasked"));
    assert_forfeit(&record, "first", "unrequested-output");
    let record = verdict(as_first("early"));
    assert_forfeit(&record, "first", "unrequested-output");
}

#[test]
fn resignation() {
    let record = verdict(as_first("resign"));
    assert_forfeit(&record, "first", "resign");
}

#[test]
fn exiting_crashing_and_closing_stdout() {
    let record = verdict(as_first("exit"));
    assert_forfeit(&record, "first", "exited");
    assert!(record["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("exited with code 3"));
    let record = verdict(as_first("segv"));
    assert_forfeit(&record, "first", "exited");
    assert!(record["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("SIGSEGV"));
    let record = verdict(as_first("close-stdout"));
    assert_forfeit(&record, "first", "exited");
    assert!(record["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("closed its output"));
}

#[test]
fn a_forked_child_holding_the_pipes_is_killed_with_its_group() {
    let record = verdict(as_first("fork").time("move=300"));
    // The bot answers its first move, then sleeps forever holding the pipes.
    assert_forfeit(&record, "first", "timeout");
}

#[test]
fn a_bot_that_will_not_quit_is_killed_after_the_grace_period() {
    let outcome = Match::new("tictactoe")
        .a(scripted("linger"))
        .b(scripted("good"))
        .games(1)
        .run();
    assert!(outcome.took < Duration::from_secs(10), "{:?}", outcome.took);
}

#[test]
fn crlf_line_ends_are_accepted() {
    let record = verdict(as_first("crlf"));
    assert_eq!(record["result"]["reason"], "line");
    assert_eq!(record["result"]["winner"], "first");
}

#[test]
fn answering_under_the_limit_is_never_a_timeout() {
    let outcome = Match::new("mnk")
        .a(scripted("slow:100"))
        .b(scripted("slow:100"))
        .games(1)
        .param("size=5")
        .param("line=4")
        .time("move=1500")
        .run();
    let record = &outcome.records[0];
    assert_eq!(record["result"]["reason"], "line", "{record:#}");
    for mv in record["moves"].as_array().unwrap() {
        let us = mv["us"].as_u64().unwrap();
        // The clock starts once the request is flushed, so a referee descheduled right after
        // its write can see a little less than the bot's 100 ms sleep; never a timeout.
        assert!((50_000..1_500_000).contains(&us), "{us} us");
    }
}

#[test]
fn legal_moves_are_sent_on_request() {
    let outcome = Match::new("tictactoe")
        .a(scripted("good"))
        .b(scripted("good"))
        .games(1)
        .legal_moves()
        .run();
    let transcript = outcome.file("0001.transcript.txt");
    assert!(
        transcript.contains("A> legal 0 0,1 0,2 0,0 1,1 1,2 1,0 2,1 2,2 2"),
        "{transcript}"
    );
    assert!(transcript.contains("B> legal 1 0,2 0,0 1,1 1,2 1,0 2,1 2,2 2"));
}

#[test]
fn an_opening_is_played_before_the_bots_take_over() {
    let outcome = Match::new("tictactoe")
        .a(scripted("good"))
        .b(scripted("good"))
        .games(1)
        .opening("1 1, 0 0")
        .run();
    let record = &outcome.records[0];
    assert_eq!(record["opening"], serde_json::json!(["1 1", "0 0"]));
    let transcript = outcome.file("0001.transcript.txt");
    assert!(transcript.contains("A> played 1 1\n") || transcript.contains("A> played 1 1"));
    assert_eq!(record["moves"][0]["move"], "1 0");
}

#[test]
fn builtin_bots_play_through_the_protocol() {
    let outcome = Match::new("gomoku").a(RANDOM).b(RANDOM).games(2).run();
    assert!(outcome.stdout.contains("score: A "), "{}", outcome.stdout);
    assert_eq!(outcome.records.len(), 2);
    assert_eq!(
        outcome.stdout.matches("\ngame ").count(),
        2,
        "{}",
        outcome.stdout
    );
}

#[test]
fn the_referees_own_errors_exit_non_zero_with_a_message() {
    let cases = [
        (
            Match::new("tictactoe").a("/nonexistent/bot"),
            "player A cannot start: '/nonexistent/bot' does not exist",
        ),
        (
            Match::new("mnk").param("size=30"),
            "'30' is not a whole number from 3 to 20",
        ),
        (Match::new("chess"), "unknown game 'chess'"),
        (
            Match::new("tictactoe").b("builtin:nobody"),
            "unknown built-in bot 'nobody'",
        ),
        (Match::new("tictactoe").time("move=x"), "bad time control"),
        (
            Match::new("tictactoe").opening("1 1,1 1"),
            "opening move 2 '1 1' cannot be played",
        ),
    ];
    for (refused, message) in cases {
        let what = format!("{refused:?}");
        let stderr = refused.refused();
        assert!(stderr.contains(message), "{what}: {stderr}");
    }
}

#[test]
fn perft_prints_counts() {
    let output = referee()
        .args(["perft", "tictactoe", "9"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "127872");
}

#[test]
fn a_draw_offered_with_a_move_and_accepted_ends_the_game() {
    let outcome = Match::new("checkers")
        .a(scripted("offer"))
        .b(scripted("accept"))
        .games(1)
        .legal_moves()
        .run();
    let record = &outcome.records[0];
    assert_eq!(record["result"]["reason"], "agreement", "{record:#}");
    assert_eq!(record["result"]["winner"], Value::Null);
    assert_eq!(record["players"][0]["points"], 0.5);
    assert_eq!(record["moves"].as_array().unwrap().len(), 1);
    assert_eq!(record["moves"][0]["offers_draw"], true);
    let transcript = outcome.file("0001.transcript.txt");
    assert!(transcript.contains("B> offer draw"), "{transcript}");
    assert!(transcript.contains("B< draw"), "{transcript}");
}

#[test]
fn accepting_a_draw_nobody_offered_is_not_a_move() {
    let record = verdict(as_first("accept-unoffered"));
    assert_forfeit(&record, "first", "not-a-move");
    assert!(record["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("no draw was offered"));
}

#[test]
fn draw_offers_exist_only_in_checkers() {
    let record = verdict(as_first("offer"));
    assert_forfeit(&record, "first", "not-a-move");
    assert!(record["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("tictactoe has no draw offers"));
}

#[test]
fn checkers_and_dots_play_to_the_end_with_builtin_bots() {
    for (game, params) in [("checkers", vec![]), ("dots", vec!["rows=2", "cols=4"])] {
        let outcome = params
            .iter()
            .fold(Match::new(game), |played, param| played.param(param))
            .games(2)
            .run();
        let record = &outcome.records[0];
        let reason = record["result"]["reason"].as_str().unwrap();
        let rules_endings = [
            "no-legal-move",
            "repetition",
            "move-rule",
            "all-lines-drawn",
        ];
        assert!(rules_endings.contains(&reason), "{game}: {record:#}");
        if game == "dots" {
            let scores = record["scores"].as_array().unwrap();
            assert_eq!(scores[0].as_u64().unwrap() + scores[1].as_u64().unwrap(), 8);
            assert!(outcome.stdout.contains("(boxes "), "{}", outcome.stdout);
        }
    }
}

/// A timeout taken while the machine had more tasks ready to run than processors says so:
/// the bot may have been kept from a processor (fair timing the organiser can judge).
#[test]
fn a_timeout_on_an_overloaded_machine_says_so() {
    let processors = std::thread::available_parallelism().map_or(2, usize::from);
    let spinners: Vec<std::process::Child> = (0..2 * processors + 2)
        .map(|_| {
            std::process::Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .spawn()
                .unwrap()
        })
        .collect();
    let record = verdict(as_first("silent").time("move=200"));
    for mut spinner in spinners {
        spinner.kill().unwrap();
        spinner.wait().unwrap();
    }
    assert_forfeit(&record, "first", "timeout");
    let overloaded = &record["result"]["overloaded"];
    assert!(
        overloaded["runnable"].as_u64().unwrap() > overloaded["processors"].as_u64().unwrap(),
        "{record:#}"
    );
    let detail = record["result"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("the machine was overloaded then"),
        "{detail}"
    );
}

#[test]
fn a_checkers_move_written_as_on_a_chess_board_is_told_the_square_numbers() {
    let record = verdict(
        Match::new("checkers")
            .a(scripted("algebraic"))
            .b(RANDOM)
            .games(1),
    );
    assert_forfeit(&record, "first", "not-a-move");
    let detail = record["result"]["detail"].as_str().unwrap();
    assert_eq!(
        detail,
        "A (first player) sent 'c3-d4' for move 1, which is not a move: 'c3' names a square by \
         its column letter and row digit: PDN numbers the dark squares 1 to 32, 1-4 on Black's \
         side (see protocol.md, 'checkers'); expected a PDN move such as 11-15, a capture such \
         as 22x15, or a multi-jump with every landing square such as 9x18x27"
    );
}
