//! What the tournament commands read and write is guarded: one run at a time writes a journal,
//! the journal reader forgives only what a crash leaves, and input files are read with a size
//! bound (`/dev/zero` is refused, not read forever).

use crate::common::{marker, referee, script, survivors};
use std::io::Read;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// Runs `referee ARGS`, killing it if it takes more than 60 s (a hang is a failure, not a
/// stuck test).
fn run(args: &[&str]) -> Output {
    let mut child = referee()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let Some(status) = child.wait_timeout(Duration::from_secs(60)).unwrap() else {
        child.kill().unwrap();
        child.wait().unwrap();
        panic!("referee {args:?} did not end within 60 s");
    };
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_end(&mut stderr)
        .unwrap();
    Output {
        status,
        stdout,
        stderr,
    }
}

/// The referee's message for a run it refused (exit code 2).
fn refused(args: &[&str]) -> String {
    let output = run(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

/// A round robin of tic-tac-toe between two players, written into `dir`.
fn config(dir: &Path, players: &str, extra: &str) -> String {
    let path = dir.join("t.toml");
    std::fs::write(
        &path,
        format!("name = \"t\"\ngame = \"tictactoe\"\ngames = 4\n{extra}\n{players}"),
    )
    .unwrap();
    path.display().to_string()
}

fn builtins() -> String {
    "[[players]]\nname = \"a\"\nbuiltin = \"random\"\n\n\
     [[players]]\nname = \"b\"\nbuiltin = \"random\"\n"
        .to_string()
}

#[test]
fn two_runs_on_one_output_directory_are_refused_naming_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker();
    let slow = |name: &str| {
        format!(
            "[[players]]\nname = \"{name}\"\ncommand = \"python3 {} slow:150 {marker}\"\n",
            script().display()
        )
    };
    let config = config(dir.path(), &(slow("a") + &slow("b")), "");
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let args = ["tournament", &config, "--out", out, "--resume"];
    let mut first = referee()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first run holds the lock once it has said who it is.
    let lock = dir.path().join("out/journal.jsonl.lock");
    let holder = format!("pid {} on ", first.id());
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&lock).is_ok_and(|text| text.starts_with(&holder)) {
        assert!(Instant::now() < deadline, "no lock taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    let message = refused(&args);
    assert!(
        message.contains("out/journal.jsonl is being written by another run of the referee (pid ")
            && message.contains(&holder)
            && message.contains("tournament")
            && message.ends_with(
                "one run at a time may write a journal, or both would play every game: wait \
                 for it to end, or use another --out\n"
            ),
        "{message}"
    );
    assert!(first.wait().unwrap().success());
    let journal = std::fs::read_to_string(dir.path().join("out/journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1 + 4, "{journal}");
    // Once the first is done, the journal is free: nothing is left to play.
    let output = run(&args);
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("played 0 games"));
    let left = survivors(&marker);
    assert!(left.is_empty(), "bot processes left running: {left:?}");
}

/// `--resume` into a folder that holds no journal says so (a mistyped `--out` would otherwise
/// start the tournament again without a word), then plays the tournament.
#[test]
fn resuming_where_there_is_no_journal_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &builtins(), "");
    let out = dir.path().join("never-made");
    let output = run(&[
        "tournament",
        &config,
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "nothing to resume: there was no journal at {}, so the tournament starts from its \
             first game",
            out.join("journal.jsonl").display()
        )),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("journal.jsonl"))
            .unwrap()
            .lines()
            .count(),
        5
    );
    let again = run(&[
        "tournament",
        &config,
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(!stdout.contains("nothing to resume"), "{stdout}");
}

#[test]
fn a_journal_is_read_strictly_and_with_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &builtins(), "");
    let out = dir.path().join("out");
    let output = run(&["tournament", &config, "--out", out.to_str().unwrap()]);
    assert!(output.status.success());
    let path = out.join("journal.jsonl");
    let journal = path.to_str().unwrap();
    let good = std::fs::read_to_string(&path).unwrap();
    assert_eq!(good.lines().count(), 5);

    // A game outside the schedule is not the 5th of 4 games, it is an error.
    let fifth = good
        .lines()
        .last()
        .unwrap()
        .replacen("\"index\":3", "\"index\":4", 1);
    std::fs::write(&path, format!("{good}{fifth}\n")).unwrap();
    let message = refused(&["standings", journal]);
    assert_eq!(
        message,
        format!(
            "referee: journal {journal}, line 6: game 5 is outside the schedule, which has 4 games\n"
        )
    );
    // Games without the header, or bytes that are no journal.
    let games_only: String = good.lines().skip(1).map(|l| format!("{l}\n")).collect();
    for junk in [games_only.as_bytes(), b"\x7fELF\x02\x01\x01\0\0\0\n\0\0\0"] {
        std::fs::write(&path, junk).unwrap();
        let message = refused(&["standings", journal]);
        assert!(
            message.starts_with(&format!(
                "referee: journal {journal}, line 1: not a journal's header"
            )),
            "{message}"
        );
    }
    let message = refused(&["standings", "/dev/zero"]);
    assert_eq!(
        message,
        "referee: journal /dev/zero, line 1: longer than 16 MiB, which no journal line is\n"
    );
    // A last line a crash cut short is still forgiven, and --resume plays that game again.
    let torn = &good[..good.len() - 20];
    std::fs::write(&path, torn).unwrap();
    let output = run(&["standings", journal]);
    assert!(output.status.success());
    let notes = String::from_utf8_lossy(&output.stderr);
    assert!(notes.contains("ignored"), "{notes}");
    let output = run(&[
        "tournament",
        &config,
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("played 1 game "));
}

