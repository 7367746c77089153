//! People at the arena, in Chromium: a person signs up, opens a bot's page, plays it ("play this
//! bot") by typing a move in the player console (a refused one is told in the rules' words) and
//! clicking the rest; the game is listed live while played, then stored and rated with the
//! ladder's games, the person on the leaderboard as `@NAME`; a closed tab opened again goes on
//! with the game; nobody else (nor another site's page) reaches their game's page. Two people: an invitation seen live,
//! accepted and played, declined, or left to expire.

use crate::arena::{get, init, serve, token};
use crate::arena_pages::sign_up;
use crate::browser_support::Browser;
use serde_json::Value;

#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn a_person_plays_a_bot_by_console_and_clicks_and_the_game_is_rated() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let (_server, url) = serve(&arena);
    let ann = Browser::start();
    sign_up(&ann, &url, "ann");
    ann.goto(&format!("{url}#/bot/tictactoe/builtin-random"));
    ann.until("return document.querySelector('button[name=play]');");
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
    loop {
        let now = ann.until(
            "const m = document.querySelector('.message').textContent; \
             return (m.startsWith('Game over') || (m.startsWith('Your move') && document.querySelector('.board-area .target[data-move]'))) && m;",
        );
        if now.as_str().unwrap().starts_with("Game over") {
            break;
        }
        let before = ann.eval("return document.querySelectorAll('ol.moves li').length;");
        ann.click(".board-area .target[data-move]");
        ann.until(&format!(
            "return document.querySelectorAll('ol.moves li').length > {before};"
        ));
    }

    // Stored and rated with the ladder's games.
    let stored = wait_for(&url, "/api/ladders/tictactoe/games?limit=1000", |games| {
        games.as_array().unwrap().iter().any(|game| {
            game["players"].to_string().contains("@ann")
                && game["players"].to_string().contains("builtin-random")
        })
    });
    assert!(!stored.as_array().unwrap().is_empty());
    let board = get(&url, "/api/ladders/tictactoe/leaderboard");
    let row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["bot"] == "@ann")
        .unwrap_or_else(|| panic!("@ann rated: {board}"));
    assert_eq!(row["games"], 1, "{row}");
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

/// Two people: an invitation appears in the invitee's panel without a reload (and in the
/// page's title), is accepted, and the game is played to its end by clicking, each on their
/// own page, watched live by a third who is not signed in; a declined invitation says so to its sender; one left waiting expires and can no
/// longer be accepted.
#[test]
#[ignore = "needs bubblewrap, chromium and chromium-driver; .ci/run runs it"]
fn an_invitation_is_seen_live_accepted_and_played_or_declined_or_expires() {
    let dir = tempfile::tempdir().unwrap();
    let arena = dir.path().join("arena");
    init(&arena);
    let settings = arena.join("arena.toml");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(
        &settings,
        text.replace("invitation_expiry_s = 600", "invitation_expiry_s = 15"),
    )
    .unwrap();
    let (_server, url) = serve(&arena);
    let ann = Browser::start();
    sign_up(&ann, &url, "ann");
    let bob = Browser::start();
    sign_up(&bob, &url, "bob");
    bob.goto(&format!("{url}#/invitations"));
    bob.until("return document.querySelector('div.invitations');");

    invite(&ann, &url, "bob");
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
    watcher.click("tr.live-row a[href^='#/game/live']");
    watcher.until("return document.getElementById('status').textContent.startsWith('live');");
    // Ann moves first; each clicks a free square on their turn, to the end.
    let over = "document.querySelector('.message').textContent.startsWith('Game over')";
    loop {
        let mover = [&ann, &bob].into_iter().find(|person| {
            person
                .eval(&format!(
                    "return {over} || !!document.querySelector('.board-area .target[data-move]');"
                ))
                .as_bool()
                .unwrap_or(false)
        });
        let Some(mover) = mover else {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        };
        if mover.eval(&format!("return {over};")).as_bool().unwrap() {
            break;
        }
        let before = mover.eval("return document.querySelectorAll('ol.moves li').length;");
        mover.click(".board-area .target[data-move]");
        mover.until(&format!(
            "return {over} || document.querySelectorAll('ol.moves li').length > {before};"
        ));
    }
    let games = wait_for(&url, "/api/ladders/tictactoe/games?limit=10", |games| {
        !games.as_array().unwrap().is_empty()
    });
    assert_eq!(
        games[0]["players"],
        serde_json::json!(["@ann", "@bob"]),
        "{games}"
    );
    // The watcher saw it to its end, every move.
    watcher.until("return document.getElementById('status').textContent === 'the game is over';");
    let seen = watcher.eval("return Number(document.querySelector('.board-box').dataset.ply);");
    assert_eq!(seen, games[0]["moves"], "the last position shown");

    // Declined: the sender's panel says so.
    ann.goto(&format!("{url}#/invitations"));
    invite(&ann, &url, "bob");
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
    invite(&ann, &url, "bob");
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

/// Sends an invitation to `to` from the invitations page.
fn invite(browser: &Browser, url: &str, to: &str) {
    browser.goto(&format!("{url}#/invitations"));
    browser.until("return document.querySelector('form.invite input[name=to]');");
    browser.eval(&format!(
        "document.querySelector('form.invite select[name=ladder]').value = 'tictactoe';
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
    // The bot's clock short, so that the game is quick.
    let settings = arena.join("arena.toml");
    let text = std::fs::read_to_string(&settings).unwrap();
    let uttt = text.find("name = \"uttt\"").unwrap();
    let (head, tail) = text.split_at(uttt);
    let tail = tail.replacen("time = \"move=1000\"", "time = \"move=200\"", 1);
    std::fs::write(&settings, format!("{head}{tail}")).unwrap();
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
    assert!(typed >= 5, "a whole game typed: {typed} moves");
    let reason: referee_rules::verdict::Termination =
        serde_json::from_value(games[0]["reason"].clone()).unwrap();
    assert!(!reason.is_forfeit(), "played to its end: {games}");
}
