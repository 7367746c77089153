//! The web pages in a real browser: Chromium driven over WebDriver (chromedriver, from
//! Debian's `chromium-driver`, which .ci/run installs) with fantoccini. A replay is checked
//! against its record move by move, games are played by clicking, a live game is watched
//! moving, and the static report is opened from disk with no server. The safety of `referee
//! serve` (paths, the access token, a bot's text shown as text) is checked here too.

use crate::browser_support::{start_with_url, Browser, Running};
use crate::common::{referee, scripted, Match, RANDOM};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Stdio;

/// The address of game `number` of the records served from `dir` (the served directory's
/// own name is its source's id).
fn game_page(url: &str, dir: &Path, number: u32) -> String {
    let id = dir.file_name().unwrap().to_str().unwrap();
    format!("{url}#/game/{id}/{number}")
}

/// `referee serve DIR` on a free port, and its address.
fn serve(dir: &Path, extra: &[&str]) -> (Running, String) {
    let mut command = referee();
    command
        .arg("serve")
        .arg(dir)
        .args(["--port", "0"])
        .args(extra);
    start_with_url(command)
}

/// Where the pictures put the centre of square x, y on an m,n,k or uttt board (see
/// src/games/mnk/picture.rs: 32 units a square, 24 for the coordinates).
fn cell_corner(notation: &str) -> (i64, i64) {
    let (x, y) = notation.split_once(' ').unwrap();
    let corner = |n: &str| 24 + 32 * n.parse::<i64>().unwrap();
    (corner(x), corner(y))
}

/// A script returning the board the page shows once it shows position `ply`: X marks (two
/// strokes each), O marks, the lit last move and the lit boards.
fn board_at(ply: usize) -> String {
    format!(
        "const box = document.querySelector('.board-box');
         if (!box || Number(box.dataset.ply) !== {ply}) return null;
         const svg = box.querySelector('svg'); const last = svg.querySelector('rect.last');
         return {{ x: svg.querySelectorAll('polyline.x:not(.won)').length / 2, o: svg.querySelectorAll('circle.o:not(.won)').length,
           last: last ? [Number(last.getAttribute('x')), Number(last.getAttribute('y'))] : null,
           allowed: svg.querySelectorAll('rect.allowed').length }};"
    )
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_replay_shows_the_recorded_position_at_each_move() {
    let records = tempfile::tempdir().unwrap();
    let outcome = Match::new("uttt")
        .a(RANDOM)
        .b(RANDOM)
        .games(1)
        .record(records.path())
        .run();
    let record = outcome.record();
    let moves: Vec<&str> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv["move"].as_str().unwrap())
        .collect();
    let (_server, url) = serve(records.path(), &[]);
    let browser = Browser::start();
    browser.goto(&game_page(&url, records.path(), 1));
    let expect = |ply: usize| {
        let shown = browser.until(&board_at(ply));
        assert_eq!(shown["x"], json!(ply.div_ceil(2)), "X marks at move {ply}");
        assert_eq!(shown["o"], json!(ply / 2), "O marks at move {ply}");
        match ply {
            0 => assert_eq!(shown["last"], Value::Null),
            _ => {
                let (x, y) = cell_corner(moves[ply - 1]);
                assert_eq!(
                    shown["last"],
                    json!([x, y]),
                    "the last move lit at move {ply}"
                );
            }
        }
        // Until a small board is decided, play is forced to one board (none at the start).
        if ply == 1 {
            assert_eq!(shown["allowed"], json!(1));
        }
    };
    // The viewer opens at the end of the game.
    expect(moves.len());
    browser.click("button[name=first]");
    expect(0);
    browser.click("button[name=forward]");
    expect(1);
    browser.press("\u{E014}"); // the right arrow key
    expect(2);
    browser.eval("const range = document.querySelector('input[type=range]'); range.value = 7; range.dispatchEvent(new Event('input')); return null;");
    expect(7);
    browser.press("\u{E012}"); // the left arrow key
    expect(6);
    // The move list and the time chart follow, and this turn's protocol lines are shown.
    let current = browser.until(
        "const li = document.querySelector('ol.moves li.current'); return li && li.textContent;",
    );
    assert!(current.as_str().unwrap().starts_with(moves[5]), "{current}");
    let turn = browser.eval("return document.querySelector('pre.turn').textContent;");
    assert!(
        turn.as_str().unwrap().contains(&format!("< {}", moves[5])),
        "{turn}"
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('svg.chart rect').length;"),
        json!(moves.len())
    );
    if let Ok(dir) = std::env::var("REFEREE_SCREENSHOTS") {
        browser.screenshot(&Path::new(&dir).join("viewer.png"));
    }
}

/// The viewer numbers moves as verdicts do, from the first after the opening, whose moves it
/// names apart: "move 1" of a game from an opening is the verdicts' move 1.
/// A viewer left while it fetches the next position ahead aborts that request on purpose: its
/// rejection, which nothing awaits, is no error in the browser's console (it was one).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_viewer_left_while_it_fetches_ahead_shows_no_error() {
    let records = tempfile::tempdir().unwrap();
    Match::new("tictactoe")
        .a(RANDOM)
        .b(RANDOM)
        .games(1)
        .record(records.path())
        .run();
    let (_server, url) = serve(records.path(), &[]);
    let browser = Browser::start();
    browser.goto(&format!("{url}#/"));
    browser.until("return document.querySelector('table');");
    // The second position's request hangs, as on a slow network, until the page aborts it;
    // the rejections nothing handles are counted, with whether the page excused them.
    browser.eval(
        "const fetchReal = window.fetch;
         window.fetch = (url, options) => /api\\/position\\/.*\\/1$/.test(String(url))
           ? new Promise((_, reject) => options.signal.addEventListener('abort', () => reject(options.signal.reason)))
           : fetchReal(url, options);
         window.rejections = [];
         window.addEventListener('unhandledrejection', (e) => rejections.push([e.reason?.name, e.defaultPrevented]));",
    );
    let first = game_page("", records.path(), 1);
    browser.eval(&format!("location.hash = '{first}/0'; return true;"));
    browser.until("return document.querySelector('[data-ply=\"0\"]');");
    browser.eval("location.hash = '#/'; return true;");
    let rejections = browser.until("return rejections.length > 0 && rejections;");
    assert_eq!(rejections, json!([["AbortError", true]]));
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn the_viewer_counts_moves_after_the_opening_as_verdicts_do() {
    let records = tempfile::tempdir().unwrap();
    let outcome = Match::new("tictactoe")
        .a(RANDOM)
        .b(RANDOM)
        .games(1)
        .opening("1 1,0 0")
        .record(records.path())
        .run();
    let record = outcome.record();
    let moves = record["moves"].as_array().unwrap();
    let (_server, url) = serve(records.path(), &[]);
    let browser = Browser::start();
    browser.goto(&game_page(&url, records.path(), 1));
    browser.until(&board_at(2 + moves.len()));
    let label = |ply: usize| {
        browser.until(&board_at(ply));
        browser.eval("return document.querySelector('.ply-label').textContent;")
    };
    browser.click("button[name=first]");
    assert_eq!(label(0), json!(format!("start ({} moves)", moves.len())));
    browser.click("button[name=forward]");
    assert_eq!(label(1), json!("opening move 1 of 2: 1 1"));
    browser.click("button[name=forward]");
    browser.click("button[name=forward]");
    let first = moves[0]["move"].as_str().unwrap();
    assert_eq!(
        label(3),
        json!(format!("move 1 of {}: {first}", moves.len()))
    );
    let numbers = browser.eval(
        "return [...document.querySelectorAll('ol.moves li:not(.opening)')].map((li) => li.value);",
    );
    let expected: Vec<usize> = (1..=moves.len()).collect();
    assert_eq!(numbers, json!(expected));
}

