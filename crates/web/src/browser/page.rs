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
use referee_rules::games::{AnyGame, Forbidden};
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

/// How long the other pages get to fetch the result once one has: they are told by the same
/// event, so a moment is enough.
const OTHER_PAGES: Duration = Duration::from_millis(1500);

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
    /// The newest change a page has fetched (by any of the person's tabs).
    fetched: AtomicU64,
}

type Shared = Arc<PageState>;

/// A person's page: what their seat shows and what they do, shared between the seat and the
/// server that serves it (its own, [`PlayPage::start`], or another's, such as the arena's,
/// through [`PlayPage::view`] and the actions).
#[derive(Clone)]
pub struct PlayPage {
    state: Shared,
}

/// Why an action of the person's was not taken, in words for them.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlayRefused {
    /// The move is not legal here: the rules' words, as a bot would get them.
    #[error("{0}")]
    Illegal(String),
    /// The opponent is to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game has ended: nothing more can be done in it.
    #[error("the game is over")]
    Over,
    /// The seat is not waiting for anything (the game has not begun or is over).
    #[error("no game is waiting for you")]
    NoGame,
}

impl PlayPage {
    /// A page served by whoever holds it.
    pub fn detached() -> PlayPage {
        let (changes, _) = watch::channel(0);
        PlayPage {
            state: Arc::new(PageState {
                shown: Mutex::new(None),
                changes,
                answers: Mutex::new(None),
                fetched: AtomicU64::new(0),
            }),
        }
    }

    /// The socket of a page on 127.0.0.1 at `port` (0: any free port), taken before the game
    /// is announced, so that a port in use is said before anything else.
    pub fn listen(port: u16) -> io::Result<std::net::TcpListener> {
        std::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
    }

    /// A page served on `listener` (see [`PlayPage::listen`]), and its address.
    pub fn start(listener: std::net::TcpListener) -> io::Result<(PlayPage, String)> {
        let page = PlayPage::detached();
        listener.set_nonblocking(true)?;
        let url = format!("http://{}/", listener.local_addr()?);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let served = page.clone();
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
        Ok((page, url))
    }

