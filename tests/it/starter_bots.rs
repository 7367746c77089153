//! Plays every Python starter bot (bots/python/) through the real `referee match` binary against
//! the referee's random bot, and checks that each game ends by the rules (never by a forfeit of
//! the starter bot), that every move in the records replays legally on the referee's own rules,
//! and that the records carry what the protocol promises (boxes scores in dots and boxes).
//! With `--legal-moves`, the starter bots also compare their own move generation with the
//! referee's list and write a warning on stderr when they disagree: no warning may appear.

use crate::common::{repo_file, starter, Bot, Match, Outcome, RANDOM};
use referee_rules::games::GameSpec;
use referee_rules::verdict::Termination;
use serde_json::Value;

/// Plays `games` games of `game` between `a` and `b` with the options `extra` (see
/// [`Match::run`]).
fn play(game: &str, a: Bot, b: Bot, games: u32, extra: &[&str]) -> Outcome {
    let outcome = Match::new(game).a(a).b(b).games(games).args(extra).run();
    assert_eq!(outcome.records.len(), games as usize, "{}", outcome.stdout);
    outcome
}

/// Plays `file` as player A against `builtin:random` and checks every game (see
/// [`plays_by_the_rules`]).
fn play_starter(file: &str, name: &str, game: &str, games: u32, extra: &[&str]) -> Outcome {
    plays_by_the_rules(starter(file), RANDOM.into(), name, game, games, extra)
}

/// Plays `bot`, which answers `ready NAME ...`, as player A against `opponent`, and checks
/// every game (see [`check_record`]) and that the bot never disagreed with a `legal` line: a
/// starter bot of any language.
pub(crate) fn plays_by_the_rules(
    bot: Bot,
    opponent: Bot,
    name: &str,
    game: &str,
    games: u32,
    extra: &[&str],
) -> Outcome {
    let played = play(game, bot, opponent, games, extra);
    for record in &played.records {
        check_record(record, name);
    }
    for (file, text) in played.files_ending(".A.stderr.txt") {
        assert!(!text.contains("warning"), "{file}:\n{text}");
    }
    played
}

/// The 3-move ballots of openings/checkers-3move.txt, each its three moves.
pub(crate) fn checkers_ballots() -> Vec<Vec<String>> {
    let deck = std::fs::read_to_string(repo_file("openings/checkers-3move.txt")).unwrap();
    deck.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split_whitespace().skip(1).map(String::from).collect())
        .collect()
}

/// Checks one game of a starter bot (player A, which answers `ready NAME ...`): it ended by the
/// rules, and the opening and every move replay legally on the referee's rules to the same
/// canonical notation, the same ending and the same scores.
fn check_record(record: &Value, name: &str) {
    let starter = usize::from(record["players"][0]["label"] != "A");
    assert_eq!(record["players"][starter]["name"], name, "{record:#}");
    let reason = record["result"]["reason"].as_str().unwrap();
    assert!(
        !reason.parse::<Termination>().unwrap().is_forfeit(),
        "game {} did not end by the rules: {}",
        record["number"],
        record["result"]["detail"]
    );

    let text = record["game"].as_str().unwrap();
    let words: Vec<&str> = text.split(' ').collect();
    let spec = GameSpec::from_words(words[0], &words[1..]).unwrap();
    let mut game = spec.new_game();
    for mv in record["opening"].as_array().unwrap() {
        game.play_text(mv.as_str().unwrap()).unwrap();
    }
    for (index, mv) in record["moves"].as_array().unwrap().iter().enumerate() {
        let side = mv["side"].as_str().unwrap();
        assert_eq!(side, game.side_to_move().as_str(), "move {}", index + 1);
        let notation = mv["move"].as_str().unwrap();
        match game.play_text(notation) {
            Ok(canonical) => assert_eq!(canonical, notation),
            Err(error) => panic!(
                "game {}, move {} ({side}) '{notation}': {error}",
                record["number"],
                index + 1
            ),
        }
    }
    match game.outcome() {
        Some(outcome) => assert_eq!(
            Termination::Rules(outcome.ending).code(),
            reason,
            "{record:#}"
        ),
        None => assert_eq!(reason, "agreement", "{record:#}"),
    }
    match game.scores() {
        Some([first, second]) => {
            assert_eq!(record["scores"], serde_json::json!([first, second]));
            let expected = match first.cmp(&second) {
                std::cmp::Ordering::Greater => Value::from("first"),
                std::cmp::Ordering::Less => Value::from("second"),
                std::cmp::Ordering::Equal => Value::Null,
            };
            assert_eq!(record["result"]["winner"], expected, "{record:#}");
        }
        None => assert!(record.get("scores").is_none(), "{record:#}"),
    }
}

#[test]
fn the_mnk_starter_plays_tictactoe_gomoku_and_mnk_boards() {
    play_starter("mnk.py", "mnk-starter", "tictactoe", 6, &["--legal-moves"]);
    play_starter("mnk.py", "mnk-starter", "gomoku", 2, &[]);
    play_starter(
        "mnk.py",
        "mnk-starter",
        "mnk",
        4,
        &["-p", "width=9", "-p", "height=5", "-p", "line=4"],
    );
}

