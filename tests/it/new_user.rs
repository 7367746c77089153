//! The README's path for a new bot author, run as it is written there: the bot of "Your first
//! bot" is checked, plays a match and a gauntlet; the configuration example of
//! docs/tournaments.md loads, its openings deck included.

use crate::common::{referee, repo_file};
use std::path::Path;
use std::process::Output;

/// The fenced block of the README that starts with `first_line`, without its fences.
fn readme_block(first_line: &str) -> String {
    doc_block("README.md", first_line)
}

/// The fenced block of the repository's Markdown file `path` that starts with `first_line`,
/// without its fences.
fn doc_block(path: &str, first_line: &str) -> String {
    let text = std::fs::read_to_string(repo_file(path)).unwrap();
    let start = text
        .find(&format!("\n{first_line}\n"))
        .unwrap_or_else(|| panic!("no block starting {first_line:?} in {path}"))
        + 1;
    let end = start + text[start..].find("\n```").unwrap();
    text[start..=end].to_string()
}

/// Runs the referee in `dir` and returns its output, asserting that it exited with `code`.
fn referee_in(dir: &Path, args: &[&str], code: i32) -> Output {
    let output = referee().current_dir(dir).args(args).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(code),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn the_readme_walkthrough_works_as_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("firstbot.py"),
        readme_block("# firstbot.py: plays the free square nearest the centre."),
    )
    .unwrap();
    let bot = "python3 firstbot.py";

    let check = referee_in(dir.path(), &["check", "tictactoe", bot], 0);
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert!(stdout.contains("\ncompliant: 0 problems"), "{stdout}");

    let matched = referee_in(
        dir.path(),
        &["match", "tictactoe", bot, "builtin:random", "--games", "4"],
        0,
    );
    let stdout = String::from_utf8_lossy(&matched.stdout);
    assert!(
        stdout.contains("\nscore: A ") && stdout.contains("\npairs: ["),
        "{stdout}"
    );

    std::fs::write(
        dir.path().join("gauntlet.toml"),
        readme_block("game = \"tictactoe\"\nformat = \"gauntlet\""),
    )
    .unwrap();
    let gauntlet = referee_in(dir.path(), &["tournament", "gauntlet.toml", "-j", "1"], 0);
    let stdout = String::from_utf8_lossy(&gauntlet.stdout);
    assert!(
        stdout.contains("firstbot against each opponent, ranked by its score"),
        "{stdout}"
    );
    assert!(dir.path().join("results/gauntlet/journal.jsonl").is_file());
}

#[test]
fn the_book_configuration_example_loads_with_its_openings() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("league.toml");
    std::fs::write(
        &config,
        doc_block(
            "docs/tournaments.md",
            "name = \"league\"                  # default: the file's name without .toml",
        ),
    )
    .unwrap();
    // Relative paths are taken from the directory the referee runs in: cargo runs the tests
    // in the repository's root.
    let tournament = referee_core::tournament::config::Tournament::load(&config).unwrap();
    assert!(
        tournament
            .openings
            .description()
            .starts_with("openings/gomoku.txt ("),
        "{}",
        tournament.openings.description()
    );
}

/// A negative number given to an option or an argument is said to be an invalid value, not
/// answered with the parser's advice to write `-- -5`, which no command of the referee takes.
#[test]
fn a_negative_number_is_an_invalid_value() {
    let dir = tempfile::tempdir().unwrap();
    for (args, said) in [
        (
            &[
                "match",
                "tictactoe",
                "builtin:random",
                "builtin:random",
                "--margin-ms",
                "-5",
            ][..],
            "invalid value '-5' for '--margin-ms <MARGIN_MS>'",
        ),
        (
            &["perft", "tictactoe", "-3"][..],
            "invalid value '-3' for '<DEPTH>'",
        ),
    ] {
        let output = referee_in(dir.path(), args, 2);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("-- -"), "{args:?}: {stderr}");
    }
}

