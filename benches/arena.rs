//! Arena throughput against a plain tournament of the same bots (`cargo bench --bench arena`;
//! needs bubblewrap and gcc, like the arena itself).
//!
//! Two copies of an instant C bot (tests/bots/first_free.c, built by the arena in its box and
//! by gcc here for the tournament) and the three built-in bosses at tic-tac-toe, with the
//! ladder's settings on both sides (boxed, 512 MB each, a second a move), every bot started
//! afresh for each game, two games at once: the arena's games recorded per second (each
//! stored in its own synced transaction with its ratings, its record written as files) over
//! 30 s once the placement games are done, against `referee tournament -j 2` of a round robin
//! of the same five bots (bosses meeting too, as the arena's never do, but the bots all start
//! and answer at once, so the mix of pairs costs nothing).

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn referee() -> Command {
    Command::new(env!("CARGO_BIN_EXE_referee"))
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn get(url: &str, path: &str) -> Value {
    ureq::get(&format!("{url}{path}"))
        .call()
        .unwrap()
        .into_json()
        .unwrap()
}

fn games(url: &str) -> i64 {
    get(url, "/api/status")["games"].as_i64().unwrap()
}

fn arena(dir: &Path, bot: &Path) -> f64 {
    let arena = dir.join("arena");
    assert!(referee()
        .args(["arena", "init"])
        .arg(&arena)
        .status()
        .unwrap()
        .success());
    let mut child = referee()
        .args(["arena", "serve"])
        .arg(&arena)
        .args(["--port", "0", "--slots", "2"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let _server = Killed(child);
    let line = lines.next().unwrap().unwrap();
    let url = line[line.find("http://").unwrap()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let token = referee()
        .args(["arena", "token"])
        .arg(&arena)
        .arg("bench")
        .output()
        .unwrap();
    let token = String::from_utf8(token.stdout).unwrap().trim().to_string();
    for name in ["ff-a", "ff-b"] {
        let status = referee()
            .args(["arena", "submit", "--server", &url, "--token", &token])
            .args(["--ladder", "tictactoe", "--name", name, "--wait"])
            .arg(bot)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    }
    while games(&url) < 12 {
        std::thread::sleep(Duration::from_millis(100));
    }
    let (start, at) = (games(&url), Instant::now());
    std::thread::sleep(Duration::from_secs(30));
    let end = games(&url);
    (end - start) as f64 / at.elapsed().as_secs_f64()
}

fn tournament(dir: &Path, bot: &Path) -> f64 {
    let binary = dir.join("first-free");
    let built = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(bot.join("main.c"))
        .status()
        .unwrap();
    assert!(built.success(), "gcc");
    let command = binary.display().to_string();
    let mut text = String::from(
        "game = \"tictactoe\"\nformat = \"round-robin\"\ngames = 20\nsandbox = true\n\
         reuse_processes = false\ntime = \"move=1000\"\nlimits = \"memory=512\"\n",
    );
    for name in ["ff-a", "ff-b"] {
        text.push_str(&format!(
            "[[players]]\nname = \"{name}\"\ncommand = \"{command}\"\n"
        ));
    }
    for level in ["random", "greedy", "strong"] {
        text.push_str(&format!(
            "[[players]]\nname = \"{level}\"\nbuiltin = \"{level}\"\n"
        ));
    }
    let file = dir.join("round-robin.toml");
    std::fs::write(&file, text).unwrap();
    let started = Instant::now();
    let output = referee()
        .arg("tournament")
        .arg(&file)
        .arg("--out")
        .arg(dir.join("out"))
        .args(["-j", "2"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let journal = std::fs::read_to_string(dir.join("out/journal.jsonl")).unwrap();
    let played = journal.lines().count().saturating_sub(1);
    played as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/first_free.c"),
        bot.join("main.c"),
    )
    .unwrap();
    let in_arena = arena(dir.path(), &bot);
    let plain = tournament(dir.path(), &bot);
    println!("arena: {in_arena:.1} games/s recorded (2 slots)");
    println!("tournament: {plain:.1} games/s (-j 2)");
    println!("arena / tournament: {:.2}", in_arena / plain);
}
