//! The HTTP side of `referee serve`: the page (plain HTML, CSS and JS compiled into the
//! binary), a JSON API over the [`Library`], each position's picture as SVG, exports, and a
//! stream of server-sent events that tells pages when a game moved or a new one appeared.
//!
//! Safe by default: it listens on 127.0.0.1; on any other address every request must carry
//! the access token printed at start (in the URL once, then in a cookie). Requests name games
//! by numbers only (see [`Library`]), and everything a bot wrote reaches the page as JSON text
//! that the page shows as text, never as HTML.

use crate::address::Address;
use crate::assets;
use crate::library::{Library, Place};
use crate::replay;
use crate::shield::{self, Shield, WebSettings};
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use referee_core::standings::render;
use referee_core::tournament::journal;
use referee_core::tournament::merge::merge;
use referee_records::export::export;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// How often the served directories are looked at again for new games and moves.
const SCAN_EVERY: Duration = Duration::from_millis(250);

/// What `referee serve` was asked for.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The record and tournament directories whose games are served (and those directly
    /// inside them).
    pub dirs: Vec<PathBuf>,
    /// Where to listen; any address but a loopback one needs the access token.
    pub address: SocketAddr,
    /// Names the pages may be opened by besides the address itself (and `localhost` on a
    /// loopback address): `NAME` or `NAME:PORT` (see [`crate::shield`]).
    pub allowed_hosts: Vec<String>,
}

/// The access token's cookie.
const TOKEN_COOKIE: &str = "referee_token";

struct Shared {
    library: Mutex<Library>,
    token: Option<String>,
    generation: watch::Sender<u64>,
}

type AppState = Arc<Shared>;

/// Why serving stopped or could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address is taken, or not one of this machine's.
    #[error("cannot listen on {address}")]
    Bind {
        /// The address asked for.
        address: SocketAddr,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The runtime could not start, or the server failed while serving.
    #[error("the web server stopped")]
    Serve(#[source] std::io::Error),
    /// Listening on every address, with no name to answer to: a rebinding page could then
    /// name the server as it likes.
    #[error("--bind {0} listens on every network: say which names the pages will be opened by, e.g. --allow-host 192.168.1.5 or --allow-host myhost.lan (repeatable); any other name is refused")]
    NoHostNamed(std::net::IpAddr),
}

/// A fresh access token: 128 random bits in hex.
pub fn new_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Serves until the process is stopped. `ready` is called with the address to open (the
/// token in it when one is needed) once the server listens.
pub fn serve(options: ServeOptions, ready: impl FnOnce(&str)) -> Result<(), ServeError> {
    if options.address.ip().is_unspecified() && options.allowed_hosts.is_empty() {
        return Err(ServeError::NoHostNamed(options.address.ip()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Serve)?;
    runtime.block_on(async move {
        let token = (!options.address.ip().is_loopback()).then(new_token);
        let library = Library::new(options.dirs.clone());
        let (generation, _) = watch::channel(library.generation);
        let shared = Arc::new(Shared {
            library: Mutex::new(library),
            token: token.clone(),
            generation,
        });
        let listener = tokio::net::TcpListener::bind(options.address)
            .await
            .map_err(|source| ServeError::Bind {
                address: options.address,
                source,
            })?;
        let bound = listener.local_addr().map_err(ServeError::Serve)?;
        let shield = Shield::new(bound, &options.allowed_hosts);
        let shown = shield.shown_host();
        let url = match &token {
            Some(token) => format!("http://{shown}/?token={token}"),
            None => format!("http://{shown}/"),
        };
        tokio::spawn(rescan(Arc::clone(&shared)));
        ready(&url);
        let settings = WebSettings::default();
        // The token is asked for outside the shield's routes, so that an address with no page
        // gets the same refusal as one with a page: without the token, nothing tells them apart.
        let app = shield
            .guard(router(Arc::clone(&shared), &shield), &settings)
            .layer(middleware::from_fn_with_state(shared, guard));
        shield::serve(listener, app, settings).await;
        Ok(())
    })
}

/// Looks at the served directories again and again, telling the pages when anything changed.
async fn rescan(shared: AppState) {
    loop {
        tokio::time::sleep(SCAN_EVERY).await;
        let scanned = Arc::clone(&shared);
        let generation = tokio::task::spawn_blocking(move || {
            let mut library = scanned.library.lock().expect("never poisoned");
            library.scan().then_some(library.generation)
        })
        .await;
        if let Ok(Some(generation)) = generation {
            shared.generation.send_replace(generation);
        }
    }
}

fn router(shared: AppState, shield: &Shield) -> Router {
    let index = shield.page(assets::INDEX_HTML);
    Router::new()
        .route(
            "/",
            get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], index) }),
        )
        .route(
            "/app.js",
            get(|| async { page(assets::APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(assets::STYLE_CSS, "text/css; charset=utf-8") }),
        )
        .route("/api/games", get(games))
        .route("/api/game/{source}/{number}", get(game))
        .route("/api/position/{source}/{number}/{ply}", get(picture))
        .route("/api/export/{source}/{number}", get(download))
        .route("/api/tournament/{source}", get(tournament))
        .route("/api/events", get(events))
        .with_state(shared)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such game or page\n").into_response()
}

/// Lets a request through when no token is needed, or when it carries the token (in the URL,
/// which also sets the cookie, or in the cookie).
async fn guard(
    State(shared): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    request: Request,
    next: Next,
) -> Response {
    let Some(token) = &shared.token else {
        return next.run(request).await;
    };
    let in_cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, value)| name == TOKEN_COOKIE && value == token);
    let in_url = query.get("token") == Some(token);
    if !in_cookie && !in_url {
        return (
            StatusCode::FORBIDDEN,
            "this server needs its access token: open the address referee serve printed\n",
        )
            .into_response();
    }
    let mut response = next.run(request).await;
    if in_url {
        let cookie = format!("{TOKEN_COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/");
        if let Ok(value) = cookie.parse() {
            response.headers_mut().insert(header::SET_COOKIE, value);
        }
    }
    response
}

