//! Drives the real `referee tournament` and `referee standings` with scripted bots
//! (tests/bots/scripted.py) and the built-in random bot: configuration errors, the schedule's
//! games and colours, openings, a run killed with SIGKILL and resumed, shards merged, and
//! `referee match --sprt`.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{marker, referee, script, scripted, succeeded, survivors, Match};

/// A `[[players]]` table for a scripted bot.
fn scripted_entry(name: &str, mode: &str, marker: &str) -> String {
    format!(
        "[[players]]\nname = \"{name}\"\ncommand = \"python3 {} {mode} {marker}\"\n",
        script().display()
    )
}

fn builtin(name: &str) -> String {
    format!("[[players]]\nname = \"{name}\"\nbuiltin = \"random\"\n")
}

fn write_config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("tournament.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    referee().args(args).stdin(Stdio::null()).output().unwrap()
}

fn run_ok(args: &[&str]) -> String {
    succeeded(&run(args))
}

fn tournament(config: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_ok(&args)
}

/// The journal's games, by index.
fn journal(path: &Path) -> BTreeMap<u64, Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["journal"], 1);
    let mut games = BTreeMap::new();
    for line in lines {
        let entry: Value = serde_json::from_str(line).unwrap();
        let index = entry["index"].as_u64().unwrap();
        assert!(games.insert(index, entry).is_none(), "game {index} twice");
    }
    games
}

/// The games of a tournament's records file as files of their own (`referee export --files`),
/// in `OUT/unpacked`.
fn unpack(out: &Path) -> PathBuf {
    let dir = out.join("unpacked");
    run_ok(&[
        "export",
        out.to_str().unwrap(),
        "--files",
        dir.to_str().unwrap(),
    ]);
    dir
}

fn players(entry: &Value) -> [String; 2] {
    [0, 1].map(|i| entry["players"][i].as_str().unwrap().to_string())
}

#[test]
fn configuration_errors_name_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("gams = 4\ngame = \"tictactoe\"\n", "unknown field `gams`"),
        (
            &*format!(
                "game = \"tictactoe\"\ngames = 3\n{}{}",
                builtin("a"),
                builtin("b")
            ),
            "games = 3: games per pairing must be even",
        ),
        (
            &*format!(
                "game = \"tictactoe\"\nformat = \"gauntlet\"\ngauntlet = [\"zed\"]\n{}{}",
                builtin("a"),
                builtin("b")
            ),
            "gauntlet: no player is named 'zed'",
        ),
        (
            &*format!("game = \"tictactoe\"\n{}{}", builtin("a"), builtin("a")),
            "the name 'a' is taken",
        ),
    ];
    for (text, expected) in cases {
        let config = write_config(dir.path(), text);
        let output = run(&["tournament", config.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(expected),
            "expected '{expected}' in: {stderr}"
        );
        assert!(
            stderr.contains("tournament.toml"),
            "names the file: {stderr}"
        );
    }
    let output = run(&["tournament", "/no/such/file.toml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read /no/such/file.toml"));
}

