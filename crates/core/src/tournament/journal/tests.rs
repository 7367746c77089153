//! Tests of the journal: writing, reading strictly, resuming, the lock.

use super::*;
use std::collections::BTreeMap;

fn header() -> Header {
    Header {
        journal: FORMAT,
        tournament: Identity {
            name: "t".into(),
            game: "tictactoe width=3 height=3 line=3 exact=no".into(),
            format: "round-robin".into(),
            challengers: Vec::new(),
            players: vec!["a".into(), "b".into()],
            games_per_pairing: 4,
            openings: "none".into(),
            seed: 1,
            total_games: 4,
            versions: BTreeMap::new(),
            conditions: Some(Conditions {
                time: "move=1000,bank=0,increment=0,first=0".into(),
                limits: "memory=4096 cpu=none processes=none filesize=64 files=1024".into(),
                margin_ms: 10,
                startup_ms: 5000,
                legal_moves: false,
                max_line: 1 << 16,
                gomocup_memory_mb: 350,
                sandbox: false,
                score_stalled: false,
                reuse_processes: true,
                own: BTreeMap::new(),
            }),
        },
        shard: None,
    }
}

fn entry(index: u64) -> Entry {
    Entry {
        index,
        players: ["a".into(), "b".into()],
        winner: Some(Side::First),
        reason: Termination::Rules(referee_rules::games::Ending::Line),
        violation: None,
        opening: Vec::new(),
        moves: 5,
        stalled: false,
        record: Some(format!("games/{:04}.json", index + 1)),
    }
}

#[test]
fn entries_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/journal.jsonl");
    let (mut journal, finished) = Journal::open(&path, &header(), false).unwrap();
    assert!(finished.is_empty());
    journal.append(&entry(0)).unwrap();
    journal.append(&entry(1)).unwrap();
    drop(journal);
    let error = Journal::open(&path, &header(), false)
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.contains("holds 2 finished games") && error.contains("--resume"),
        "{error}"
    );
    let (mut journal, finished) = Journal::open(&path, &header(), true).unwrap();
    assert_eq!(finished, [entry(0), entry(1)]);
    journal.append(&entry(2)).unwrap();
    let contents = read(&path).unwrap();
    assert_eq!(contents.header, Some(header()));
    assert_eq!(contents.entries.len(), 3);
    assert_eq!(contents.torn, 0);
}

#[test]
fn a_torn_last_line_is_dropped_and_cut_off_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let (mut journal, _) = Journal::open(&path, &header(), false).unwrap();
    journal.append(&entry(0)).unwrap();
    drop(journal);
    let good = std::fs::read(&path).unwrap();
    // A power cut: half a line, a line but its newline, or zeros the file system had not
    // filled yet.
    for tail in [
        &b"{\"index\":1,\"players\":[\"a\""[..],
        &[0u8; 40][..],
        b"{\"index\":1}",
        "{\"index\":1,\"players\":[\"\u{e9}"
            .as_bytes()
            .split_last()
            .unwrap()
            .1,
    ] {
        let mut bytes = good.clone();
        bytes.extend_from_slice(tail);
        std::fs::write(&path, &bytes).unwrap();
        let contents = read(&path).unwrap();
        assert_eq!(contents.entries, [entry(0)]);
        assert_eq!(contents.torn, tail.len() as u64);
        let (mut journal, finished) = Journal::open(&path, &header(), true).unwrap();
        assert_eq!(finished, [entry(0)]);
        journal.append(&entry(1)).unwrap();
        assert_eq!(read(&path).unwrap().entries, [entry(0), entry(1)]);
        std::fs::write(&path, &good).unwrap();
    }
}

/// The error reading a journal of `header()`'s first game then `line`.
fn error_after_one_game(line: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let (mut journal, _) = Journal::open(&path, &header(), false).unwrap();
    journal.append(&entry(0)).unwrap();
    drop(journal);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(line);
    std::fs::write(&path, &bytes).unwrap();
    let error = read(&path).unwrap_err().to_string();
    let resumed = Journal::open(&path, &header(), true)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(resumed, error, "--resume refuses it too, cutting nothing");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    error.replace(&path.display().to_string(), "J")
}

