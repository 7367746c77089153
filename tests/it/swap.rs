//! Swap openings (`-p swap=swap1|swap2`) through the real `referee match` binary: the built-in
//! bots and the Python starter bot play them, a Gomocup brain (tests/bots/gomocup_brain.py)
//! answers `SWAP2BOARD` with a swap, without one and with two more stones, and each record says
//! who played which colour and names the winner by seat.

use referee_rules::games::{GameSpec, Side};
use referee_rules::verdict::Termination;
use serde_json::Value;

use crate::common::{brain, record_moves, sent_to, starter, Match, Outcome, RANDOM};

const GREEDY: &str = "builtin:greedy";

/// The moves of a record: side and notation.
fn moves(record: &Value) -> Vec<(Side, String)> {
    record_moves(record)
        .into_iter()
        .map(|(side, mv, _)| (side, mv))
        .collect()
}

/// The colours of the record's players, first then second.
fn colours(record: &Value) -> [String; 2] {
    [0, 1].map(|index| {
        record["players"][index]["colour"]
            .as_str()
            .unwrap_or_else(|| panic!("no colour: {record}"))
            .to_string()
    })
}

/// The seat that took Black by the record's moves: the chooser of `swap`, else the opponent
/// of the player that chose by playing White's stone.
fn black_by_the_moves(moves: &[(Side, String)]) -> Side {
    let more = moves.iter().any(|(_, mv)| mv.ends_with(" more"));
    let (chooser, choice) = if more { &moves[5] } else { &moves[3] };
    if choice == "swap" {
        *chooser
    } else {
        chooser.opponent()
    }
}

/// Checks that a game ended by the rules with every move legal, the first three stones the
/// first player's, the record's colours those the moves chose, and the winner named by seat
/// and colour.
fn check_game(record: &Value, transcript: &str) {
    let reason = record["result"]["reason"].as_str().unwrap();
    assert!(
        !reason.parse::<Termination>().unwrap().is_forfeit(),
        "{}\n{transcript}",
        record["result"]["detail"]
    );
    let text = record["game"].as_str().unwrap();
    let words: Vec<&str> = text.split(' ').collect();
    let mut game = GameSpec::from_words(words[0], &words[1..])
        .unwrap()
        .new_game();
    let moves = moves(record);
    for (side, mv) in &moves {
        assert_eq!(*side, game.side_to_move(), "{mv}");
        assert_eq!(&game.play_text(mv).unwrap(), mv);
    }
    assert!(moves[..3].iter().all(|(side, _)| *side == Side::First));
    let black = black_by_the_moves(&moves);
    let expected = Side::BOTH.map(|side| if side == black { "black" } else { "white" });
    assert_eq!(colours(record), expected);
    if let Some(winner) = record["result"]["winner"].as_str() {
        let index = usize::from(winner == "second");
        let colour = if expected[index] == "black" {
            "Black"
        } else {
            "White"
        };
        let label = record["players"][index]["label"].as_str().unwrap();
        let detail = record["result"]["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!("{label} ({winner} player) as {colour} wins")),
            "{detail}"
        );
    }
}

fn check_all(outcome: &Outcome) {
    for (number, record) in outcome.records.iter().enumerate() {
        check_game(
            record,
            &outcome.file(&format!("{:04}.transcript.txt", number + 1)),
        );
    }
}

#[test]
fn built_in_bots_play_swap1_and_swap2_and_the_record_tells_the_colours() {
    for swap in ["swap=swap1", "swap=swap2"] {
        let outcome = Match::new("gomoku")
            .a(GREEDY)
            .b(RANDOM)
            .param(swap)
            .time("move=200")
            .games(4)
            .run();
        assert_eq!(outcome.records.len(), 4, "{}", outcome.stdout);
        check_all(&outcome);
        // The greedy bot, as the second player, takes the colour it judges better, and wins.
        assert!(
            outcome.stdout.contains("score: A 4 - 0 B"),
            "{}",
            outcome.stdout
        );
    }
}

#[test]
fn the_python_starter_bot_plays_swap2() {
    let outcome = Match::new("gomoku")
        .a(starter("mnk.py"))
        .b(RANDOM)
        .param("swap=swap2")
        .param("rule=renju")
        .games(4)
        .run();
    check_all(&outcome);
}

