//! `referee export`: real matches played by the binary, exported, and read back with small
//! parsers of SGF and PDN: every move, its time and the result must come back as recorded.

use crate::common::{brain, referee, Match, Outcome, RANDOM};
use serde_json::Value;
use std::collections::HashMap;

/// The moves of a record as exported: the opening's (no time), then the bots' (their time in
/// whole milliseconds).
fn expected_moves(record: &Value) -> Vec<(String, Option<u64>)> {
    let opening = record["opening"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| (mv.as_str().unwrap().to_string(), None));
    let played = record["moves"].as_array().unwrap().iter().map(|mv| {
        (
            mv["move"].as_str().unwrap().to_string(),
            Some(mv["us"].as_u64().unwrap() / 1000),
        )
    });
    opening.chain(played).collect()
}

/// An SGF game tree read back: the root's properties, and each move node's colour, point and
/// comment.
struct Sgf {
    root: HashMap<String, String>,
    moves: Vec<(char, String, String)>,
}

/// `referee export` of a match's records: each game's SGF text, in order.
fn exported_sgf(outcome: &Outcome) -> Vec<String> {
    let out = tempfile::tempdir().unwrap();
    let output = referee()
        .arg("export")
        .arg(&outcome.dir)
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    (1..=outcome.records.len())
        .map(|number| std::fs::read_to_string(out.path().join(format!("{number:04}.sgf"))).unwrap())
        .collect()
}

/// Reads one SGF game tree (no variations), honouring `\` escapes in values.
fn parse_sgf(text: &str) -> Sgf {
    let body = text
        .trim()
        .strip_prefix("(;")
        .unwrap()
        .strip_suffix(')')
        .unwrap();
    let mut nodes: Vec<Vec<(String, String)>> = vec![Vec::new()];
    let mut chars = body.chars().peekable();
    let mut ident = String::new();
    let mut after_value = false;
    while let Some(c) = chars.next() {
        match c {
            ';' => {
                nodes.push(Vec::new());
                ident.clear();
            }
            '[' => {
                let mut value = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => value.push(chars.next().unwrap()),
                        ']' => break,
                        c => value.push(c),
                    }
                }
                nodes.last_mut().unwrap().push((ident.clone(), value));
                after_value = true;
            }
            c if c.is_ascii_uppercase() => {
                if after_value {
                    ident.clear();
                    after_value = false;
                }
                ident.push(c);
            }
            _ => {}
        }
    }
    let root = nodes.remove(0).into_iter().collect();
    let moves = nodes
        .into_iter()
        .map(|node| {
            let props: HashMap<String, String> = node.into_iter().collect();
            let (colour, point) = if let Some(point) = props.get("B") {
                ('B', point.clone())
            } else {
                ('W', props["W"].clone())
            };
            (colour, point, props["C"].clone())
        })
        .collect();
    Sgf { root, moves }
}

#[test]
fn an_mnk_match_comes_back_from_sgf() {
    let outcome = Match::new("mnk")
        .a(RANDOM)
        .b(RANDOM)
        .param("width=9")
        .param("height=7")
        .param("line=4")
        .opening("4 3")
        .games(2)
        .run();
    for (record, text) in outcome.records.iter().zip(exported_sgf(&outcome)) {
        let sgf = parse_sgf(&text);
        assert_eq!(sgf.root["FF"], "4");
        assert_eq!(sgf.root["GM"], "4");
        assert_eq!(sgf.root["SZ"], "9:7");
        assert_eq!(sgf.root["PB"], "referee-random 0.1.0");
        let winner = record["result"]["winner"].as_str();
        let expected_result = match winner {
            Some("first") => "B+",
            Some("second") => "W+",
            _ => "0",
        };
        assert_eq!(sgf.root["RE"], expected_result, "{text}");
        let expected = expected_moves(record);
        assert_eq!(sgf.moves.len(), expected.len(), "{text}");
        for (ply, ((colour, point, comment), (notation, ms))) in
            sgf.moves.iter().zip(&expected).enumerate()
        {
            assert_eq!(*colour, if ply % 2 == 0 { 'B' } else { 'W' });
            let (x, y) = notation.split_once(' ').unwrap();
            let letter = |n: &str| char::from(b'a' + n.parse::<u8>().unwrap());
            assert_eq!(*point, format!("{}{}", letter(x), letter(y)));
            match ms {
                Some(ms) => assert_eq!(*comment, format!("{ms}ms")),
                None => assert_eq!(comment, "opening move"),
            }
        }
    }
}

