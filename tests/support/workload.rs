//! What the benchmarks and the tests give the bots to cope with: processes spinning beside
//! them, and gomoku's balanced openings. Included with `#[path]` by tests/it (the spinners
//! only), benches/timing_fairness.rs and benches/gomoku_strength.rs; each uses only part of it.
#![allow(dead_code)]

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command};

/// `count` processes spinning until killed, each in a session of its own, as another user's
/// work would be: with autogroups, a spinner in the referee's own session would take the
/// referee's share of the CPU, not the bots'.
pub(crate) fn spinners(count: usize) -> Vec<Child> {
    (0..count)
        .map(|_| {
            let mut command = Command::new("sh");
            command.args(["-c", "while :; do :; done"]);
            // SAFETY: setsid is async-signal-safe and touches nothing of the parent's.
            unsafe {
                command.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
            command.spawn().expect("sh starts")
        })
        .collect()
}

/// The shipped deck of balanced gomoku openings, relative to the repository.
pub(crate) const GOMOKU_DECK: &str = "openings/gomoku.txt";

/// The openings of a deck (a path relative to the repository, or absolute), each as
/// `--opening` takes it: a line each, anything after a `#` a comment.
pub(crate) fn gomoku_openings(deck: &Path) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(deck);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the deck {}: {e}", path.display()));
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim().to_string())
        .filter(|line| !line.is_empty())
        .collect()
}
