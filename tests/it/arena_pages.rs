//! The arena's pages in Chromium: two people sign up, upload a C bot and a Python bot through
//! the page (and a C bot that does not compile), and watch them built, validated and ranked;
//! the leaderboard and the bots' pages say what the arena's API (its database) says; a bot's
//! build log and the stderr of its games are its owner's only; its games are anyone's to watch,
//! while they are played too.

use crate::arena::{get, init, serve, set_ladder_time, sources, submit, token};
use crate::browser_support::Browser;
use crate::common::{repo_file, succeeded};
use fantoccini::Locator;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// Signs `name` up in `browser`'s own session.
pub(crate) fn sign_up(browser: &Browser, url: &str, name: &str) {
    browser.goto(&format!("{url}#/signup"));
    browser.until("return document.querySelector('form input[name=name]');");
    browser.eval(&format!(
        "document.querySelector('input[name=name]').value = '{name}';
         document.querySelector('input[name=password]').value = 'a long password';"
    ));
    browser.click("form button[type=submit]");
    browser.until(&format!(
        "return location.hash === '#/mine' && document.getElementById('who').textContent.includes('{name}');"
    ));
}

/// Uploads `file` as bot `name` on the tic-tac-toe ladder through the page, whose bot page
/// then follows the build and validation by itself to `ends` ("passed" or "failed"), with the
/// play button for a bot that passed.
fn upload(browser: &Browser, url: &str, name: &str, file: &Path, ends: &str) {
    browser.goto(&format!("{url}#/upload"));
    browser.until("return document.querySelector('form input[type=file]');");
    browser.eval(&format!(
        "const ladder = document.querySelector('select[name=ladder]');
         ladder.value = 'tictactoe'; ladder.dispatchEvent(new Event('change'));
         document.querySelector('input[name=name]').value = '{name}';"
    ));
    browser
        .runtime
        .block_on(async {
            let input = browser
                .client
                .find(Locator::Css("input[type=file]"))
                .await?;
            input.send_keys(file.to_str().unwrap()).await
        })
        .unwrap();
    browser.click("form button[type=submit]");
    browser.until(&format!(
        "return location.hash === '#/bot/tictactoe/{name}' && document.querySelector('table.versions td.state');"
    ));
    let play = if ends == "passed" {
        "button[name=play]"
    } else {
        "body"
    };
    browser.until_within(
        &format!(
            "return document.querySelector('table.versions td.state').textContent === '{ends}' \
             && document.querySelector('{play}');"
        ),
        Duration::from_secs(300),
    );
}

/// The upload form's name is checked by the browser (its pattern is valid under the "v" flag
/// browsers read patterns with), and the protocols offered are the chosen ladder's.
fn upload_form_checks(browser: &Browser, url: &str) {
    browser.goto(&format!("{url}#/upload"));
    browser.until("return document.querySelector('form select[name=protocol] option');");
    let checked = browser.eval(
        "const name = document.querySelector('input[name=name]'); \
         name.value = 'no spaces'; const bad = name.checkValidity(); \
         name.value = 'a-b_c.9'; const good = name.checkValidity(); \
         name.value = ''; return [bad, good];",
    );
    assert_eq!(checked, serde_json::json!([false, true]));
    let offered = |ladder: &str| {
        browser.eval(&format!(
            "const ladder = document.querySelector('select[name=ladder]'); ladder.value = '{ladder}'; \
             ladder.dispatchEvent(new Event('change')); \
             return [...document.querySelectorAll('select[name=protocol] option')].map((o) => o.value);"
        ))
    };
    for ladder in ["uttt", "tictactoe"] {
        let allowed = get(url, "/api/ladders")
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == ladder)
            .unwrap()["protocols"]
            .clone();
        assert_eq!(offered(ladder), allowed, "{ladder}");
    }
}