/// A built-in bot asked for a move in a game that is already over says why and exits 2,
/// instead of panicking (exit 101).
#[test]
fn a_built_in_bot_asked_to_move_in_a_finished_game_says_why() {
    let finished = "referee 1\ngame tictactoe\nside first\ntime move=1000\nplayed 0 0\n\
                    played 0 1\nplayed 1 0\nplayed 1 1\nplayed 2 0\nstart\nturn 1000\nquit\n";
    for level in ["random", "greedy", "strong"] {
        let mut child = referee()
            .args(["bot", level])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(finished.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_ne!(output.status.code(), Some(101), "{level}: {stderr}");
        assert!(
            stderr.contains("the game is already over: there is no move to make"),
            "{level}: {stderr}"
        );
    }
}

/// A side of `referee play` that is neither a person nor a program that can start is refused
/// before the game is announced, with what a side may be.
#[test]
fn a_side_that_is_no_program_is_refused_with_what_a_side_may_be() {
    let dir = tempfile::tempdir().unwrap();
    let output = referee_in(dir.path(), &["play", "tictactoe", "--first", "robot"], 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no program 'robot' in the PATH"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a side is `human`, `builtin:LEVEL` (random, greedy or strong)"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        !stdout.contains("Game:"),
        "announced before refusing: {stdout}"
    );
}

/// A match, a tournament and a check that keep records say, when they end, how to watch them.
#[test]
fn runs_that_keep_records_say_how_to_watch_them() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games");
    let output = referee_in(
        dir.path(),
        &[
            "match",
            "tictactoe",
            "builtin:random",
            "builtin:greedy",
            "--record",
            "games",
        ],
        0,
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("referee serve games"), "{stdout}");
    assert!(records.is_dir());
    std::fs::write(
        dir.path().join("t.toml"),
        "game = \"tictactoe\"\n[[players]]\nname = \"a\"\nbuiltin = \"random\"\n[[players]]\nname = \"b\"\nbuiltin = \"greedy\"\n",
    )
    .unwrap();
    let output = referee_in(dir.path(), &["tournament", "t.toml", "--out", "cup"], 0);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("referee serve cup"), "{stdout}");
}

/// A record directory that cannot be made is refused before any game is played (it was
/// refused only after the first), by match, play and check alike.
#[test]
fn a_record_directory_that_cannot_be_made_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("afile"), "").unwrap();
    for args in [
        &[
            "match",
            "tictactoe",
            "builtin:random",
            "builtin:random",
            "--record",
            "afile/sub",
        ][..],
        &[
            "check",
            "tictactoe",
            "builtin:random",
            "--record",
            "afile/sub",
        ][..],
    ] {
        let output = referee_in(dir.path(), args, 2);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            !stdout.contains("game 1"),
            "{args:?}: played first: {stdout}"
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("cannot make the record directory afile/sub"),
            "{args:?}: {stderr}"
        );
    }
}

/// A tournament asked to play billions of games at once plays as many as it has: it made a
/// worker for each and aborted, out of memory, before the first game.
#[test]
fn more_games_at_once_than_games_plays_them_all_at_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.toml"),
        "game = \"tictactoe\"\nconcurrency = 4000000000\n[[players]]\nname = \"a\"\nbuiltin = \"random\"\n[[players]]\nname = \"b\"\nbuiltin = \"greedy\"\n",
    )
    .unwrap();
    for args in [
        &["tournament", "t.toml", "--out", "cup"][..],
        &["tournament", "t.toml", "--out", "cup2", "-j", "4000000000"],
    ] {
        let output = referee_in(dir.path(), args, 0);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("2 games, 2 at a time"), "{stdout}");
    }
}

