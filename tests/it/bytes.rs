//! Hostile bots (tests/bots/bytes.py) against the referee: what a bot writes reaches its
//! opponent, the terminal and the text files escaped, and the record exactly; only spaces and
//! tabs are blanks; a bot that exits is judged at once whoever holds its pipes; and the
//! referee's memory stays flat whatever a bot floods.

use crate::common::{hostile, hostile_brain, scripted, survivors, Match, Outcome, RANDOM};
use serde_json::Value;
use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

/// Whether `text` holds a byte that drives a terminal or ends a line: a control character
/// other than LF.
fn has_control(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\n')
}

#[test]
fn a_faked_turn_in_a_result_line_reaches_no_opponent() {
    // A's answer quoted in the result line B is sent would end a line at each CR for B.
    let outcome = Match::new("tictactoe")
        .a(hostile("inject-move"))
        .b(hostile("victim"))
        .games(2)
        .run();
    for record in &outcome.records {
        let attacker = if record["number"] == 1 { 0 } else { 1 };
        assert_eq!(record["result"]["reason"], "not-a-move", "{record:#}");
        assert_eq!(record["players"][attacker]["points"], 0.0, "{record:#}");
        assert_eq!(
            record["result"]["line"], "x\rturn 1000",
            "the record keeps it exactly"
        );
        let detail = record["result"]["detail"].as_str().unwrap();
        assert!(detail.contains("sent 'x\\rturn 1000'"), "{detail}");
    }
    assert!(!has_control(&outcome.stdout), "{:?}", outcome.stdout);
    for (name, text) in outcome.files_ending(".transcript.txt") {
        assert!(!has_control(&text), "{name}: {text:?}");
        assert!(text.contains("A< x\\rturn 1000"), "{name}: {text}");
    }
    assert_no_faked_turn(&outcome);
}

/// Asserts that no victim (which reports a `turn` read after a game's `result` on stderr) saw
/// a turn that the referee did not send.
fn assert_no_faked_turn(outcome: &Outcome) {
    for (name, text) in outcome.files_ending(".stderr.txt") {
        assert!(!text.contains("FAKED TURN"), "{name}: {text}");
    }
}

#[test]
fn a_ready_line_quoted_to_the_opponent_fakes_no_turn() {
    // B's setup comes after A's, so A is sent the result of B's refused ready line.
    let outcome = Match::new("tictactoe")
        .a(hostile("victim"))
        .b(hostile("inject-ready"))
        .games(1)
        .run();
    let record = outcome.record();
    assert_eq!(record["result"]["reason"], "not-ready", "{record:#}");
    assert_eq!(
        record["result"]["detail"],
        "B (second player) not ready: expected 'ready NAME VERSION' or 'ready NAME VERSION \
         multi', got 'ready x\\rturn 1000' ('\\r' is not allowed: a line is printable ASCII, \
         its words separated by spaces or tabs) during the setup"
    );
    let transcript = outcome.file("0001.transcript.txt");
    assert!(!has_control(&transcript), "{transcript:?}");
    assert!(
        transcript.contains("A> result win not-ready B (second player) not ready"),
        "{transcript}"
    );
    assert_no_faked_turn(&outcome);
}

#[test]
fn terminal_escapes_reach_no_terminal_and_no_text_file() {
    let outcome = Match::new("tictactoe")
        .a(hostile("ansi"))
        .b(scripted("good"))
        .games(1)
        .run();
    let record = outcome.record();
    assert_eq!(record["result"]["reason"], "not-a-move", "{record:#}");
    assert_eq!(record["result"]["line"], "\u{1b}[2J\u{1b}]0;pwned\u{7}0 0");
    let detail = record["result"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("sent '\\x1b[2J\\x1b]0;pwned\\x070 0'"),
        "{detail}"
    );
    assert!(!has_control(&outcome.stdout), "{:?}", outcome.stdout);
    assert!(outcome.stdout.contains("\\x1b[2J"), "{}", outcome.stdout);
    let transcript = outcome.file("0001.transcript.txt");
    assert!(!has_control(&transcript), "{transcript:?}");
    // The record is JSON: its own escapes carry the bytes, and the file has no control byte.
    let json = outcome.file("0001.json");
    assert!(!has_control(&json) && json.contains("\\u001b[2J"), "{json}");
}

#[test]
fn only_spaces_and_tabs_are_blanks_in_a_move() {
    for (kind, written) in [
        ("nbsp", "0\\u{a0}0"),
        ("ideographic", "0 0\\u{3000}"),
        ("vt", "\\x0b0 0"),
        ("ff", "0 0\\x0c"),
        ("crcr", "0 0\\r"),
    ] {
        let outcome = Match::new("tictactoe")
            .a(hostile(&format!("blank:{kind}")))
            .b(scripted("good"))
            .games(1)
            .run();
        let record = outcome.record();
        assert_eq!(
            record["result"]["reason"], "not-a-move",
            "{kind}: {record:#}"
        );
        assert!(record["moves"].as_array().unwrap().is_empty(), "{kind}");
        let detail = record["result"]["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!(
                "A (first player) sent '{written}' for move 1, which is not a move: '"
            )) && detail.ends_with(
                "' is not allowed: a line is printable ASCII, its words separated by spaces or tabs"
            ),
            "{kind}: {detail}"
        );
    }
}