/// The answer that lost a game, refused by the rules, ends the move list, numbered as the
/// verdict numbers it and marked refused with the verdict; an illegal move's square is marked
/// on the last position, a line that is not a move only listed (the viewer's list ended at the
/// move before, and the board showed nothing of it). Its time, in the record, is the time
/// chart's last bar, marked refused (it had none).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn the_move_that_lost_the_game_ends_the_move_list() {
    let records = tempfile::tempdir().unwrap();
    let illegal = records.path().join("illegal");
    let outcome = Match::new("tictactoe")
        .a(scripted("occupied"))
        .b(RANDOM)
        .opening("1 1")
        .games(1)
        .record(&illegal)
        .run();
    let record = outcome.record();
    assert_eq!(record["result"]["reason"], "illegal-move");
    let refused = record["result"]["move"].as_str().unwrap().to_string();
    let number = record["moves"].as_array().unwrap().len() + 1;
    let detail = record["result"]["detail"].as_str().unwrap().to_string();
    assert!(detail.contains(&format!("at move {number}")), "{detail}");
    let garbage = records.path().join("garbage");
    Match::new("tictactoe")
        .a(scripted("garbage"))
        .b(RANDOM)
        .games(1)
        .record(&garbage)
        .run();
    let (_server, url) = serve(&illegal, &[garbage.to_str().unwrap()]);
    let browser = Browser::start();
    let last_item = "const li = document.querySelector('ol.moves li:last-child');
         return li && li.classList.contains('refused') && [li.value, li.textContent];";
    browser.goto(&game_page(&url, &illegal, 1));
    let item = browser.until(last_item);
    assert_eq!(
        item,
        json!([number, format!("{refused} (refused: {detail})")])
    );
    // The viewer opens there: the last position, with the refused square marked.
    let marked = browser.until(&format!(
        "const box = document.querySelector('.board-box');
         if (!box || Number(box.dataset.ply) !== {}) return null;
         const r = box.querySelector('rect.refused');
         return r ? [Number(r.getAttribute('x')), Number(r.getAttribute('y'))] : 'none';",
        number + 1
    ));
    let (x, y) = cell_corner(&refused);
    assert_eq!(marked, json!([x, y]));
    let label = browser.eval("return document.querySelector('.ply-label').textContent;");
    assert_eq!(label, json!(format!("move {number}, refused: {refused}")));
    assert!(record["result"]["us"].is_u64(), "{record}");
    let bar = browser.eval(LAST_BAR);
    assert_eq!(
        bar[0],
        json!(number),
        "a bar for each move and the refused one"
    );
    assert_eq!(bar[1], json!((number + 1).to_string()));
    assert!(
        bar[2]
            .as_str()
            .unwrap()
            .starts_with(&format!("refused: {refused}: ")),
        "{bar}"
    );

    // A page of its own, not the last one's list read before the new one is drawn.
    browser.goto("about:blank");
    browser.goto(&game_page(&url, &garbage, 1));
    let item = browser.until(last_item);
    assert_eq!(item[0], json!(1));
    assert!(
        item[1].as_str().unwrap().starts_with("banana (refused: "),
        "{item}"
    );
    let marks = browser.until(
        "const box = document.querySelector('.board-box');
         return box && Number(box.dataset.ply) === 1 && box.querySelectorAll('.refused').length + 1;",
    );
    assert_eq!(marks, json!(1), "no square named, none marked");
    let bar = browser.eval(LAST_BAR);
    assert_eq!(bar[0], json!(1));
    assert!(
        bar[2].as_str().unwrap().starts_with("refused: banana: "),
        "{bar}"
    );
}

/// The time chart's bars, and of its last bar the position it shows and its title when it is
/// marked refused.
const LAST_BAR: &str = "const bars = document.querySelectorAll('svg.chart rect');
     const last = bars[bars.length - 1];
     return [bars.length, last.dataset.ply, last.classList.contains('bar-refused') && last.textContent];";

/// A move over its limit that CodinGame's strikes forgave is shown as such in the move list.
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn the_move_list_shows_a_strike() {
    let records = tempfile::tempdir().unwrap();
    Match::new("uttt")
        .a(crate::common::codingame("late:400:1"))
        .b(RANDOM)
        .games(1)
        .time("move=200,first=2000,strikes=2,hard=600")
        .record(records.path())
        .run();
    let (_server, url) = serve(records.path(), &[]);
    let browser = Browser::start();
    browser.goto(&game_page(&url, records.path(), 1));
    let shown = browser.until(
        "const items = Array.from(document.querySelectorAll('ol.moves li')).map(li => li.textContent);
         return items.length > 0 && items;",
    );
    let struck: Vec<&str> = shown
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|text| text.ends_with(" ms, strike 1)"))
        .collect();
    assert_eq!(struck.len(), 1, "{shown}");
}

