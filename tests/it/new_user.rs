//! The README's path for a new bot author, run as it is written there: the bot of "Your first
//! bot" is checked, plays a match and a gauntlet; the configuration example of "Tournaments"
//! loads, its openings deck included.

use crate::common::{referee, repo_file};
use std::path::Path;
use std::process::Output;

/// The fenced block of the README that starts with `first_line`, without its fences.
fn readme_block(first_line: &str) -> String {
    let readme = std::fs::read_to_string(repo_file("README.md")).unwrap();
    let start = readme
        .find(&format!("\n{first_line}\n"))
        .unwrap_or_else(|| panic!("no block starting {first_line:?} in the README"))
        + 1;
    let end = start + readme[start..].find("\n```").unwrap();
    readme[start..=end].to_string()
}

/// Runs the referee in `dir` and returns its output, asserting that it exited with `code`.
fn referee_in(dir: &Path, args: &[&str], code: i32) -> Output {
    let output = referee().current_dir(dir).args(args).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(code),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn the_readme_walkthrough_works_as_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("firstbot.py"),
        readme_block("# firstbot.py: plays the free square nearest the centre."),
    )
    .unwrap();
    let bot = "python3 firstbot.py";

    let check = referee_in(dir.path(), &["check", "tictactoe", bot], 0);
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert!(stdout.contains("\ncompliant: 0 problems"), "{stdout}");

    let matched = referee_in(
        dir.path(),
        &["match", "tictactoe", bot, "builtin:random", "--games", "4"],
        0,
    );
    let stdout = String::from_utf8_lossy(&matched.stdout);
    assert!(
        stdout.contains("\nscore: A ") && stdout.contains("\npairs: ["),
        "{stdout}"
    );

    std::fs::write(
        dir.path().join("gauntlet.toml"),
        readme_block("game = \"tictactoe\"\nformat = \"gauntlet\""),
    )
    .unwrap();
    let gauntlet = referee_in(dir.path(), &["tournament", "gauntlet.toml", "-j", "1"], 0);
    let stdout = String::from_utf8_lossy(&gauntlet.stdout);
    assert!(
        stdout.contains("firstbot against each opponent, ranked by its score"),
        "{stdout}"
    );
    assert!(dir.path().join("results/gauntlet/journal.jsonl").is_file());
}

#[test]
fn the_readme_configuration_example_loads_with_its_openings() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("league.toml");
    std::fs::write(
        &config,
        readme_block("name = \"league\"                  # default: the file's name without .toml"),
    )
    .unwrap();
    // Relative paths are taken from the directory the referee runs in: cargo runs the tests
    // in the repository's root.
    let tournament = referee_core::tournament::config::Tournament::load(&config).unwrap();
    assert!(
        tournament
            .openings
            .description()
            .starts_with("openings/gomoku.txt ("),
        "{}",
        tournament.openings.description()
    );
}
