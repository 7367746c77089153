//! People at the arena, in Chromium: a person signs up, opens a bot's page, plays it ("play this
//! bot") by typing a move in the player console (a refused one is told in the rules' words) and
//! clicking the rest; the game is listed live while played, then stored and rated with the
//! ladder's games, the person on the leaderboard as `@NAME`; a closed tab opened again goes on
//! with the game; nobody else (nor another site's page) reaches their game's page. Two people: an invitation seen live,
//! accepted and played, declined, or left to expire.

use crate::arena::{get, init, serve, serve_at, set_ladder_time, token};
use crate::arena_pages::sign_up;
use crate::browser_support::{Browser, Running};
use serde_json::Value;

#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn a_person_plays_a_bot_by_console_and_clicks_and_the_game_is_rated() {
    let (dir, _server, url, ann) = ann_at_the_random_bot();
    let arena = dir.path().join("arena");
    ann.click("button[name=play]");
    ann.until(
        "return location.hash.startsWith('#/play/') && document.querySelector('.board-area svg') \
         && document.querySelector('.message').textContent.startsWith('Your move');",
    );
    let id: i64 = ann
        .eval("return location.hash.split('/')[2];")
        .as_str()
        .unwrap()
        .parse()
        .unwrap();

    // Listed live while played, under the person's name.
    let live = get(&url, "/api/live");
    assert!(live.to_string().contains("@ann"), "{live}");

    // Nobody else reaches the game's page: not signed in, or another user.
    let state = format!("{url}/api/people/{id}/state");
    let anonymous = ureq::get(&state).call().unwrap_err();
    assert_eq!(anonymous.into_response().map(|r| r.status()), Some(401));
    let bob = token(&arena, "bob", false);
    let other = ureq::get(&state)
        .set("Authorization", &format!("Bearer {bob}"))
        .call()
        .unwrap_err();
    assert_eq!(other.into_response().map(|r| r.status()), Some(404));

    // Another site's page, with ann's cookie sent along, cannot move for her: refused without
    // her page's token, and with another origin even with it.
    let session = ann
        .runtime
        .block_on(ann.client.get_named_cookie("arena_session"))
        .unwrap();
    let cookie = format!("arena_session={}", session.value());
    let token = get(&url, "/api/session")["page_token"]
        .as_str()
        .unwrap()
        .to_string();
    let forged = format!("{url}/api/people/{id}/move");
    for headers in [
        vec![("cookie", cookie.as_str())],
        vec![
            ("cookie", cookie.as_str()),
            ("origin", "http://evil.example"),
            ("x-referee-page", token.as_str()),
        ],
    ] {
        let mut request = ureq::post(&forged);
        for (name, value) in &headers {
            request = request.set(name, value);
        }
        let refused = request.send_string("0 0").unwrap_err();
        assert_eq!(refused.into_response().map(|r| r.status()), Some(403));
    }
    assert_eq!(
        ann.eval("return document.querySelectorAll('ol.moves li').length;"),
        0,
        "no move was made"
    );

    // A move typed as a bot writes it; the same square again is refused in the rules' words.
    type_move(&ann, "1 1");
    ann.until("return document.querySelector('.message').textContent.startsWith('Your move') && document.querySelectorAll('ol.moves li').length === 2;");
    type_move(&ann, "1 1");
    let refused = ann.until(
        "const m = document.querySelector('.message').textContent; return !m.startsWith('Your move') && m;",
    );
    assert!(
        refused.as_str().unwrap().contains("1 1"),
        "the rules' words: {refused}"
    );
    // The tab closed and opened again: the same game, their turn still.
    ann.goto("about:blank");
    ann.goto(&format!("{url}#/play/{id}"));
    ann.until("return document.querySelector('.message').textContent.startsWith('Your move') && document.querySelectorAll('ol.moves li').length === 2;");
    // The rest by clicking, to the end.
    click_to_the_end(&ann);
    // Over: nothing more to send, the verdict stays, and the page leads to the game stored,
    // titled with its number in the ladder.
    assert_eq!(
        ann.eval(
            "return [...document.querySelectorAll('.play-panel input, .play-panel button')] \
             .filter((e) => !e.hidden).every((e) => e.disabled);"
        ),
        true,
        "the console and buttons disabled"
    );
    ann.click("p.after-game a");
    let number = ann.until(
        "const m = location.hash.match(/^#\\/game\\/tictactoe\\/(\\d+)/); \
         const h = document.querySelector('h1'); \
         return m && h && h.textContent.startsWith(`Game ${m[1]}:`) && m[1];",
    );
    let number: i64 = number.as_str().unwrap().parse().unwrap();

    // Stored and rated with the ladder's games.
    let stored = get(&url, "/api/ladders/tictactoe/games?limit=1000");
    let game = stored
        .as_array()
        .unwrap()
        .iter()
        .find(|game| game["number"] == number)
        .unwrap_or_else(|| panic!("game {number} stored: {stored}"));
    assert!(game["players"].to_string().contains("@ann"), "{game}");
    let board = get(&url, "/api/ladders/tictactoe/leaderboard");
    let row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["bot"] == "@ann")
        .unwrap_or_else(|| panic!("@ann rated: {board}"));
    assert_eq!(row["games"], 1, "{row}");

    casual_and_friendly(&ann, &url);
    friendlies_refused(&url, &crate::arena::token(&arena, "carl", false));
}

