//! The rule sets through the real binary: a forbidden move loses with its shape in the record
//! and the `result` line, Gomocup brains are told the rule set, and `referee perft` counts
//! from an opening by the rule set's moves.

use crate::common::{brain, referee, scripted, Match, RANDOM};

/// Black has three across from 1 0 and three down from 0 1: the first free square, 0 0, which
/// the scripted bot plays, makes two fours.
const DOUBLE_FOUR_AT_THE_CORNER: &str =
    "1 0,10 10,2 0,12 10,3 0,10 12,0 1,12 12,0 2,14 14,0 3,14 12";

#[test]
fn a_forbidden_move_is_played_and_loses_with_its_shape() {
    let outcome = Match::new("gomoku")
        .a(scripted("good"))
        .b(scripted("good"))
        .param("rule=renju")
        .opening(DOUBLE_FOUR_AT_THE_CORNER)
        .run();
    let record = &outcome.records[0];
    assert_eq!(
        record["game"],
        "gomoku width=15 height=15 line=5 exact=no rule=renju"
    );
    assert_eq!(record["moves"][0]["move"], "0 0", "{record:#}");
    assert_eq!(record["moves"].as_array().unwrap().len(), 1);
    assert_eq!(record["result"]["reason"], "forbidden-move");
    assert_eq!(record["result"]["violation"], "double-four");
    assert_eq!(record["result"]["winner"], "second");
    assert!(outcome.stdout.contains(
        "B (second player) wins: A (first player) made a forbidden double four with move 1, \
             '0 0' (renju forbids it to Black)"
    ));
    let transcript = outcome.file("0001.transcript.txt");
    assert!(
        transcript.contains("A> result loss forbidden-move"),
        "{transcript}"
    );
    // Without renju the same move is an ordinary one, and the game goes on.
    let free = Match::new("gomoku")
        .a(scripted("good"))
        .b(scripted("good"))
        .opening(DOUBLE_FOUR_AT_THE_CORNER)
        .run();
    assert_ne!(free.records[0]["result"]["reason"], "forbidden-move");
    assert!(free.records[0]["moves"].as_array().unwrap().len() > 1);
}

#[test]
fn gomocup_brains_are_told_the_rule_set() {
    for (params, rule) in [
        (&["rule=renju"][..], "INFO rule 4"),
        (&["rule=caro"], "INFO rule 8"),
        (&["rule=caro", "exact=yes"], "INFO rule 9"),
    ] {
        let mut played = Match::new("gomoku").a(brain("good")).b(RANDOM);
        for param in params {
            played = played.param(param);
        }
        let outcome = played.run();
        let transcript = outcome.file("0001.transcript.txt");
        assert!(transcript.contains(&format!("A> {rule}")), "{transcript}");
    }
}

#[test]
fn perft_counts_from_an_opening_without_black_s_forbidden_points() {
    let count = |params: &[&str]| {
        let output = referee()
            .args(["perft", "gomoku", "2", "--opening"])
            .arg("5 7,0 14,6 7,2 14,7 5,4 14,7 6,6 14")
            .args(params)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    };
    // 7 7 would be a double three: renju leaves it out of Black's 217 moves.
    assert_eq!(count(&["-p", "rule=renju"]), "46656");
    assert_eq!(count(&[]), "46872");
    let output = referee()
        .args(["perft", "gomoku", "1", "--opening", "7 7,7 7"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("opening move '7 7'"));
}
