//! The starter kits of every profiled language (bots/cpp, bots/java, bots/rust, bots/go,
//! bots/javascript), for m,n,k games, ultimate tic-tac-toe and dots and boxes, built from their
//! sources by their language's profile, in the sandbox, and passing `referee check`: `referee
//! contest contests/starter-kits.toml --prepare-only` (and starter-kits-uttt.toml,
//! starter-kits-dots.toml), which does both for each. The toolchains are Debian's (g++, default-jdk-headless, golang-go,
//! nodejs, rustc), which .ci/run installs; without one the test says 'skipped:'.

use crate::common::{referee, repo_file};
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;

/// The compilers and runtimes the profiles call, where the sandbox sees them.
const TOOLCHAINS: [&str; 6] = ["g++", "javac", "java", "go", "node", "rustc"];

#[test]
fn every_starter_kit_builds_with_its_profile_and_passes_the_check() {
    let missing: Vec<&str> = TOOLCHAINS
        .into_iter()
        .filter(|tool| {
            !["/usr/bin", "/bin"]
                .iter()
                .any(|dir| Path::new(dir).join(tool).exists())
        })
        .collect();
    if !missing.is_empty() {
        println!("skipped: the starter kits need {} (apt-get install g++ default-jdk-headless golang-go nodejs rustc)", missing.join(", "));
        return;
    }
    for contest in [
        "contests/starter-kits.toml",
        "contests/starter-kits-uttt.toml",
    ] {
        prepare_and_check(contest);
    }
}

/// Builds and checks the starter kits a contest file lists: every one plays, compliant.
fn prepare_and_check(contest: &str) {
    let out = tempfile::tempdir().unwrap();
    let output = referee()
        .current_dir(repo_file(""))
        .args(["contest", contest, "--prepare-only", "-j", "2", "--out"])
        .arg(out.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(out.path().join("players.json")).unwrap();
    let players: Vec<Value> = serde_json::from_str(&text).unwrap();
    for (name, language) in [
        ("cpp", "cpp"),
        ("java", "java"),
        ("rust", "rust"),
        ("go", "go"),
        ("javascript", "javascript"),
    ] {
        let player = players.iter().find(|p| p["name"] == name).unwrap();
        assert_eq!(player["language"], language, "{player}");
        assert_eq!(player["status"], "plays", "{contest}: {stdout}");
        assert_eq!(player["problems"], serde_json::json!([]), "{stdout}");
        let build = player["build"].as_str().unwrap();
        assert!(
            build.starts_with("built in") || build == "cached",
            "{build}"
        );
    }
}