/// The clock of a game's page runs only while the page shows the game: left for another page
/// it stops, opened again one runs, and it stops at the end (each visit started one for good,
/// two then counting down on one page).
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn a_game_page_left_and_opened_again_runs_one_clock() {
    let (_dir, _server, _url, ann) = ann_at_the_random_bot();
    // The page is not loaded again from here on (only its hash changes): every timer it starts
    // is counted until stopped.
    ann.eval(
        "window.timers = new Set(); const start = window.setInterval, stop = window.clearInterval;
         window.setInterval = (...args) => { const id = start(...args); timers.add(id); return id; };
         window.clearInterval = (id) => { timers.delete(id); stop(id); };",
    );
    let game = playing(&ann);
    assert_eq!(ann.eval("return timers.size;"), 1, "the clock runs");
    ann.eval("location.hash = '#/';");
    ann.until(LADDERS);
    assert_eq!(ann.eval("return timers.size;"), 0, "left, the clock stops");
    ann.eval(&format!("location.hash = {game};"));
    ann.until(YOUR_MOVE);
    assert_eq!(
        ann.eval("return timers.size;"),
        1,
        "opened again, one clock"
    );
    click_to_the_end(&ann);
    assert_eq!(ann.eval("return timers.size;"), 0, "over, the clock stops");
}

/// A game's page left while it loads (its first state, or the viewer's record, slow to come)
/// stops at once: its event stream closed, and its answer, come late, draws nothing over the
/// page shown next (the stream was closed only at the navigation after; the viewer drew itself
/// over the ladders).
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn a_game_page_left_while_it_loads_closes_its_stream_and_draws_nothing() {
    let (_dir, _server, _url, ann) = ann_at_the_random_bot();
    let play = playing(&ann);
    ann.eval("location.hash = '#/live';");
    let viewer = ann.until(
        "const link = document.querySelector('tr.live-row a[href^=\"#/game/live\"]'); \
         return link && link.getAttribute('href');",
    );
    counting_streams_at_the_ladders(&ann);
    ann.eval(
        "window.delayed = 0; window.answered = 0; const now = window.fetch;
         window.fetch = (url, options) => /\\/state$|api\\/game\\//.test(url)
           ? (delayed++, new Promise((done) => setTimeout(done, 1500))
               .then(() => now(url, options)).finally(() => answered++))
           : now(url, options);",
    );
    for page in [play, viewer] {
        ann.eval(&format!("location.hash = {page};"));
        ann.until("return delayed > answered;");
        ann.eval("location.hash = '#/';");
        ann.until(LADDERS);
        assert_eq!(ann.eval("return streams.size;"), 0, "{page}: left, closed");
        ann.until("return delayed === answered;");
        std::thread::sleep(std::time::Duration::from_millis(500));
        assert!(
            ann.eval(LADDERS).as_bool().unwrap(),
            "{page}: the ladders still shown"
        );
        assert_eq!(ann.eval("return streams.size;"), 0, "{page}: none opened");
    }
}