    /// What the page shows now, as `api/play/state` answers it (the clock as it stands): the
    /// person's clock starts at the first call after a position is shown.
    pub fn view(&self) -> serde_json::Value {
        let state = &self.state;
        // What is served is at least this new: the seat sets what is shown before it counts it.
        let change = *state.changes.borrow();
        state.fetched.fetch_max(change, Ordering::SeqCst);
        let mut shown = state.shown.lock().expect("never poisoned");
        let Some((shown, seen)) = shown.as_mut() else {
            return json!({"title": "Waiting for the game to start", "svg": "", "legal": [], "moves": [], "your_turn": false, "remaining_ms": null, "draw_offers": false, "draw_offered": false, "message": "", "over": false});
        };
        // The clock runs from the moment a page first shows the position.
        let spent = seen.get_or_insert_with(Instant::now).elapsed().as_millis() as u64;
        serde_json::to_value(StateView {
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
        .unwrap_or_default()
    }

    /// A move clicked or typed (`4 4`, `11-15`, `swap`; ` draw` after it offers a draw):
    /// checked against the position first, so that a slip is told at once, in the words a bot
    /// would get, and never reaches the referee. The first move taken ends the turn at once:
    /// a second one (another tab, a double click) is refused, never kept for the next turn.
    pub fn play_move(&self, text: &str) -> Result<(), PlayRefused> {
        let text = text.trim();
        let (text, offers_draw) = match text.strip_suffix(" draw") {
            Some(mv) => (mv.trim(), true),
            None => (text, false),
        };
        let mut shown = self.state.shown.lock().expect("never poisoned");
        if shown.as_ref().is_some_and(|(shown, _)| shown.over) {
            return Err(PlayRefused::Over);
        }
        let Some((shown, _)) = shown.as_mut().filter(|(shown, _)| shown.your_turn) else {
            return Err(PlayRefused::NotYourTurn);
        };
        let mut after = shown.game.boxed_clone();
        let canonical = after
            .play_text(text)
            .map_err(|error| PlayRefused::Illegal(error.to_string()))?;
        // A point forbidden to Black loses for a bot (the rule); a person is told, as a click
        // on it is, and chooses another.
        if let Some(shape) = Forbidden::played(after.as_ref()) {
            return Err(PlayRefused::Illegal(shape.refusal(&canonical)));
        }
        // The turn is over in what the pages show at once, its message with it: a page that
        // fetched the state before the seat showed the next one read "Your move." with the
        // turn no longer theirs.
        shown.your_turn = false;
        let offer = if offers_draw { " and offer a draw" } else { "" };
        shown.message = format!("You played {canonical}{offer}.");
        self.changed();
        self.submit(Submission::Move {
            canonical,
            offers_draw,
        })
    }

    /// The person resigns.
    pub fn resign(&self) -> Result<(), PlayRefused> {
        self.refuse_when_over()?;
        self.submit(Submission::Resign)
    }

    /// The person accepts the draw offered (nothing when none is).
    pub fn accept_draw(&self) -> Result<(), PlayRefused> {
        self.refuse_when_over()?;
        self.submit(Submission::AcceptDraw)
    }

    /// A new value each time what the page shows changes.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.state.changes.subscribe()
    }

    /// [`PlayRefused::Over`] once the game has ended.
    fn refuse_when_over(&self) -> Result<(), PlayRefused> {
        let shown = self.state.shown.lock().expect("never poisoned");
        match shown.as_ref().is_some_and(|(shown, _)| shown.over) {
            true => Err(PlayRefused::Over),
            false => Ok(()),
        }
    }

    fn submit(&self, submission: Submission) -> Result<(), PlayRefused> {
        let answers = self.state.answers.lock().expect("never poisoned");
        match answers.as_ref().map(|sender| sender.send(submission)) {
            Some(Ok(())) => Ok(()),
            _ => Err(PlayRefused::NoGame),
        }
    }

    /// Where the person's actions arrive from now on.
    pub(super) fn answers(&self) -> Receiver<Submission> {
        let (sender, receiver) = mpsc::channel();
        *self.state.answers.lock().expect("never poisoned") = Some(sender);
        receiver
    }

    /// Waits until a page has fetched what was shown last, `timeout` at most, and then a
    /// moment more for the person's other tabs (told by the same event): the command may end
    /// once the game is over, and every page must still see how it ended.
    pub(super) fn wait_until_fetched(&self, timeout: Duration) {
        let shown = *self.state.changes.borrow();
        let until = Instant::now() + timeout;
        while self.state.fetched.load(Ordering::SeqCst) < shown {
            if Instant::now() >= until {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(OTHER_PAGES);
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
        self.changed();
    }

    /// Tells the pages that what they show changed.
    fn changed(&self) {
        self.state
            .changes
            .send_modify(|generation| *generation += 1);
    }
}

fn router(page: PlayPage, shield: &Shield) -> Router {
    let index = shield.page(&assets::INDEX_HTML.replace("<body>", "<body data-page=\"play\">"));
    Router::new()
        .route(
            "/",
            get(move || async move { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], index) }),
        )
        .route("/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], assets::APP_JS) }))
        .route("/style.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], assets::STYLE_CSS) }))
        .route("/api/play/state", get(|State(page): State<PlayPage>| async move { Json(page.view()) }))
        .route("/api/play/events", get(events))
        .route("/api/play/move", post(|State(page): State<PlayPage>, body: String| async move { answer(page.play_move(&body)) }))
        .route("/api/play/resign", post(|State(page): State<PlayPage>| async move { answer(page.resign()) }))
        .route("/api/play/draw", post(|State(page): State<PlayPage>| async move { answer(page.accept_draw()) }))
        .with_state(page)
}

/// What an action's request is answered: 204 when taken, else why not.
pub fn answer(taken: Result<(), PlayRefused>) -> Response {
    match taken {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(refused @ (PlayRefused::NoGame | PlayRefused::Over)) => {
            (StatusCode::CONFLICT, refused.to_string()).into_response()
        }
        Err(refused) => (StatusCode::UNPROCESSABLE_ENTITY, refused.to_string()).into_response(),
    }
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

async fn events(
    State(page): State<PlayPage>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    change_events(page.changes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::GameSpec;

    /// Shows `game` on `page` as the person's turn.
    fn your_turn_in(page: &PlayPage, game: Box<dyn AnyGame>) {
        page.show(Shown {
            title: String::new(),
            svg: String::new(),
            legal: game.legal_moves_text(),
            moves: Vec::new(),
            your_turn: true,
            remaining_ms: None,
            draw_offers: false,
            draw_offered: false,
            message: "Your move.".into(),
            over: false,
            game,
        });
    }

    /// A move taken ends the turn in what the pages are shown, its message with it, and they
    /// are told (a page fetching the state then read "Your move." with `your_turn` false).
    #[test]
    fn a_move_taken_ends_the_turn_and_its_message() {
        let page = PlayPage::detached();
        let _answers = page.answers();
        let game = GameSpec::from_words::<&str>("tictactoe", &[])
            .unwrap()
            .new_game();
        your_turn_in(&page, game);
        let changes = page.changes();
        page.play_move("1 1").unwrap();
        let view = page.view();
        assert_eq!(view["your_turn"], false);
        assert_eq!(view["message"], "You played 1 1.");
        assert!(changes.has_changed().unwrap(), "the pages are told");
    }

    /// A typed move on a point forbidden to Black is refused as a click on it is, not played
    /// (and lost).
    #[test]
    fn a_forbidden_point_typed_is_refused() {
        let page = PlayPage::detached();
        let _answers = page.answers();
        let mut game = GameSpec::from_words("mnk", &["size=9", "rule=renju"])
            .unwrap()
            .new_game();
        for mv in ["2 4", "0 8", "3 4", "2 8", "4 2", "4 8", "4 3", "6 8"] {
            game.play_text(mv).unwrap();
        }
        your_turn_in(&page, game);
        match page.play_move("4 4") {
            Err(PlayRefused::Illegal(why)) => assert_eq!(
                why,
                "4 4 is forbidden to Black in renju: it would make a double three; choose another"
            ),
            other => panic!("{other:?}"),
        }
        assert!(
            page.play_move("5 5").is_ok(),
            "the turn is still the person's"
        );
    }

    /// A move, a resignation or a draw after the game has ended is refused saying so (409):
    /// a move was told 'it is not your turn', a resignation was taken (204) and went nowhere.
    #[test]
    fn after_the_game_nothing_is_taken_and_the_person_is_told_it_is_over() {
        let page = PlayPage::detached();
        let _answers = page.answers();
        let game = GameSpec::from_words::<&str>("tictactoe", &[])
            .unwrap()
            .new_game();
        your_turn_in(&page, game);
        {
            let mut shown = page.state.shown.lock().unwrap();
            let shown = &mut shown.as_mut().unwrap().0;
            shown.over = true;
            shown.your_turn = false;
        }
        for refused in [page.play_move("1 1"), page.resign(), page.accept_draw()] {
            assert_eq!(refused, Err(PlayRefused::Over));
            let response = answer(refused);
            assert_eq!(response.status(), StatusCode::CONFLICT);
        }
    }

    /// Two tabs of one person (or a double click) move at once: one move is taken, the other
    /// refused as out of turn, and nothing is left waiting to be played as the next move.
    #[test]
    fn of_two_moves_sent_at_once_one_is_taken() {
        let page = PlayPage::detached();
        let answers = page.answers();
        let game = GameSpec::from_words::<&str>("tictactoe", &[])
            .unwrap()
            .new_game();
        your_turn_in(&page, game);
        let tabs: Vec<_> = ["0 0", "2 2"]
            .into_iter()
            .map(|mv| {
                let page = page.clone();
                std::thread::spawn(move || page.play_move(mv))
            })
            .collect();
        let results: Vec<_> = tabs.into_iter().map(|tab| tab.join().unwrap()).collect();
        assert_eq!(results.iter().filter(|taken| taken.is_ok()).count(), 1);
        assert!(results
            .iter()
            .any(|refused| matches!(refused, Err(PlayRefused::NotYourTurn))));
        assert!(answers.try_recv().is_ok());
        assert!(
            answers.try_recv().is_err(),
            "one move only reached the seat"
        );
    }
}