#[test]
fn a_round_robin_plays_every_pairing_with_both_colours_and_each_opening_twice() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker();
    let deck = dir.path().join("deck.txt");
    std::fs::write(&deck, "# two openings\n1 1\n0 0, 2 2\n").unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "game = \"tictactoe\"\ngames = 4\nopenings = {{ file = \"{}\", order = \"file\" }}\n{}{}{}",
            deck.display(),
            scripted_entry("x", "multi", &marker),
            scripted_entry("y", "multi", &marker),
            scripted_entry("z", "good", &marker),
        ),
    );
    let out = dir.path().join("out");
    let stdout = tournament(&config, &out, &["-j", "2"]);
    assert!(stdout.contains("played 12 games"), "{stdout}");
    let games = journal(&out.join("journal.jsonl"));
    assert_eq!(
        games.keys().copied().collect::<Vec<_>>(),
        (0..12).collect::<Vec<_>>()
    );
    let mut by_pairing: BTreeMap<BTreeSet<String>, Vec<&Value>> = BTreeMap::new();
    for entry in games.values() {
        let [a, b] = players(entry);
        assert_ne!(a, b);
        by_pairing
            .entry(BTreeSet::from([a, b]))
            .or_default()
            .push(entry);
    }
    assert_eq!(by_pairing.len(), 3, "every pair of the three players");
    for (pairing, entries) in &by_pairing {
        assert_eq!(entries.len(), 4, "{pairing:?}");
        let mut by_opening: BTreeMap<String, Vec<[String; 2]>> = BTreeMap::new();
        for entry in entries {
            let opening = entry["opening"].as_array().unwrap();
            let key: Vec<&str> = opening.iter().map(|m| m.as_str().unwrap()).collect();
            by_opening
                .entry(key.join(","))
                .or_default()
                .push(players(entry));
        }
        assert_eq!(
            by_opening.keys().collect::<Vec<_>>(),
            ["0 0,2 2", "1 1"],
            "{pairing:?}"
        );
        for seats in by_opening.values() {
            assert_eq!(seats.len(), 2);
            assert_eq!(
                seats[0],
                [seats[1][1].clone(), seats[1][0].clone()],
                "colours swapped"
            );
        }
    }
    // Records are numbered by schedule index and hold the opening and the players' names. The
    // journal's index counts from 0; people read game numbers from 1, the same on the screen
    // and in the files.
    let records = unpack(&out);
    for (index, entry) in &games {
        let [a, b] = players(entry);
        assert!(
            stdout.contains(&format!("] game {}: {a} vs {b} ", index + 1)),
            "game {}: {stdout}",
            index + 1
        );
        assert_eq!(entry["record"], "games.jsonl");
        let path = records.join(format!("{:04}.json", index + 1));
        let record: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(record["number"], index + 1);
        assert_eq!(record["opening"], entry["opening"]);
        assert_eq!(record["players"][0]["label"], entry["players"][0]);
        assert_eq!(record["result"]["reason"], entry["reason"]);
    }
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    assert_eq!(standings["games"], 12);
    assert_eq!(standings["players"].as_array().unwrap().len(), 3);
    assert!(stdout.contains("| # | player |"), "{stdout}");
    let left = survivors(&marker);
    assert!(left.is_empty(), "bots left running: {left:?}");

    // Running again into the same directory is refused unless resumed.
    let output = run(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("holds 12 finished games") && stderr.contains("--resume"),
        "{stderr}"
    );
    let stdout = tournament(&config, &out, &["--resume"]);
    assert!(stdout.contains("played 0 games"), "{stdout}");
}

/// A `multi` bot's process is kept for its next game at the same table, whoever that game is
/// against: with one table, each of three bots starts once for the whole round robin, and its
/// quit is filed with its last game.
#[test]
fn a_table_keeps_every_multi_bot_for_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker();
    let config = write_config(
        dir.path(),
        &format!(
            "game = \"tictactoe\"\ngames = 4\n{}{}{}",
            scripted_entry("x", "multi", &marker),
            scripted_entry("y", "multi", &marker),
            scripted_entry("z", "multi", &marker),
        ),
    );
    let out = dir.path().join("out");
    let stdout = tournament(&config, &out, &["-j", "1"]);
    assert!(stdout.contains("played 12 games"), "{stdout}");
    let games = unpack(&out);
    for label in ["x", "y", "z"] {
        // The scripted bot writes its pid on stderr when it starts: once, in its first game.
        let started: Vec<String> = (1..=12)
            .filter_map(|n| {
                std::fs::read_to_string(games.join(format!("{n:04}.{label}.stderr.txt"))).ok()
            })
            .filter(|stderr| stderr.contains("pid "))
            .collect();
        assert_eq!(started.len(), 1, "{label}: {started:?}");
        let quits = (1..=12)
            .filter(|n| {
                std::fs::read_to_string(games.join(format!("{n:04}.transcript.txt")))
                    .unwrap()
                    .contains(&format!(" {label}> quit"))
            })
            .count();
        assert_eq!(quits, 1, "{label}");
    }
    assert!(survivors(&marker).is_empty());
}

