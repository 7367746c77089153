//! `referee arena`: a server started on a temporary folder, bots submitted from the command
//! line, built, validated and playing; `kill -9` in the middle of games and a restart that
//! loses nothing and counts nothing twice; uploads refused without authority or from a
//! hostile archive. The server needs bubblewrap (every build is boxed).

use crate::browser_support::{start_with_url, Running};
use crate::common::{referee, repo_file, succeeded};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

/// `referee arena serve DIR` on a free port with two game slots, and its address.
pub(crate) fn serve(dir: &Path) -> (Running, String) {
    serve_at(dir, 0)
}

/// [`serve`] at `port` (0: any free port).
pub(crate) fn serve_at(dir: &Path, port: u16) -> (Running, String) {
    let mut command = referee();
    command
        .args(["arena", "serve"])
        .arg(dir)
        .args(["--port", &port.to_string(), "--slots", "2"]);
    start_with_url(command)
}

pub(crate) fn init(dir: &Path) {
    succeeded(&referee().args(["arena", "init"]).arg(dir).output().unwrap());
}

/// Sets the time control of the ladder `ladder` in the arena's `arena.toml` (made by [`init`])
/// to `time`, editing only that ladder's section and checking that the edit took.
pub(crate) fn set_ladder_time(dir: &Path, ladder: &str, time: &str) {
    let settings = dir.join("arena.toml");
    let text = std::fs::read_to_string(&settings).unwrap();
    let start = text
        .find(&format!("name = \"{ladder}\""))
        .expect("the ladder is in arena.toml");
    let end = text[start..]
        .find("[[ladders]]")
        .map_or(text.len(), |at| start + at);
    let section = &text[start..end];
    let edited = section.replacen("time = \"move=1000\"", &format!("time = \"{time}\""), 1);
    assert_ne!(
        edited, section,
        "the ladder's time control is where the test expects it"
    );
    std::fs::write(
        &settings,
        format!("{}{edited}{}", &text[..start], &text[end..]),
    )
    .unwrap();
}

/// Sets a setting of the arena's `arena.toml` (made by [`init`]): the line `from` becomes `to`.
fn set_setting(dir: &Path, from: &str, to: &str) {
    let path = dir.join("arena.toml");
    let settings = std::fs::read_to_string(&path).unwrap();
    assert!(settings.contains(from), "{from} is in arena.toml");
    std::fs::write(&path, settings.replace(from, to)).unwrap();
}

pub(crate) fn token(dir: &Path, user: &str, admin: bool) -> String {
    let mut command = referee();
    command.args(["arena", "token"]).arg(dir).arg(user);
    if admin {
        command.arg("--admin");
    }
    succeeded(&command.output().unwrap()).trim().to_string()
}

/// A folder holding `file` of the repository as main.py.
pub(crate) fn sources(dir: &Path, name: &str, file: &str) -> std::path::PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(repo_file(file), folder.join("main.py")).unwrap();
    folder
}

pub(crate) fn submit(url: &str, token: &str, name: &str, folder: &Path) -> std::process::Output {
    referee()
        .args(["arena", "submit", "--server", url, "--token", token])
        .args(["--ladder", "tictactoe", "--name", name, "--wait"])
        .arg(folder)
        .output()
        .unwrap()
}

pub(crate) fn get(url: &str, path: &str) -> Value {
    ureq::get(&format!("{url}{path}"))
        .call()
        .unwrap()
        .into_json()
        .unwrap()
}