/// A game's page whose first state cannot be loaded (an answer that is no JSON) says so, the
/// error as text, and closes its event stream (it was left open, nothing to close it).
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn a_game_page_that_cannot_load_says_so_and_closes_its_stream() {
    let (_dir, _server, _url, ann) = ann_at_the_random_bot();
    let play = playing(&ann);
    counting_streams_at_the_ladders(&ann);
    ann.eval(
        "const now = window.fetch;
         window.fetch = (url, options) => /\\/state$/.test(url)
           ? Promise.resolve(new Response('<b>no state</b>')) : now(url, options);",
    );
    ann.eval(&format!("location.hash = {play};"));
    let said =
        ann.until("const p = document.querySelector('main p.no-page'); return p && p.textContent;");
    let said = said.as_str().unwrap();
    assert!(
        said.starts_with("The game could not be loaded (") && said.contains("<b>no state</b>"),
        "{said}"
    );
    assert_eq!(
        ann.eval("return document.querySelectorAll('main b').length;"),
        0
    );
    assert_eq!(ann.eval("return streams.size;"), 0, "the stream closed");
}

/// A person's game cut off by the arena stopping: its page, open while the arena starts again
/// on its address, says what became of the game once the arena answers, by itself (it said
/// that the server could not be reached until reloaded), and so does the page opened again (it
/// said only 'This page does not exist').
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn a_game_cut_off_by_the_arena_stopping_says_so_on_its_page() {
    let (dir, server, url, ann) = ann_at_the_random_bot();
    let play = playing(&ann);
    // Set on this page only: gone if the page is loaded again.
    ann.eval("window.notReloaded = true;");
    let mut server = server;
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    drop(server);
    ann.until(
        "return document.querySelector('.message').textContent.endsWith('Trying to reconnect...');",
    );
    let port: u16 = url
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let (_server, again) = serve_at(&dir.path().join("arena"), port);
    assert_eq!(again, url, "the same address");
    let said = "This game was cut off when the arena stopped: a game with a person is not played \
         again, and counts nowhere. Back to tictactoe.";
    let cut_off = "const p = document.querySelector('main p.cut-off'); return p && p.textContent;";
    assert_eq!(ann.until(cut_off), said);
    assert_eq!(ann.eval("return window.notReloaded;"), true, "not reloaded");
    ann.goto("about:blank");
    ann.goto(&format!("{url}{}", play.as_str().unwrap()));
    assert_eq!(ann.until(cut_off), said);
}

/// The address of a game begun by ann against the bot whose page is shown, at her move.
fn playing(ann: &Browser) -> Value {
    ann.click("button[name=play]");
    ann.until(YOUR_MOVE);
    ann.eval("return location.hash;")
}

/// The ladders shown, and from now on the event streams the page opens counted while open.
fn counting_streams_at_the_ladders(ann: &Browser) {
    ann.eval("location.hash = '#/';");
    ann.until(LADDERS);
    ann.eval(STREAMS);
}

/// The person's move awaited on a game's page.
const YOUR_MOVE: &str =
    "return document.querySelector('.message')?.textContent.startsWith('Your move');";
/// The arena's start page shown.
const LADDERS: &str = "return !!document.querySelector('table.ladders');";
/// The event streams the page opens from now on, counted while open (`streams`).
const STREAMS: &str = "window.streams = new Set(); const Source = window.EventSource;
     window.EventSource = class extends Source {
       constructor(...args) { super(...args); streams.add(this); }
       close() { streams.delete(this); super.close(); }
     };";

/// An arena of its own, served, and ann signed up in Chromium at the page of tic-tac-toe's
/// random bot, its play button shown.
fn ann_at_the_random_bot() -> (tempfile::TempDir, Running, String, Browser) {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (server, url) = serve(&arena);
    let ann = Browser::start();
    sign_up(&ann, &url, "ann");
    ann.goto(&format!("{url}#/bot/tictactoe/builtin-random"));
    ann.until("return document.querySelector('button[name=play]');");
    (dir, server, url, ann)
}