/// A value of the wrong type where a file wants a table is told what table: the parser named
/// the referee's own Rust types ('expected struct RawPlayer').
#[test]
fn a_value_where_a_table_belongs_is_told_what_table() {
    let dir = tempfile::tempdir().unwrap();
    let start = "name = \"x\"\ngame = \"tictactoe\"\n";
    for (command, text, expected) in [
        (
            "tournament",
            "players = [\"a\", \"b\"]",
            "expected a player's table, [[players]]",
        ),
        (
            "tournament",
            "openings = \"deck.txt\"\n[[players]]\nname = \"a\"\nbuiltin = \"random\"",
            "expected a table, { file = \"openings.txt\" } or { plies = N }",
        ),
        (
            "contest",
            "sources = \"s\"\nlanguages = { python = \"pypy3\" }",
            "expected a language's table, [languages.NAME]",
        ),
    ] {
        std::fs::write(dir.path().join("f.toml"), format!("{start}{text}\n")).unwrap();
        let output = referee_in(dir.path(), &[command, "f.toml"], 2);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(expected) && !stderr.contains("struct"),
            "{stderr}"
        );
    }
    let arena = dir.path().join("arena");
    std::fs::create_dir(&arena).unwrap();
    std::fs::write(arena.join("arena.toml"), "ladders = [\"a\"]\n").unwrap();
    let output = referee_in(dir.path(), &["arena", "serve", "arena", "--port", "0"], 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("expected a ladder's table, [[ladders]]"),
        "{stderr}"
    );
}

/// A second match into a record directory is refused before it plays, the first match's
/// records kept: it wrote its games over them (over some of them when it had fewer games,
/// leaving two matches mixed as one).
#[test]
fn a_match_into_a_record_directory_of_an_earlier_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "match",
        "tictactoe",
        "builtin:random",
        "builtin:greedy",
        "--record",
        "games",
    ];
    referee_in(dir.path(), &args, 0);
    let first = std::fs::read(dir.path().join("games/0001.json")).unwrap();
    let output = referee_in(dir.path(), &args, 2);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "referee: the record directory games holds an earlier run's records: record into a \
         new one, or empty it\n"
    );
    assert!(output.stdout.is_empty());
    assert_eq!(
        std::fs::read(dir.path().join("games/0001.json")).unwrap(),
        first
    );
}

/// A tournament file and an output folder whose names are not UTF-8 are used as they are: the
/// referee panicked ('called `Result::unwrap()` on an `Err` value') as it wrote who holds the
/// journal.
#[test]
fn a_tournament_file_named_in_bytes_that_are_not_utf8_is_played() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"cup\xff.toml");
    std::fs::write(
        dir.path().join(name),
        "name = \"cup\"\ngame = \"tictactoe\"\n[[players]]\nname = \"a\"\nbuiltin = \"random\"\n[[players]]\nname = \"b\"\nbuiltin = \"greedy\"\n",
    )
    .unwrap();
    let out = std::ffi::OsStr::from_bytes(b"out\xff");
    let output = referee()
        .current_dir(dir.path())
        .arg("tournament")
        .arg(name)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(dir.path().join(out).join("journal.jsonl").is_file());
}

/// `referee serve` given a file says to serve its directory, and given a directory that does
/// not exist says so before serving: it served an empty index without a word either way.
#[test]
fn serve_says_what_it_cannot_show() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("games")).unwrap();
    std::fs::write(dir.path().join("games/0001.json"), "{}").unwrap();
    assert_eq!(
        first_error_line(dir.path(), &["serve", "games/0001.json", "--port", "0"]),
        "referee: games/0001.json is not a directory: serve the directory holding it \
         (referee serve games)"
    );
    assert_eq!(
        first_error_line(dir.path(), &["serve", "/dev/null", "--port", "0"]),
        "referee: /dev/null is not a directory: serve the directory holding it (referee serve /dev)"
    );
    assert_eq!(
        first_error_line(dir.path(), &["serve", "gmaes", "--port", "0"]),
        "referee: note: gmaes does not exist (yet): its games appear once it is made"
    );
}

/// The first line the referee writes on stderr within 10 s (none: empty), then it is stopped.
fn first_error_line(dir: &Path, args: &[&str]) -> String {
    use std::io::{BufRead, BufReader};
    let mut child = referee()
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let line = BufReader::new(stderr).lines().next();
        let _ = sender.send(line.and_then(Result::ok).unwrap_or_default());
    });
    let line = lines
        .recv_timeout(std::time::Duration::from_secs(10))
        .unwrap_or_default();
    let _ = child.kill();
    child.wait().unwrap();
    line
}