#[test]
fn a_bad_line_before_the_end_is_an_error() {
    let mut bytes = b"garbage\n".to_vec();
    bytes.extend_from_slice(serde_json::to_string(&entry(1)).unwrap().as_bytes());
    bytes.push(b'\n');
    let error = error_after_one_game(&bytes);
    assert!(
        error.starts_with("journal J, line 3: not a journal line"),
        "{error}"
    );
}

#[test]
fn a_complete_last_line_is_no_crash_and_must_be_valid() {
    let error = error_after_one_game(b"{\"index\":1}\n");
    assert!(
        error.starts_with("journal J, line 3: not a journal line (missing field"),
        "{error}"
    );
    let error = error_after_one_game(b"\xff\xfe junk");
    assert!(error.starts_with("journal J, line 3: not text"), "{error}");
    assert!(error.ends_with("(and no end of line)"), "{error}");
}

#[test]
fn a_game_that_cannot_be_the_tournaments_is_an_error() {
    use serde_json::{json, Value};
    let refused = |change: &dyn Fn(&mut Value), expected: &str| {
        let mut value = serde_json::to_value(entry(1)).unwrap();
        change(&mut value);
        let mut line = value.to_string().into_bytes();
        line.push(b'\n');
        let error = error_after_one_game(&line);
        let expected = format!("journal J, line 3: {expected}");
        assert!(error.starts_with(&expected), "{error}");
    };
    refused(
        &|v| v["index"] = json!(4),
        "game 5 is outside the schedule, which has 4 games",
    );
    refused(
        &|v| v["players"][1] = json!("zed"),
        "game 2 names 'zed', who is not a player of the tournament",
    );
    refused(
        &|v| v["players"][1] = json!("a"),
        "game 2 has 'a' playing itself",
    );
    refused(
        &|v| v["reason"] = json!("checkmate"),
        "not a journal line (unknown result reason 'checkmate'",
    );
    refused(
        &|v| {
            v["reason"] = json!("resign");
            v["winner"] = json!(null);
        },
        "game 2 has no winner, but 'resign' is not a draw",
    );
    refused(
        &|v| v["reason"] = json!("board-full"),
        "game 2 has a winner, but 'board-full' ends in a draw",
    );
    refused(
        &|v| v["violation"] = json!("occupied"),
        "game 2 names a violation, but its reason is 'line'",
    );
    refused(
        &|v| v["winner"] = json!("third"),
        "not a journal line (unknown variant `third`",
    );
}

#[test]
fn a_file_that_is_no_journal_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let mut games_only = serde_json::to_string(&entry(0)).unwrap();
    games_only.push('\n');
    for (bytes, expected) in [
        (games_only.as_bytes(), "line 1: not a journal's header"),
        (
            &b"\x7fELF\x02\x01\x01\0\n\0\0"[..],
            "line 1: not a journal's header",
        ),
        (&b"PK\x03\x04\x14\0"[..], "line 1: not a journal's header"),
    ] {
        std::fs::write(&path, bytes).unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains(expected), "{error}");
    }
    let error = read(Path::new("/dev/zero")).unwrap_err().to_string();
    assert_eq!(
        error,
        "journal /dev/zero, line 1: longer than 16 MiB, which no journal line is"
    );
    std::fs::write(&path, b"").unwrap();
    assert_eq!(
        read(&path).unwrap().header,
        None,
        "a journal a crash left empty"
    );
    let mut shard = header();
    shard.shard = Some("2/2".into());
    std::fs::write(
        &path,
        format!("{}\n{games_only}", serde_json::to_string(&shard).unwrap()),
    )
    .unwrap();
    let error = read(&path).unwrap_err().to_string();
    assert!(
        error.ends_with("line 2: game 1 is not in shard 2/2"),
        "{error}"
    );
}

#[test]
fn one_run_at_a_time_writes_a_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let (first, _) = Journal::open(&path, &header(), false).unwrap();
    let error = Journal::open(&path, &header(), true)
        .err()
        .unwrap()
        .to_string();
    let pid = format!("(pid {} on ", std::process::id());
    assert!(
        error.contains("is being written by another run of the referee"),
        "{error}"
    );
    assert!(error.contains(&pid), "{error}");
    drop(first);
    assert!(
        Journal::open(&path, &header(), true).is_ok(),
        "free once the first is done"
    );
}

