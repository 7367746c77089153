//! The web pages' speed, in headless Chromium over WebDriver: the time to the first paint of
//! the index of a 10,000-game tournament and of a 400-move game's viewer, the server's memory,
//! and how many live games one browser follows without falling behind. Needs chromium and
//! chromedriver (apt-get install chromium chromium-driver). Run: cargo bench --bench web

use fantoccini::Client;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

#[path = "../tests/support/browser.rs"]
mod browser_support;

use browser_support::{start_with_url, Browser, Running};

/// `referee serve DIR` on a free port, and its address.
fn serve(dir: &Path) -> (Running, String) {
    let mut command = Command::new(REFEREE);
    command.arg("serve").arg(dir).args(["--port", "0"]);
    start_with_url(command)
}

fn eval(runtime: &tokio::runtime::Runtime, client: &Client, script: &str) -> Value {
    runtime
        .block_on(client.execute(script, Vec::new()))
        .unwrap()
}

/// Opens `url` in a fresh tab and returns the milliseconds from navigation to the mark `name`
/// and to the first contentful paint.
fn first_paint(
    runtime: &tokio::runtime::Runtime,
    client: &Client,
    url: &str,
    name: &str,
) -> (f64, f64) {
    runtime.block_on(client.goto("about:blank")).unwrap();
    runtime.block_on(client.goto(url)).unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let marks = eval(
            runtime,
            client,
            &format!(
                "const m = performance.getEntriesByName('{name}'); const p = performance.getEntriesByName('first-contentful-paint');
                 return m.length ? [m[0].startTime, p.length ? p[0].startTime : null] : null;"
            ),
        );
        if let Some(pair) = marks.as_array() {
            return (
                pair[0].as_f64().unwrap(),
                pair[1].as_f64().unwrap_or(f64::NAN),
            );
        }
        assert!(Instant::now() < deadline, "{url}: no {name}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The server's resident and peak resident memory, in KiB.
fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap()
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn run(args: &[&str]) {
    let status = Command::new(REFEREE)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "referee {args:?}");
}

// The benchmark's script, its steps in the order they are measured and printed.
fn main() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    record_games(dir);
    let (server, url) = serve(&dir.join("served"));
    let browser = Browser::start();
    measure_pages(&browser, &url);
    let (rss, peak) = memory(server.0.id());
    println!(
        "server memory after serving them: resident {} KiB, peak {} KiB",
        rss, peak
    );
    // Chromium opens at most 6 HTTP/1.1 connections to one server and each visible tab's
    // event stream holds one; a tab in the background lets its stream go and catches up when
    // shown (without that, a run with 8 tabs stalled).
    for k in [1usize, 4, 8] {
        measure_live(&browser, dir, k);
    }
}