/// The leaderboard's rows once `bots` all have games.
fn ranked(url: &str, bots: &[&str]) -> Value {
    let started = Instant::now();
    loop {
        let board = get(url, "/api/ladders/tictactoe/leaderboard");
        let rows = board["rows"].as_array().unwrap();
        let playing = |bot: &&str| {
            rows.iter()
                .any(|row| row["bot"] == *bot && row["games"].as_i64().unwrap() > 0)
        };
        if bots.iter().all(playing) {
            return board;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "not ranked yet: {board}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// The leaderboard page shows the rows the API reads from the database, to the digit.
fn leaderboard_agrees_with_the_api(ann: &Browser, url: &str) {
    let board = get(url, "/api/ladders/tictactoe/leaderboard");
    ann.goto(&format!("{url}#/ladder/tictactoe"));
    let shown = ann.until(
        "const rows = [...document.querySelectorAll('table.leaderboard tr[data-bot]')];
         return rows.length ? rows.map((row) => [...row.cells].slice(0, 10).map((cell) => cell.textContent)) : null;",
    );
    let expected: Vec<Vec<String>> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let mark = row["mark"]
                .as_str()
                .map_or_else(String::new, |mark| format!(" ({mark})"));
            vec![
                row["rank"].to_string(),
                format!("{}{mark}", row["bot"].as_str().unwrap()),
                row["owner"].as_str().unwrap_or("").to_string(),
                format!(
                    "{:.1} ± {:.1}",
                    row["mu"].as_f64().unwrap(),
                    row["sigma"].as_f64().unwrap()
                ),
                format!("{:.1}", row["conservative"].as_f64().unwrap()),
                row["games"].to_string(),
                row["wins"].to_string(),
                row["draws"].to_string(),
                row["losses"].to_string(),
            ]
        })
        .collect();
    let shown: Vec<Vec<String>> = shown
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            row.as_array().unwrap()[..9]
                .iter()
                .map(|cell| cell.as_str().unwrap().to_string())
                .collect()
        })
        .collect();
    assert_eq!(shown, expected);
}

#[test]
#[ignore = "needs bubblewrap, gcc, chromium and chromium-driver; .ci/run runs it"]
fn people_upload_bots_through_the_page_and_watch_them_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let files = dir.path().join("files");
    std::fs::create_dir_all(files.join("good")).unwrap();
    std::fs::create_dir_all(files.join("broken")).unwrap();
    std::fs::create_dir_all(files.join("python")).unwrap();
    std::fs::copy(
        repo_file("tests/bots/first_free.c"),
        files.join("good/main.c"),
    )
    .unwrap();
    std::fs::write(files.join("broken/main.c"), "int main(void) { return 0 }\n").unwrap();
    std::fs::copy(
        repo_file("tests/bots/first_free.py"),
        files.join("python/main.py"),
    )
    .unwrap();

    let ann = Browser::start();
    sign_up(&ann, &url, "ann");
    upload_form_checks(&ann, &url);
    upload(&ann, &url, "cbot", &files.join("good/main.c"), "passed");
    upload(
        &ann,
        &url,
        "cbroken",
        &files.join("broken/main.c"),
        "failed",
    );
    let bob = Browser::start();
    sign_up(&bob, &url, "bob");
    upload(&bob, &url, "pybot", &files.join("python/main.py"), "passed");

    // Both good bots ranked; then the ladder paused (by an admin) so that page and API agree.
    ranked(&url, &["cbot", "pybot"]);
    let admin = token(&arena, "root", true);
    let paused = ureq::post(&format!("{url}/api/admin/ladders/tictactoe/pause"))
        .set("Authorization", &format!("Bearer {}", admin.trim()))
        .send_json(serde_json::json!({ "paused": true }))
        .unwrap();
    assert_eq!(paused.status(), 200);
    std::thread::sleep(Duration::from_secs(3));
    leaderboard_agrees_with_the_api(&ann, &url);

    // The owner sees the compiler's words; another person sees no build log.
    ann.goto(&format!("{url}#/bot/tictactoe/cbroken"));
    let log = ann.until("const d = document.querySelector('details.build pre.log'); return d && d.textContent.includes('error') && d.textContent;");
    assert!(log.as_str().unwrap().contains("expected"), "{log}");
    assert_eq!(
        ann.eval("return document.querySelector('table.versions td.state').textContent;"),
        "failed"
    );
    bob.goto(&format!("{url}#/bot/tictactoe/cbroken"));
    // Not the versions of the page before (pybot's, with its build log), still there a moment.
    bob.until("return document.querySelector('main h1').textContent === 'cbroken' && document.querySelector('table.versions td.state');");
    assert_eq!(
        bob.eval("return document.querySelectorAll('details.build').length;"),
        0
    );

    // A game of cbot's: what it wrote to stderr there is ann's to see, not bob's.
    let games = get(&url, "/api/ladders/tictactoe/games?limit=1000");
    let (number, side) = games
        .as_array()
        .unwrap()
        .iter()
        .find_map(|game| {
            let side = game["players"]
                .as_array()?
                .iter()
                .position(|p| p == "cbot")?;
            Some((game["number"].as_i64()?, side))
        })
        .unwrap_or_else(|| panic!("no game of cbot: {games}"));
    let stderr_of_cbot = format!(
        "return fetch('api/game/tictactoe/{number}', {{credentials: 'same-origin'}}).then((r) => r.json()).then((v) => v.stderr[{side}] ? v.stderr[{side}].map((l) => l.text).join('|') : 'hidden');"
    );
    let seen = ann.eval(&stderr_of_cbot);
    assert!(seen.as_str().unwrap().contains("c bot thinking"), "{seen}");
    assert_eq!(bob.eval(&stderr_of_cbot), "hidden");
    let status_of = format!(
        "return fetch('api/game/tictactoe/{number}/stderr/{side}', {{credentials: 'same-origin'}}).then((r) => r.status);"
    );
    assert_eq!(ann.eval(&status_of), 200);
    assert_eq!(bob.eval(&status_of), 404, "another person's bot's stderr");

    // The languages, each with its toolchain's version.
    ann.goto(&format!("{url}#/languages"));
    let c = ann.until("const row = [...document.querySelectorAll('table.languages tr')].find((r) => r.cells[0].textContent === 'c'); return row && row.cells[1].textContent;");
    assert!(c.as_str().unwrap().contains("gcc"), "{c}");
    // The game itself is anyone's to watch, in the viewer.
    bob.goto(&format!("{url}#/game/tictactoe/{number}"));
    bob.until("return document.querySelector('.board-box svg');");
    let title = bob.eval("return document.querySelector('h1').textContent;");
    assert!(
        title
            .as_str()
            .unwrap()
            .starts_with(&format!("Game {number}:")),
        "the stored number, not the queue's id: {title}"
    );

    fits_a_phone(&bob, &url, "cbot");
    said_plainly(&bob, &url);
}

