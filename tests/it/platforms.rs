//! The shipped tournaments of bots written for other systems (tournaments/gomocup.toml,
//! tournaments/platforms-uttt.toml), each player at its own platform's time control: no game
//! ends in a forfeit that the platform itself would not have given (the bots break no rule),
//! and the header says how each protocol's players are timed. A shard of each keeps the test
//! short; the other shards play the same kinds of games.
//!
//! A bot starved of a processor loses on time on any platform: on a machine with ten tasks
//! ready to run for each two processors, a process sleeping 10 ms was seen to wake 340 ms late,
//! and the built-in greedy bot, which answers at once, to miss a 1000 ms limit, while the
//! referee's own stall monitor saw no stall. The referee says so in such a timeout's record
//! (`overloaded`), and a shard that lost a game so is played again, as a tournament plays a
//! stalled game again; any other forfeit fails at once, and so does an overloaded machine in
//! every try.

use referee_rules::verdict::Termination;
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;

use crate::common::{referee, repo_file, succeeded};

/// How many times a shard is played while its only forfeits are timeouts on an overloaded
/// machine.
const TRIES: usize = 3;

/// Plays `shard` of the tournament in `config` and returns its standard output and the records
/// of its games that ended in a forfeit.
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
    let games = jsonl(out.path(), "journal");
    assert!(games.len() > 1, "{stdout}");
    let records = jsonl(out.path(), "games");
    let forfeits = games[1..]
        .iter()
        .filter(|game| {
            let reason: Termination = serde_json::from_value(game["reason"].clone()).unwrap();
            reason.is_forfeit()
        })
        .map(|game| {
            let number = game["index"].as_u64().unwrap() + 1;
            records
                .iter()
                .rev()
                .map(|line| &line["record"])
                .find(|record| record["number"] == number)
                .unwrap_or_else(|| panic!("no record of {game}"))
                .clone()
        })
        .collect();
    (stdout, forfeits)
}

/// The lines of the JSON Lines file in `dir` whose name begins with `prefix`.
fn jsonl(dir: &Path, prefix: &str) -> Vec<Value> {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with(prefix) && name.ends_with(".jsonl")
        })
        .unwrap_or_else(|| panic!("no {prefix}*.jsonl"));
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Plays `shard` of `config` until none of its games ends in a forfeit, at most [`TRIES`]
/// times; returns its standard output. Fails at once on a forfeit other than a timeout taken
/// on an overloaded machine.
fn play_without_forfeits(config: &str, shard: &str) -> String {
    let mut seen = Vec::new();
    for _ in 0..TRIES {
        let (stdout, forfeits) = play_shard(config, shard);
        if forfeits.is_empty() {
            return stdout;
        }
        for record in &forfeits {
            let result = &record["result"];
            let starved = result["reason"] == "timeout" && result["overloaded"].is_object();
            assert!(starved, "{record}\n{stdout}");
            seen.push(result["detail"].to_string());
        }
    }
    panic!(
        "a timeout on an overloaded machine in each of {TRIES} tries:\n{}",
        seen.join("\n")
    );
}

#[test]
fn gomocup_brains_at_gomocups_time_control_lose_nothing_on_a_technicality() {
    let stdout = play_without_forfeits("tournaments/gomocup.toml", "1/4");
    assert!(
        stdout.contains("player brain-slow: gomocup:python3 tests/bots/gomocup_brain.py slow:600, margin 1000 ms"),
        "{stdout}"
    );
}

#[test]
fn codingame_and_riddles_bots_at_their_platforms_time_controls_lose_nothing_on_a_technicality() {
    let stdout = play_without_forfeits("tournaments/platforms-uttt.toml", "1/3");
    assert!(
        stdout.contains("player codingame-self-timed: codingame:python3 tests/bots/codingame_uttt.py late-read:100:30, its clock starts once it has read its input"),
        "{stdout}"
    );
}