/// Under renju the starter bot, as either colour, never plays a point the referee's `legal`
/// line leaves out (its forbidden-point check agrees with the referee's) and so never loses
/// by a forbidden move; under caro it plays to the end.
#[test]
fn the_mnk_starter_knows_renju_and_caro() {
    let renju = play_starter(
        "mnk.py",
        "mnk-starter",
        "gomoku",
        4,
        &["-p", "rule=renju", "--legal-moves"],
    );
    for record in &renju.records {
        let starter_first = record["players"][0]["label"] == "A";
        let lost_by_forbidden = record["result"]["reason"] == "forbidden-move";
        assert!(!(starter_first && lost_by_forbidden), "{record:#}");
    }
    play_starter("mnk.py", "mnk-starter", "gomoku", 2, &["-p", "rule=caro"]);
}

#[test]
fn the_uttt_starter_plays_to_the_end() {
    play_starter("uttt.py", "uttt-starter", "uttt", 4, &["--legal-moves"]);
    play_starter(
        "uttt.py",
        "uttt-starter",
        "uttt",
        2,
        &["-p", "tiebreak=codingame"],
    );
}

#[test]
fn the_checkers_starter_plays_from_the_standard_start() {
    play_starter(
        "checkers.py",
        "checkers-starter",
        "checkers",
        6,
        &["--legal-moves"],
    );
}

#[test]
fn the_checkers_starter_makes_a_forced_multi_jump() {
    // Black's only legal move takes three men: 1x10x19x28.
    let played = play_starter(
        "checkers.py",
        "checkers-starter",
        "checkers",
        4,
        &["-p", "fen=B:W6,15,24,27:B1,12", "--legal-moves"],
    );
    for record in &played.records {
        assert_eq!(record["moves"][0]["move"], "1x10x19x28", "{record:#}");
    }
}

#[test]
fn the_checkers_starter_plays_after_ballot_openings() {
    let ballots = checkers_ballots();
    // The first, a middle and the last ballot, each played from both sides.
    for ballot in [
        &ballots[0],
        &ballots[ballots.len() / 2],
        &ballots[ballots.len() - 1],
    ] {
        let opening = ballot.join(",");
        let played = play_starter(
            "checkers.py",
            "checkers-starter",
            "checkers",
            2,
            &["--opening", &opening],
        );
        for record in &played.records {
            assert_eq!(record["opening"], serde_json::json!(ballot));
            // After three moves, White (the second player) moves first.
            assert_eq!(record["moves"][0]["side"], "second");
        }
    }
}

/// A transcript's protocol lines (`A>`, `A<`), without the bots' stderr lines (`A!`) among them.
fn protocol_lines(transcript: &str) -> Vec<&str> {
    transcript
        .lines()
        .filter(|line| {
            let who = line
                .split_once(" ms ")
                .and_then(|(_, rest)| rest.split(' ').next());
            !who.is_some_and(|who| who.ends_with('!'))
        })
        .collect()
}

#[test]
fn two_checkers_starters_agree_a_draw_with_level_kings() {
    let bot = starter("checkers.py");
    let played = play("checkers", bot.clone(), bot, 2, &["-p", "fen=B:WK32:BK1"]);
    for record in &played.records {
        check_record(record, "checkers-starter");
        assert_eq!(record["result"]["reason"], "agreement", "{record:#}");
        assert_eq!(record["moves"][0]["offers_draw"], true, "{record:#}");
    }
    for (file, transcript) in played.files_ending(".transcript.txt") {
        let lines = protocol_lines(&transcript);
        let offer = lines
            .iter()
            .position(|line| line.ends_with("> offer draw"))
            .unwrap_or_else(|| panic!("{file}: no offer\n{transcript}"));
        let rest = &lines[offer + 1..];
        assert!(rest[0].ends_with("> turn 1000"), "{file}:\n{transcript}");
        assert!(rest[1].ends_with("< draw"), "{file}:\n{transcript}");
    }
}

#[test]
fn the_dots_starter_plays_square_and_oblong_boards() {
    let (mut repeated_turns, mut opponent_runs) = (0, 0);
    for (rows, cols, games) in [(2, 2, 6), (3, 5, 4), (1, 4, 2)] {
        let played = play_starter(
            "dots.py",
            "dots-starter",
            "dots",
            games,
            &[
                "-p",
                &format!("rows={rows}"),
                "-p",
                &format!("cols={cols}"),
                "--legal-moves",
            ],
        );
        for record in &played.records {
            let scores: Vec<u64> = record["scores"]
                .as_array()
                .unwrap_or_else(|| panic!("no scores: {record:#}"))
                .iter()
                .map(|s| s.as_u64().unwrap())
                .collect();
            assert_eq!(scores.iter().sum::<u64>(), rows * cols, "{record:#}");
            let moves = record["moves"].as_array().unwrap();
            assert_eq!(moves.len() as u64, 2 * rows * cols + rows + cols);
            repeated_turns += moves
                .windows(2)
                .filter(|pair| pair[0]["side"] == pair[1]["side"])
                .count();
        }
        // The lines of a turn with a box reach the opponent together, one `opponent` line
        // each, before its `turn` (or `result`).
        for (_, text) in played.files_ending(".transcript.txt") {
            let lines = protocol_lines(&text);
            opponent_runs += lines
                .windows(2)
                .filter(|pair| {
                    // `+5.547 ms B> opponent h 0 1`: two such lines to the same bot.
                    let sent = |line: &str| {
                        line.split_once(" ms ")
                            .map(|(_, rest)| rest[..2].to_string())
                    };
                    pair.iter().all(|line| line.contains("> opponent "))
                        && sent(pair[0]) == sent(pair[1])
                })
                .count();
        }
    }
    // A box scored keeps the turn: the replay above checked whose move each one was.
    assert!(repeated_turns > 0);
    assert!(opponent_runs > 0);
}