/// Pages that have little or nothing to show say so: an address with no page, a bot without
/// games, and, to someone signed out, how to play a bot.
fn said_plainly(bob: &Browser, url: &str) {
    for page in ["#/nothing-here", "#/bot/tictactoe/nobody"] {
        bob.goto(&format!("{url}{page}"));
        bob.until(
            "const h = document.querySelector('main h1'); \
             return h && h.textContent === 'No such page' && document.querySelector('main a[href=\"#/\"]');",
        );
    }
    bob.goto(&format!("{url}#/bot/tictactoe/cbroken"));
    let empty = bob.until(
        "return document.querySelector('table.versions') && document.querySelectorAll('p.none-yet').length;",
    );
    assert_eq!(empty, 3, "rating, results and games: none yet");
    bob.click("button[name=logout]");
    bob.until("return document.querySelector('#who a[href=\"#/login\"]');");
    bob.goto(&format!("{url}#/bot/tictactoe/cbot"));
    bob.until("return document.querySelector('.play-this-bot a[href=\"#/login\"]');");
}

/// On a phone, no page of the arena is wider than the screen (`bot`'s page among them).
fn fits_a_phone(bob: &Browser, url: &str, bot: &str) {
    bob.runtime
        .block_on(bob.client.set_window_size(390, 844))
        .unwrap();
    for (page, ready) in [
        ("#/", "table.ladders"),
        ("#/ladder/tictactoe", "table.leaderboard"),
        (&format!("#/bot/tictactoe/{bot}"), "table.versions"),
        ("#/upload", "form"),
        ("#/live", "main h1"),
    ] {
        bob.goto(&format!("{url}{page}"));
        bob.until(&format!("return document.querySelector('{ready}');"));
        let wider = bob.eval("return document.documentElement.scrollWidth - window.innerWidth;");
        assert!(
            wider.as_i64().unwrap() <= 0,
            "{page} is {wider} px wider than a phone"
        );
        // Whatever is tapped is about 40 px tall (a checkbox's label is), and the inputs' type
        // 16 px (iOS zooms into a smaller one on focus).
        let small = bob.eval(
            "const shown = (e) => e.getClientRects().length > 0; \
             const tapped = [...document.querySelectorAll('header a, header button, main a, main button, main select, main input')] \
               .filter(shown).map((e) => e.type === 'checkbox' ? e.closest('label') : e); \
             return tapped.filter((e) => e.getBoundingClientRect().height < 38).map((e) => e.outerHTML) \
               .concat([...document.querySelectorAll('main input, main select')].filter(shown) \
                 .filter((e) => getComputedStyle(e).fontSize !== '16px').map((e) => e.outerHTML));",
        );
        assert_eq!(small, serde_json::json!([]), "{page}: too small to tap");
        // The ladders' and the leaderboard's columns shown all fit: none is scrolled to.
        let cut = bob.eval(
            "return [...document.querySelectorAll('table.ladders td, table.leaderboard td')] \
             .filter((c) => c.offsetParent !== null && c.getBoundingClientRect().right > window.innerWidth) \
             .map((c) => c.textContent);",
        );
        assert_eq!(cut, serde_json::json!([]), "{page}: cells off the screen");
    }
}

