//! What `referee match` prints around its games: the score, the Elo difference with its
//! interval, LOS and the pentanomial counts at the end, a note on an odd number of games, and
//! clear refusals of counts that make no sense.

use crate::common::{referee, scripted, Match, RANDOM};

#[test]
fn the_end_of_a_match_gives_the_score_elo_los_and_pairs() {
    // Seeded random bots: the same games every time, A winning some pairs and not others.
    let outcome = Match::new("tictactoe")
        .a(RANDOM)
        .b(RANDOM)
        .games(8)
        .args(&["--seed", "3"])
        .run();
    let tail: Vec<&str> = outcome.stdout.lines().rev().take(4).collect();
    let [watch, pairs, elo, score] = tail[..] else {
        panic!("{}", outcome.stdout)
    };
    assert!(watch.contains("referee serve "), "{watch}");
    assert!(
        score.starts_with("score: A ") && score.contains("(8 games: A won"),
        "{score}"
    );
    assert!(
        elo.starts_with("elo: A - B ")
            && elo.contains(" (95% interval ")
            && elo.contains(" to ")
            && elo.contains("), LOS ")
            && elo.ends_with("% (the likelihood that A is the stronger)"),
        "{elo}"
    );
    assert!(pairs.starts_with("pairs: ["), "{pairs}");
    // The four pairs' counts add up to four.
    let counts: u32 = pairs["pairs: [".len()..pairs.find(']').unwrap()]
        .split(", ")
        .map(|n| n.parse::<u32>().unwrap())
        .sum();
    assert_eq!(counts, 4, "{pairs}");
}

#[test]
fn an_odd_number_of_games_is_explained_and_counted_in_words() {
    let output = Match::new("tictactoe").games(1).command().output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(stdout.contains("(1 game: A won"), "{stdout}");
    assert!(
        stdout.contains("elo: no estimate from 0 game pairs: it needs 2 or more"),
        "{stdout}"
    );
    let output = Match::new("tictactoe").games(3).command().output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "referee: note: with 3 games A moves first in 2 and B in 1: the first player's \
             advantage goes to A"
        ) && stderr.contains("an even number (--games 4) plays each side equally often"),
        "{stderr}"
    );
}

#[test]
fn a_crashed_bot_s_last_stderr_lines_are_shown_escaped_and_kept_in_the_record() {
    let outcome = Match::new("tictactoe")
        .a(scripted("crash-noisy"))
        .games(1)
        .run();
    let stdout = &outcome.stdout;
    let record = outcome.record();
    let tail: Vec<&str> = record["players"][0]["stderr_tail"]
        .as_array()
        .unwrap_or_else(|| panic!("{record:#}"))
        .iter()
        .map(|line| line.as_str().unwrap())
        .collect();
    // The bytes as written in the record; escaped on the terminal.
    assert_eq!(tail.len(), 3, "{tail:?}");
    assert!(tail[0].starts_with("pid "), "{tail:?}");
    assert_eq!(
        tail[1..],
        ["Traceback: \x1b[2Jboom\x07", "ValueError: bad move"]
    );
    assert!(record["players"][1].get("stderr_tail").is_none());
    let shown = format!(
        "  A's stderr ended with:\n  | {}\n  | Traceback: \\x1b[2Jboom\\x07\n  | ValueError: bad move\n  (all of it: {})\n",
        tail[0],
        outcome.dir.join("0001.A.stderr.txt").display()
    );
    assert!(stdout.contains(&shown), "{stdout}");
    assert!(
        !stdout.contains('\x1b'),
        "no control character reaches the terminal"
    );

    // Without --record, the lines are still shown, and where to get all of them is said.
    let output = Match::new("tictactoe")
        .a(scripted("crash-noisy"))
        .games(1)
        .command()
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("  | ValueError: bad move\n  (run with --record DIR to keep all of it)"),
        "{stdout}"
    );
}

#[test]
fn a_negative_or_zero_count_is_refused_in_plain_words() {
    for (args, says) in [
        (
            vec!["match", "tictactoe", RANDOM, RANDOM, "--games", "-1"],
            "invalid value '-1' for '--games <GAMES>': '-1' is not a whole number of 1 or more",
        ),
        (
            vec!["match", "tictactoe", RANDOM, RANDOM, "--games", "0"],
            "'0' is not a whole number of 1 or more",
        ),
        (
            vec!["tournament", "none.toml", "-j", "-2"],
            "invalid value '-2' for '--jobs <N>'",
        ),
    ] {
        let output = referee().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("-- -"),
            "no clap tip to escape it: {stderr}"
        );
    }
}

#[test]
fn a_player_that_cannot_start_is_named_before_any_game() {
    let message = Match::new("tictactoe").a("./no-such-bot").refused();
    assert!(
        message.contains("referee: player A cannot start: './no-such-bot' does not exist"),
        "{message}"
    );
    let message = Match::new("tictactoe")
        .b("python3 no-such-bot.py")
        .refused();
    assert!(
        message.contains(
            "referee: player B cannot start: its command names 'no-such-bot.py', which does not exist"
        ),
        "{message}"
    );
}