async fn games(State(shared): State<AppState>) -> Json<Value> {
    let library = shared.library.lock().expect("never poisoned");
    Json(json!({
        "generation": library.generation,
        "sources": library.sources,
        "games": library.games(),
    }))
}

/// Where game `number` of source `source` is kept.
fn find(shared: &Shared, source: &str, number: u32) -> Option<Place> {
    let library = shared.library.lock().expect("never poisoned");
    library.find(source, number)
}

/// The view of a game, finished or live.
fn game_view(place: &Place, number: u32) -> Option<replay::GameView> {
    match place {
        Place::Live(dir) => replay::live(dir, number),
        finished => Some(replay::finished(&finished.stored()?)),
    }
}

async fn game(
    State(shared): State<AppState>,
    Address((source, number)): Address<(String, u32)>,
) -> Response {
    let view =
        tokio::task::spawn_blocking(move || game_view(&find(&shared, &source, number)?, number))
            .await
            .ok()
            .flatten();
    match view {
        Some(view) => Json(view).into_response(),
        None => not_found(),
    }
}

async fn picture(
    State(shared): State<AppState>,
    Address((source, number, ply)): Address<(String, u32, usize)>,
) -> Response {
    let svg = tokio::task::spawn_blocking(move || {
        let view = game_view(&find(&shared, &source, number)?, number)?;
        replay::picture_at(&view.record, ply)
    })
    .await
    .ok()
    .flatten();
    match svg {
        Some(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        None => not_found(),
    }
}

async fn download(
    State(shared): State<AppState>,
    Address((source, number)): Address<(String, u32)>,
) -> Response {
    let exported = tokio::task::spawn_blocking(move || {
        let game = find(&shared, &source, number)?.stored()?;
        export(&game.record).ok()
    })
    .await
    .ok()
    .flatten();
    match exported {
        Some((format, text)) => (
            [
                (
                    header::CONTENT_TYPE,
                    "text/plain; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!(
                        "attachment; filename=\"{number:04}.{}\"",
                        format.extension()
                    ),
                ),
            ],
            text,
        )
            .into_response(),
        None => not_found(),
    }
}

async fn tournament(State(shared): State<AppState>, Address(source): Address<String>) -> Response {
    let standings = tokio::task::spawn_blocking(move || {
        let library = shared.library.lock().expect("never poisoned");
        let path = library.source(&source)?.journal.clone()?;
        drop(library);
        tournament_standings(&[path])
    })
    .await
    .ok()
    .flatten();
    match standings {
        Some(standings) => Json(standings).into_response(),
        None => not_found(),
    }
}

/// A tournament's standings and progress, from its journals (a whole run's, or every
/// shard's), with the tables `referee standings` prints, as its cells.
pub fn tournament_standings(journals: &[std::path::PathBuf]) -> Option<Value> {
    let merged = merge(journals).ok()?;
    let header = journal::read(journals.first()?).ok()?.header?;
    let standings = merged.standings();
    let gauntlets: Vec<Value> = standings
        .gauntlets
        .iter()
        .map(|gauntlet| {
            json!({
                "challenger": gauntlet.challenger,
                "caption": render::gauntlet_caption(&gauntlet.challenger),
                "table": render::gauntlet_table(gauntlet),
            })
        })
        .collect();
    Some(json!({
        "name": header.tournament.name,
        "game": header.tournament.game,
        "format": header.tournament.format,
        "total_games": header.tournament.total_games,
        "versions": header.tournament.versions,
        "tables": {
            "standings": render::standings_table(&standings),
            "gauntlets": gauntlets,
            "ratings": render::ratings_table(&standings),
        },
        "standings": standings,
    }))
}

async fn events(
    State(shared): State<AppState>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    change_events(shared.generation.subscribe())
}

/// Server-sent events, one `changed` event (its data the new generation) each time `changes`
/// changes: what pages wait on to fetch again (the arena's too). The first event is sent at
/// once: a page fetches its state while its connection is being made, and a change between the
/// two (or while a dropped connection was made again) would otherwise never reach it.
pub fn change_events(
    mut changes: watch::Receiver<u64>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    changes.mark_changed();
    let stream = futures_util::stream::unfold(changes, |mut changes| async move {
        changes.changed().await.ok()?;
        let generation = *changes.borrow_and_update();
        let event = Event::default()
            .event("changed")
            .data(generation.to_string());
        Some((Ok(event), changes))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse;
    use futures_util::StreamExt;

    /// A change made after a page fetched its state but before its events' connection was made
    /// still reaches the page: the first event comes at once, with the generation as it stands.
    #[test]
    fn a_page_that_connects_late_still_hears_of_the_change_it_missed() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (changes, _) = watch::channel(1_u64);
            changes.send_replace(2);
            let response = change_events(changes.subscribe()).into_response();
            let mut body = response.into_body().into_data_stream();
            let mut next = async || {
                let bytes = tokio::time::timeout(Duration::from_secs(5), body.next())
                    .await
                    .expect("an event at once")
                    .unwrap()
                    .unwrap();
                String::from_utf8(bytes.to_vec()).unwrap()
            };
            assert_eq!(next().await, "event: changed\ndata: 2\n\n");
            changes.send_replace(3);
            assert_eq!(next().await, "event: changed\ndata: 3\n\n");
        });
    }
}
