//! The starter kits of every profiled language (bots/cpp, bots/java, bots/rust, bots/go,
//! bots/javascript), for m,n,k games, ultimate tic-tac-toe, dots and boxes and checkers, built
//! from their sources by their language's profile, in the sandbox, and passing `referee check`:
//! `referee contest contests/starter-kits.toml --prepare-only` (and starter-kits-uttt.toml,
//! starter-kits-dots.toml, starter-kits-checkers.toml), which does both for each. The checkers
//! kits, whose move generation is the longest, then play whole games against the built-in bots
//! (from the start, from ballots, a forced multi-jump, a draw offered and accepted), each game
//! replayed on the referee's rules. The toolchains are Debian's (g++, default-jdk-headless,
//! golang-go, nodejs, rustc): the tests are ignored by a plain `cargo test`, and `.ci/run` installs
//! the toolchains and runs them with `--include-ignored`.

use crate::common::{referee, repo_file, Bot, RANDOM};
use crate::starter_bots::{checkers_ballots, plays_by_the_rules};
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;

/// The compilers and runtimes the profiles call, where the sandbox sees them.
const TOOLCHAINS: [&str; 6] = ["g++", "javac", "java", "go", "node", "rustc"];

/// The kits of a family: each one's player name in the contest files (its language too), and
/// the word that starts the name it answers `ready` with (`js-checkers-starter`).
const KITS: [(&str, &str); 5] = [
    ("cpp", "cpp"),
    ("java", "java"),
    ("rust", "rust"),
    ("go", "go"),
    ("javascript", "js"),
];

/// Fails the test, saying which toolchains are missing, when the kits cannot be built here.
fn require_toolchains() {
    let missing: Vec<&str> = TOOLCHAINS
        .into_iter()
        .filter(|tool| {
            !["/usr/bin", "/bin"]
                .iter()
                .any(|dir| Path::new(dir).join(tool).exists())
        })
        .collect();
    assert!(
        missing.is_empty(),
        "the starter kits need {} (apt-get install g++ default-jdk-headless golang-go nodejs rustc)",
        missing.join(", ")
    );
}

#[test]
#[ignore = "needs Debian's g++, default-jdk-headless, golang-go, nodejs and rustc; .ci/run runs it"]
fn the_mnk_uttt_and_dots_kits_build_with_their_profile_and_pass_the_check() {
    require_toolchains();
    for contest in [
        "contests/starter-kits.toml",
        "contests/starter-kits-uttt.toml",
        "contests/starter-kits-dots.toml",
    ] {
        prepare_and_check(contest);
    }
}

/// Each checkers kit, built and checked, plays as player A: from the start against
/// `builtin:random`, from three ballots against `builtin:greedy` (both colours), the forced
/// triple jump, and against itself with two level kings, where it offers a draw and accepts it.
/// An illegal move, or a move the referee's rules would not replay, fails the test.
#[test]
#[ignore = "needs Debian's g++, default-jdk-headless, golang-go, nodejs and rustc; .ci/run runs it"]
fn the_checkers_kits_build_pass_the_check_and_play_by_the_rules() {
    require_toolchains();
    let (_out, players) = prepare_and_check("contests/starter-kits-checkers.toml");
    let ballots = checkers_ballots();
    for (player, prefix) in KITS {
        let entry = players.iter().find(|p| p["name"] == player).unwrap();
        let kit = Bot::from(entry["command"].as_str().unwrap());
        let name = format!("{prefix}-checkers-starter");
        let play = |opponent: Bot, games: u32, extra: &[&str]| {
            plays_by_the_rules(kit.clone(), opponent, &name, "checkers", games, extra)
        };
        play(RANDOM.into(), 4, &[]);
        for ballot in [
            &ballots[0],
            &ballots[ballots.len() / 2],
            &ballots[ballots.len() - 1],
        ] {
            let played = play(
                "builtin:greedy".into(),
                2,
                &["--opening", &ballot.join(",")],
            );
            for record in &played.records {
                assert_eq!(record["opening"], serde_json::json!(ballot));
            }
        }
        // Black's only legal move takes three men: 1x10x19x28.
        let jumped = play(RANDOM.into(), 2, &["-p", "fen=B:W6,15,24,27:B1,12"]);
        let as_black = jumped
            .records
            .iter()
            .find(|r| r["players"][0]["label"] == "A");
        assert_eq!(as_black.unwrap()["moves"][0]["move"], "1x10x19x28");
        // With level kings the kit offers a draw with its move, and accepts one: against
        // itself (for Java, two JVMs at once with the same pid, each in its PID namespace, which
        // the Java profile keeps from warning on stdout).
        let drawn = play(kit.clone(), 2, &["-p", "fen=B:WK32:BK1"]);
        for record in &drawn.records {
            assert_eq!(record["result"]["reason"], "agreement", "{record:#}");
            assert_eq!(record["moves"][0]["offers_draw"], true, "{record:#}");
        }
    }
}

/// Builds and checks the starter kits a contest file lists: every one plays, compliant. Returns
/// the contest's output (its builds) and its list of players.
fn prepare_and_check(contest: &str) -> (tempfile::TempDir, Vec<Value>) {
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
    for (name, _) in KITS {
        let player = players.iter().find(|p| p["name"] == name).unwrap();
        assert_eq!(player["language"], name, "{player}");
        assert_eq!(player["status"], "plays", "{contest}: {stdout}");
        assert_eq!(player["problems"], serde_json::json!([]), "{stdout}");
        let build = player["build"].as_str().unwrap();
        assert!(
            build.starts_with("built in") || build == "cached",
            "{build}"
        );
    }
    (out, players)
}