/// Plays what the pages are measured on, into `dir/served`: a 10,000-game tournament and one
/// 400-move game.
fn record_games(dir: &Path) {
    // A 10,000-game tournament: five random bots, 1,000 games a pairing.
    let toml = dir.join("big.toml");
    let mut config = String::from("game = \"tictactoe\"\ngames = 1000\ntime = \"move=1000\"\n");
    for n in 1..=5 {
        config.push_str(&format!(
            "\n[[players]]\nname = \"random{n}\"\nbuiltin = \"random\"\n"
        ));
    }
    std::fs::write(&toml, config).unwrap();
    let started = Instant::now();
    run(&[
        "tournament",
        toml.to_str().unwrap(),
        "--out",
        dir.join("served/big").to_str().unwrap(),
        "-j",
        "2",
    ]);
    println!(
        "played the 10,000-game tournament in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    // A 400-move game: the greedy bot blocks every line of 10 on 20x20, so its games fill the
    // board.
    let long = dir.join("served/long");
    run(&[
        "match",
        "mnk",
        "builtin:greedy",
        "builtin:greedy",
        "-p",
        "size=20",
        "-p",
        "line=10",
        "--games",
        "1",
        "--record",
        long.to_str().unwrap(),
    ]);
}

/// Three rounds of the index's and a long game's first paint.
fn measure_pages(browser: &Browser, url: &str) {
    let (runtime, client) = (&browser.runtime, &browser.client);
    for round in 1..=3 {
        let (index, paint) = first_paint(runtime, client, &format!("{url}#/"), "games-shown");
        println!("run {round}: index of 10,001 games: first contentful paint {paint:.0} ms, first rows shown {index:.0} ms");
        let (board, paint) = first_paint(
            runtime,
            client,
            &format!("{url}#/game/served%2Flong/1"),
            "board-shown",
        );
        let moves = eval(
            runtime,
            client,
            "return document.querySelectorAll('ol.moves li').length;",
        );
        println!("run {round}: viewer of a {moves}-move game: first contentful paint {paint:.0} ms, board shown {board:.0} ms");
    }
}

/// Live games: `k` matches of slow bots at once (the scripted bot plays the first free square:
/// a line of 10 on 15x15 takes it well over the 12 s watched), one tab each, all in one
/// browser; after a while, how many moves behind the file each tab shows.
fn measure_live(browser: &Browser, dir: &Path, k: usize) {
    let (runtime, client) = (&browser.runtime, &browser.client);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/scripted.py");
    let bot = format!("python3 {} slow:300", script.display());
    let live = dir.join(format!("live{k}"));
    std::fs::create_dir_all(&live).unwrap();
    let (_live_server, live_url) = serve(&live);
    let matches: Vec<Running> = (0..k)
        .map(|i| {
            Running(
                Command::new(REFEREE)
                    .args([
                        "match",
                        "mnk",
                        "-p",
                        "size=15",
                        "-p",
                        "line=10",
                        &bot,
                        &bot,
                        "--games",
                        "1",
                        "--time",
                        "move=5000",
                        "--record",
                    ])
                    .arg(live.join(format!("m{i:02}")))
                    .stdout(Stdio::null())
                    .spawn()
                    .unwrap(),
            )
        })
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    let mut tabs = Vec::new();
    for i in 0..k {
        let window = runtime.block_on(client.new_window(true)).unwrap();
        runtime
            .block_on(client.switch_to_window(window.handle.clone()))
            .unwrap();
        runtime
            .block_on(client.goto(&format!("{live_url}#/game/live{k}%2Fm{i:02}/1")))
            .unwrap();
        tabs.push(window.handle);
    }
    std::thread::sleep(Duration::from_secs(10));
    let mut behind = Vec::new();
    for (i, tab) in tabs.iter().enumerate() {
        runtime
            .block_on(client.switch_to_window(tab.clone()))
            .unwrap();
        let shown = eval(runtime, client, "const b = document.querySelector('.board-box'); return b ? Number(b.dataset.ply) : -1;").as_i64().unwrap();
        let played = live_moves(&live.join(format!("m{i:02}")));
        assert!(
            played > 10,
            "live game {i} is not being played ({played} moves)"
        );
        behind.push(played - shown);
    }
    behind.sort_unstable();
    println!("{k} live games in {k} tabs of one browser: moves behind after 10 s: median {}, worst {} ({:?})", behind[behind.len() / 2], behind[behind.len() - 1], behind);
    for tab in tabs {
        runtime.block_on(client.switch_to_window(tab)).unwrap();
        runtime.block_on(client.close_window()).unwrap();
    }
    let first = runtime.block_on(client.windows()).unwrap();
    runtime
        .block_on(client.switch_to_window(first[0].clone()))
        .unwrap();
    drop(matches);
}

/// The moves so far of the game being recorded into `dir`: its live file's lines after the
/// header (`live-PID-N.jsonl`, docs/web.md), -1 when there is none.
fn live_moves(dir: &Path) -> i64 {
    let live = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .find(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with("live-") && name.ends_with(".jsonl")
        });
    let text = live
        .and_then(|entry| std::fs::read_to_string(entry.path()).ok())
        .unwrap_or_default();
    text.lines().count() as i64 - 1
}
