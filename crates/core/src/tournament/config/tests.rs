//! Tests of reading tournament configurations.

use super::*;
use std::time::Duration;

const MINIMAL: &str = r#"
game = "tictactoe"
[[players]]
name = "a"
builtin = "random"
[[players]]
name = "b"
command = "python3 bot.py"
time = "move=200"
"#;

fn error(text: &str) -> String {
    match Tournament::parse(text, "t") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(Problem::Syntax(m) | Problem::Invalid(m)) => m,
    }
}

#[test]
fn a_minimal_config_gets_the_defaults() {
    let t = Tournament::parse(MINIMAL, "league").unwrap();
    assert_eq!(t.name, "league");
    assert_eq!(t.output, Path::new("results/league"));
    assert_eq!(t.games_per_pairing, 2);
    assert_eq!(t.schedule.total_games(), 2);
    assert_eq!(t.format, Format::RoundRobin);
    assert_eq!(t.openings, Openings::None);
    assert_eq!(t.players[0].time.move_ms, 1000);
    assert_eq!(t.players[1].time.move_ms, 200);
    assert_eq!(t.players[1].spec.to_string(), "python3 bot.py");
    assert!(t.table.reuse_processes && t.table.replay_stalled);
    assert_eq!(t.records, Some(RecordLayout::Pack));
    assert_eq!(t.table.seed, 1);
}

#[test]
fn everything_can_be_set() {
    let text = r#"
name = "cup"
game = "mnk"
params = { size = 7, line = 4, exact = true }
format = "gauntlet"
gauntlet = ["c"]
games = 4
time = "move=100,first=500"
limits = "memory=512"
margin_ms = 20
startup_ms = 3000
legal_moves = true
max_line = 100
concurrency = 3
output = "out/cup"
seed = 9
reuse_processes = false
records = false
score_stalled = true
openings = { plies = 2 }
[[players]]
name = "a"
builtin = "random"
limits = "memory=none"
[[players]]
name = "b"
builtin = "random"
[[players]]
name = "c"
builtin = "random"
"#;
    let t = Tournament::parse(text, "x").unwrap();
    assert_eq!(t.name, "cup");
    assert_eq!(
        t.table.rules.spec.to_string(),
        "mnk width=7 height=7 line=4 exact=yes"
    );
    assert_eq!(
        t.format,
        Format::Gauntlet {
            challengers: vec![2]
        }
    );
    assert_eq!(t.schedule.total_games(), 8);
    assert_eq!(t.players[0].time.first_move_ms, 500);
    assert_eq!(t.players[0].limits.memory_mb, None);
    assert_eq!(t.players[1].limits.memory_mb, Some(512));
    assert_eq!(t.table.rules.margin, Duration::from_millis(20));
    assert!(t.table.rules.send_legal_moves);
    assert_eq!(t.table.process.max_line, 100);
    assert_eq!(t.concurrency, Some(3));
    assert_eq!(t.output, Path::new("out/cup"));
    assert!(!t.table.reuse_processes && t.records.is_none() && !t.table.replay_stalled);
    assert_eq!(t.openings, Openings::Random { plies: 2, seed: 9 });
}

#[test]
fn records_are_one_file_per_game_or_none() {
    let records = |value: &str| {
        Tournament::parse(&format!("records = {value}\n{MINIMAL}"), "league").map(|t| t.records)
    };
    assert_eq!(records("true").unwrap(), Some(RecordLayout::Pack));
    assert_eq!(records("\"files\"").unwrap(), Some(RecordLayout::Files));
    assert_eq!(records("false").unwrap(), None);
    let message = error(&format!("records = \"pack\"\n{MINIMAL}"));
    assert!(
        message.contains("invalid value: string \"pack\", expected true (one records file, games.jsonl), \"files\""),
        "{message}"
    );
}