/// Waits until the arena has stored at least `games` games; returns how many it has.
fn wait_for_games(url: &str, games: i64) -> i64 {
    let started = Instant::now();
    loop {
        let status = get(url, "/api/status");
        let stored = status["games"].as_i64().unwrap();
        if stored >= games {
            return stored;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "only {stored} games: {status}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn bots_submitted_play_and_a_kill_9_loses_nothing_and_counts_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (server, url) = serve(&arena);
    let alice = token(&arena, "alice", false);
    let first = sources(dir.path(), "ff", "tests/bots/first_free.py");
    let out = succeeded(&submit(&url, &alice, "firstfree", &first));
    assert!(out.contains(": passed"), "{out}");
    let starter = sources(dir.path(), "starter", "bots/python/mnk.py");
    let out = succeeded(&submit(&url, &alice, "starter", &starter));
    assert!(out.contains(": passed"), "{out}");
    // The upload's id counts every version of the arena (the bosses' first); the bot's first
    // version is its 1: each number is said as what it is.
    assert!(out.starts_with("starter uploaded (upload id "), "{out}");
    assert!(out.contains("\nversion 1 ("), "{out}");

    // Games go on while the server is killed, in the middle of some.
    wait_for_games(&url, 16);
    let started = Instant::now();
    while get(&url, "/api/status")["playing"].as_i64().unwrap() == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no game in flight"
        );
    }
    let mut server = server;
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    drop(server);
    let (_server, url) = serve(&arena);
    let before = get(&url, "/api/status")["games"].as_i64().unwrap();
    wait_for_games(&url, before + 12);

    // The numbers are 1..=N: no duplicate, no hole.
    let games = get(&url, "/api/ladders/tictactoe/games?limit=1000");
    let mut numbers: Vec<i64> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["number"].as_i64().unwrap())
        .collect();
    numbers.sort_unstable();
    let expected: Vec<i64> = (1..=numbers.len() as i64).collect();
    assert_eq!(numbers, expected);
    // Every placement game of each version was played once with each colour, none twice.
    let placements = games
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["placement"] == json!(true))
        .count();
    assert_eq!(
        placements,
        2 * 2 * 3,
        "two bots, three bosses, both colours"
    );

    // The ratings are a pure function of the stored results.
    let admin = token(&arena, "root", true);
    let rerated: Value = ureq::post(&format!("{url}/api/admin/rerate"))
        .set("Authorization", &format!("Bearer {admin}"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(rerated["changed"], json!(false), "{rerated}");

    let board = succeeded(
        &referee()
            .args(["arena", "leaderboard", "--server", &url])
            .args(["--ladder", "tictactoe", "--json"])
            .output()
            .unwrap(),
    );
    let board: Value = serde_json::from_str(&board).unwrap();
    let rows = board["rows"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["bot"].as_str().unwrap()).collect();
    for name in ["firstfree", "starter", "builtin-strong", "builtin-random"] {
        assert!(names.contains(&name), "{names:?}");
    }
    for row in rows {
        assert!(row["games"].as_i64().unwrap() > 0, "{row}");
        let conservative = row["mu"].as_f64().unwrap() - 3.0 * row["sigma"].as_f64().unwrap();
        assert!((row["conservative"].as_f64().unwrap() - conservative).abs() < 1e-9);
    }
    let text = succeeded(
        &referee()
            .args([
                "arena",
                "leaderboard",
                "--server",
                &url,
                "--ladder",
                "tictactoe",
            ])
            .output()
            .unwrap(),
    );
    assert!(
        text.contains("firstfree v1") && text.contains("±"),
        "{text}"
    );
    administration(&url, &alice, &admin);
}

/// An administrator pauses the ladder and retires a bot; nobody else may. Another's bot shows
/// no build log, validation or reason; its owner's does.
fn administration(url: &str, alice: &str, admin: &str) {
    let pause = "/api/admin/ladders/tictactoe/pause";
    let as_alice = format!("Bearer {alice}");
    let as_admin = format!("Bearer {admin}");
    let json_body = ("content-type", "application/json");
    let paused = br#"{"paused": true}"#;
    let (status, _) = post(
        url,
        pause,
        &[("authorization", &as_alice), json_body],
        paused,
    );
    assert_eq!(status, 403);
    let (status, body) = post(
        url,
        pause,
        &[("authorization", &as_admin), json_body],
        paused,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        get(url, "/api/ladders/tictactoe/leaderboard")["paused"],
        json!(true)
    );
    let started = Instant::now();
    while get(url, "/api/status")["playing"].as_i64().unwrap() > 0 {
        assert!(started.elapsed() < Duration::from_secs(60));
    }
    let paused_at = get(url, "/api/status")["games"].as_i64().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        get(url, "/api/status")["games"].as_i64().unwrap(),
        paused_at
    );
    let (status, body) = post(
        url,
        "/api/admin/ladders/tictactoe/bots/starter/retire",
        &[("authorization", &as_admin)],
        b"",
    );
    assert_eq!(status, 200, "{body}");
    let board = get(url, "/api/ladders/tictactoe/leaderboard");
    assert!(!board.to_string().contains("\"starter\""), "{board}");
    let public = get(url, "/api/ladders/tictactoe/bots/firstfree");
    assert!(public["versions"][0].get("build_log").is_none(), "{public}");
    let own: Value = ureq::get(&format!("{url}/api/ladders/tictactoe/bots/firstfree"))
        .set("authorization", &as_alice)
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    let log = own["versions"][0]["build_log"].as_str().unwrap();
    assert!(log.contains("Python"), "{own}");
}