#[test]
fn another_tournament_is_refused_naming_the_difference() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    Journal::open(&path, &header(), false).unwrap();
    let mut other = header();
    other.tournament.seed = 2;
    let error = Journal::open(&path, &other, true)
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("seed: 1 in the journal, 2 now"), "{error}");
    let mut shard = header();
    shard.shard = Some("1/2".into());
    let error = Journal::open(&path, &shard, true)
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.contains("shard: none in the journal, 1/2 now"),
        "{error}"
    );
    // Another version of a player is another player: its games are not resumed.
    let mut rebuilt = header();
    rebuilt.tournament.versions = BTreeMap::from([("a".into(), "0123abcd".into())]);
    let error = Journal::open(&path, &rebuilt, true)
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("versions: {} in the journal"), "{error}");
    // A contest's precheck leaves the players (and so their versions) to the carry-over.
    precheck(&path, &rebuilt.tournament, true).unwrap();
    precheck(&path, &other.tournament, true).unwrap_err();
}

/// A journal is resumed only under the settings its games were played with: the time control,
/// the margin, the limits and the rest, the players' own included (resuming at another time
/// control used to keep the games played at the first).
#[test]
fn a_journal_of_games_played_otherwise_is_refused_naming_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let mut played = header();
    played.tournament.conditions.as_mut().unwrap().own.insert(
        "a".into(),
        OwnConditions {
            time: "move=100,bank=0,increment=0,first=0".into(),
            limits: "memory=4096 cpu=none processes=none filesize=64 files=1024".into(),
        },
    );
    Journal::open(&path, &played, false).unwrap();
    let refused = |now: &Header| {
        let error = Journal::open(&path, now, true).err().unwrap().to_string();
        precheck(&path, &now.tournament, true).unwrap_err();
        error
    };
    let mut slower = played.clone();
    let conditions = slower.tournament.conditions.as_mut().unwrap();
    conditions.time = "move=2000,bank=0,increment=0,first=0".into();
    conditions.margin_ms = 50;
    assert!(
        refused(&slower).contains(
            "belongs to another tournament: margin_ms: 10 in the journal, 50 now; time: \"move=1000,bank=0,increment=0,first=0\" in the journal, \"move=2000,bank=0,increment=0,first=0\" now"
        ),
        "{}",
        refused(&slower)
    );
    // A player's own time control, and the tournament's in its place once it has none.
    let mut theirs = played.clone();
    theirs.tournament.conditions.as_mut().unwrap().own.clear();
    let error = refused(&theirs);
    assert!(
        error.contains("time (a): \"move=100,bank=0,increment=0,first=0\" in the journal, \"move=1000,bank=0,increment=0,first=0\" now"),
        "{error}"
    );
    assert!(!error.contains("limits (a)"), "{error}");
    // A contest's field may change: the settings of a player who left are not compared.
    let mut left = played.clone();
    left.tournament.players = vec!["b".into(), "c".into()];
    left.tournament.conditions.as_mut().unwrap().own.clear();
    precheck(&path, &left.tournament, true).unwrap();
    Journal::open(&path, &played, true).unwrap();
}

/// A journal of a referee that did not record how its games were played is resumed as before.
#[test]
fn a_journal_without_its_settings_is_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let mut older = header();
    older.tournament.conditions = None;
    let (mut journal, _) = Journal::open(&path, &older, false).unwrap();
    journal.append(&entry(0)).unwrap();
    drop(journal);
    let (_, finished) = Journal::open(&path, &header(), true).unwrap();
    assert_eq!(finished, [entry(0)]);
    precheck(&path, &header().tournament, true).unwrap();
}

/// A renju game lost by a forbidden move names its shape as a violation, and reads back.
#[test]
fn a_forbidden_move_names_its_shape() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let forbidden = Entry {
        winner: Some(Side::Second),
        reason: Termination::ForbiddenMove,
        violation: Some("double-three".into()),
        ..entry(0)
    };
    let (mut journal, _) = Journal::open(&path, &header(), false).unwrap();
    journal.append(&forbidden).unwrap();
    drop(journal);
    assert_eq!(read(&path).unwrap().entries, [forbidden]);
}