#[test]
fn unknown_keys_are_named() {
    let message = error(&format!("gams = 4\n{MINIMAL}"));
    assert!(message.contains("unknown field `gams`"), "{message}");
    let message = error(&MINIMAL.replace("time = \"move=200\"", "tme = \"move=200\""));
    assert!(message.contains("unknown field `tme`"), "{message}");
    let message = error(&format!("openings = {{ plies = 2, depth = 3 }}\n{MINIMAL}"));
    assert!(message.contains("unknown field `depth`"), "{message}");
    let message = error(&format!("format = \"ladder\"\n{MINIMAL}"));
    assert!(message.contains("unknown variant `ladder`"), "{message}");
}

#[test]
fn unknown_keys_are_refused_at_their_line_with_the_keys_known() {
    let message = error(&format!("{MINIMAL}\n[extra]\n").replacen(
        "game = ",
        "margin_ms = 10\nmargn_ms = 20\ngame = ",
        1,
    ));
    assert!(
        message.starts_with("TOML parse error at line 3, column 1"),
        "{message}"
    );
    assert!(message.contains("3 | margn_ms = 20"), "{message}");
    assert!(message.contains("unknown field `margn_ms`, expected one of `name`, `game`"));
    for key in ["players", "records", "time", "margin_ms", "score_stalled"] {
        assert!(message.contains(&format!("`{key}`")), "{key}: {message}");
    }
    let message = error(&format!("{MINIMAL}\n[extra]\n"));
    assert!(message.contains("unknown field `extra`"), "{message}");
}

#[test]
fn a_bad_setting_is_reported_at_its_line() {
    let message = error(&MINIMAL.replacen("game = ", "seed = 3\nmargin_ms = \"ten\"\ngame = ", 1));
    assert!(
        message.starts_with("TOML parse error at line 3, column 13"),
        "{message}"
    );
    assert!(message.contains("invalid type: string \"ten\", expected u64"));
}

#[test]
fn bad_values_are_named() {
    let cases = [
        (
            format!("games = 3\n{MINIMAL}"),
            "games = 3: games per pairing must be even",
        ),
        (
            format!("params = {{ size = 2 }}\n{MINIMAL}"),
            "parameter 'size' of game 'tictactoe'",
        ),
        (
            MINIMAL.replace("tictactoe", "chess"),
            "unknown game 'chess'",
        ),
        (
            format!("time = \"move=abc\"\n{MINIMAL}"),
            "time: bad time control",
        ),
        (
            MINIMAL.replace("move=200", "mve=200"),
            "players[1] (b).time: bad time control",
        ),
        (
            MINIMAL.replace("name = \"b\"", "name = \"a\""),
            "the name 'a' is taken",
        ),
        (
            MINIMAL.replace("name = \"b\"", "name = \"b c\""),
            "'b c' is not a usable name",
        ),
        (
            MINIMAL.replace("builtin = \"random\"", "builtin = \"deep\""),
            "unknown built-in bot 'deep'",
        ),
        (
            MINIMAL.replace(
                "builtin = \"random\"",
                "builtin = \"random\"\ncommand = \"x\"",
            ),
            "not both or neither",
        ),
        (
            format!("format = \"gauntlet\"\n{MINIMAL}"),
            "gauntlet: name the players",
        ),
        (
            format!("format = \"gauntlet\"\ngauntlet = [\"zed\"]\n{MINIMAL}"),
            "no player is named 'zed'",
        ),
        (
            format!("format = \"gauntlet\"\ngauntlet = [\"a\", \"b\"]\n{MINIMAL}"),
            "no field",
        ),
        (
            format!("gauntlet = [\"a\"]\n{MINIMAL}"),
            "only for format = \"gauntlet\"",
        ),
        (
            format!("openings = {{ plies = 2, file = \"x\" }}\n{MINIMAL}"),
            "openings: give either",
        ),
        (
            format!("openings = {{ plies = 9 }}\n{MINIMAL}"),
            "use fewer plies",
        ),
        (
            format!("openings = {{ file = \"/no/such\" }}\n{MINIMAL}"),
            "cannot read the openings file",
        ),
        (
            format!("params = {{ size = 1.5 }}\n{MINIMAL}"),
            "params.size: expected a number",
        ),
        (
            format!("concurrency = 0\n{MINIMAL}"),
            "concurrency: at least 1",
        ),
        (
            format!("openings = {{ file = \"\" }}\n{MINIMAL}"),
            "openings: file = \"\": name the openings file",
        ),
        (
            format!("output = \"\"\n{MINIMAL}"),
            "output: empty: name the folder for the results",
        ),
        (
            "game = \"tictactoe\"\n[[players]]\nname = \"a\"\nbuiltin = \"random\"\n".to_string(),
            "at least 2 players",
        ),
    ];
    for (text, expected) in cases {
        let message = error(&text);
        assert!(
            message.contains(expected),
            "expected '{expected}' in: {message}"
        );
    }
}