/// The request lines (from `SWAP2BOARD`, `BOARD`, `TURN` or `BEGIN` up to the next
/// `INFO time_left`) the referee sent A.
fn requests(transcript: &str) -> Vec<Vec<&str>> {
    let mut requests: Vec<Vec<&str>> = Vec::new();
    for line in sent_to(transcript, "A") {
        if line.starts_with("INFO time_left") {
            requests.push(Vec::new());
        } else if let Some(request) = requests.last_mut() {
            request.push(line);
        }
    }
    requests
}

#[test]
fn gomocup_brains_answer_swap2board_with_a_swap_a_stone_or_two_more() {
    for (mode, brain_colour_as_second) in [
        ("choose:swap", Some("black")),
        ("choose:stay", Some("white")),
        ("choose:more", None),
    ] {
        let outcome = Match::new("gomoku")
            .a(brain(mode))
            .b(RANDOM)
            .param("swap=swap2")
            .games(2)
            .run();
        check_all(&outcome);
        for (number, record) in outcome.records.iter().enumerate() {
            let transcript = outcome.file(&format!("{:04}.transcript.txt", number + 1));
            let requests = requests(&transcript);
            let a_first = record["players"][0]["label"] == "A";
            let moves = moves(record);
            if a_first {
                // Three stones at once: the first answers the arbiter, the others follow
                // without asking the brain again.
                assert_eq!(requests[0], ["SWAP2BOARD", "DONE"], "{transcript}");
                assert_eq!(
                    moves[..3],
                    [
                        (Side::First, "7 7".to_string()),
                        (Side::First, "8 8".to_string()),
                        (Side::First, "7 8".to_string()),
                    ]
                );
                let times = record["moves"].as_array().unwrap();
                assert_eq!(times[1]["us"], 0);
                assert_eq!(times[2]["us"], 0);
                continue;
            }
            // The first player's three stones, as `x,y` lines in the order placed.
            let mut asked = vec!["SWAP2BOARD".to_string()];
            asked.extend(moves[..3].iter().map(|(_, mv)| mv.replace(' ', ",")));
            asked.push("DONE".into());
            assert_eq!(requests[0], asked, "{transcript}");
            let colour = &colours(record)[1];
            match brain_colour_as_second {
                Some(expected) => assert_eq!(colour, expected),
                None => {
                    assert!(moves[3].1.ends_with(" more") && moves[4].0 == Side::Second);
                    assert_eq!(record["moves"][4]["us"], 0);
                }
            }
            // After the opening, the brain is told the whole board once, its own colour's
            // stones as field 1.
            let board = requests
                .iter()
                .find(|request| request.first() == Some(&"BOARD"))
                .unwrap_or_else(|| panic!("no BOARD after the opening: {transcript}"));
            let own = if colour == "black" { "1" } else { "2" };
            let first_stone = moves[0].1.replace(' ', ",");
            assert_eq!(board[1], format!("{first_stone},{own}"), "{transcript}");
        }
    }
}

#[test]
fn a_brain_without_swap2_loses_with_its_answer_quoted() {
    let outcome = Match::new("gomoku")
        .a(brain("no-swap2"))
        .b(RANDOM)
        .param("swap=swap2")
        .games(1)
        .run();
    let record = outcome.record();
    assert_eq!(record["result"]["reason"], "not-a-move", "{record}");
    let detail = record["result"]["detail"].as_str().unwrap();
    assert!(detail.contains("'UNKNOWN SWAP2BOARD'"), "{detail}");
}

#[test]
fn gomocup_brains_are_refused_swap1_and_openings_swap2board_cannot_express() {
    let refused = Match::new("gomoku")
        .a(brain("good"))
        .b(RANDOM)
        .param("swap=swap1")
        .refused();
    assert!(
        refused.contains("Gomocup has no swap1 command"),
        "{refused}"
    );
    let refused = Match::new("gomoku")
        .a(brain("good"))
        .b(RANDOM)
        .param("swap=swap2")
        .opening("7 7")
        .refused();
    assert!(refused.contains("SWAP2BOARD cannot ask"), "{refused}");
}