/// A POST to the arena, answering its status and body.
fn post(url: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
    let mut request = ureq::post(&format!("{url}{path}"));
    for (name, value) in headers {
        request = request.set(name, value);
    }
    match request.send_bytes(body) {
        Ok(response) => (response.status(), response.into_string().unwrap()),
        Err(ureq::Error::Status(status, response)) => (status, response.into_string().unwrap()),
        Err(error) => panic!("{error}"),
    }
}

#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn uploads_without_authority_or_from_hostile_archives_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let session = get(&url, "/api/session");
    let page = session["page_token"].as_str().unwrap().to_string();
    let upload = "/api/upload?ladder=tictactoe&name=x";

    // No one: refused, even with the page's token.
    let (status, body) = post(&url, upload, &[("x-referee-page", &page)], b"x");
    assert_eq!(status, 401, "{body}");

    // A person signed up in the page: a cookie.
    let (status, _) = post(
        &url,
        "/api/signup",
        &[
            ("x-referee-page", &page),
            ("content-type", "application/json"),
        ],
        br#"{"name": "bob", "password": "a long password"}"#,
    );
    assert_eq!(status, 200);
    let login = ureq::post(&format!("{url}/api/login"))
        .set("x-referee-page", &page)
        .send_json(json!({"name": "bob", "password": "a long password"}))
        .unwrap();
    let cookie = login.header("set-cookie").unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let cookie = cookie.split(';').next().unwrap().to_string();
    // Another site's page has the cookie sent along, but neither its origin nor the token.
    let (status, _) = post(&url, upload, &[("cookie", &cookie)], b"x");
    assert_eq!(status, 403);
    let (status, _) = post(
        &url,
        upload,
        &[
            ("cookie", &cookie),
            ("origin", "http://evil.example"),
            ("x-referee-page", &page),
        ],
        b"x",
    );
    assert_eq!(status, 403);
    // A bearer token does not let a cookie through without the page's token.
    let (status, _) = post(
        &url,
        upload,
        &[("cookie", &cookie), ("authorization", "Bearer x")],
        b"x",
    );
    assert_eq!(status, 403);
    let me: Value = ureq::get(&format!("{url}/api/me"))
        .set("cookie", &cookie)
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(me["name"], "bob");

    // A hostile archive, by the command line's token: refused with its reason.
    let bob = token(&arena, "bob", false);
    let bad = dir.path().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("main.py"), "print(1)\n").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", bad.join("passwd")).unwrap();
    let archive = dir.path().join("bad.tar.gz");
    succeeded(
        &std::process::Command::new("tar")
            .arg("czf")
            .arg(&archive)
            .arg("-C")
            .arg(&bad)
            .arg(".")
            .output()
            .unwrap(),
    );
    let bearer = format!("Bearer {bob}");
    let (status, body) = post(
        &url,
        upload,
        &[("authorization", &bearer)],
        &std::fs::read(&archive).unwrap(),
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("a symbolic link (./passwd)"), "{body}");
    let (status, body) = post(&url, upload, &[("authorization", "Bearer guess")], b"x");
    assert_eq!(status, 401, "{body}");

    // The command line says why it was refused, and exits non-zero.
    let good = sources(dir.path(), "good", "tests/bots/first_free.py");
    let refused = referee()
        .args(["arena", "submit", "--server", &url, "--token", &bob])
        .args(["--ladder", "chess", "--name", "x"])
        .arg(&good)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("no ladder is named 'chess'"), "{said}");
    let refused = referee()
        .args(["arena", "submit", "--server", &url, "--token", &bob])
        .args([
            "--ladder",
            "tictactoe",
            "--name",
            "x",
            "--protocol",
            "gomocup",
        ])
        .arg(&good)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("takes the protocols native"), "{said}");
}