/// The longest names the arena takes (40 characters, a bot's and its owner's) fit a phone: the
/// leaderboard's name wraps (the table was 491 px wide, its numbers off the screen), and so
/// does the owner's name on the bot's page (400 px).
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn the_longest_names_fit_a_phone() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let bot = "a-bot-whose-name-is-as-long-as-it-may-be";
    let owner = "o".repeat(40);
    assert_eq!(bot.len(), 40);
    let folder = sources(dir.path(), "bot", "tests/bots/first_free.py");
    succeeded(&submit(&url, &token(&arena, &owner, false), bot, &folder));
    let browser = Browser::start();
    fits_a_phone(&browser, &url, bot);
}

/// Anyone, signed in or not, sees the games being played and watches one move by move (the
/// page is told of each move, not reloaded), until it is over and stored.
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn a_game_being_played_is_listed_and_watched_live() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    // Three seconds a move: the slow bot's 600 ms stay far inside it on a loaded machine (at
    // one second, its check failed once, the bot waiting for a processor among 13 tasks).
    set_ladder_time(&arena, "tictactoe", "move=3000");
    let (_server, url) = serve(&arena);
    // The first free square, 600 ms a move: its games last seconds.
    let slow = dir.path().join("slow");
    std::fs::create_dir_all(&slow).unwrap();
    let source = std::fs::read_to_string(repo_file("tests/bots/first_free.py")).unwrap();
    let source = source.replace("import sys", "import sys, time").replace(
        "print(x, y, flush=True)",
        "time.sleep(0.6)\n        print(x, y, flush=True)",
    );
    std::fs::write(slow.join("main.py"), source).unwrap();
    let ann = token(&arena, "ann", false);
    succeeded(&submit(&url, &ann, "slow", &slow));

    // A game's row in the list stays the same element while the game moves (its count of
    // moves changes in place): a click on its link is not lost to a redraw.
    let watcher = Browser::start();
    watcher.goto(&format!("{url}#/live"));
    let kept_while_moving = (0..20).any(|_| {
        watcher.until(
            "window.kept = document.querySelector('tr.live-row');
             return window.kept && (window.keptMoves = window.kept.children[4].textContent, true);",
        );
        let seen = watcher.until(
            "return !window.kept.isConnected ? 'gone'
               : window.kept.children[4].textContent !== window.keptMoves && 'moved';",
        );
        seen == "moved"
    });
    assert!(kept_while_moving, "no row was seen to move in place");

    // A game listed may be over by the time it is opened (stored, it shows as finished), or
    // nearly: then the list again, and another.
    let mut first = None;
    for _ in 0..20 {
        watcher.goto(&format!("{url}#/live"));
        // The way in comes first in its row, on a phone too.
        let players = watcher.until(
            "const row = document.querySelector('tr.live-row'); \
             return row && row.cells[0].textContent === 'watch' && row.innerText;",
        );
        assert!(players.as_str().unwrap().contains("slow"), "{players}");
        // The game may end (and the list show none) between seeing its row and clicking.
        if watcher
            .try_click("tr.live-row a[href^='#/game/live']")
            .is_err()
        {
            continue;
        }
        let shown = watcher.until(
            "const b = document.querySelector('.board-box'); \
             return b && b.dataset.ply && [document.getElementById('status').textContent, b.dataset.ply];",
        );
        let ply: usize = shown[1].as_str().unwrap().parse().unwrap();
        // Live, and with moves to come: a game of tic-tac-toe may end at its fifth move (it
        // once ended at the sixth, the first shown).
        let live = shown[0]
            .as_str()
            .is_some_and(|status| status.starts_with("live"));
        if live && ply < 5 {
            first = Some(ply);
            break;
        }
    }
    let first = first.expect("a game still being played when opened, in 20 tries");
    watcher.until(&format!(
        "const b = document.querySelector('.board-box'); return b && Number(b.dataset.ply) > {first};"
    ));
    // Over, the page moves to the game stored, at its own address (the live one is the game's
    // id in the queue), titled with its number there.
    let number = watcher.until(
        "const m = location.hash.match(/^#\\/game\\/tictactoe\\/(\\d+)/); \
         const h = document.querySelector('h1'); \
         return m && h && h.textContent.startsWith(`Game ${m[1]}:`) && m[1];",
    );
    let number: i64 = number.as_str().unwrap().parse().unwrap();
    let games = get(&url, "/api/ladders/tictactoe/games?limit=1000");
    let stored = games
        .as_array()
        .unwrap()
        .iter()
        .find(|game| game["number"] == number)
        .unwrap_or_else(|| panic!("game {number} stored: {games}"));
    assert!(stored["players"].to_string().contains("slow"), "{stored}");
}
