//! Swiss and knock-out tournaments through the real `referee tournament`: every round paired
//! from the journal, no pairing repeated, the same pairings after a `--resume` from a journal
//! cut after any game, Buchholz in the standings, and a bracket played to its final.

use crate::common::{referee, succeeded};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Stdio;

fn config(dir: &Path, format: &str, players: usize) -> std::path::PathBuf {
    // Fresh processes for every game: a built-in bot then plays the same game from the same
    // seed whichever games came before it, so a resumed run gets the same results.
    let mut text = format!(
        "game = \"tictactoe\"\ntime = \"move=500\"\nseed = 5\nreuse_processes = false\n{format}\n"
    );
    for at in 0..players {
        let level = ["random", "greedy"][at % 2];
        text.push_str(&format!(
            "[[players]]\nname = \"p{at}\"\nbuiltin = \"{level}\"\n"
        ));
    }
    let path = dir.join("t.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn tournament(config: &Path, out: &Path, extra: &[&str]) -> String {
    let output = referee()
        .args(["tournament", config.to_str().unwrap(), "-j", "2", "--out"])
        .arg(out)
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    succeeded(&output)
}

/// The games of a journal: index -> (first, second).
fn games(out: &Path) -> BTreeMap<u64, [String; 2]> {
    let text = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let entry: Value = serde_json::from_str(line).unwrap();
            let seats = [0, 1].map(|i| entry["players"][i].as_str().unwrap().to_string());
            (entry["index"].as_u64().unwrap(), seats)
        })
        .collect()
}

#[test]
fn a_swiss_pairs_each_round_from_the_journal_and_resumes_to_the_same_pairings() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), "format = \"swiss\"\nrounds = 3\ngames = 2", 7);
    let whole = dir.path().join("whole");
    let shown = tournament(&config, &whole, &[]);
    assert!(shown.contains("| Buch |"), "{shown}");
    let played = games(&whole);
    // 7 players: 3 boards a round (one bye), 2 games each, 3 rounds.
    assert_eq!(played.len(), 18);
    assert_eq!(
        played.keys().copied().collect::<Vec<_>>(),
        (0..18).collect::<Vec<_>>()
    );
    let mut met = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for round in 0..3u64 {
        let mut seated = BTreeSet::new();
        for board in 0..3u64 {
            let [a, b] = &played[&(round * 6 + board * 2)];
            assert_eq!(
                played[&(round * 6 + board * 2 + 1)],
                [b.clone(), a.clone()],
                "colours swapped within a pairing"
            );
            assert!(
                met.insert(BTreeSet::from([a.clone(), b.clone()])),
                "{a}-{b} twice"
            );
            seated.extend([a.clone(), b.clone()]);
        }
        let bye: Vec<String> = (0..7)
            .map(|p| format!("p{p}"))
            .filter(|p| !seated.contains(p))
            .collect();
        assert_eq!(bye.len(), 1);
        assert!(byes.insert(bye[0].clone()), "{} had two byes", bye[0]);
    }

    // A run stopped after any game resumes to the same pairings.
    let text = std::fs::read_to_string(whole.join("journal.jsonl")).unwrap();
    for keep in [1, 7, 13] {
        let cut = dir.path().join(format!("cut{keep}"));
        std::fs::create_dir_all(&cut).unwrap();
        let lines: Vec<&str> = text.lines().take(1 + keep).collect();
        std::fs::write(cut.join("journal.jsonl"), lines.join("\n") + "\n").unwrap();
        tournament(&config, &cut, &["--resume"]);
        let resumed = games(&cut);
        assert_eq!(
            resumed
                .iter()
                .map(|(i, s)| (*i, s.clone()))
                .collect::<Vec<_>>(),
            played
                .iter()
                .map(|(i, s)| (*i, s.clone()))
                .collect::<Vec<_>>(),
            "resumed after {keep} games"
        );
    }

    // A Swiss is paired from whole rounds: no shards.
    let output = referee()
        .args([
            "tournament",
            config.to_str().unwrap(),
            "--shard",
            "1/2",
            "--out",
        ])
        .arg(dir.path().join("shard"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot be split into shards"));
}

#[test]
fn a_knockout_plays_its_bracket_to_the_final() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(
        dir.path(),
        "format = \"knockout\"\ngames = 2\ntiebreaks = 2",
        5,
    );
    let out = dir.path().join("ko");
    let shown = tournament(&config, &out, &[]);
    let played = games(&out);
    // 8 places, 3 byes: one match in round 1, two in round 2, the final; each 2 to 6 games.
    let matches: BTreeSet<BTreeSet<&String>> = played
        .values()
        .map(|[a, b]| BTreeSet::from([a, b]))
        .collect();
    assert_eq!(matches.len(), 4, "{played:?}");
    assert!((8..=24).contains(&played.len()), "{played:?}");
    assert!(shown.contains("champion: "), "{shown}");
}

#[test]
fn a_swiss_needs_its_rounds_and_refuses_too_many() {
    let dir = tempfile::tempdir().unwrap();
    for (format, expected) in [
        (
            "format = \"swiss\"",
            "a Swiss tournament needs its number of rounds",
        ),
        ("format = \"swiss\"\nrounds = 5", "has 1 to 4 rounds"),
        ("rounds = 2", "rounds: only for format = \"swiss\""),
        (
            "format = \"swiss\"\nrounds = 2\ntiebreaks = 1",
            "tiebreaks: only for format = \"knockout\"",
        ),
    ] {
        let config = config(dir.path(), format, 7);
        let output = referee()
            .args(["tournament", config.to_str().unwrap(), "--out"])
            .arg(dir.path().join("x"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{format}: {stderr}");
    }
}
