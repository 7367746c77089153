//! The shipped tournaments of bots written for other systems (tournaments/gomocup.toml,
//! tournaments/platforms-uttt.toml), each player at its own platform's time control: no game
//! ends in a forfeit that the platform itself would not have given (the bots break no rule),
//! and the header says how each protocol's players are timed. A shard of each keeps the test
//! short; the other shards play the same kinds of games.

use referee_rules::verdict::Termination;
use serde_json::Value;
use std::process::Stdio;

use crate::common::{referee, repo_file, succeeded};

/// Plays `shard` of the tournament in `config` and returns its standard output and journal.
fn play_shard(config: &str, shard: &str) -> (String, Vec<Value>) {
    let out = tempfile::tempdir().unwrap();
    let output = referee()
        .current_dir(repo_file(""))
        .args(["tournament", config, "--shard", shard, "-j", "2", "--out"])
        .arg(out.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = succeeded(&output);
    let journal = std::fs::read_dir(out.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with("journal") && name.ends_with(".jsonl")
        })
        .expect("a journal");
    let games = std::fs::read_to_string(journal)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (stdout, games)
}

fn assert_no_forfeit(games: &[Value], stdout: &str) {
    assert!(!games.is_empty(), "{stdout}");
    for game in games {
        let reason: Termination = serde_json::from_value(game["reason"].clone()).unwrap();
        assert!(!reason.is_forfeit(), "{game}\n{stdout}");
    }
}

#[test]
fn gomocup_brains_at_gomocups_time_control_lose_nothing_on_a_technicality() {
    let (stdout, games) = play_shard("tournaments/gomocup.toml", "1/4");
    assert!(
        stdout.contains("player brain-slow: gomocup:python3 tests/bots/gomocup_brain.py slow:600, margin 1000 ms"),
        "{stdout}"
    );
    assert_no_forfeit(&games, &stdout);
}

#[test]
fn codingame_and_riddles_bots_at_their_platforms_time_controls_lose_nothing_on_a_technicality() {
    let (stdout, games) = play_shard("tournaments/platforms-uttt.toml", "1/3");
    assert!(
        stdout.contains("player codingame-self-timed: codingame:python3 tests/bots/codingame_uttt.py late-read:100:30, its clock starts once it has read its input"),
        "{stdout}"
    );
    assert_no_forfeit(&games, &stdout);
}