#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_full_disk_stops_new_games_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    // More free space asked for than any disk has: as full a disk as can be made here.
    set_setting(&arena, "min_free_mb = 256", "min_free_mb = 1000000000000");
    let (_server, url) = serve(&arena);
    let alice = token(&arena, "alice", false);
    let first = sources(dir.path(), "ff", "tests/bots/first_free.py");
    // Uploads, builds and validation go on; games do not start.
    let out = succeeded(&submit(&url, &alice, "firstfree", &first));
    assert!(out.contains(": passed"), "{out}");
    std::thread::sleep(Duration::from_secs(2));
    let status = get(&url, "/api/status");
    assert_eq!(status["games"], json!(0), "{status}");
    let message = status["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("MiB free: no new game starts until there is"),
        "{status}"
    );
}

/// `referee arena submit` of `folder` as the bot `name` on tictactoe, not waiting for its build.
fn submit_only(url: &str, token: &str, name: &str, folder: &Path) -> std::process::Output {
    referee()
        .args(["arena", "submit", "--server", url, "--token", token])
        .args(["--ladder", "tictactoe", "--name", name])
        .arg(folder)
        .output()
        .unwrap()
}

/// A bot's name differing from another's on the ladder only in case is refused: it would pass
/// for the other on the leaderboard ('Rocket' beside 'rocket').
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_bot_named_as_another_but_for_case_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let bob = token(&arena, "bob", false);
    let carol = token(&arena, "carol", false);
    let good = sources(dir.path(), "good", "tests/bots/first_free.py");
    succeeded(&submit_only(&url, &bob, "rocket", &good));
    for (who, name) in [(&carol, "Rocket"), (&bob, "ROCKET")] {
        let refused = submit_only(&url, who, name, &good);
        assert!(!refused.status.success());
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(
            said.contains(&format!(
                "the name '{name}' is taken on this ladder (by the bot 'rocket': names that \
                 differ only in upper and lower case are the same name)"
            )),
            "{said}"
        );
    }
    // The owner's next version under the same name is taken.
    succeeded(&submit_only(&url, &bob, "rocket", &good));
}