/// After a swap opening SGF's Black is the player that took Black, `swap` places no stone (it is
/// told in the comment of the stone after it) and the result names the winner's colour.
#[test]
fn a_swap_opening_gives_black_to_the_player_that_took_it_in_sgf() {
    let outcome = Match::new("gomoku")
        .a(RANDOM)
        .b("builtin:greedy")
        .param("swap=swap1")
        .games(2)
        .run();
    for (record, text) in outcome.records.iter().zip(exported_sgf(&outcome)) {
        let sgf = parse_sgf(&text);
        let black = usize::from(record["players"][1]["colour"] == "black");
        let name = |index: usize| {
            let player = &record["players"][index];
            format!(
                "{} {}",
                player["name"].as_str().unwrap(),
                player["version"].as_str().unwrap()
            )
        };
        assert_eq!(sgf.root["PB"], name(black), "{text}");
        assert_eq!(sgf.root["PW"], name(1 - black), "{text}");
        let winner = record["result"]["winner"].as_str().unwrap();
        let winner_black = usize::from(winner == "second") == black;
        assert_eq!(
            sgf.root["RE"],
            if winner_black { "B+" } else { "W+" },
            "{text}"
        );
        let moves = record["moves"].as_array().unwrap();
        let stones: Vec<&str> = moves
            .iter()
            .map(|mv| mv["move"].as_str().unwrap())
            .filter(|mv| *mv != "swap")
            .collect();
        assert_eq!(sgf.moves.len(), stones.len(), "{text}");
        for (ply, (colour, ..)) in sgf.moves.iter().enumerate() {
            assert_eq!(*colour, if ply % 2 == 0 { 'B' } else { 'W' });
        }
        if moves[3]["move"] == "swap" {
            assert!(sgf.moves[3].2.starts_with("after swap: "), "{text}");
        }
    }
}

/// A Gomocup brain's MESSAGE lines (its evaluation, depth, best line) follow each of its
/// moves' time in the SGF comment, as c-gomoku-cli keeps an engine's output with its move.
#[test]
fn a_brains_messages_are_in_its_moves_sgf_comments() {
    let outcome = Match::new("gomoku")
        .a(brain("noise"))
        .b(RANDOM)
        .games(1)
        .run();
    let output = referee().arg("export").arg(&outcome.dir).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let sgf = parse_sgf(&String::from_utf8(output.stdout).unwrap());
    let record = &outcome.records[0];
    let moves = record["moves"].as_array().unwrap();
    assert_eq!(sgf.moves.len(), moves.len());
    for ((_, _, comment), mv) in sgf.moves.iter().zip(moves) {
        let ms = mv["us"].as_u64().unwrap() / 1000;
        let expected = if mv["side"] == "first" {
            format!("{ms}ms thinking hard")
        } else {
            format!("{ms}ms")
        };
        assert_eq!(*comment, expected);
    }
}