/// Friendly matches asked for wrongly are refused with the reason: no games, too many, one bot
/// twice, a bot that is not there, a name that is no name, more waiting than a user may have.
fn friendlies_refused(url: &str, carl: &str) {
    let ask = |first: &str, second: &str, games: u32| {
        let body = serde_json::json!({"first": first, "second": second, "games": games});
        match ureq::post(&format!("{url}/api/ladders/tictactoe/friendlies"))
            .set("Authorization", &format!("Bearer {carl}"))
            .send_json(body)
        {
            Ok(_) => (200, String::new()),
            Err(refused) => {
                let response = refused.into_response().unwrap();
                (response.status(), response.into_string().unwrap())
            }
        }
    };
    let cases = [
        ("builtin-random", "builtin-greedy", 0, 400, "1 to 20 games"),
        ("builtin-random", "builtin-greedy", 21, 400, "1 to 20 games"),
        (
            "builtin-random",
            "builtin-random",
            2,
            400,
            "two different bots",
        ),
        ("builtin-random", "nobody", 2, 404, "named 'nobody'"),
        (
            "builtin-random",
            "<b>x</b>",
            2,
            400,
            "the second is not a bot's name",
        ),
    ];
    for (first, second, games, status, said) in cases {
        let (got, text) = ask(first, second, games);
        assert_eq!(got, status, "{first} {second} {games}: {text}");
        assert!(text.contains(said), "{text}");
        assert!(!text.contains("<b>"), "not echoed raw: {text}");
    }
    assert_eq!(ask("builtin-random", "builtin-greedy", 20).0, 200);
    let (got, text) = ask("builtin-random", "builtin-greedy", 1);
    assert_eq!(got, 429, "{text}");
    assert!(text.contains("friendly games waiting"), "{text}");
}

/// A casual game (resigned at once) is stored but leaves the person's rating alone; a
/// friendly match asked for from a bot's page is played, colours alternated, and unrated.
fn casual_and_friendly(ann: &Browser, url: &str) {
    ann.goto(&format!("{url}#/bot/tictactoe/builtin-random"));
    ann.until("return document.querySelector('button[name=play]');");
    ann.click("input[name=rated]");
    ann.click("button[name=play]");
    ann.until("return document.querySelector('.message').textContent.startsWith('Your move');");
    ann.eval("window.confirm = () => true; return null;");
    ann.click("button[name=resign]");
    ann.until("return document.querySelector('.message').textContent.startsWith('Game over');");
    let casual = |games: &Value| {
        games.as_array().unwrap().iter().any(|game| {
            game["players"][0] == "@ann" && game["rated"] == false && game["moves"] == 0
        })
    };
    wait_for(url, "/api/ladders/tictactoe/games?limit=1000", casual);
    let board = get(url, "/api/ladders/tictactoe/leaderboard");
    let row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["bot"] == "@ann");
    assert_eq!(
        row.unwrap()["games"],
        1,
        "the casual game rates nobody: {board}"
    );

    ann.goto(&format!("{url}#/bot/tictactoe/builtin-random"));
    ann.until("return document.querySelector('form.friendly input[name=opponent]');");
    ann.eval(
        "document.querySelector('form.friendly input[name=opponent]').value = 'builtin-greedy';
         document.querySelector('form.friendly input[name=games]').value = '2';",
    );
    ann.click("form.friendly button[type=submit]");
    ann.until(
        "return document.querySelector('form.friendly .message').textContent === '2 games queued';",
    );
    let friendlies = |games: &Value| -> Vec<Value> {
        games
            .as_array()
            .unwrap()
            .iter()
            .filter(|game| game["rated"] == false && game["players"][0] != "@ann")
            .cloned()
            .collect()
    };
    let games = wait_for(url, "/api/ladders/tictactoe/games?limit=1000", |games| {
        friendlies(games).len() == 2
    });
    let mut pairs: Vec<String> = friendlies(&games)
        .iter()
        .map(|game| game["players"].to_string())
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [
            r#"["builtin-greedy","builtin-random"]"#,
            r#"["builtin-random","builtin-greedy"]"#
        ]
    );
}