/// The arena's own build machinery failing (here its build cache cannot be made) fails the
/// version saying so: it stayed 'building' until a restart, and `submit --wait` waited for it
/// half an hour.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_version_the_arena_fails_to_build_fails_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    std::fs::write(arena.join("builds"), "not a folder").unwrap();
    let (_server, url) = serve(&arena);
    let bob = token(&arena, "bob", false);
    let good = sources(dir.path(), "good", "tests/bots/first_free.py");
    succeeded(&submit_only(&url, &bob, "rocket", &good));
    let started = Instant::now();
    let version = loop {
        let bot: Value = ureq::get(&format!("{url}/api/ladders/tictactoe/bots/rocket"))
            .set("authorization", &format!("Bearer {bob}"))
            .call()
            .unwrap()
            .into_json()
            .unwrap();
        let version = bot["versions"][0].clone();
        if version["state"] == "failed" {
            break version;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "still {}",
            version["state"]
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(
        version["reason"],
        "the arena could not build or validate it (a fault of the arena's, not of the bot): \
         upload it again later, or tell the arena's administrator"
    );
}

/// Only uploads taken count toward a user's hourly limit: a refused archive counted, so that a
/// few bad archives left no upload for the hour.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_refused_upload_does_not_count_toward_the_hourly_limit() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    set_setting(&arena, "uploads_per_hour = 30", "uploads_per_hour = 1");
    let (_server, url) = serve(&arena);
    let bob = token(&arena, "bob", false);
    let bearer = format!("Bearer {bob}");
    for _ in 0..2 {
        let (status, body) = post(
            &url,
            "/api/upload?ladder=tictactoe&name=rocket",
            &[("authorization", &bearer)],
            b"not an archive",
        );
        assert_eq!(status, 400, "{body}");
    }
    let good = sources(dir.path(), "good", "tests/bots/first_free.py");
    succeeded(&submit_only(&url, &bob, "rocket", &good));
    let refused = submit_only(&url, &bob, "rocket", &good);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("too many uploads: at most 1 an hour"),
        "{said}"
    );
}

/// A friendly match asked for on a paused ladder is queued, and its asker told that it waits
/// for the ladder to resume (it waited without a word); on a ladder that plays, only queued.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_friendly_match_on_a_paused_ladder_says_it_waits_for_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let admin = format!("Bearer {}", token(&arena, "root", true));
    let ann = format!("Bearer {}", token(&arena, "ann", false));
    let json_body = ("content-type", "application/json");
    let ask = |ladder: &str| {
        let (status, body) = post(
            &url,
            &format!("/api/ladders/{ladder}/friendlies"),
            &[("authorization", &ann), json_body],
            br#"{"first": "builtin-random", "second": "builtin-greedy", "games": 2}"#,
        );
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<Value>(&body).unwrap()
    };
    let (status, body) = post(
        &url,
        "/api/admin/ladders/tictactoe/pause",
        &[("authorization", &admin), json_body],
        br#"{"paused": true}"#,
    );
    assert_eq!(status, 200, "{body}");
    let asked = ask("tictactoe");
    assert_eq!(asked["games"].as_array().unwrap().len(), 2, "{asked}");
    assert_eq!(asked["paused"], json!(true), "{asked}");
    assert_eq!(
        asked["said"],
        "2 games queued; the ladder is paused: the match will be played when it resumes"
    );
    let asked = ask("uttt");
    assert_eq!(asked["paused"], json!(false), "{asked}");
    assert_eq!(asked["said"], "2 games queued");
}

/// A second `arena serve` of the same folder on the port the first one listens on stops at
/// once, saying so once, and leaves the first one's games alone: it used to mark the person's
/// game being played as cut off by a restart before it found the port taken.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_second_server_on_a_port_in_use_stops_at_once_saying_so_once() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let ann = format!("Bearer {}", token(&arena, "ann", false));
    let auth = [("Authorization", ann.as_str())];
    let started = Instant::now();
    let game = loop {
        let path = "/api/ladders/tictactoe/bots/builtin-random/play";
        match post(&url, path, &auth, b"") {
            (200, body) => break serde_json::from_str::<Value>(&body).unwrap()["id"].clone(),
            answer => assert!(started.elapsed() < Duration::from_secs(60), "{answer:?}"),
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let port = url.rsplit(':').next().unwrap();
    let second = referee()
        .args(["arena", "serve"])
        .arg(&arena)
        .args(["--port", port])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{said}");
    assert_eq!(said.matches("Address already in use").count(), 1, "{said}");
    assert!(!said.contains("panicked"), "{said}");
    let cut_off = ureq::get(&format!("{url}/api/people/{game}/cut-off"))
        .set("Authorization", &ann)
        .call();
    assert!(
        matches!(cut_off, Err(ureq::Error::Status(404, _))),
        "the game being played is not cut off: {cut_off:?}"
    );
}

/// A cause that an error's own message already holds is said once: an arena database that
/// cannot be opened said 'unable to open database file' twice, as the database library's
/// error repeats its cause.
#[test]
fn a_database_that_cannot_be_opened_says_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    std::fs::create_dir(arena.join("arena.db")).unwrap();
    let output = referee()
        .args(["arena", "token"])
        .arg(&arena)
        .arg("ann")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert_eq!(
        said.matches("unable to open database file").count(),
        1,
        "{said}"
    );
}