/// A GET request over a plain socket: the status code and the body.
fn get(url: &str, path: &str, cookie: Option<&str>) -> (u16, String) {
    let host = url.trim_start_matches("http://").split('/').next().unwrap();
    let mut stream = TcpStream::connect(host).unwrap();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\n{cookie}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn serve_reaches_nothing_outside_its_directories_and_shows_bot_text_as_text() {
    let records = tempfile::tempdir().unwrap();
    Match::new("tictactoe")
        .games(1)
        .record(records.path())
        .run();
    // A record holding what a hostile bot could put in it.
    let hostile = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">";
    let path = records.path().join("0001.json");
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    record["players"][0]["name"] = json!(hostile);
    record["result"]["detail"] = json!(format!("A sent {hostile}"));
    std::fs::write(&path, record.to_string()).unwrap();
    std::fs::write(records.path().join("0001.A.stderr.txt"), hostile).unwrap();
    let secret = records
        .path()
        .parent()
        .unwrap()
        .join(format!("secret-{}.json", std::process::id()));
    std::fs::write(&secret, "{\"secret\": true}").unwrap();

    let (_server, url) = serve(records.path(), &[]);
    let id = records.path().file_name().unwrap().to_str().unwrap();
    assert_eq!(get(&url, &format!("/api/game/{id}/1"), None).0, 200);
    for path in [
        "/api/game/../../etc/passwd".to_string(),
        format!("/api/game/{id}/..%2F..%2Fetc%2Fpasswd"),
        "/api/game/%2Fetc%2Fpasswd/1".to_string(),
        "/api/game/..%2F..%2Fetc/1".to_string(),
        format!("/api/game/{id}%2F..%2F..%2Fetc/1"),
        "/../../etc/passwd".to_string(),
        format!("/api/position/{id}/1/..%2F..%2F..%2Fetc%2Fpasswd"),
        format!(
            "/api/game/{id}/..%2F{}",
            secret.file_name().unwrap().to_str().unwrap()
        ),
        format!("/{}", secret.display()),
        format!("/api/export/{id}/99"),
        format!("/api/tournament/{id}"),
        "/api/tournament/..".to_string(),
    ] {
        let (status, body) = get(&url, &path, None);
        assert!(status == 404 || status == 400, "{path}: {status} {body}");
        assert!(
            !body.contains("root:") && !body.contains("\"secret\": true"),
            "{path}: {body}"
        );
    }
    std::fs::remove_file(&secret).unwrap();

    let browser = Browser::start();
    browser.goto(&game_page(&url, records.path(), 1));
    let text = browser.until("const d = document.querySelector('.detail'); return d && d.textContent.includes('script') && document.body.innerText;");
    assert!(
        text.as_str().unwrap().contains(hostile),
        "shown as text: {text}"
    );
    browser.goto(&format!("{url}#/"));
    let row = browser
        .until("const row = document.querySelector('tr.game-row'); return row && row.textContent;");
    assert!(row.as_str().unwrap().contains("<script>"), "{row}");
    assert_eq!(browser.eval("return window.pwned === undefined && document.querySelectorAll('main script, main img').length === 0;"), json!(true));
}

#[test]
fn serve_on_another_address_wants_its_token() {
    let records = tempfile::tempdir().unwrap();
    Match::new("tictactoe")
        .games(1)
        .record(records.path())
        .run();
    let (_server, url) = serve(
        records.path(),
        &["--bind", "0.0.0.0", "--allow-host", "127.0.0.1"],
    );
    let token = url
        .split("token=")
        .nth(1)
        .expect("the address carries the token");
    assert_eq!(token.len(), 32, "{url}");
    let port = url
        .trim_start_matches("http://")
        .split(['/', ':'])
        .nth(1)
        .unwrap();
    let local = format!("http://127.0.0.1:{port}/");
    assert_eq!(get(&local, "/api/games", None).0, 403);
    assert_eq!(get(&local, "/api/games?token=wrong", None).0, 403);
    // An address with no page is refused alike: no path can be found out without the token.
    assert_eq!(get(&local, "/api/no-such-thing", None).0, 403);
    assert_eq!(get(&local, "/no-such-page", None).0, 403);
    assert_eq!(
        get(&local, &format!("/api/games?token={token}"), None).0,
        200
    );
    assert_eq!(
        get(
            &local,
            "/api/games",
            Some(&format!("referee_token={token}"))
        )
        .0,
        200
    );
}

/// A request written as it is over a plain socket: the status code.
fn raw_request(url: &str, request: &str) -> u16 {
    let host = url.trim_start_matches("http://").split('/').next().unwrap();
    let mut stream = TcpStream::connect(host).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response[9..12].parse().unwrap()
}

/// A DNS-rebinding page names the server by its own name: it is refused before any work.
#[test]
fn serve_answers_only_to_its_own_names() {
    let records = tempfile::tempdir().unwrap();
    Match::new("tictactoe")
        .games(1)
        .record(records.path())
        .run();
    let (_server, url) = serve(records.path(), &[]);
    let rebinding =
        "GET /api/games HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n";
    assert_eq!(raw_request(&url, rebinding), 421);
    assert_eq!(get(&url, "/api/games", None).0, 200);
    // Listening on every network needs the names to answer to.
    let output = referee()
        .args(["serve", "--bind", "0.0.0.0", "--port", "0"])
        .arg(records.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--allow-host"), "{stderr}");
}

/// A referee killed outright (SIGKILL) in a game leaves that game's live file, named with this
/// machine and the referee's process id, as it was: serve does not list the game as being
/// played once that process is gone, and the file is kept (the game is in no journal).
#[test]
fn a_game_cut_short_by_a_killed_referee_is_not_listed_as_being_played() {
    let records = tempfile::tempdir().unwrap();
    let mut referee = Match::new("tictactoe")
        .a(scripted("good"))
        .b(scripted("slow:400"))
        .games(20)
        .time("move=5000")
        .record(records.path())
        .command()
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let live = records
        .path()
        .join(format!("live-{}-{}-1.jsonl", host.trim(), referee.id()));
    let game_2_begun =
        || std::fs::read_to_string(&live).is_ok_and(|text| text.contains("\"number\":2"));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !game_2_begun() {
        assert!(std::time::Instant::now() < deadline, "game 2 never began");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    referee.kill().unwrap();
    referee.wait().unwrap();
    let (_server, url) = serve(records.path(), &[]);
    let (status, body) = get(&url, "/api/games", None);
    assert_eq!(status, 200, "{body}");
    let listed: Value = serde_json::from_str(&body).unwrap();
    let games = listed["games"].as_array().unwrap();
    assert!(
        games
            .iter()
            .any(|game| game["number"] == 1 && game["live"] == false),
        "{body}"
    );
    assert!(games.iter().all(|game| game["live"] == false), "{body}");
    assert!(game_2_begun(), "the live file is kept");
}

/// Connections that never finish their request's header (a slowloris): they are bounded in
/// number and time, and a person's request still gets through at once.
#[test]
fn slow_connections_cannot_keep_a_person_out() {
    let records = tempfile::tempdir().unwrap();
    Match::new("tictactoe")
        .games(1)
        .record(records.path())
        .run();
    let (server, url) = serve(records.path(), &[]);
    let host = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    // Room for the connections in this test process.
    let (_, hard) =
        nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE).unwrap();
    nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE, hard, hard).unwrap();
    let count = 1500.min(usize::try_from(hard).unwrap_or(1500).saturating_sub(100));
    let slow: Vec<TcpStream> = (0..count)
        .map(|_| {
            let mut stream = TcpStream::connect(&host).unwrap();
            stream.write_all(b"GET / HTTP/1.1\r\nHost: ").unwrap();
            stream
        })
        .collect();
    // And, newest of all (so no other makes it make room), one that sends nothing.
    let mut silent = TcpStream::connect(&host).unwrap();
    let clock = std::time::Instant::now();
    assert_eq!(get(&url, "/api/games", None).0, 200);
    assert!(
        clock.elapsed() < std::time::Duration::from_secs(3),
        "{:?}",
        clock.elapsed()
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.0.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    assert!(peak_kib < 64 * 1024, "serve peaked at {peak_kib} KiB");
    // The slow ones are closed within the header's timeout (5 s), with room to spare.
    let mut last = slow.into_iter().last().unwrap();
    last.set_read_timeout(Some(std::time::Duration::from_secs(15)))
        .unwrap();
    let mut rest = Vec::new();
    let _ = last.read_to_end(&mut rest);
    assert!(
        clock.elapsed() < std::time::Duration::from_secs(15),
        "{:?}",
        clock.elapsed()
    );
    silent
        .set_read_timeout(Some(std::time::Duration::from_secs(15)))
        .unwrap();
    let _ = silent.read_to_end(&mut rest);
    assert!(
        clock.elapsed() < std::time::Duration::from_secs(20),
        "a client that sends nothing stayed connected"
    );
}

/// Another site's page (or any request without this page's token) cannot play or resign for
/// the person.
#[test]
fn another_origin_cannot_play_for_the_person() {
    let records = tempfile::tempdir().unwrap();
    let (_play, url) = play_in_browser("tictactoe", records.path(), &[]);
    let host = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    for extra in ["Origin: http://evil.example\r\n", ""] {
        let resign = format!(
            "POST /api/play/resign HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n"
        );
        assert_eq!(raw_request(&url, &resign), 403, "{extra}");
    }
    let (status, body) = get(&url, "/api/play/state", None);
    assert_eq!(status, 200);
    let state: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(state["over"], json!(false), "{state}");
}

/// The person's clock starts when the page shows the position, not when the game starts:
/// left unopened for a while, the page still shows the whole time.
#[test]
fn the_persons_clock_starts_when_the_page_shows_the_position() {
    let records = tempfile::tempdir().unwrap();
    let (_play, url) = play_in_browser("tictactoe", records.path(), &[]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let remaining = || {
        let (status, body) = get(&url, "/api/play/state", None);
        assert_eq!(status, 200);
        let state: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(state["your_turn"], json!(true), "{state}");
        state["remaining_ms"].as_u64().unwrap()
    };
    let first = remaining();
    assert!(
        first > 59_700,
        "{first} ms of 60000 left when the page first shows the move"
    );
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let later = remaining();
    assert!(
        later <= first - 900,
        "{first} then {later}: the clock runs once shown"
    );
}

/// `referee play GAME --browser` against the random bot, recording into `records`.
fn play_in_browser(game: &str, records: &Path, extra: &[&str]) -> (Running, String) {
    let mut command = referee();
    command
        .args([
            "play",
            game,
            "--browser",
            "--second",
            RANDOM,
            "--human-time",
            "move=60000",
            "--record",
        ])
        .arg(records)
        .args(extra);
    start_with_url(command)
}

/// A page's port in use is said before the game is announced, as the page's and not as the
/// person's failure: it was 'player X cannot start: cannot serve the browser page: ...',
/// after the banner.
#[test]
fn a_browser_port_in_use_is_said_before_the_game() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = referee()
        .args([
            "play",
            "tictactoe",
            "--browser",
            "--port",
            &port,
            "--no-record",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "referee: cannot serve the browser page on port {port}: Address already in use \
             (os error 98)\n"
        )
    );
}

/// Plays the person's turns by clicking the first square offered until the game is over,
/// checking `each_turn` at every turn first.
fn click_until_over(browser: &Browser, each_turn: impl Fn()) {
    loop {
        let state = browser.until(
            "const m = document.querySelector('.message').textContent;
             if (m.startsWith('Game over')) return 'over';
             return document.querySelector('.board-area .target[data-move]') && m.startsWith('Your move') ? 'turn' : null;",
        );
        if state == "over" {
            return;
        }
        each_turn();
        let moves_before = browser.eval("return document.querySelectorAll('ol.moves li').length;");
        if browser.try_click(".board-area .target[data-move]").is_err() {
            // The board was redrawn between the look and the click: look again.
            continue;
        }
        browser.until(&format!("return document.querySelectorAll('ol.moves li').length > {moves_before} || document.querySelector('.message').textContent.startsWith('Game over');"));
    }
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_person_plays_dots_and_sees_the_score() {
    let records = tempfile::tempdir().unwrap();
    let (mut play, url) =
        play_in_browser("dots", records.path(), &["-p", "rows=2", "-p", "cols=2"]);
    let browser = Browser::start();
    browser.goto(&url);
    let score = || {
        let message = browser.eval("return document.querySelector('.message').textContent;");
        assert!(
            message.as_str().unwrap().contains(" Boxes: you "),
            "{message}"
        );
    };
    click_until_over(&browser, score);
    score();
    assert!(play.0.wait().unwrap().success());
}

/// The record of the first game in `records`.
fn first_record(records: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(records.join("0001.json")).unwrap()).unwrap()
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_person_plays_tictactoe_to_the_end_by_clicking() {
    let records = tempfile::tempdir().unwrap();
    let (mut play, url) = play_in_browser("tictactoe", records.path(), &[]);
    let browser = Browser::start();
    browser.goto(&url);
    // A tap on the board where nothing can be played is answered, not ignored.
    browser.until("return document.querySelector('.message').textContent.startsWith('Your move') && document.querySelector('.board-area svg');");
    let answered = browser.eval(
        "document.querySelector('.board-area svg').dispatchEvent(new MouseEvent('click', { bubbles: true }));
         return document.querySelector('.message').textContent;",
    );
    assert_eq!(answered, json!("Your move. Nothing can be played there."));
    click_until_over(&browser, || {
        let clock = browser.eval("return document.querySelector('.clock').textContent;");
        assert!(clock.as_str().unwrap().ends_with(" s"), "a clock: {clock}");
    });
    let status = play.0.wait().unwrap();
    assert!(status.success(), "{status}");
    // The server ends with its game; the page keeps saying how the game ended.
    std::thread::sleep(std::time::Duration::from_secs(2));
    let message = browser.eval("return document.querySelector('.message').textContent;");
    assert!(
        message.as_str().unwrap().starts_with("Game over"),
        "{message}"
    );
    let record = first_record(records.path());
    assert_eq!(record["players"][0]["name"], "human");
    assert!(
        ["line", "board-full"].contains(&record["result"]["reason"].as_str().unwrap()),
        "{record}"
    );
    let shown = browser.eval(
        "return Array.from(document.querySelectorAll('ol.moves li')).map(li => li.textContent);",
    );
    let recorded: Vec<Value> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv["move"].clone())
        .collect();
    assert_eq!(shown, Value::Array(recorded));
}

/// First at swap2 gomoku, a person is told the colour of each of the three stones they place
/// (the page said only 'Your move.').
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_person_placing_a_swap_opening_is_told_each_stones_colour() {
    let records = tempfile::tempdir().unwrap();
    let (_play, url) = play_in_browser("gomoku", records.path(), &["-p", "swap=swap2"]);
    let browser = Browser::start();
    browser.goto(&url);
    for (number, (point, colour)) in [
        ("7 7", "a black stone (X)"),
        ("8 8", "a white stone (O)"),
        ("7 8", "a black stone (X)"),
    ]
    .into_iter()
    .enumerate()
    {
        let told = format!("Your move. Place {colour}, {} of 3.", number + 1);
        browser.until(&format!(
            "return document.querySelector('.message').textContent === '{told}';"
        ));
        browser.click(&format!(".target[data-move=\"{point}\"]"));
    }
    browser.until("return document.querySelectorAll('ol.moves li').length >= 3;");
}

/// `referee play gomoku --browser`, swap2, the person second against the random bot, recording
/// into `records`; Chromium at the person's choice of colours.
fn at_the_swap2_choice(records: &Path) -> (Running, Browser) {
    let mut command = referee();
    command
        .args(["play", "gomoku", "-p", "swap=swap2", "--browser"])
        .args(["--first", RANDOM, "--second", "human"])
        .args(["--human-time", "move=60000", "--record"])
        .arg(records);
    let (play, url) = start_with_url(command);
    let browser = Browser::start();
    browser.goto(&url);
    browser.until(
        "const swap = document.querySelector('button[name=swap]');
         return swap && !swap.hidden && document.querySelector('.message').textContent.startsWith('Your move');",
    );
    (play, browser)
}

/// Second at swap2 gomoku, a person who chooses to place two more is told each stone's colour,
/// as the other steps of the opening are (it said 'Click White's stone', naming no mark).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_person_placing_two_more_is_told_each_stones_colour() {
    let records = tempfile::tempdir().unwrap();
    let (_play, browser) = at_the_swap2_choice(records.path());
    let message = "return document.querySelector('.message').textContent;";
    browser.click("button[name=more]");
    assert_eq!(
        browser.eval(message),
        json!("Tap where to place a white stone (O), 1 of 2; at your next turn you place a black stone (X), 2 of 2, and your opponent chooses.")
    );
    browser.click(".target[data-move]");
    browser.until(
        "return document.querySelector('.message').textContent === 'Your move. Place a black stone (X), 2 of 2.';",
    );
}

/// Second at swap2 gomoku, a person sees the choice's buttons and takes Black with one click,
/// then wins or loses by clicking squares; the record has them as Black.
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_person_takes_black_at_a_swap_opening_with_a_button() {
    let records = tempfile::tempdir().unwrap();
    let (mut play, browser) = at_the_swap2_choice(records.path());
    assert_eq!(
        browser.eval("return document.querySelector('button[name=more]').hidden;"),
        json!(false),
        "swap2's second option is offered at the second player's choice"
    );
    let message = browser.eval("return document.querySelector('.message').textContent;");
    assert!(
        message.as_str().unwrap().starts_with(
            "Your move. Take Black with Swap, place a white stone (O) and play White, or place two more and let "
        ),
        "what each answer means: {message}"
    );
    browser.click("button[name=swap]");
    // The page shows the turn it had until the referee answers the swap: wait for that.
    browser.until("return document.querySelector('button[name=swap]').hidden;");
    click_until_over(&browser, || {
        assert_eq!(
            browser.eval("return document.querySelector('button[name=swap]').hidden;"),
            json!(true),
            "no swap once the colours are chosen"
        );
        let title = browser.eval("return document.querySelector('h1').textContent;");
        assert!(
            title
                .as_str()
                .unwrap()
                .starts_with("You play Black (second) against "),
            "the colour taken, not the seat's: {title}"
        );
    });
    let status = play.0.wait().unwrap();
    assert!(status.success(), "{status}");
    let record = first_record(records.path());
    assert_eq!(record["moves"][3]["move"], "swap", "{record}");
    assert_eq!(record["players"][1]["colour"], "black", "{record}");
    assert_eq!(record["players"][0]["colour"], "white", "{record}");
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_person_plays_a_checkers_multi_jump_square_by_square() {
    let records = tempfile::tempdir().unwrap();
    // Black (the person) must jump 14 and 23 with the man on 9: 9x18x27.
    let (mut play, url) =
        play_in_browser("checkers", records.path(), &["-p", "fen=B:W14,23,30:B9,1"]);
    let browser = Browser::start();
    browser.goto(&url);
    browser.until("return document.querySelector('.message').textContent.startsWith('Your move') && document.querySelector('.target[data-square=\"9\"]');");
    let message = browser.eval("return document.querySelector('.message').textContent;");
    assert!(
        message.as_str().unwrap().contains("A capture is mandatory"),
        "{message}"
    );
    // Only the squares of the capture are targets, the capturing piece marked.
    assert_eq!(browser.eval("return Array.from(document.querySelectorAll('.target')).map(t => t.dataset.square).join(',');"), json!("9,18,27"));
    assert_eq!(browser.eval("return document.querySelector('.target[data-square=\"9\"]').classList.contains('capturing');"), json!(true));
    // The jump offers a draw, which the random bot declines by moving on.
    browser.click("button[name=draw]");
    browser.click(".target[data-square=\"9\"]");
    assert_eq!(browser.eval("return document.querySelector('.target[data-square=\"18\"]').classList.contains('reachable');"), json!(true));
    browser.click(".target[data-square=\"18\"]");
    assert_eq!(browser.eval("return document.querySelector('.target[data-square=\"27\"]').classList.contains('reachable');"), json!(true));
    browser.click(".target[data-square=\"27\"]");
    browser.until("return Array.from(document.querySelectorAll('ol.moves li')).some(li => li.textContent === '9x18x27');");
    if let Ok(dir) = std::env::var("REFEREE_SCREENSHOTS") {
        browser.screenshot(&Path::new(&dir).join("play.png"));
    }
    // Then the person resigns.
    let next = browser.until("const m = document.querySelector('.message').textContent; return (m.startsWith('Your move') || m.startsWith('Game over')) && m;");
    let next = next.as_str().unwrap();
    assert!(
        next.starts_with("Game over")
            || next.starts_with("Your move. White (builtin:random) declines your draw."),
        "{next}"
    );
    if browser
        .eval("return document.querySelector('.message').textContent.startsWith('Your move');")
        == json!(true)
    {
        browser.eval("window.confirm = () => true; return null;");
        browser.click("button[name=resign]");
    }
    let over = browser.until("const m = document.querySelector('.message').textContent; return m.startsWith('Game over') && m;");
    // Said to the person first: the person resigned, or the bot won on the board.
    assert!(
        over.as_str().unwrap().starts_with("Game over. You lose. "),
        "{over}"
    );
    assert!(play.0.wait().unwrap().success());
    let record = first_record(records.path());
    assert_eq!(record["moves"][0]["move"], "9x18x27");
}

/// "Offer a draw" switched on and off again: the turn's message is back, the mandatory capture
/// with it (switched off, it left the message empty).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_draw_offer_switched_off_shows_the_turns_message_again() {
    let records = tempfile::tempdir().unwrap();
    let (_play, url) = play_in_browser("checkers", records.path(), &["-p", "fen=B:W14,23,30:B9,1"]);
    let browser = Browser::start();
    browser.goto(&url);
    let message = "return document.querySelector('.message').textContent;";
    let turn = browser.until(
        "const m = document.querySelector('.message').textContent; return m.startsWith('Your move') && m;",
    );
    assert_eq!(turn, json!("Your move. A capture is mandatory."));
    browser.click("button[name=draw]");
    assert_eq!(
        browser.eval(message),
        json!("Your next move offers a draw.")
    );
    browser.click("button[name=draw]");
    assert_eq!(browser.eval(message), turn);
}

/// The message and the targets marked by a first tap (their move or square).
fn marked(browser: &Browser) -> Value {
    browser.eval(
        "return [document.querySelector('.message').textContent,
           [...document.querySelectorAll('.target.pending')].map((t) => t.dataset.move || t.dataset.square)];",
    )
}