#[test]
fn a_gauntlet_plays_its_challengers_against_the_field_only() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "game = \"tictactoe\"\nformat = \"gauntlet\"\ngauntlet = [\"me\"]\nseed = 5\n{}{}{}{}",
            builtin("f1"),
            builtin("me"),
            builtin("f2"),
            builtin("f3"),
        ),
    );
    let out = dir.path().join("out");
    let stdout = tournament(&config, &out, &["-j", "1"]);
    let games = journal(&out.join("journal.jsonl"));
    assert_eq!(games.len(), 6);
    // The standings rank by score; the challenger gets a table of its own, by opponent.
    assert!(
        stdout.contains("ranked by score (points per game)")
            && stdout.contains("me against each opponent, ranked by its score;"),
        "{stdout}"
    );
    let table = &stdout[stdout.find("me against each opponent").unwrap()..];
    for opponent in ["f1", "f2", "f3"] {
        assert!(
            table
                .lines()
                .any(|line| line.starts_with(&format!("| {opponent} "))
                    && line.contains("|     2 |")),
            "{opponent}: {table}"
        );
    }
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    assert_eq!(standings["gauntlets"][0]["challenger"], "me");
    assert_eq!(
        standings["gauntlets"][0]["opponents"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let mut first = 0;
    let mut opponents = BTreeMap::new();
    for entry in games.values() {
        let [a, b] = players(entry);
        let opponent = if a == "me" {
            first += 1;
            b
        } else {
            assert_eq!(b, "me");
            a
        };
        *opponents.entry(opponent).or_insert(0) += 1;
    }
    assert_eq!(first, 3, "the challenger plays first in half its games");
    assert_eq!(
        opponents,
        BTreeMap::from([
            ("f1".to_string(), 2),
            ("f2".to_string(), 2),
            ("f3".to_string(), 2)
        ])
    );
}

#[test]
fn a_player_that_cannot_start_is_refused_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "game = \"tictactoe\"\n{}{}[[players]]\nname = \"ghost\"\ncommand = \"./no-such-bot --fast\"\n",
            builtin("a"),
            builtin("b"),
        ),
    );
    let out = dir.path().join("out");
    let output = run(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("referee: player ghost cannot start: './no-such-bot' does not exist (commands run from "),
        "{stderr}"
    );
    assert!(!out.join("journal.jsonl").exists(), "no game was played");
}

#[test]
fn a_player_crashing_in_its_first_games_is_warned_about_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker();
    let config = write_config(
        dir.path(),
        &format!(
            "game = \"tictactoe\"\ngames = 4\n{}{}",
            builtin("fine"),
            scripted_entry("broken", "crash-noisy", &marker),
        ),
    );
    let out = dir.path().join("out");
    let output = run(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-j",
        "1",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(survivors(&marker).is_empty());
    let warning = "referee: warning: broken crashed in each of its first 3 games (exited): \
                   `referee check GAME \"COMMAND\"` tells what is wrong with a bot\n  game 3: ";
    assert_eq!(stderr.matches(warning).count(), 1, "warned once: {stderr}");
    assert!(
        stderr.contains("  broken's stderr ended with:\n  | pid ")
            && stderr.contains("\n  | Traceback: \\x1b[2Jboom\\x07\n  | ValueError: bad move"),
        "{stderr}"
    );
}

/// The result of every game, by index, without times or record paths.
fn results(games: &BTreeMap<u64, Value>) -> BTreeMap<u64, (Value, Value, Value, Value)> {
    games
        .iter()
        .map(|(&index, e)| {
            (
                index,
                (
                    e["players"].clone(),
                    e["winner"].clone(),
                    e["reason"].clone(),
                    e["opening"].clone(),
                ),
            )
        })
        .collect()
}

/// The numbers of the games filed in `out`, sorted, once for each time filed: the record lines
/// of its records file, or its `games/NNNN.json`.
fn filed(out: &Path) -> Vec<u64> {
    let mut numbers: Vec<u64> = match std::fs::read_to_string(out.join("games.jsonl")) {
        Ok(pack) => pack
            .lines()
            .filter_map(|line| {
                let line: Value = serde_json::from_str(line).unwrap();
                line["record"]["number"].as_u64()
            })
            .collect(),
        Err(_) => std::fs::read_dir(out.join("games"))
            .unwrap()
            .filter_map(|entry| {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                name.strip_suffix(".json")?.parse().ok()
            })
            .collect(),
    };
    numbers.sort_unstable();
    numbers
}

/// The numbers of the games in a journal, sorted.
fn numbers(games: &BTreeMap<u64, Value>) -> Vec<u64> {
    games.keys().map(|index| index + 1).collect()
}