/// A token asked of a folder that is no arena's is refused, saying how to make one: it said
/// 'unable to open database file' for a folder that does not exist, and made a database in
/// any other.
#[test]
fn a_token_of_a_folder_that_is_no_arena_says_how_to_make_one() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["nowhere", "."] {
        let output = referee()
            .current_dir(dir.path())
            .args(["arena", "token", folder, "ann"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!(
                "referee: {folder} is not an arena's folder (it has no arena.toml): make one \
                 with referee arena init {folder}\n"
            )
        );
    }
    assert!(!dir.path().join("arena.db").exists());
}

/// A second `arena init` of a folder leaves its arena.toml as it is and says what to do: it
/// said 'arena.toml exists: entity already exists'.
#[test]
fn a_second_init_says_the_arena_is_there_already() {
    let dir = tempfile::tempdir().unwrap();
    init(&dir.path().join("arena"));
    let output = referee()
        .current_dir(dir.path())
        .args(["arena", "init", "arena"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "referee: arena holds an arena.toml already (left as it is): edit it, or start the \
         arena with referee arena serve arena\n"
    );
}

/// An arena's address without http:// is refused saying how to write it: it said 'the arena
/// did not answer: Bad URL: failed to parse URL: RelativeUrlWithoutBase: relative URL without
/// a base', having asked nothing.
#[test]
fn a_server_address_without_http_says_how_to_write_it() {
    let dir = tempfile::tempdir().unwrap();
    let expected = "referee: --server takes the arena's address, http://HOST:PORT (e.g. \
                    http://127.0.0.1:8400), not '127.0.0.1:8400'\n";
    for args in [
        &["leaderboard", "--ladder", "uttt"][..],
        &[
            "submit", "--token", "t", "--ladder", "uttt", "--name", "a", ".",
        ],
    ] {
        let output = referee()
            .current_dir(dir.path())
            .arg("arena")
            .args(args)
            .args(["--server", "127.0.0.1:8400"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&output.stderr), expected);
    }
}

/// A PostgreSQL address where no database answers is said at once, with why: the arena
/// waited 30 s, then said only 'pool timed out while waiting for an open connection'.
#[test]
fn a_database_address_where_none_answers_is_said_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let output = referee()
        .args(["arena", "token"])
        .arg(dir.path())
        .args(["ann", "--database", "postgres://127.0.0.1:47499/arena"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("Connection refused"), "{said}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// A --server that is some other web server is asked whether it is an arena's: its 404 was
/// said as 'refused: the server answered 404'.
#[test]
fn a_server_that_is_no_arena_is_asked_about() {
    let records = tempfile::tempdir().unwrap();
    let mut viewer = referee();
    viewer
        .arg("serve")
        .arg(records.path())
        .args(["--port", "0"]);
    let (_viewer, url) = start_with_url(viewer);
    let output = referee()
        .args(["arena", "leaderboard", "--ladder", "uttt", "--server", &url])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "referee: refused: the server answered 404 for {}/api/ladders/uttt/leaderboard, \
             as no arena does: is --server an arena's address?\n",
            url.trim_end_matches('/')
        )
    );
}

/// An arena's allowed host that is no host name is refused: allowed_hosts = [""] was taken,
/// and the arena's address printed as 'http://:PORT'.
#[test]
fn an_allowed_host_that_is_no_host_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let settings = arena.join("arena.toml");
    let text = std::fs::read_to_string(&settings).unwrap();
    let edited = text.replace("allowed_hosts = []", "allowed_hosts = [\"\"]");
    assert_ne!(text, edited);
    std::fs::write(&settings, edited).unwrap();
    let mut server = referee()
        .args(["arena", "serve"])
        .arg(&arena)
        .args(["--port", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_timeout::ChildExt::wait_timeout(&mut server, Duration::from_secs(30));
    if status.as_ref().is_ok_and(Option::is_none) {
        server.kill().unwrap();
        server.wait().unwrap();
        panic!("the arena started");
    }
    let mut said = String::new();
    std::io::Read::read_to_string(&mut server.stderr.take().unwrap(), &mut said).unwrap();
    assert_eq!(status.unwrap().unwrap().code(), Some(2), "{said}");
    assert!(
        said.ends_with(
            "allowed_hosts: '' is not a host name: give NAME or NAME:PORT, e.g. myhost.lan or \
             192.168.1.5\n"
        ),
        "{said}"
    );
}

/// A wrong JSON body is told in the API's own shape, in a sentence naming the field: the
/// framework answered in plain text with the parser's words ('Failed to deserialize the JSON
/// body into the target type: invalid length 0, expected struct Credentials with 3 elements
/// at line 1 column 2').
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_wrong_json_body_is_told_in_the_apis_shape_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let page = get(&url, "/api/session")["page_token"]
        .as_str()
        .unwrap()
        .to_string();
    let json = [
        ("x-referee-page", page.as_str()),
        ("content-type", "application/json"),
    ];
    let cases = [
        (true, "", 400, "the body is not JSON (line 1, column 0)"),
        (true, "[]", 422, "the body must be a JSON object"),
        (
            true,
            r#"{"name": "bob"}"#,
            422,
            "the field 'password' is missing",
        ),
        (
            true,
            r#"{"name": 1, "password": "a long password"}"#,
            422,
            "the field 'name' must be a string",
        ),
        (
            false,
            r#"{"name": "bob", "password": "a long password"}"#,
            415,
            "send the body as a JSON object, with the header Content-Type: application/json",
        ),
    ];
    for (typed, body, status, error) in cases {
        let headers = if typed { &json[..] } else { &json[..1] };
        let (got, text) = post(&url, "/api/signup", headers, body.as_bytes());
        assert_eq!(got, status, "{body}: {text}");
        let answer: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{text}"));
        assert_eq!(answer, json!({ "error": error }), "{body}");
    }
}

/// An address whose number is no number (or whose bytes are no text) is told in the API's own
/// shape: the framework answered in plain text naming Rust's types ('Invalid URL: Cannot
/// parse `abc` to a `i64`').
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_wrong_address_is_told_in_the_apis_shape_without_type_names() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let cases = [
        (
            "/api/games/abc",
            "the address has 'abc' where a whole number goes",
        ),
        (
            "/api/game/tictactoe/1/stderr/-1",
            "the address has '-1' where a whole number (0 or more) goes",
        ),
        (
            "/api/ladders/%ff/leaderboard",
            "the address holds bytes that are not UTF-8 text",
        ),
    ];
    for (path, error) in cases {
        let (status, text) = match ureq::get(&format!("{url}{path}")).call() {
            Ok(response) => (response.status(), response.into_string().unwrap()),
            Err(ureq::Error::Status(status, response)) => (status, response.into_string().unwrap()),
            Err(error) => panic!("{error}"),
        };
        assert_eq!(status, 400, "{path}: {text}");
        let answer: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{text}"));
        assert_eq!(answer, json!({ "error": error }), "{path}");
    }
}