/// On a phone a cell a finger could miss is marked by a first tap and played by a second on
/// it: gomoku's 23 px cells at 390 px (a tap on another moves the mark, and nothing is sent
/// until the second tap), and on a touch screen checkers' 47 px squares, the square that ends
/// the move. On a desktop a click plays at once (the tests above).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn on_a_phone_a_small_cell_is_played_by_a_second_tap() {
    let records = tempfile::tempdir().unwrap();
    let (_play, url) = play_in_browser("gomoku", records.path(), &[]);
    let browser = Browser::start();
    browser
        .runtime
        .block_on(browser.client.set_window_size(390, 844))
        .unwrap();
    browser.goto(&url);
    browser.until("return document.querySelector('.message').textContent.startsWith('Your move') && document.querySelector('.target[data-move]');");
    let point = |mv: &str| format!(".target[data-move=\"{mv}\"]");
    browser.click(&point("7 7"));
    assert_eq!(
        marked(&browser),
        json!([
            "Your move. Tap 7 7 again to play it, or tap another move.",
            ["7 7"]
        ])
    );
    browser.click(&point("8 8"));
    assert_eq!(
        marked(&browser),
        json!([
            "Your move. Tap 8 8 again to play it, or tap another move.",
            ["8 8"]
        ])
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    let (_, state) = get(&url, "/api/play/state", None);
    let state: Value = serde_json::from_str(&state).unwrap();
    assert_eq!(
        (&state["your_turn"], &state["moves"]),
        (&json!(true), &json!([])),
        "nothing played yet: {state}"
    );
    browser.click(&point("8 8"));
    browser.until("return [...document.querySelectorAll('ol.moves li')].some((li) => li.textContent === '8 8');");

    let records = tempfile::tempdir().unwrap();
    let (_play, url) = play_in_browser("checkers", records.path(), &["-p", "fen=B:W14,23,30:B9,1"]);
    let phone = Browser::phone();
    phone.goto(&url);
    assert_eq!(
        phone.eval("return matchMedia('(pointer: coarse)').matches && innerWidth;"),
        json!(390)
    );
    let square = |n: &str| format!(".target[data-square=\"{n}\"]");
    phone.until(&format!(
        "return document.querySelector('.message').textContent.startsWith('Your move') && document.querySelector('{}');",
        square("9")
    ));
    for n in ["9", "18", "27"] {
        phone.click(&square(n));
    }
    assert_eq!(
        marked(&phone),
        json!([
            "Your move. Tap 27 again to play 9x18x27, or tap another move.",
            ["27"]
        ])
    );
    phone.click(&square("27"));
    phone.until("return [...document.querySelectorAll('ol.moves li')].some((li) => li.textContent === '9x18x27');");
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_live_game_moves_in_the_viewer() {
    let records = tempfile::tempdir().unwrap();
    let (_server, url) = serve(records.path(), &[]);
    // The bots wait at their second move until the gate file exists, so the game is live
    // however long the browser takes to start; then they go on at 300 ms a move.
    let gate = records.path().join("go");
    let mode = format!("gate:{}", gate.display());
    let mut game = Match::new("mnk")
        .param("size=7")
        .a(scripted(&mode))
        .b(scripted(&mode))
        .time("move=120000")
        .games(1)
        .record(records.path())
        .command();
    let _match = Running(game.stdout(Stdio::null()).spawn().unwrap());
    let browser = Browser::start();
    browser.goto(&format!("{url}#/"));
    browser.until("return document.querySelector('tr.game-row .live-badge');");
    browser.click("tr.game-row");
    let first = browser.until("const p = document.querySelector('.board-box'); return p && document.querySelector('.live-badge') && Number(p.dataset.ply);");
    std::fs::write(&gate, "").unwrap();
    let later = browser.until(&format!("const p = document.querySelector('.board-box'); return p && Number(p.dataset.ply) > {first} && Number(p.dataset.ply);"));
    assert!(later.as_u64() > first.as_u64(), "{first} then {later}");
}

/// A tournament of built-in random bots named `names`, its file starting with `head`, played
/// into DIR/results/small.
fn small_tournament(head: &str, names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("small.toml");
    let mut text = head.to_string();
    for name in names {
        text.push_str(&format!(
            "\n[[players]]\nname = \"{name}\"\nbuiltin = \"random\"\n"
        ));
    }
    std::fs::write(&config, text).unwrap();
    let output = referee()
        .arg("tournament")
        .arg(&config)
        .arg("--out")
        .arg(dir.path().join("results/small"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    dir
}

/// Every page fits a phone's width (390 px): one column, nothing wider than the screen (the
/// viewer was 612 px wide, and the play page cut its clock off).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn every_page_fits_a_phone() {
    let dir = small_tournament(
        "game = \"uttt\"\ngames = 2\n",
        &["alpha-with-a-long-name", "beta-with-a-long-name", "gamma"],
    );
    let (_server, url) = serve(&dir.path().join("results"), &[]);
    let browser = Browser::start();
    browser
        .runtime
        .block_on(browser.client.set_window_size(390, 844))
        .unwrap();
    let overflow = "return document.documentElement.scrollWidth - window.innerWidth;";
    for (page, ready) in [
        ("#/", "document.querySelectorAll('tr.game-row').length > 0"),
        (
            "#/game/results%2Fsmall/1",
            "document.querySelector('.board-box svg')",
        ),
        (
            "#/tournament/results%2Fsmall",
            "document.querySelector('table.crosstable')",
        ),
    ] {
        browser.goto(&format!("{url}{page}"));
        browser.until(&format!("return {ready};"));
        let wider = browser.eval(overflow).as_i64().unwrap();
        assert!(wider <= 0, "{page} is {wider} px wider than the phone");
    }
    let records = tempfile::tempdir().unwrap();
    let (_play, url) = play_in_browser("uttt", records.path(), &[]);
    browser.goto(&url);
    browser.until("return document.querySelector('.clock') && document.querySelector('.clock').textContent.length > 0;");
    let wider = browser.eval(overflow).as_i64().unwrap();
    assert!(
        wider <= 0,
        "the play page is {wider} px wider than the phone"
    );
    let clock_visible = browser.eval(
        "const r = document.querySelector('.clock').getBoundingClientRect(); return r.right <= window.innerWidth && r.width > 0;",
    );
    assert_eq!(clock_visible, json!(true));
}

/// Games coming in while the index is open update its rows, and leave alone what the person
/// set in its filters (they were reset about twice a second).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn the_index_keeps_its_filters_while_games_come_in() {
    let records = tempfile::tempdir().unwrap();
    let (_server, url) = serve(records.path(), &[]);
    let mut games = Match::new("tictactoe")
        .a(scripted("slow:80"))
        .b(scripted("slow:80"))
        .games(30)
        .record(records.path())
        .command();
    let _match = Running(games.stdout(Stdio::null()).spawn().unwrap());
    let browser = Browser::start();
    browser.goto(&format!("{url}#/"));
    let before = browser.until(
        "const h = document.querySelector('main h1'); return h && h.textContent !== '0 games' && h.textContent;",
    );
    browser.eval(
        "const f = document.querySelector('.filters input'); f.value = 'A'; f.dispatchEvent(new Event('input')); document.querySelector('.filters select[name=result]').value = '1-0'; return true;",
    );
    browser.until(&format!(
        "const h = document.querySelector('main h1'); return h.textContent !== {before};"
    ));
    let kept = browser.eval(
        "return [document.querySelector('.filters input').value, document.querySelector('.filters select[name=result]').value];",
    );
    assert_eq!(kept, json!(["A", "1-0"]));
}

/// The index finds "the games A lost" (the result filter was the first player's only), as it
/// is set on the page and from an address, with the other filters kept.
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn the_index_finds_the_games_a_player_lost() {
    let records = tempfile::tempdir().unwrap();
    // Both take the first free square, so the first player wins; the sides alternate: A wins
    // game 1 and loses game 2.
    Match::new("tictactoe")
        .a(scripted("good"))
        .b(scripted("good"))
        .games(2)
        .record(records.path())
        .run();
    let (_server, url) = serve(records.path(), &[]);
    let browser = Browser::start();
    let numbers = |player: &str, outcome: &str| {
        browser.goto(&format!("{url}#/?player={player}&outcome={outcome}"));
        // The page of these filters, not the one before it.
        browser.until(&format!(
            "const o = document.querySelector('.filters select[name=outcome]');
             return o && o.value === '{outcome}' && document.querySelector('.filters input').value === '{player}';"
        ));
        browser.eval(
            "return [...document.querySelectorAll('tr.game-row')].map(tr => Number(tr.children[0].textContent));",
        )
    };
    assert_eq!(numbers("A", "lost"), json!([2]));
    assert_eq!(numbers("A", "won"), json!([1]));
    assert_eq!(numbers("B", "lost"), json!([1]));
    assert_eq!(numbers("A", "drew"), json!([]));
    // Set on the page, with the result filter beside it.
    browser.eval(
        "const f = document.querySelector('.filters select[name=outcome]'); f.value = 'lost'; f.dispatchEvent(new Event('input'));
         const r = document.querySelector('.filters select[name=result]'); r.value = '1-0'; r.dispatchEvent(new Event('input')); return true;",
    );
    let shown = browser.eval(
        "return [...document.querySelectorAll('tr.game-row')].map(tr => Number(tr.children[0].textContent));",
    );
    assert_eq!(
        shown,
        json!([2]),
        "A lost game 2, which B won as first player"
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn the_static_report_replays_with_no_server() {
    let records = tempfile::tempdir().unwrap();
    Match::new("checkers").games(2).record(records.path()).run();
    let site = tempfile::tempdir().unwrap();
    let output = referee()
        .arg("report")
        .arg(site.path())
        .arg("--from")
        .arg(records.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let page = site.path().join("index.html");
    let browser = Browser::start();
    browser.goto(&format!("file://{}", page.display()));
    assert_eq!(
        browser.until("return document.querySelectorAll('tr.game-row').length;"),
        json!(2)
    );
    browser.click("tr.game-row");
    browser.until("return document.querySelector('.board-area svg.checkers');");
    browser.click("button[name=first]");
    let start = browser.until("const b = document.querySelector('.board-box'); return b && b.dataset.ply === '0' && document.querySelectorAll('.board-area circle.black').length;");
    assert_eq!(start, json!(12), "twelve black men at the start");
    // The board's text is centred on its square (a stray `*/` in a comment of the style sheet
    // once dropped that rule).
    let anchor = browser.eval(
        "const t = document.querySelector('.board-area svg.board text'); return t && getComputedStyle(t).textAnchor;",
    );
    assert_eq!(anchor, json!("middle"));
    // The game's PDN is offered as a download from the page itself.
    let link = browser.eval(
        "const a = [...document.querySelectorAll('a[download]')].find(a => a.download.endsWith('.pdn')); return a && a.href.slice(0, 5);",
    );
    assert_eq!(link, json!("blob:"));
    // At the last move, the list of moves has followed it into view.
    browser.click("button[name=last]");
    let followed = browser.until(
        "const l = document.querySelector('ol.moves'), c = l.querySelector('li.current'); return c && l.scrollHeight > l.clientHeight && c.offsetTop >= l.scrollTop && c.offsetTop + c.offsetHeight <= l.scrollTop + l.clientHeight + 1;",
    );
    assert_eq!(followed, json!(true));
    // Autoplay at its fastest pace plays several moves a second.
    browser.click("button[name=first]");
    browser.eval("document.querySelector('select[name=speed]').value = '80'; return true;");
    browser.click("button[name=autoplay]");
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let ply = browser.eval("return Number(document.querySelector('.board-box').dataset.ply);");
    assert!(ply.as_u64().unwrap() >= 6, "{ply} moves in a second");
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_tournament_page_shows_standings_crosstable_and_ratings() {
    let dir = small_tournament(
        "game = \"tictactoe\"\ngames = 4\n",
        &["alpha", "beta", "gamma"],
    );
    let (_server, url) = serve(&dir.path().join("results"), &[]);
    let browser = Browser::start();
    browser.goto(&format!("{url}#/"));
    assert_eq!(
        browser.until("return document.querySelectorAll('tr.game-row').length;"),
        json!(12)
    );
    browser.click("ul.sources a");
    let rows = browser.until(
        "const rows = document.querySelectorAll('table.standings tr'); return rows.length > 1 &&
         Array.from(rows).slice(1).map(row => row.children[1].textContent).sort().join(',');",
    );
    assert_eq!(rows, json!("alpha,beta,gamma"));
    assert_eq!(
        browser.eval(
            "return document.querySelector('.progress').textContent.startsWith('12 of 12 games');"
        ),
        json!(true)
    );
    assert_eq!(
        browser.eval("return [document.querySelectorAll('svg.elo circle.point').length, document.querySelectorAll('table.crosstable tr').length];"),
        json!([3, 4])
    );
}

/// The rows of every table `referee standings` printed, each as its cells (a separator line
/// left out).
fn printed_rows(printed: &str) -> Vec<Vec<String>> {
    printed
        .lines()
        .filter(|line| line.starts_with('|') && !line.contains("---"))
        .map(|line| {
            let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
            inner
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

/// A tournament played (see [`small_tournament`]), served, its page open in a browser, and
/// the rows of the tables `referee standings` prints of it.
fn tournament_page(
    head: &str,
    names: &[&str],
) -> (tempfile::TempDir, Running, Browser, Vec<Vec<String>>) {
    let dir = small_tournament(head, names);
    let output = referee()
        .arg("standings")
        .arg(dir.path().join("results/small/journal.jsonl"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let printed = printed_rows(&String::from_utf8(output.stdout).unwrap());
    let (server, url) = serve(&dir.path().join("results"), &[]);
    let browser = Browser::start();
    browser.goto(&format!("{url}#/tournament/results%2Fsmall"));
    (dir, server, browser, printed)
}

/// Checks that the page's table of class `class` has `rows` rows under its titles, among
/// them each of `titles`, and that each row is one the command line printed, cell by cell.
fn assert_shown_as_printed(
    browser: &Browser,
    printed: &[Vec<String>],
    class: &str,
    rows: usize,
    titles: &[&str],
) {
    let shown = browser.until(&format!(
        "const rows = [...document.querySelectorAll('table.{class} tr')];
         return rows.length === {} && rows.map(tr => [...tr.children].map(cell => cell.textContent));",
        rows + 1
    ));
    let shown: Vec<Vec<String>> = serde_json::from_value(shown).unwrap();
    for title in titles {
        assert!(shown[0].iter().any(|t| t == title), "{class}: {shown:?}");
    }
    for row in &shown {
        assert!(printed.contains(row), "{class}: {row:?} not in {printed:?}");
    }
}

/// A gauntlet's page answers "does the challenger beat each opponent?" with the table the
/// command line prints (score, Elo with its 95% interval, LOS), and its ratings have the LOS
/// column the command line's have: the same cells, from the same computation (the page had
/// neither).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_gauntlet_page_shows_each_opponent_and_the_los_as_the_command_line_does() {
    let (_dir, _server, browser, printed) = tournament_page(
        "game = \"tictactoe\"\nformat = \"gauntlet\"\ngauntlet = [\"v2\"]\ngames = 6\n",
        &["v2", "v1", "v0"],
    );
    assert_shown_as_printed(&browser, &printed, "gauntlet", 2, &["95% interval", "LOS"]);
    assert_shown_as_printed(&browser, &printed, "ratings", 3, &["LOS"]);
    let heading = browser.eval(
        "return [...document.querySelectorAll('h2')].some(h => h.textContent === 'v2 against each opponent');",
    );
    assert_eq!(heading, json!(true));
}

/// The web standings say what the command line says, tie-breaks included (SB was shown as
/// `9855.00` and Buchholz as `11760.0` where the command line prints `9855`).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn the_web_standings_are_the_command_lines() {
    let (_dir, _server, browser, printed) = tournament_page(
        "game = \"tictactoe\"\ngames = 4\n",
        &["alpha", "beta", "gamma"],
    );
    assert_shown_as_printed(&browser, &printed, "standings", 3, &["SB", "Buch"]);
}

/// A contest's results page, published as it is: it opens on the contest's title and
/// standings (with their tie-breaks and each player's version), lists every entrant with why
/// one was left out, and has a page per entrant with its build, its check and its games; on a
/// phone's width nothing widens the page (wide tables scroll by themselves).
#[test]
#[ignore = "needs chromium, chromium-driver and bubblewrap; .ci/run runs it"]
fn a_contest_page_opens_on_its_standings_and_every_entrant() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    let bot =
        std::fs::read_to_string(crate::common::repo_file("tests/bots/first_free.py")).unwrap();
    for (name, file, text) in [
        ("ann", "main.py", bot.as_str()),
        ("cid", "main.c", "int main(void) { return 0 }\n"),
        ("dee", "main.py", "import numpy_is_not_here\n"),
    ] {
        std::fs::create_dir_all(subs.join(name)).unwrap();
        std::fs::write(subs.join(name).join(file), text).unwrap();
    }
    let config = dir.path().join("spring-cup.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"tictactoe\"\nsources = \"{}\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
            subs.display()
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = referee()
        .arg("contest")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let browser = Browser::start();
    browser
        .runtime
        .block_on(browser.client.set_window_size(390, 900))
        .unwrap();
    browser.goto(&format!("file://{}", out.join("index.html").display()));
    let title = browser.until("return document.querySelector('main h1')?.textContent;");
    assert_eq!(title, json!("spring-cup"));
    let headers = browser.eval(
        "return [...document.querySelectorAll('table.standings th')].map(th => th.textContent);",
    );
    for column in ["version", "h2h", "SB", "Buch"] {
        assert!(
            headers.as_array().unwrap().contains(&json!(column)),
            "{headers}"
        );
    }
    let standings = browser.eval("return document.querySelectorAll('table.standings tr').length;");
    assert_eq!(standings, json!(3), "a header and the two who played");
    let left_out = browser.eval(
        "return [...document.querySelectorAll('table.entrants tr.left-out')].map(tr => tr.innerText);",
    );
    let left_out = left_out.to_string();
    assert!(
        left_out.contains("cid") && left_out.contains("expected ';'"),
        "{left_out}"
    );
    assert!(
        left_out.contains("dee") && left_out.contains("No module named"),
        "{left_out}"
    );
    let overflow = browser.eval("return document.documentElement.scrollWidth - window.innerWidth;");
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "the page is wider than the phone by {overflow} px"
    );

    browser.click("table.entrants a[href='#/entrant/ann']");
    let games = browser.until(
        "return location.hash === '#/entrant/ann' && document.querySelectorAll('tr.game-row').length;",
    );
    assert_eq!(games, json!(2), "ann's games against boss");
    let check = browser.eval("return document.querySelector('main').innerText;");
    assert!(check.to_string().contains("compliant"), "{check}");
}

/// A link names a game's folder, so a folder added beside it (first in name order) does not
/// change what it shows (`#/game/1/1` showed another game then); the final position of a game
/// won by a line draws the line; what the bots said of their positions is drawn as a graph,
/// its axis labelled with values that a phone shows whole and in the page's type (it had none).
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_link_keeps_its_game_and_the_viewer_draws_the_line_and_the_evaluations() {
    let root = tempfile::tempdir().unwrap();
    let served = root.path().join("served");
    // Both bots take the first free square: X wins on the diagonal 2 0, 1 1, 0 2 at move 7,
    // each bot saying `info depth 1 score N` on stderr at each of its moves.
    let outcome = Match::new("tictactoe")
        .a(scripted("evaluates"))
        .b(scripted("evaluates"))
        .games(1)
        .record(&served.join("b"))
        .run();
    assert_eq!(outcome.record()["result"]["reason"], "line");
    let (_server, url) = serve(&served, &[]);
    let browser = Browser::start();
    let link = format!("{url}#/game/served%2Fb/1");
    browser.goto(&link);
    let title = browser.until("const h = document.querySelector('h1'); return h && h.textContent.includes('tictactoe') && h.textContent;");
    browser.until("return document.querySelector('.board-box svg polyline.win-line');");
    let dots = browser.until("const d = document.querySelectorAll('svg.evaluations circle'); return d.length && d.length;");
    assert_eq!(dots, json!(7), "one evaluation for each move");
    let said = browser.eval(
        "return document.querySelector('svg.evaluations circle.eval-second title').textContent;",
    );
    assert!(said.as_str().unwrap().contains(": 10"), "{said}");
    // The top and the bottom of each side's line (X's scores up to 40, O's up to 30, each its
    // own), and zero.
    let axis =
        "return [...document.querySelectorAll('.eval-axis > div')].map((at) => at.innerText);";
    assert_eq!(browser.eval(axis), json!(["+40\n-30", "0", "-40\n+30"]));
    let phone = Browser::phone();
    phone.goto(&link);
    phone.until("return document.querySelectorAll('.eval-axis span').length === 4;");
    let fits = phone.eval(
        "const graph = document.querySelector('svg.evaluations').getBoundingClientRect();
         const labels = [...document.querySelectorAll('.eval-axis span, .eval-axis > div:nth-child(2)')];
         return document.documentElement.scrollWidth <= innerWidth && graph.width > 250
           && labels.every((label) => { const r = label.getBoundingClientRect();
             return r.left >= 0 && r.right <= graph.left && parseFloat(getComputedStyle(label).fontSize) >= 12; });",
    );
    assert_eq!(
        fits,
        json!(true),
        "the axis beside the graph, on the phone's screen"
    );
    // The graph takes the viewer to the move clicked.
    browser.click("svg.evaluations");
    browser.until(
        "const b = document.querySelector('.board-box'); return b && Number(b.dataset.ply) < 7;",
    );

    Match::new("uttt")
        .a(RANDOM)
        .b(RANDOM)
        .games(1)
        .record(&served.join("a"))
        .run();
    browser.goto("about:blank");
    browser.goto(&link);
    let again = browser.until("const h = document.querySelector('h1'); return h && h.textContent.length && h.textContent;");
    assert_eq!(again, title, "the same address shows the same game");
}

/// Renju: Black's forbidden points are marked, and a click on one says why.
#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
fn a_forbidden_point_is_marked_and_explained() {
    let records = tempfile::tempdir().unwrap();
    // Black (the person) to move, with 6 7 an overline.
    let opening = "3 7,0 0,4 7,0 1,5 7,0 2,7 7,0 3,8 7,1 0";
    let (_play, url) = play_in_browser(
        "gomoku",
        records.path(),
        &["-p", "rule=renju", "--opening", opening],
    );
    let browser = Browser::start();
    browser.goto(&url);
    browser.until("return document.querySelector('.board-area .target[data-forbidden]') && document.querySelector('.message').textContent.startsWith('Your move');");
    assert_eq!(
        browser.eval("return document.querySelectorAll('.board-area .forbidden').length;"),
        json!(2),
        "one cross, two strokes"
    );
    browser.click(".board-area .target[data-forbidden]");
    let message = browser.until("const m = document.querySelector('.message').textContent; return m.includes('forbidden') && m;");
    assert!(message.as_str().unwrap().contains("overline"), "{message}");
}

/// An address whose number is no number is refused saying so, without Rust's types: it was
/// 'Invalid URL: Cannot parse value at index 1 with value `abc` to a `u32`'.
#[test]
fn serve_refuses_an_address_that_is_no_number_in_words() {
    let records = tempfile::tempdir().unwrap();
    let (_server, url) = serve(records.path(), &[]);
    for (path, said) in [
        (
            "/api/game/x/abc",
            "the address has 'abc' where a whole number (0 or more) goes\n",
        ),
        (
            "/api/position/x/1/-1",
            "the address has '-1' where a whole number (0 or more) goes\n",
        ),
        (
            "/api/game/%ff/1",
            "the address holds bytes that are not UTF-8 text\n",
        ),
    ] {
        assert_eq!(get(&url, path, None), (400, said.to_string()), "{path}");
    }
}