/// Starts the tournament of `config` into `out` (two games at a time) and returns it once its
/// journal holds `lines` lines, the header included, and it is still running.
fn start_until_journaled(config: &Path, out: &Path, lines: usize) -> std::process::Child {
    let mut child = referee()
        .args(["tournament", config.to_str().unwrap(), "--out"])
        .arg(out)
        .args(["-j", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal_path = out.join("journal.jsonl");
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&journal_path).map_or(0, |t| t.lines().count()) < lines {
        assert!(Instant::now() < deadline, "the tournament made no progress");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the tournament finished before it could be stopped"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

#[test]
fn a_tournament_killed_with_sigkill_resumes_without_losing_or_repeating_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker();
    // Deterministic bots: first free square (slowly), one that never makes a move.
    let config = write_config(
        dir.path(),
        &format!(
            "game = \"tictactoe\"\ngames = 4\nopenings = {{ plies = 2 }}\n{}{}{}{}",
            scripted_entry("slow1", "slow:25", &marker),
            scripted_entry("slow2", "slow:25", &marker),
            scripted_entry("multi", "multi", &marker),
            scripted_entry("garbage", "garbage", &marker),
        ),
    );
    let reference = dir.path().join("reference");
    tournament(&config, &reference, &["-j", "2"]);
    let expected = results(&journal(&reference.join("journal.jsonl")));
    assert_eq!(expected.len(), 24);

    let out = dir.path().join("out");
    let journal_path = out.join("journal.jsonl");
    // Kill it once a few games are journaled, well before the end.
    let mut child = start_until_journaled(&config, &out, 7);
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = journal(&journal_path);
    assert!(
        partial.len() >= 6 && partial.len() < 24,
        "{} games",
        partial.len()
    );

    let stdout = tournament(&config, &out, &["-j", "2", "--resume"]);
    let resumed = journal(&journal_path);
    assert!(
        stdout.contains(&format!("played {} games", 24 - partial.len())),
        "{stdout}"
    );
    for (index, entry) in &partial {
        assert_eq!(
            &resumed[index], entry,
            "journaled games are kept as they were"
        );
    }
    assert_eq!(
        results(&resumed),
        expected,
        "the same games as an uninterrupted run"
    );
    // The records file holds each game once, the one the journal has.
    assert_eq!(filed(&out), numbers(&resumed));
    let records = unpack(&out);
    let names: Vec<String> = std::fs::read_dir(&records)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.contains('.') || name.ends_with(".json"))
        .collect();
    assert_eq!(names.len(), 24, "{names:?}");
    for (index, entry) in &resumed {
        let path = records.join(format!("{:04}.json", index + 1));
        let record: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(
            record["result"]["reason"],
            entry["reason"],
            "game {}",
            index + 1
        );
        assert_eq!(record["players"][0]["label"], entry["players"][0]);
    }
    let left = survivors(&marker);
    assert!(left.is_empty(), "bots left running: {left:?}");
}

/// Ctrl-C or SIGTERM kills every bot at once: the games it cut short are no results (they
/// used to be journaled, then filed, as the bots' losses, "exited"), and `--resume` plays them
/// again, filing each game once.
#[test]
fn an_interrupted_tournament_journals_and_files_no_game_it_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker();
    let config = |records: &str| {
        write_config(
            dir.path(),
            &format!(
                "game = \"tictactoe\"\ngames = 4\nopenings = {{ plies = 2 }}\n{records}\n{}{}{}",
                scripted_entry("slow1", "slow:150", &marker),
                scripted_entry("slow2", "slow:150", &marker),
                scripted_entry("slow3", "slow:150", &marker),
            ),
        )
    };
    let reference = dir.path().join("reference");
    tournament(&config(""), &reference, &["-j", "2"]);
    let expected = results(&journal(&reference.join("journal.jsonl")));
    for (signal, records) in [
        (nix::sys::signal::Signal::SIGINT, ""),
        (nix::sys::signal::Signal::SIGTERM, "records = \"files\""),
    ] {
        let config = config(records);
        let out = dir.path().join(signal.as_str());
        let journal_path = out.join("journal.jsonl");
        // Once a game is journaled, two more are being played, a move taking 150 ms.
        let child = start_until_journaled(&config, &out, 2);
        std::thread::sleep(Duration::from_millis(200));
        let pid = nix::unistd::Pid::from_raw(child.id() as i32);
        nix::sys::signal::kill(pid, signal).unwrap();
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(130), "{signal}");
        let partial = journal(&journal_path);
        assert!(partial.len() < 12, "{signal}: finished before the signal");
        for (index, result) in results(&partial) {
            assert_eq!(
                Some(&result),
                expected.get(&index),
                "{signal}: game {} was journaled",
                index + 1
            );
        }
        assert_eq!(filed(&out), numbers(&partial), "{signal}: games filed");

        // As if the run had been killed between filing its last game and journaling it.
        let text = std::fs::read_to_string(&journal_path).unwrap();
        let last = text.trim_end().rfind('\n').unwrap();
        std::fs::write(&journal_path, &text[..=last]).unwrap();
        let stdout = tournament(&config, &out, &["-j", "2", "--resume"]);
        assert!(
            stdout.contains(&format!("played {} games", 13 - partial.len())),
            "{signal}: {stdout}"
        );
        let resumed = journal(&journal_path);
        assert_eq!(results(&resumed), expected, "{signal}");
        assert_eq!(filed(&out), numbers(&resumed), "{signal}: games filed");
    }
    let left = survivors(&marker);
    assert!(left.is_empty(), "bots left running: {left:?}");
}