/// A report from a folder that does not exist, or from a file, says so: it said only that no
/// game records were found there, as for an empty folder.
#[test]
fn a_report_from_a_folder_that_does_not_exist_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    std::fs::write(dir.path().join("afile"), "").unwrap();
    let args = [
        "report", "site", "--from", "reslts", "--from", "empty", "--from", "afile",
    ];
    let output = referee_in(dir.path(), &args, 2);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "referee: no game records found in reslts (which does not exist), empty, afile (which \
         is not a directory)\n"
    );
}

/// A report into a folder that cannot be made names that folder: it named the page in it.
#[test]
fn a_report_into_a_file_names_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["match", "tictactoe", "builtin:random", "builtin:greedy"];
    referee_in(dir.path(), &[&args[..], &["--record", "games"]].concat(), 0);
    std::fs::write(dir.path().join("site"), "").unwrap();
    let output = referee_in(dir.path(), &["report", "site", "--from", "games"], 2);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "referee: cannot write site: File exists (os error 17)\n"
    );
}

/// A contest asked to build billions of players at once says it builds as many as it has.
#[test]
fn a_contest_builds_no_more_at_once_than_it_has_players() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        "name = \"c\"\ngame = \"tictactoe\"\nsandbox = false\n[[players]]\nname = \"a\"\nbuiltin = \"random\"\n[[players]]\nname = \"b\"\nbuiltin = \"greedy\"\n",
    )
    .unwrap();
    let output = referee_in(dir.path(), &["contest", "c.toml", "-j", "4000000000"], 0);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("2 players; building and checking 2 at a time"),
        "{stdout}"
    );
}

/// A bad time control or limit says which option gave it: '--time-b x' said only "bad time
/// control 'x'", leaving the user to find which of --time, --time-a and --time-b it was.
#[test]
fn a_bad_time_control_or_limit_names_its_option() {
    let dir = tempfile::tempdir().unwrap();
    for (option, value) in [
        ("--time", "move=0"),
        ("--time-b", "x"),
        ("--limits-a", "cpu=0"),
    ] {
        let match_args = ["match", "tictactoe", "builtin:random", "builtin:random"];
        let output = referee_in(dir.path(), &[&match_args[..], &[option, value]].concat(), 2);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with(&format!("referee: {option}: bad ")),
            "{stderr}"
        );
    }
}

/// A file that is no record, found by report, is noted as a report's: the note began
/// 'referee: serve:' in a report.
#[test]
fn a_report_notes_a_file_that_is_no_record_as_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["match", "tictactoe", "builtin:random", "builtin:greedy"];
    referee_in(dir.path(), &[&args[..], &["--record", "games"]].concat(), 0);
    std::fs::write(dir.path().join("games/0003.json"), "garbage").unwrap();
    let output = referee_in(dir.path(), &["report", "site", "--from", "games"], 0);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "referee: note: games/0003.json is not a game record: expected value at line 1 column \
         1; left out\n"
    );
}

/// A contest's output folder that cannot be made is named: a file in its way was said as
/// 'cannot use the journal out/journal.jsonl: Not a directory'.
#[test]
fn a_contest_output_folder_that_cannot_be_made_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        "name = \"c\"\ngame = \"tictactoe\"\nsandbox = false\n[[players]]\nname = \"a\"\nbuiltin = \"random\"\n[[players]]\nname = \"b\"\nbuiltin = \"greedy\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("out"), "").unwrap();
    let output = referee_in(dir.path(), &["contest", "c.toml", "--out", "out"], 2);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "referee: cannot write out: File exists (os error 17)\n"
    );
}

/// An empty --allow-host is refused: it was taken, and the address printed was
/// 'http://:PORT/?token=...'.
#[test]
fn an_empty_allowed_host_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "serve",
        ".",
        "--bind",
        "0.0.0.0",
        "--port",
        "0",
        "--allow-host",
        "",
    ];
    assert_eq!(
        first_error_line(dir.path(), &args),
        "error: invalid value '' for '--allow-host <NAME>': '' is not a host name: give NAME or \
         NAME:PORT, e.g. myhost.lan or 192.168.1.5"
    );
}