/// A query parameter that is missing or no number is told in the API's own shape: the
/// framework answered in plain text ('Failed to deserialize query string: missing field
/// `ladder`').
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_wrong_query_is_told_in_the_apis_shape_naming_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let games = ureq::get(&format!("{url}/api/ladders/tictactoe/games?limit=abc")).call();
    let Err(ureq::Error::Status(400, response)) = games else {
        panic!("{games:?}")
    };
    let answer: Value = response.into_json().unwrap();
    assert_eq!(
        answer,
        json!({ "error": "the parameter 'limit' cannot be read: invalid digit found in string" })
    );
    let (status, text) = post(&url, "/api/upload", &[("authorization", "Bearer x")], b"x");
    assert_eq!(status, 400, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{text}"));
    assert_eq!(
        answer,
        json!({ "error": "the parameter 'ladder' is missing (as ?ladder=...)" })
    );
}

/// Every refusal of an API address is in the API's shape, the shield's and the framework's
/// too: a method the address does not take was a 405 with no text, the shield's refusals and
/// an unknown address were plain text.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn every_refusal_of_an_api_address_is_in_the_apis_shape() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let answer = |result: Result<ureq::Response, ureq::Error>| match result {
        Err(ureq::Error::Status(status, response)) => {
            let kind = response.content_type().to_string();
            let text = response.into_string().unwrap();
            assert_eq!(kind, "application/json", "{status}: {text}");
            (status, serde_json::from_str::<Value>(&text).unwrap())
        }
        other => panic!("{other:?}"),
    };
    let error = |text: &str| json!({ "error": text });
    assert_eq!(
        answer(ureq::get(&format!("{url}/api/signup")).call()),
        (
            405,
            error("this address does not take GET (its header Allow says what it takes)")
        )
    );
    assert_eq!(
        answer(ureq::post(&format!("{url}/api/logout")).call()),
        (403, error("only this server's own page may do that"))
    );
    assert_eq!(
        answer(ureq::get(&format!("{url}/api/nothing")).call()),
        (404, error("no such address"))
    );
}