/// Plays the person's turns by clicking the first move the board offers, until the game is over.
fn click_to_the_end(browser: &Browser) {
    loop {
        let now = browser.until(
            "const m = document.querySelector('.message').textContent; \
             return (m.startsWith('Game over') || (m.startsWith('Your move') && document.querySelector('.board-area .target[data-move]'))) && m;",
        );
        if now.as_str().unwrap().starts_with("Game over") {
            break;
        }
        let before = browser.eval("return document.querySelectorAll('ol.moves li').length;");
        browser.click(".board-area .target[data-move]");
        browser.until(&format!(
            "return document.querySelectorAll('ol.moves li').length > {before};"
        ));
    }
}

fn type_move(browser: &Browser, text: &str) {
    browser.eval(&format!(
        "document.querySelector('input[name=console]').value = '{text}';"
    ));
    browser.click("form.player-console button[type=submit]");
}

/// What the API answers at `path` once `done` holds of it (within two minutes).
fn wait_for(url: &str, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = std::time::Instant::now();
    loop {
        let value = get(url, path);
        if done(&value) {
            return value;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "{value}"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// A short game of checkers from the standard start (found by a search with the rules):
/// black (the first player) wins on move 25, with three multi-jumps, the last by a king.
const CHECKERS_GAME: [&str; 25] = [
    "10-15", "22-18", "15x22", "26x17", "9-14", "17x10", "7x14", "21-17", "14x21", "30-26",
    "21x30", "23-18", "30x23x14", "31-26", "14-18", "27-23", "18x27x20", "28-24", "20x27", "32x23",
    "12-16", "23-19", "16x23x30", "29-25", "30x21",
];

/// Two people: an invitation to checkers appears in the invitee's panel without a reload (and
/// in the page's title) and is accepted; the game is played to its end by clicking square by
/// square, each on their own page, multi-jumps included, a draw offered with a move declined
/// by playing on, the invitee's tab closed and opened again mid-game; a third, not signed in,
/// watches every move live, the live list showing both clocks. A declined
/// invitation says so to its sender; one left waiting expires and can no longer be accepted.
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn an_invitation_is_seen_live_accepted_and_played_or_declined_or_expires() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let settings = arena.join("arena.toml");
    let text = std::fs::read_to_string(&settings).unwrap();
    // One boss only: the checkers ladder plays no games of its own.
    let checkers =
        "\n[[ladders]]\nname = \"checkers\"\ngame = \"checkers\"\nbosses = [\"random\"]\n";
    std::fs::write(
        &settings,
        text.replace("invitation_expiry_s = 600", "invitation_expiry_s = 15") + checkers,
    )
    .unwrap();
    let (_server, url) = serve(&arena);
    let ann = Browser::start();
    sign_up(&ann, &url, "ann");
    let bob = Browser::start();
    sign_up(&bob, &url, "bob");
    bob.goto(&format!("{url}#/invitations"));
    bob.until("return document.querySelector('div.invitations');");

    invite(&ann, &url, "checkers", "bob");
    let row = "tr.invitation.waiting button[name=accept]";
    bob.until(&format!("return document.querySelector('{row}');"));
    assert!(bob
        .eval("return document.title;")
        .as_str()
        .unwrap()
        .starts_with("(1)"));
    bob.click(row);
    bob.until(
        "return location.hash.startsWith('#/play/') && document.querySelector('.board-area svg');",
    );
    ann.goto(&format!("{url}#/invitations"));
    ann.until("return document.querySelector('tr.invitation.accepted a');");
    ann.click("tr.invitation.accepted a");
    // Anyone, signed in or not, watches it live.
    let watcher = Browser::start();
    watcher.goto(&format!("{url}#/live"));
    watcher.until("const row = document.querySelector('tr.live-row'); return row && row.innerText.includes('@bob');");
    // Both clocks, Ann's running (30 s a move, the people's clock).
    let clocks = watcher.until(
        "const c = document.querySelectorAll('tr.live-row .clock'); \
         return c.length === 2 && c[0].classList.contains('running') \
         && !c[1].classList.contains('running') && [c[0].textContent, c[1].textContent];",
    );
    let seconds = |text: &Value| {
        text.as_str()
            .unwrap()
            .trim_end_matches(" s")
            .parse::<f64>()
            .unwrap()
    };
    assert!((0.0..30.0).contains(&seconds(&clocks[0])), "{clocks}");
    assert_eq!(clocks[1], "30.0 s", "{clocks}");
    watcher.click("tr.live-row a[href^='#/game/live']");
    watcher.until("return document.getElementById('status').textContent.startsWith('live');");
    play_checkers_by_clicking(&ann, &bob, &watcher);
    for person in [&ann, &bob] {
        person.until(
            "return document.querySelector('.message').textContent.startsWith('Game over');",
        );
    }
    let games = wait_for(&url, "/api/ladders/checkers/games?limit=10", |games| {
        !games.as_array().unwrap().is_empty()
    });
    assert_eq!(
        games[0]["players"],
        serde_json::json!(["@ann", "@bob"]),
        "{games}"
    );
    assert_eq!(games[0]["winner"], 0, "{games}");
    assert_eq!(games[0]["moves"], CHECKERS_GAME.len(), "{games}");
    let number = games[0]["number"].as_i64().unwrap();
    let record = get(&url, &format!("/api/game/checkers/{number}"))["record"].clone();
    let played: Vec<&str> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv["move"].as_str().unwrap())
        .collect();
    assert_eq!(played, CHECKERS_GAME, "{record}");
    assert_eq!(record["moves"][4]["offers_draw"], true, "{record}");
    // The watcher, once the game is over, is at the game stored, titled with its number.
    watcher.until(&format!(
        "return location.hash.startsWith('#/game/checkers/{number}') \
         && document.querySelector('main h1').textContent.startsWith('Game {number}:');"
    ));

    // Declined: the sender's panel says so.
    ann.goto(&format!("{url}#/invitations"));
    invite(&ann, &url, "tictactoe", "bob");
    bob.goto(&format!("{url}#/invitations"));
    bob.until("return document.querySelector('tr.invitation.waiting button[name=decline]');");
    bob.click("tr.invitation.waiting button[name=decline]");
    ann.goto(&format!("{url}#/invitations"));
    ann.until("return document.querySelector('tr.invitation.declined');");

    // Nobody fills another's panel: 20 invitations waiting at once, the 21st refused.
    let carl = token(&arena, "carl", false);
    for n in 0..21 {
        let sent = ureq::post(&format!("{url}/api/invitations"))
            .set("Authorization", &format!("Bearer {carl}"))
            .send_json(serde_json::json!({"ladder": "tictactoe", "to": "bob"}));
        match sent {
            Ok(_) => assert!(n < 20, "invitation {n} taken"),
            Err(refused) => {
                assert_eq!(n, 20);
                let response = refused.into_response().unwrap();
                assert_eq!(response.status(), 429);
                let said = response.into_string().unwrap();
                assert!(said.contains("20 invitations waiting"), "{said}");
            }
        }
    }

    // Left waiting, it expires: shown so, with nothing left to accept.
    invite(&ann, &url, "tictactoe", "bob");
    bob.goto(&format!("{url}#/invitations"));
    bob.until("return document.querySelector('tr.invitation.waiting');");
    std::thread::sleep(std::time::Duration::from_secs(16));
    bob.goto("about:blank");
    bob.goto(&format!("{url}#/invitations"));
    bob.until("return document.querySelector('tr.invitation.expired');");
    assert!(bob
        .eval("return document.querySelector('tr.invitation.waiting');")
        .is_null());
}

/// Plays [`CHECKERS_GAME`]: Ann (black) moves first; each clicks their moves square by
/// square; Ann offers a draw with her third move and Bob declines it by playing on; Bob
/// closes his tab mid-game and opens it again; the watcher sees each move as it is made.
fn play_checkers_by_clicking(ann: &Browser, bob: &Browser, watcher: &Browser) {
    for (ply, mv) in CHECKERS_GAME.iter().enumerate() {
        let mover = if ply % 2 == 0 { ann } else { bob };
        mover.until(
            "return document.querySelector('.message').textContent.startsWith('Your move');",
        );
        if ply == 4 {
            // Ann offers a draw with her move; Bob is told, and declines by playing on.
            mover.click("button[name=draw]");
        }
        if ply == 9 {
            // Bob closes the tab on his turn and opens the game again: it goes on.
            let page = bob.eval("return location.href;");
            bob.goto("about:blank");
            bob.goto(page.as_str().unwrap());
            bob.until(&format!(
                "return document.querySelector('.message').textContent.startsWith('Your move') \
                 && document.querySelectorAll('ol.moves li').length === {ply};"
            ));
        }
        if ply == 5 {
            let told = bob.eval("return document.querySelector('.message').textContent;");
            assert!(
                told.as_str().unwrap().contains("@ann offers a draw"),
                "{told}"
            );
            assert_eq!(
                bob.eval("return document.querySelector('button[name=draw]').textContent;"),
                "Accept the draw"
            );
        }
        click_move(mover, mv);
        mover.until(&format!(
            "return document.querySelectorAll('ol.moves li').length > {ply};"
        ));
        // The watcher sees each move as it is made.
        watcher.until(&format!(
            "const b = document.querySelector('.board-box'); return b && Number(b.dataset.ply) > {ply};"
        ));
    }
}

/// Clicks a checkers move (`11-15`, `9x18x27`) square by square, each square a target once
/// the one before is chosen.
fn click_move(browser: &Browser, mv: &str) {
    for square in mv.split(['-', 'x']) {
        let target = format!(".board-area .target[data-square=\"{square}\"]");
        browser.until(&format!("return document.querySelector('{target}');"));
        browser.click(&target);
    }
}

/// Sends an invitation to `to` to a game of `ladder` from the invitations page.
fn invite(browser: &Browser, url: &str, ladder: &str, to: &str) {
    browser.goto(&format!("{url}#/invitations"));
    browser.until("return document.querySelector('form.invite input[name=to]');");
    browser.eval(&format!(
        "document.querySelector('form.invite select[name=ladder]').value = '{ladder}';
         document.querySelector('form.invite input[name=to]').value = '{to}';"
    ));
    browser.click("form.invite button[type=submit]");
    browser.until("return document.querySelector('form.invite .message').textContent === 'sent';");
}

/// A whole game of ultimate tic-tac-toe against the strongest built-in bot, every move typed in
/// the player console (each one of the moves the board offers: the forced board included).
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn a_person_plays_strong_at_uttt_entirely_through_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    // Three seconds a move for the bot: on a loaded machine running the debug build it lost on
    // time at 200 ms ("did not answer move 6 within 210 ms", 15 tasks ready on the 2
    // processors) and once at 1 s (its first answer after 1058 ms, 11 tasks ready).
    set_ladder_time(&arena, "uttt", "move=3000");
    let (_server, url) = serve(&arena);
    let ann = Browser::start();
    sign_up(&ann, &url, "ann");
    ann.goto(&format!("{url}#/bot/uttt/builtin-strong"));
    ann.until("return document.querySelector('button[name=play]');");
    ann.click("button[name=play]");
    let mut typed = 0;
    loop {
        let now = ann.until(
            "const e = document.querySelector('.message'); if (!e) return false; const m = e.textContent; \
             const t = document.querySelector('.board-area .target[data-move]'); \
             return m.startsWith('Game over') ? 'over' : (m.startsWith('Your move') && t && t.dataset.move);",
        );
        let mv = now.as_str().unwrap().to_string();
        if mv == "over" {
            break;
        }
        let before = ann.eval("return document.querySelectorAll('ol.moves li').length;");
        type_move(&ann, &mv);
        ann.until(&format!(
            "return document.querySelector('.message').textContent.startsWith('Game over') \
             || document.querySelectorAll('ol.moves li').length > {before};"
        ));
        typed += 1;
    }
    let games = wait_for(&url, "/api/ladders/uttt/games?limit=10", |games| {
        !games.as_array().unwrap().is_empty()
    });
    assert_eq!(
        games[0]["players"],
        serde_json::json!(["@ann", "builtin-strong"]),
        "{games}"
    );
    assert!(typed >= 5, "a whole game typed: {typed} moves: {games}");
    let reason: referee_rules::verdict::Termination =
        serde_json::from_value(games[0]["reason"].clone()).unwrap();
    assert!(!reason.is_forfeit(), "played to its end: {games}");
}