/// `--resume` under another time control, margin or the like is refused, naming what
/// changed: it used to keep the games played under the first beside those of the second.
#[test]
fn a_resume_under_other_settings_is_refused_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let text = |settings: &str| {
        format!(
            "game = \"tictactoe\"\nrecords = false\n{settings}\n{}{}",
            builtin("r1"),
            builtin("r2")
        )
    };
    let config = write_config(dir.path(), &text("time = \"move=200\""));
    let out = dir.path().join("out");
    tournament(&config, &out, &[]);
    for (settings, expected) in [
        (
            "time = \"move=300\"",
            "time: \"move=200,bank=0,increment=0,first=0\" in the journal, \"move=300,bank=0,increment=0,first=0\" now",
        ),
        (
            "time = \"move=200\"\nmargin_ms = 50\nlegal_moves = true",
            "legal_moves: false in the journal, true now; margin_ms: 10 in the journal, 50 now",
        ),
    ] {
        write_config(dir.path(), &text(settings));
        let output = run(&[
            "tournament",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--resume",
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("belongs to another tournament: {expected} (")),
            "{stderr}"
        );
    }
    write_config(dir.path(), &text("time = \"move=200\""));
    let resumed = tournament(&config, &out, &["--resume"]);
    assert!(resumed.contains("played 0 games"), "{resumed}");
}

/// docs/tournaments.md's standings section names the tie-breaks the standings print, in their
/// order (it left Buchholz out), and its example has the columns the referee prints.
#[test]
fn the_docs_name_every_tie_break_and_column_of_the_standings() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "game = \"tictactoe\"\nrecords = false\n{}{}",
            builtin("r1"),
            builtin("r2")
        ),
    );
    let printed = tournament(&config, &dir.path().join("out"), &[]);
    let docs = std::fs::read_to_string(crate::common::repo_file("docs/tournaments.md")).unwrap();
    let section = &docs[docs.find("## Standings and ratings").unwrap()..];
    let header = |text: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|line| line.starts_with("| # | player | games"))
            .unwrap();
        line.split('|')
            .map(|cell| cell.trim().to_string())
            .collect()
    };
    assert_eq!(header(section), header(&printed));
    // "ranked by score (...), then among players level on score by head-to-head points (h2h),
    // Sonneborn-Berger (SB), Buchholz (Buch), wins"
    let order = printed
        .lines()
        .find_map(|line| line.split_once("level on score by "))
        .unwrap()
        .1;
    let words = section.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut from = words.find("ranked by score").unwrap();
    for tie_break in order.split(", ") {
        let name = tie_break.split(" (").next().unwrap();
        let at = words[from..].find(name);
        assert!(at.is_some(), "'{name}' missing or out of order: {words}");
        from += at.unwrap();
    }
}