#[test]
fn players_may_speak_other_protocols_where_the_game_allows() {
    let gomoku = MINIMAL.replace("tictactoe", "gomoku").replace(
        "command = \"python3 bot.py\"",
        "command = \"./pbrain\"\nprotocol = \"gomocup\"",
    );
    let t = Tournament::parse(&gomoku, "t").unwrap();
    assert_eq!(t.players[1].spec.to_string(), "gomocup:./pbrain");
    let message = error(&gomoku.replace("gomoku", "uttt"));
    assert!(message.contains("players (b)"), "{message}");
    assert!(message.contains("gomocup"), "{message}");
    let message = error(&MINIMAL.replace(
        "builtin = \"random\"",
        "builtin = \"random\"\nprotocol = \"riddles\"",
    ));
    assert!(message.contains("native protocol only"), "{message}");
    let message = error(&MINIMAL.replace("time = ", "protocol = \"morse\"\ntime = "));
    assert!(
        message.contains("unknown protocol 'morse' (protocols: native, gomocup"),
        "{message}"
    );
}

#[test]
fn a_missing_key_is_named() {
    let message = error("[[players]]\nname = \"a\"\nbuiltin = \"random\"\n");
    assert!(message.contains("missing field `game`"), "{message}");
}

/// A file that gives no name is named after itself, which may be no usable name: the user is
/// told where the name came from and how to give one.
#[test]
fn a_file_name_that_is_no_usable_name_says_to_write_one() {
    let Err(Problem::Invalid(message)) = Tournament::parse(MINIMAL, "my cup") else {
        panic!("accepted");
    };
    assert!(
        message.starts_with(
            "name (the file's own, as it gives none: write name = \"...\"): 'my cup' is not a \
             usable name"
        ),
        "{message}"
    );
}

/// The decks shipped in openings/: each loads for its game, and every opening in it is legal,
/// leaves the game going with moves to make, and appears once.
#[test]
fn the_shipped_opening_decks_are_legal_and_leave_the_game_going() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    for (game, file, at_least) in [
        ("gomoku", "openings/gomoku.txt", 20),
        ("gomoku", "openings/gomoku-rapfi.txt", 20),
        ("uttt", "openings/uttt.txt", 20),
        ("checkers", "openings/checkers-3move.txt", 150),
    ] {
        let spec = GameSpec::from_words::<&str>(game, &[]).unwrap();
        let deck = Openings::from_file(&root.join(file), &spec, DeckOrder::File, 1)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let Openings::Deck { openings, .. } = deck else {
            panic!("{file}: not a deck")
        };
        assert!(openings.len() >= at_least, "{file}: {}", openings.len());
        let mut seen = HashSet::new();
        for opening in &openings {
            let (position, _) = crate::arbiter::play_opening(&spec, opening).unwrap();
            assert!(position.outcome().is_none(), "{file}: {opening:?}");
            assert!(
                !position.legal_moves_text().is_empty(),
                "{file}: {opening:?}"
            );
            assert!(seen.insert(opening.clone()), "{file}: {opening:?} twice");
        }
    }
}
