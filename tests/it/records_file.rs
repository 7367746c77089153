//! A tournament's records file, `games.jsonl`: the real `referee tournament` writes one line a
//! game (and no file of its own for any game), `referee export --files` gives back exactly the
//! files `records = "files"` writes, `referee report` shows its games with their transcripts
//! and stderr, and a line cut short by a crash is passed over, then cut off by `--resume`.

use crate::common::{marker, referee, script, succeeded, survivors};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A round robin of three deterministic players, two games a pairing: a `multi` bot (its quit
/// is an epilogue), one that writes a stderr line at each move, and the random bot (seeded).
fn config(dir: &Path, records: &str, marker: &str) -> PathBuf {
    let scripted = |name: &str, mode: &str| {
        format!(
            "[[players]]\nname = \"{name}\"\ncommand = \"python3 {} {mode} {marker}\"\n",
            script().display()
        )
    };
    let text = format!(
        "game = \"tictactoe\"\ngames = 2\nseed = 7\n{records}\n{}{}[[players]]\nname = \"z\"\nbuiltin = \"random\"\n",
        scripted("x", "multi"),
        scripted("y", "thinks-aloud"),
    );
    let path = dir.join(format!("{}.toml", records.len()));
    std::fs::write(&path, text).unwrap();
    path
}

fn tournament(config: &Path, out: &Path, extra: &[&str]) -> String {
    succeeded(
        &referee()
            .arg("tournament")
            .arg(config)
            .arg("--out")
            .arg(out)
            .args(["-j", "1"])
            .args(extra)
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    )
}

/// Every file of a directory, by name.
fn files(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let text = std::fs::read_to_string(entry.path()).unwrap();
            (entry.file_name().to_string_lossy().into_owned(), text)
        })
        .collect()
}

/// A file of a game with what differs from run to run blanked: times, dates, process ids, and
/// the place of the bots' stderr lines in the transcript (the stderr files are compared whole).
fn blanked(name: &str, text: &str) -> String {
    if name.ends_with(".json") {
        let mut record: Value = serde_json::from_str(text).unwrap();
        for key in ["started", "ended"] {
            record[key] = Value::Null;
        }
        for player in record["players"].as_array_mut().unwrap() {
            player["stderr_at_us"] = Value::Null;
            player["cpu_us"] = Value::Null;
        }
        for mv in record["moves"].as_array_mut().unwrap() {
            for key in ["us", "at_us"] {
                mv[key] = Value::Null;
            }
        }
        return serde_json::to_string_pretty(&record).unwrap();
    }
    text.lines()
        .filter_map(|line| {
            let line = match line.split_once(" ms ") {
                Some((time, rest)) if time.starts_with('+') => rest,
                _ => line,
            };
            let who = line.split(' ').next().unwrap_or_default();
            if name.ends_with(".transcript.txt") && who.ends_with('!') {
                return None;
            }
            Some(if line.starts_with("pid ") {
                "pid P".to_string()
            } else {
                line.to_string()
            })
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_tournament_keeps_one_records_file_that_export_turns_back_into_each_games_files() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker();
    let packed = dir.path().join("packed");
    tournament(&config(dir.path(), "", &marker), &packed, &[]);
    let separate = dir.path().join("separate");
    tournament(
        &config(dir.path(), "records = \"files\"", &marker),
        &separate,
        &[],
    );
    assert!(survivors(&marker).is_empty());

    // One line per game, then the epilogues of the two multi bots (the scripted one and the
    // random bot), each its quit; no file of its own for any game.
    assert!(!packed.join("games").exists());
    let pack = std::fs::read_to_string(packed.join("games.jsonl")).unwrap();
    let lines: Vec<Value> = pack
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let mut numbers: Vec<u64> = lines
        .iter()
        .filter_map(|line| line["record"]["number"].as_u64())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    let mut epilogues: Vec<(&str, &str)> = lines
        .iter()
        .filter(|line| line["epilogue"].is_u64())
        .map(|line| {
            let label = line["label"].as_str().unwrap();
            (label, line["transcript"].as_str().unwrap())
        })
        .collect();
    epilogues.sort_unstable();
    assert_eq!(epilogues.len(), 2, "{pack}");
    for (&(label, transcript), expected) in epilogues.iter().zip(["x", "z"]) {
        assert_eq!(label, expected);
        assert!(
            transcript.ends_with(&format!(" {label}> quit\n")),
            "{transcript}"
        );
    }
    let journal = std::fs::read_to_string(packed.join("journal.jsonl")).unwrap();
    for entry in journal.lines().skip(1) {
        let entry: Value = serde_json::from_str(entry).unwrap();
        assert_eq!(entry["record"], "games.jsonl");
    }

    // Exported as files, they are the files of records = "files", the epilogue merged.
    let unpacked = dir.path().join("unpacked");
    let output = succeeded(
        &referee()
            .arg("export")
            .arg(&packed)
            .arg("--files")
            .arg(&unpacked)
            .output()
            .unwrap(),
    );
    assert!(output.contains("6 games written into"), "{output}");
    let (unpacked, separate) = (files(&unpacked), files(&separate.join("games")));
    assert_eq!(
        unpacked.keys().collect::<Vec<_>>(),
        separate.keys().collect::<Vec<_>>()
    );
    assert!(unpacked.contains_key("0001.y.stderr.txt"), "{unpacked:?}");
    for (name, text) in &unpacked {
        assert_eq!(
            blanked(name, text),
            blanked(name, &separate[name]),
            "{name}"
        );
    }
    for label in ["x", "z"] {
        let quits = unpacked
            .iter()
            .filter(|(name, text)| {
                name.ends_with(".transcript.txt") && text.contains(&format!(" {label}> quit"))
            })
            .count();
        assert_eq!(quits, 1, "{label}");
    }

    // The results page shows each game with its protocol lines and stderr.
    let output = succeeded(
        &referee()
            .arg("report")
            .arg(&packed)
            .arg("--from")
            .arg(&packed)
            .output()
            .unwrap(),
    );
    assert!(output.contains("(6 games,"), "{output}");
    let page = std::fs::read_to_string(packed.join("index.html")).unwrap();
    assert!(page.contains("\"text\":\"move 1\""), "y's stderr");
    assert!(page.contains("\"text\":\"turn 1000\",\"way\":\">\""));

    // A run killed while writing a line leaves half of it: passed over, then cut off when the
    // tournament is resumed.
    let path = packed.join("games.jsonl");
    let first = pack.lines().next().unwrap();
    std::fs::write(&path, format!("{pack}{}", &first[..first.len() / 2])).unwrap();
    let exported = succeeded(&referee().arg("export").arg(&path).output().unwrap());
    assert_eq!(exported.matches("(;FF[4]").count(), 6);
    let stdout = tournament(&config(dir.path(), "", &marker), &packed, &["--resume"]);
    assert!(stdout.contains("played 0 games"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), pack);
}