#[test]
fn four_shards_merged_give_the_standings_of_the_whole_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker();
    // Fresh processes for every game, so each built-in bot's game depends only on its seed.
    let config = write_config(
        dir.path(),
        &format!(
            "game = \"tictactoe\"\ngames = 4\nseed = 11\nreuse_processes = false\nrecords = false\nopenings = {{ plies = 1 }}\n{}{}{}{}",
            builtin("r1"),
            builtin("r2"),
            builtin("r3"),
            scripted_entry("first-free", "good", &marker),
        ),
    );
    let whole = dir.path().join("whole");
    tournament(&config, &whole, &["-j", "2"]);
    let sharded = dir.path().join("sharded");
    let mut journals = Vec::new();
    for shard in 1..=4 {
        let stdout = tournament(
            &config,
            &sharded,
            &["-j", "1", "--shard", &format!("{shard}/4")],
        );
        assert!(stdout.contains("played 6 games"), "{stdout}");
        journals.push(sharded.join(format!("journal-{shard}-of-4.jsonl")));
    }
    let shard_games: Vec<BTreeMap<u64, Value>> = journals.iter().map(|p| journal(p)).collect();
    let mut union = BTreeMap::new();
    for games in &shard_games {
        for (index, entry) in games {
            assert!(
                union.insert(*index, entry.clone()).is_none(),
                "game {index} in two shards"
            );
        }
    }
    let whole_games = journal(&whole.join("journal.jsonl"));
    assert_eq!(results(&union), results(&whole_games));
    let reasons: BTreeSet<&str> = whole_games
        .values()
        .map(|e| e["reason"].as_str().unwrap())
        .collect();
    assert!(reasons.contains("line"), "{reasons:?}");

    let merged = dir.path().join("merged.json");
    let csv = dir.path().join("merged.csv");
    let mut args = vec!["standings".to_string()];
    args.extend(journals.iter().map(|p| p.display().to_string()));
    args.extend([
        "--json".into(),
        merged.display().to_string(),
        "--csv".into(),
        csv.display().to_string(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let stdout = run_ok(&args);
    assert!(stdout.contains("standings after 24 games"), "{stdout}");
    let merged: Value = serde_json::from_str(&std::fs::read_to_string(merged).unwrap()).unwrap();
    let unsharded: Value =
        serde_json::from_str(&std::fs::read_to_string(whole.join("standings.json")).unwrap())
            .unwrap();
    assert_eq!(merged, unsharded);
    assert_eq!(
        std::fs::read_to_string(csv).unwrap(),
        std::fs::read_to_string(whole.join("standings.csv")).unwrap()
    );

    // A shard given twice is counted once, and missing shards are reported.
    let output = run(&["standings", args[1], args[1]]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success());
    assert!(
        stderr.contains("counted once") && stderr.contains("6 of its 24 games"),
        "{stderr}"
    );
}

#[test]
fn match_sprt_stops_when_the_test_decides_and_at_the_cap() {
    let sprt = |strong_first: bool, test: &str| {
        let (strong, weak) = (scripted("multi"), scripted("garbage"));
        let played = Match::new("tictactoe").args(&["--sprt", test]);
        if strong_first {
            played.a(strong).b(weak)
        } else {
            played.a(weak).b(strong)
        }
    };
    // The verdict is the last line but the one that says how to watch the games.
    let verdict = |stdout: &str| -> String {
        let mut lines = stdout.lines().rev();
        let last = lines.next().unwrap();
        assert!(last.starts_with("watch and replay"), "{stdout}");
        lines.next().unwrap().to_string()
    };
    let stdout = sprt(true, "elo0=0,elo1=200").run().stdout;
    let last = verdict(&stdout);
    assert!(last.starts_with("sprt: H1 accepted"), "{stdout}");
    let games = stdout.lines().filter(|l| l.starts_with("game ")).count();
    assert!(
        games % 2 == 0 && (4..=40).contains(&games),
        "{games} games:\n{stdout}"
    );
    assert!(stdout.contains("LLR bounds (-2.94, 2.94)"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "sprt: {} pairs [0, 0, 0, 0, {}]",
            games / 2,
            games / 2
        )),
        "{stdout}"
    );

    let stdout = sprt(false, "elo0=0,elo1=5").games(4).run().stdout;
    assert_eq!(stdout.lines().filter(|l| l.starts_with("game ")).count(), 4);
    assert!(
        verdict(&stdout).contains("no decision after 2 pairs"),
        "{stdout}"
    );

    let message = sprt(false, "elo0=5,elo1=0").refused();
    assert!(message.contains("elo0 must be less than elo1"), "{message}");
}

#[test]
fn the_bundled_tournament_is_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tournament =
        referee_core::tournament::config::Tournament::load(&root.join("tournaments/bundled.toml"))
            .unwrap();
    assert_eq!(tournament.players.len(), 4);
    assert_eq!(tournament.schedule.total_games(), 36);
    for player in &tournament.players {
        if let referee_core::players::PlayerSpec::Command { words, .. } = &player.spec {
            assert!(root.join(&words[1]).is_file(), "{words:?}");
        }
    }
}
