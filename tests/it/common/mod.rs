//! Helpers shared by the integration tests: the referee binary, the scripted test bot
//! (tests/bots/scripted.py), and the search for bot processes a test left behind.

#![allow(dead_code)] // Not every helper is used yet.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub fn referee() -> Command {
    Command::new(env!("CARGO_BIN_EXE_referee"))
}

pub fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/scripted.py")
}

/// A unique word put on each bot's command line, to find its processes afterwards.
pub fn marker() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "marker-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// The scripted bot misbehaving as `mode`, tagged with `marker`.
pub fn bot(mode: &str, marker: &str) -> String {
    format!("python3 {} {mode} {marker}", script().display())
}

/// Processes whose command line (or status, for zombies) mentions `marker`, after giving the
/// kernel (and a referee finishing its last games) a moment to end them.
pub fn survivors(marker: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
                continue;
            };
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            // Zombies have an empty cmdline; check their status too.
            let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
            if cmdline.contains(marker) || (status.contains("State:\tZ") && status.contains(marker))
            {
                found.push(format!(
                    "{}: {cmdline}",
                    entry.file_name().to_string_lossy()
                ));
            }
        }
        if found.is_empty() || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `referee match GAME A B --record DIR EXTRA...`, asserting a clean exit and that no
/// process tagged `marker` survives it; returns its standard output and the record directory.
pub fn run_match(
    game: &str,
    a: &str,
    b: &str,
    extra: &[&str],
    marker: &str,
) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let output = referee()
        .args(["match", game, a, b, "--record"])
        .arg(dir.path())
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "referee failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let left = survivors(marker);
    assert!(left.is_empty(), "bot processes left running: {left:?}");
    (stdout, dir)
}
