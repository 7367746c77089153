//! The page of a person's seat in the browser: a small web server on 127.0.0.1 (only this
//! machine can reach it) that shows the seat's position, counts its clock down, and hands the
//! person's clicks to the seat. It reuses the viewer's page and assets, in its `play` mode.

use crate::assets;
use crate::server::change_events;
use crate::shield::{self, Shield, WebSettings};
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use referee_rules::games::AnyGame;
use serde::Serialize;
use serde_json::json;
use std::convert::Infallible;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// What the page shows, as the seat last set it.
pub(super) struct Shown {
    pub title: String,
    /// The position's picture, its legal moves clickable on the person's turn.
    pub svg: String,
    pub legal: Vec<String>,
    pub moves: Vec<String>,
    pub your_turn: bool,
    /// The time the person had for this move when it was shown.
    pub remaining_ms: Option<u64>,
    pub draw_offers: bool,
    pub draw_offered: bool,
    pub message: String,
    pub over: bool,
    /// The position, to check a move before it is handed to the seat.
    pub game: Box<dyn AnyGame>,
}

/// What the person did on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Submission {
    /// A legal move, in canonical notation, maybe offering a draw.
    Move {
        canonical: String,
        offers_draw: bool,
    },
    Resign,
    AcceptDraw,
}

struct PageState {
    shown: Mutex<Option<(Shown, Option<Instant>)>>,
    changes: watch::Sender<u64>,
    answers: Mutex<Option<Sender<Submission>>>,
    /// The newest change a page has fetched.
    fetched: AtomicU64,
}

type Shared = Arc<PageState>;

/// The running page.
pub struct PlayPage {
    state: Shared,
    url: String,
}

impl PlayPage {
    /// Starts the page's server on 127.0.0.1 at `port` (0: any free port).
    pub fn start(port: u16) -> io::Result<PlayPage> {
        let (changes, _) = watch::channel(0);
        let state = Arc::new(PageState {
            shown: Mutex::new(None),
            changes,
            answers: Mutex::new(None),
            fetched: AtomicU64::new(0),
        });
        let listener = std::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
        listener.set_nonblocking(true)?;
        let url = format!("http://{}/", listener.local_addr()?);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let served = Arc::clone(&state);
        std::thread::Builder::new()
            .name("play-page".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    let Ok(bound) = listener.local_addr() else {
                        return;
                    };
                    let shield = Shield::new(bound, &[]);
                    let settings = WebSettings::default();
                    let app = shield.guard(router(served, &shield), &settings);
                    shield::serve(listener, app, settings).await;
                });
            })?;
        Ok(PlayPage { state, url })
    }

    /// The address to open.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Where the person's actions arrive from now on.
    pub(super) fn answers(&self) -> Receiver<Submission> {
        let (sender, receiver) = mpsc::channel();
        *self.state.answers.lock().expect("never poisoned") = Some(sender);
        receiver
    }

    /// Waits until a page has fetched what was shown last, `timeout` at most: the command may
    /// end once the game is over, and the person must still see how it ended.
    pub(super) fn wait_until_fetched(&self, timeout: Duration) {
        let shown = *self.state.changes.borrow();
        let until = Instant::now() + timeout;
        while self.state.fetched.load(Ordering::SeqCst) < shown && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// When a page first showed what was shown last (the person's clock starts then), waiting
    /// `timeout` at most for one to; none if no page did.
    pub(super) fn first_seen(&self, timeout: Duration) -> Option<Instant> {
        let until = Instant::now() + timeout;
        loop {
            let seen = self
                .state
                .shown
                .lock()
                .expect("never poisoned")
                .as_ref()
                .and_then(|(_, seen)| *seen);
            if seen.is_some() || Instant::now() >= until {
                return seen;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub(super) fn show(&self, shown: Shown) {
        *self.state.shown.lock().expect("never poisoned") = Some((shown, None));
        self.state
            .changes
            .send_modify(|generation| *generation += 1);
    }
}

fn router(state: Shared, shield: &Shield) -> Router {
    let index = shield.page(&assets::INDEX_HTML.replace("<body>", "<body data-page=\"play\">"));
    Router::new()
        .route(
            "/",
            get(move || async move { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], index) }),
        )
        .route("/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], assets::APP_JS) }))
        .route("/style.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], assets::STYLE_CSS) }))
        .route("/api/play/state", get(current))
        .route("/api/play/events", get(events))
        .route("/api/play/move", post(play))
        .route("/api/play/resign", post(|State(state): State<Shared>| async move { submit(&state, Submission::Resign) }))
        .route("/api/play/draw", post(|State(state): State<Shared>| async move { submit(&state, Submission::AcceptDraw) }))
        .with_state(state)
}

/// What `/api/play/state` answers: the page's view, the clock as it stands now.
#[derive(Serialize)]
struct StateView<'a> {
    title: &'a str,
    svg: &'a str,
    legal: &'a [String],
    moves: &'a [String],
    your_turn: bool,
    remaining_ms: Option<u64>,
    draw_offers: bool,
    draw_offered: bool,
    message: &'a str,
    over: bool,
}

async fn current(State(state): State<Shared>) -> Response {
    // What is served is at least this new: the seat sets what is shown before it counts it.
    let change = *state.changes.borrow();
    state.fetched.fetch_max(change, Ordering::SeqCst);
    let mut shown = state.shown.lock().expect("never poisoned");
    let Some((shown, seen)) = shown.as_mut() else {
        return Json(json!({"title": "Waiting for the game to start", "svg": "", "legal": [], "moves": [], "your_turn": false, "remaining_ms": null, "draw_offers": false, "draw_offered": false, "message": "", "over": false})).into_response();
    };
    // The clock runs from the moment a page first shows the position.
    let spent = seen.get_or_insert_with(Instant::now).elapsed().as_millis() as u64;
    Json(StateView {
        title: &shown.title,
        svg: &shown.svg,
        legal: &shown.legal,
        moves: &shown.moves,
        your_turn: shown.your_turn,
        remaining_ms: shown.remaining_ms.map(|ms| ms.saturating_sub(spent)),
        draw_offers: shown.draw_offers,
        draw_offered: shown.draw_offered,
        message: &shown.message,
        over: shown.over,
    })
    .into_response()
}

/// A move typed or clicked: checked against the position first, so that a slip is told at
/// once and never reaches the referee.
async fn play(State(state): State<Shared>, body: String) -> Response {
    let text = body.trim();
    let (text, offers_draw) = match text.strip_suffix(" draw") {
        Some(mv) => (mv.trim(), true),
        None => (text, false),
    };
    let checked = {
        let shown = state.shown.lock().expect("never poisoned");
        match shown.as_ref() {
            Some((shown, _)) if shown.your_turn => {
                let mut trial = shown.game.boxed_clone();
                trial.play_text(text).map_err(|error| error.to_string())
            }
            _ => Err("it is not your turn".to_string()),
        }
    };
    match checked {
        Ok(canonical) => submit(
            &state,
            Submission::Move {
                canonical,
                offers_draw,
            },
        ),
        Err(message) => (StatusCode::UNPROCESSABLE_ENTITY, message).into_response(),
    }
}

fn submit(state: &PageState, submission: Submission) -> Response {
    let answers = state.answers.lock().expect("never poisoned");
    match answers.as_ref().map(|sender| sender.send(submission)) {
        Some(Ok(())) => StatusCode::NO_CONTENT.into_response(),
        _ => (StatusCode::CONFLICT, "no game is waiting for you").into_response(),
    }
}

async fn events(
    State(state): State<Shared>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    change_events(state.changes.subscribe())
}