#[test]
fn a_bot_that_exits_is_judged_at_once_whoever_holds_its_pipes() {
    // The grandchild keeps the bot's stdin and stdout open for an hour, in a session of its
    // own; the bot itself exits at its first turn, with 10 s in its bank.
    let outcome = Match::new("tictactoe")
        .a(hostile("orphan"))
        .b(scripted("good"))
        .time("bank=10000")
        .games(1)
        .run();
    let record = outcome.record();
    assert_eq!(record["result"]["reason"], "exited", "{record:#}");
    assert_eq!(
        record["result"]["detail"],
        "A (first player) exited with code 0 before the game ended at move 1"
    );
    assert!(outcome.took < Duration::from_secs(5), "{:?}", outcome.took);
}

/// What a match run apart from the [`Match`] builder left: its record directory, its standard
/// output, and the peak resident memory of the referee process itself, in KiB.
struct Measured {
    stdout: String,
    peak_kib: u64,
    records: Option<tempfile::TempDir>,
}

impl Measured {
    fn record(&self) -> Value {
        let dir = self.records.as_ref().expect("recorded");
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("0001.json")).unwrap())
            .unwrap()
    }
}

/// The high-water mark of a running process's resident memory (`VmHWM`), in KiB. Unlike the
/// `ru_maxrss` of `wait4`, it is the process's own since its exec: not its parent's (a spawn
/// records the parent's in the child's), nor its children's.
fn high_water_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `played`, recorded or not, and measures the referee's peak resident memory: its
/// high-water mark, read every 10 ms until it exits.
fn measured(played: Match, record: bool) -> Measured {
    let records = record.then(|| tempfile::tempdir().unwrap());
    let played = match &records {
        Some(dir) => played.record(dir.path()),
        None => played,
    };
    let marker = played.marker().to_string();
    let mut child = played
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).unwrap();
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let mut peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        peak_kib = peak_kib.max(high_water_kib(child.id()).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(10));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    assert!(status.success(), "{stderr}\n{stdout}");
    assert!(peak_kib > 0, "never measured");
    let left = survivors(&marker);
    assert!(left.is_empty(), "bot processes left running: {left:?}");
    Measured {
        stdout,
        peak_kib,
        records,
    }
}

/// Far above the referee's 10 MiB or so, far below what keeping a flood costs (hundreds of MiB
/// a second).
const PEAK_BOUND_KIB: u64 = 64 * 1024;

#[test]
fn flooding_any_channel_keeps_the_referees_memory_flat() {
    // A Gomocup brain writes MESSAGE lines, which are allowed at any time, for 2 s before its
    // OK, 2 s before its first move and 2 s after it while nobody asked, then exits at its
    // second move; recorded and not.
    let brain = || {
        Match::new("gomoku")
            .a(hostile_brain("brain-flood:2"))
            .b(RANDOM)
            .time("move=4000")
            .games(1)
    };
    for record in [true, false] {
        let run = measured(brain(), record);
        eprintln!("brain flood, recorded {record}: peak {} KiB", run.peak_kib);
        assert!(run.peak_kib < PEAK_BOUND_KIB, "{} KiB", run.peak_kib);
        assert!(
            run.stdout.contains("A (first player) exited with code 0"),
            "{}",
            run.stdout
        );
        if record {
            let record = run.record();
            let dropped = &record["players"][0]["dropped"];
            assert!(
                dropped["transcript_lines"].as_u64().unwrap() > 100_000,
                "{record:#}"
            );
            let dir = run.records.as_ref().unwrap().path();
            let transcript = std::fs::read_to_string(dir.join("0001.transcript.txt")).unwrap();
            // The cap's note ends the game's lines; only the quit of B, kept for a next game
            // until the match ended, comes after it.
            let mut lines = transcript.lines().rev();
            assert!(lines.next().unwrap().ends_with(" B> quit"), "{transcript}");
            let note = lines.next().unwrap();
            assert!(
                note.starts_with("[referee: A wrote ") && note.ends_with("read and dropped]"),
                "{note}"
            );
            assert!(transcript.lines().count() < 10_100);
        }
    }
    // stderr, for 2 s, then the bot plays the game out.
    let run = measured(
        Match::new("tictactoe")
            .a(hostile("flood-stderr:2"))
            .b(scripted("good"))
            .time("move=4000")
            .games(1),
        true,
    );
    eprintln!("stderr flood: peak {} KiB", run.peak_kib);
    assert!(run.peak_kib < PEAK_BOUND_KIB, "{} KiB", run.peak_kib);
    let record = run.record();
    assert_eq!(record["result"]["reason"], "line", "{record:#}");
    assert!(
        record["players"][0]["dropped"]["stderr_bytes"]
            .as_u64()
            .unwrap()
            > 1 << 20
    );
    // A line that never ends.
    let run = measured(
        Match::new("tictactoe")
            .a(hostile("endless-line"))
            .b(scripted("good"))
            .games(1),
        true,
    );
    assert!(run.peak_kib < PEAK_BOUND_KIB, "{} KiB", run.peak_kib);
    assert_eq!(run.record()["result"]["reason"], "line-too-long");
}
