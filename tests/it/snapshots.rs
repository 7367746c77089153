//! Snapshots (insta) of what people and programs read: a game record, the standings as
//! printed, and the messages of the library's errors. A change shows up as a diff to review;
//! accept it deliberately (`cargo insta review`, or `INSTA_UPDATE=always` once) and commit the
//! .snap file with it. Times and dates are blanked before a snapshot: they vary from run to run.

use crate::common::{Match, RANDOM};
use referee_cage::limits::Limits;
use referee_core::players::PlayerSpec;
use referee_core::standings::render::{crosstable, standings_table};
use referee_core::standings::{ScoredGame, Tally};
use referee_rules::clock::TimeControl;
use referee_rules::games::{GameSpec, Side};
use serde_json::Value;
use std::fmt::Write;

/// Sets `value[key]` to `blank`, after checking it was there.
fn blank(value: &mut Value, key: &str, blank: Value) {
    assert!(value.get(key).is_some(), "no {key} in {value:#}");
    value[key] = blank;
}

#[test]
fn a_game_record() {
    // Two seeded random bots from an opening: the same game every time.
    let outcome = Match::new("tictactoe")
        .a(RANDOM)
        .b(RANDOM)
        .games(1)
        .opening("1 1")
        .args(&["--seed", "5"])
        .run();
    let mut record = outcome.record().clone();
    // What varies from run to run or release to release, checked here, then blanked.
    for key in ["started", "ended"] {
        let date = record[key].as_str().unwrap();
        assert!(date.len() == 24 && date.ends_with('Z'), "{key}: {date}");
        blank(&mut record, key, "[date]".into());
    }
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(record["referee"], version);
    blank(&mut record, "referee", "[version]".into());
    for player in record["players"].as_array_mut().unwrap() {
        assert_eq!(player["version"], version);
        blank(player, "version", "[version]".into());
        assert!(player["cpu_us"].is_u64(), "cpu_us: {player}");
        blank(player, "cpu_us", 0.into());
    }
    let mut last = 0;
    for mv in record["moves"].as_array_mut().unwrap() {
        let at = mv["at_us"].as_u64().unwrap();
        assert!(at >= last, "moves in order: {mv}");
        last = at;
        for key in ["us", "at_us"] {
            assert!(mv[key].is_u64(), "{key}: {mv}");
            blank(mv, key, 0.into());
        }
    }
    insta::assert_json_snapshot!(record);
}

/// Twelve games of a small field: each pair of A, B, C and D plays twice, the colours swapped,
/// with draws, a loss by forfeit of each kind (timeout, illegal move, crash), and B, C and D
/// level on points, to be told apart by the tie-breaks.
fn fixed_games() -> Vec<(&'static str, &'static str, Option<Side>, &'static str)> {
    use Side::{First, Second};
    vec![
        ("A", "B", Some(First), "line"),
        ("B", "A", None, "agreement"),
        ("A", "C", Some(First), "timeout"),
        ("C", "A", Some(Second), "line"),
        ("A", "D", Some(Second), "illegal-move"),
        ("D", "A", Some(Second), "exited"),
        ("B", "C", Some(First), "line"),
        ("C", "B", Some(First), "not-a-move"),
        ("B", "D", Some(Second), "line"),
        ("D", "B", Some(Second), "resign"),
        ("C", "D", None, "repetition"),
        ("D", "C", Some(Second), "memory-limit"),
    ]
}

#[test]
fn the_standings_as_printed() {
    let mut tally = Tally::new();
    for (first, second, winner, reason) in fixed_games() {
        tally.add(ScoredGame {
            first,
            second,
            winner,
            reason: reason.parse().expect("a reason code"),
        });
    }
    // A player entered without a game still has a row.
    tally.enter("E");
    let standings = tally.standings();
    // The ratings table is left out: its Elo values come out of floating-point iterations
    // whose last digits (and so the order of B, C and D, level here) may differ by platform.
    let shown = format!(
        "{}\n\n{}",
        standings_table(&standings),
        crosstable(&standings).expect("a small field has a crosstable")
    );
    insta::assert_snapshot!(shown);
}

#[test]
fn error_messages() {
    let mut shown = String::new();
    let mut show = |what: &str, error: String| writeln!(shown, "{what}\n    {error}").unwrap();
    for spec in [
        "move=x",
        "move=-5",
        "bank",
        "speed=3",
        "move=99999999999999999999",
        "bank=0,increment=100",
        "strikes=999999999,hard=50",
    ] {
        let error = TimeControl::parse_over(TimeControl::default(), spec).unwrap_err();
        show(&format!("time {spec:?}"), error.to_string());
    }
    for (game, words) in [
        ("chess", vec![]),
        ("mnk", vec!["size=30"]),
        ("mnk", vec!["line=9", "width=5", "height=5"]),
        ("tictactoe", vec!["exact=maybe"]),
        ("gomoku", vec!["colour=red"]),
        ("dots", vec!["rows"]),
        ("checkers", vec!["fen=B:W33:B1"]),
    ] {
        let error = GameSpec::from_words(game, &words).unwrap_err();
        show(&format!("game {game} {words:?}"), error.to_string());
    }
    for spec in [
        "memory=lots",
        "cpu=0",
        "memory=99999999999999999",
        "threads=4",
        "memory=1",
        "files=3",
    ] {
        let error = Limits::parse_over(Limits::default(), spec).unwrap_err();
        show(&format!("limits {spec:?}"), error.to_string());
    }
    for spec in ["builtin:nobody", ""] {
        let error = PlayerSpec::parse(spec).unwrap_err();
        show(&format!("player {spec:?}"), error.to_string());
    }
    insta::assert_snapshot!(shown);
}