/// A name someone has is a conflict (409), not a malformed request: signing up as 'ALICE'
/// when 'alice' exists was a 400 like a name with a space in it.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_sign_up_under_a_name_someone_has_is_a_conflict() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let page = get(&url, "/api/session")["page_token"]
        .as_str()
        .unwrap()
        .to_string();
    let headers = [
        ("x-referee-page", page.as_str()),
        ("content-type", "application/json"),
    ];
    let sign_up = |name: &str| {
        let body = json!({ "name": name, "password": "a long password" }).to_string();
        post(&url, "/api/signup", &headers, body.as_bytes())
    };
    assert_eq!(sign_up("alice").0, 200);
    let (status, text) = sign_up("ALICE");
    assert_eq!(status, 409, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({ "error": "the name 'ALICE' is taken (by 'alice': names that differ only in \
                          upper and lower case are the same name)" })
    );
    assert_eq!(sign_up("has space").0, 400);
}

/// A body too large for an address that takes no upload says so, not that an upload is too
/// large: POST /api/login with a body past the bound said 'the upload is too large: the arena
/// takes at most 2097152 bytes (2.0 MiB) of sources as a .tar.gz'.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_body_too_large_for_a_log_in_is_not_called_an_upload() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    // Only the header is sent: the length it announces is past the bound.
    let host = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(
        stream,
        "POST /api/login HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer x\r\n\
         Content-Type: application/json\r\nContent-Length: 99999999\r\n\
         Connection: close\r\n\r\n{{"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 413 "), "{response}");
    let (_, body) = response.split_once("\r\n\r\n").unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(body).unwrap(),
        json!({ "error": "the body is too large for this address" })
    );
}

/// An Authorization header that is no bearer token says how to give one: 'Authorization:
/// Basic ...' (or a token without 'Bearer ') was told 'this API token is not known', as
/// though the token were wrong.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn an_authorization_that_is_no_bearer_token_says_how_to_give_one() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    for value in ["Basic YWxpY2U6eA==", "0123abcd"] {
        let me = ureq::get(&format!("{url}/api/me"))
            .set("authorization", value)
            .call();
        let Err(ureq::Error::Status(401, response)) = me else {
            panic!("{me:?}")
        };
        assert_eq!(
            response.into_json::<Value>().unwrap(),
            json!({ "error": "give the API token as the header 'Authorization: Bearer TOKEN'" })
        );
    }
}