#[test]
fn input_files_are_read_with_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let config_path = config(
        dir.path(),
        &builtins(),
        "openings = { file = \"/dev/zero\" }",
    );
    let message = refused(&["tournament", &config_path]);
    assert_eq!(
        message,
        format!(
            "referee: {config_path}: openings: cannot read the openings file /dev/zero: larger \
             than 16 MiB\n"
        )
    );
    let message = refused(&["tournament", "/dev/zero"]);
    assert!(message.contains("larger than 16 MiB"), "{message}");
}

/// A journal given twice (or journals that overlap) is noted once, not once per game: the
/// same journal twice printed a note for every game of it.
#[test]
fn games_in_two_journals_are_noted_once_for_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &builtins(), "");
    let out = dir.path().join("out");
    assert!(
        run(&["tournament", &config, "--out", out.to_str().unwrap()])
            .status
            .success()
    );
    let journal = out.join("journal.jsonl");
    let journal = journal.to_str().unwrap();
    let output = run(&["standings", journal, journal]);
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!("referee: note: {journal}: 4 games (1, 2, 3, 4) also in {journal}, counted once\n")
    );
}

/// An output directory that cannot be made is named: a file in its way was said as
/// 'cannot use the journal out/journal.jsonl: File exists'.
#[test]
fn an_output_directory_that_cannot_be_made_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &builtins(), "");
    let out = dir.path().join("out");
    std::fs::write(&out, "").unwrap();
    let message = refused(&["tournament", &config, "--out", out.to_str().unwrap()]);
    assert_eq!(
        message,
        format!(
            "referee: cannot make the output directory {}: File exists (os error 17)\n",
            out.display()
        )
    );
}

/// A tournament's output directory given to `standings` stands for its journals: the run
/// names the directory, and 'referee standings out' said 'cannot use the journal out: Is a
/// directory'. A directory with no journal is said to hold none.
#[test]
fn standings_of_an_output_directory_are_its_journals() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &builtins(), "");
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    assert!(run(&["tournament", &config, "--out", out]).status.success());
    let of_journal = run(&["standings", &format!("{out}/journal.jsonl")]);
    let of_directory = run(&["standings", out]);
    assert!(
        of_directory.status.success(),
        "{}",
        String::from_utf8_lossy(&of_directory.stderr)
    );
    assert_eq!(of_directory.stdout, of_journal.stdout);
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let message = refused(&["standings", empty.to_str().unwrap()]);
    assert_eq!(
        message,
        format!(
            "referee: {} holds no tournament journal (journal.jsonl, or a shard's \
             journal-K-of-N.jsonl)\n",
            empty.display()
        )
    );
}

/// Standings written over a journal they read are refused, the journal kept: '--json' naming
/// the journal (a slip of tab completion) replaced it with the standings.
#[test]
fn standings_are_not_written_over_a_journal_they_read() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &builtins(), "");
    let out = dir.path().join("out");
    assert!(
        run(&["tournament", &config, "--out", out.to_str().unwrap()])
            .status
            .success()
    );
    let journal = out.join("journal.jsonl");
    let before = std::fs::read(&journal).unwrap();
    let journal = journal.to_str().unwrap();
    let message = refused(&["standings", journal, "--json", journal]);
    assert_eq!(
        message,
        format!(
            "referee: --json {journal} is a journal read: writing the standings there would \
             destroy it; give another file\n"
        )
    );
    assert_eq!(std::fs::read(journal).unwrap(), before);
}