#[test]
fn a_checkers_match_comes_back_from_pdn() {
    let outcome = Match::new("checkers")
        .a(RANDOM)
        .b(RANDOM)
        .opening("9-13,21-17,5-9")
        .games(1)
        .run();
    let output = referee().arg("export").arg(&outcome.dir).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let record = outcome.record();
    let tags: HashMap<&str, &str> = text
        .lines()
        .filter_map(|line| {
            line.strip_prefix('[')?
                .strip_suffix("\"]")?
                .split_once(" \"")
        })
        .collect();
    assert_eq!(tags["Opening"], "9-13 21-17 5-9");
    assert_eq!(tags["GameType"], "21");
    assert_eq!(tags["Black"], "referee-random 0.1.0");
    let result = match record["result"]["winner"].as_str() {
        Some("first") => "1-0",
        Some("second") => "0-1",
        _ => "1/2-1/2",
    };
    assert_eq!(tags["Result"], result);
    // The move text: numbers, moves, {comments}, and the result at the end.
    let movetext: String = text
        .lines()
        .filter(|line| !line.starts_with('[') && !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let mut tokens: Vec<&str> = Vec::new();
    let mut rest = movetext.as_str();
    while let Some(start) = rest.find(['{', ' ']) {
        let (before, after) = rest.split_at(start);
        tokens.extend(before.split_whitespace());
        if after.starts_with('{') {
            let end = after.find('}').unwrap();
            tokens.push(&after[..=end]);
            rest = &after[end + 1..];
        } else {
            rest = &after[1..];
        }
    }
    tokens.extend(rest.split_whitespace());
    assert_eq!(tokens.last(), Some(&result), "{text}");
    let pairs: Vec<(&str, &str)> = tokens
        .iter()
        .zip(tokens.iter().skip(1))
        .filter(|(mv, comment)| !mv.ends_with('.') && comment.starts_with('{'))
        .map(|(mv, comment)| (*mv, *comment))
        .collect();
    let expected = expected_moves(record);
    assert_eq!(pairs.len(), expected.len(), "{text}");
    for ((mv, comment), (notation, ms)) in pairs.iter().zip(&expected) {
        assert_eq!(mv, notation);
        let offered = if comment.contains("offers") {
            ", offers a draw"
        } else {
            ""
        };
        match ms {
            Some(ms) => assert_eq!(*comment, format!("{{{ms}ms{offered}}}")),
            None => assert_eq!(*comment, "{ballot}"),
        }
    }
}

#[test]
fn a_game_without_a_format_is_refused_with_the_formats_named() {
    let outcome = Match::new("uttt").games(1).run();
    let output = referee().arg("export").arg(&outcome.dir).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("game 1 is uttt: only checkers (PDN) and tic-tac-toe, gomoku and mnk (SGF) can be exported"),
        "{stderr}"
    );
}

/// `referee export DIR | head -1`: once the reader of its output is gone, the export stops
/// without a word and succeeds, as `cat` does; it used to end with
/// `referee: Broken pipe (os error 32)` and status 2.
#[test]
fn a_reader_that_goes_away_ends_the_export_quietly() {
    let outcome = Match::new("tictactoe").games(2).run();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = referee()
        .arg("export")
        .arg(&outcome.dir)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "{:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A mistyped path is said not to exist: it was said to hold no game record, as an empty
/// folder is.
#[test]
fn a_path_that_does_not_exist_is_said_not_to() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["export", "no/such.json"][..],
        &["export", "gone", "--files", "out"],
    ] {
        let output = referee()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let expected = format!("referee: {} does not exist\n", args[1]);
        assert_eq!(String::from_utf8_lossy(&output.stderr), expected);
    }
}

/// A record whose move the rules refuse (edited by hand) is refused, naming the move: its
/// move off the board was written as SGF letters past 'z' ('99 99'), or the export panicked
/// ('200 200': "attempt to add with overflow").
#[test]
fn a_record_with_a_move_the_rules_refuse_is_refused() {
    let outcome = Match::new("gomoku").games(1).run();
    let path = outcome.dir.join("0001.json");
    let mut record = outcome.record().clone();
    record["moves"][1]["move"] = "200 200".into();
    std::fs::write(&path, record.to_string()).unwrap();
    let output = referee().arg("export").arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "referee: game 1: its move 2, '200 200', cannot be played: illegal move: 200 200 is \
         off the 15x15 board (x from 0 to 14, y from 0 to 14)\n"
    );
}
