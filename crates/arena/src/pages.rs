//! The arena's pages: one HTML page whose script (`arena.js`, over the viewer's `app.js`) draws
//! the ladders, leaderboards, bots, "my bots", sign-up and upload from the JSON API, and the
//! game viewer of `referee serve`, fed here from the arena's records. A bot's stderr is its
//! owner's: the viewer's data leaves out the stderr of a side the caller does not own.

use crate::address::Address;
use crate::api::{caller, ApiError};
use crate::{ladder, Shared};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use referee_web::assets;
use referee_web::shield::Shield;
use serde_json::Value;
use std::sync::Arc;

/// The page, its script and the viewer's, compiled in.
const ARENA_HTML: &str = include_str!("../assets/index.html");
const ARENA_JS: &str = include_str!("../assets/arena.js");

type App = State<Arc<Shared>>;

/// The pages' routes: `/`, its scripts and style, and the viewer's API for the arena's games.
pub fn router(shared: Arc<Shared>, shield: &Shield) -> Router {
    let page = shield.page(ARENA_HTML);
    Router::new()
        .route("/", get(move || async move { html(page) }))
        .route("/arena.js", get(|| async { script(ARENA_JS) }))
        .route("/app.js", get(|| async { script(assets::APP_JS) }))
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css")], assets::STYLE_CSS) }),
        )
        .route("/api/game/{ladder}/{number}", get(game))
        .route("/api/position/{ladder}/{number}/{ply}", get(picture))
        .route("/api/ladders/{ladder}/bots/{name}/history", get(history))
        .route("/api/languages", get(languages))
        .route("/api/game/{ladder}/{number}/stderr/{side}", get(stderr))
        .route("/api/live", get(live_games))
        .route("/api/events", get(events))
        .with_state(shared)
}

fn html(page: String) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}

fn script(text: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        text,
    )
        .into_response()
}

/// A game's record file (relative to the arena's folder) and the owners of its two bots.
type Owners = (String, Option<i64>, Option<i64>);

async fn owners(shared: &Shared, ladder: &str, number: i64) -> Result<Option<Owners>, ApiError> {
    Ok(sqlx::query_as(
        "SELECT games.record, first.owner_id, second.owner_id FROM games \
         JOIN versions AS v1 ON v1.id = games.first_version \
         JOIN bots AS first ON first.id = v1.bot_id \
         JOIN versions AS v2 ON v2.id = games.second_version \
         JOIN bots AS second ON second.id = v2.bot_id \
         WHERE games.ladder = $1 AND games.number = $2",
    )
    .bind(ladder)
    .bind(number)
    .fetch_optional(&shared.pool)
    .await?)
}

/// Where the record of game `number` is on the server (`path`, relative to the arena's
/// folder): written there from the database first if a worker played it.
pub(crate) async fn record_file(
    shared: &Shared,
    number: i64,
    path: &str,
) -> Result<std::path::PathBuf, ApiError> {
    let file = shared.dir.join(path);
    let inside = std::path::Path::new(path)
        .components()
        .all(|part| matches!(part, std::path::Component::Normal(_)));
    if file.is_file() || !inside {
        return Ok(file);
    }
    let row: Option<(String,)> =
        sqlx::query_as("SELECT record FROM game_records WHERE number = $1")
            .bind(number)
            .fetch_optional(&shared.pool)
            .await?;
    if let Some((text,)) = row {
        let written = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                let staging = file.with_extension("part");
                std::fs::write(&staging, text)?;
                std::fs::rename(&staging, &file)
            });
        if let Err(error) = written {
            shared.say(&format!("cannot write {}: {error}", file.display()));
        }
    }
    Ok(file)
}

/// A game's view for the viewer, and whether the caller may see each side's stderr (its
/// bot's owner or an administrator); none for a game that does not exist or cannot be read.
async fn viewed(
    shared: &Shared,
    headers: &HeaderMap,
    ladder: &str,
    number: i64,
) -> Result<Option<(Value, [bool; 2])>, ApiError> {
    let user = caller(shared, headers).await?;
    let Some((record, first, second)) = owners(shared, ladder, number).await? else {
        return Ok(None);
    };
    let path = record_file(shared, number, &record).await?;
    let sees = |owner: Option<i64>| {
        user.as_ref()
            .is_some_and(|user| user.is_admin || owner == Some(user.id))
    };
    let shown = [sees(first), sees(second)];
    let view = tokio::task::spawn_blocking(move || referee_web::recorded_view(&path, shown))
        .await
        .ok()
        .flatten();
    Ok(view.map(|view| (view, shown)))
}

/// The viewer's source for the games being played on `ladder`: `live/LADDER`, whose numbers
/// are the games' ids in the queue (a stored game's number is given when it is stored).
pub(crate) const LIVE: &str = "live/";

/// Where the viewer finds a game: stored (by number), or being played (by its id in the
/// queue), when the source names the live games of a ladder.
enum Wanted<'a> {
    Stored { ladder: &'a str, number: i64 },
    Live(crate::live::LiveGame),
}

/// What the viewer asks for: a game being played (while it is), else a stored game, the one
/// a live game became once stored included.
async fn wanted<'a>(
    shared: &Shared,
    source: &'a str,
    number: i64,
) -> Result<Option<Wanted<'a>>, ApiError> {
    let Some(ladder) = source.strip_prefix(LIVE) else {
        return Ok(Some(Wanted::Stored {
            ladder: source,
            number,
        }));
    };
    if let Some(game) = shared.playing.find(ladder, number) {
        return Ok(Some(Wanted::Live(game)));
    }
    let stored: Option<(i64,)> =
        sqlx::query_as("SELECT number FROM games WHERE ladder = $1 AND scheduled_id = $2")
            .bind(ladder)
            .bind(number)
            .fetch_optional(&shared.pool)
            .await?;
    Ok(stored.map(|(number,)| Wanted::Stored { ladder, number }))
}

/// How many times (25 ms apart) a game between its live file and its stored record is asked
/// for again before the viewer is told to try later.
const STORING_TRIES: u32 = 40;

/// A live file's view, if it still holds game `id` (its slot may have begun the next).
async fn live_view(game: crate::live::LiveGame) -> Option<Value> {
    let view = tokio::task::spawn_blocking(move || referee_web::live_view(&game.file))
        .await
        .ok()
        .flatten()?;
    (view["record"]["number"].as_i64() == Some(game.id)).then_some(view)
}

async fn game(
    State(shared): App,
    headers: HeaderMap,
    Address((source, number)): Address<(String, i64)>,
) -> Result<Response, ApiError> {
    // A game just over has left its live file and is being stored (a few milliseconds): asked
    // again meanwhile, it is found stored.
    let mut tries = 0;
    let (ladder, number) = loop {
        match wanted(&shared, &source, number).await? {
            Some(Wanted::Stored { ladder, number }) => break (ladder, number),
            Some(Wanted::Live(game)) => match live_view(game).await {
                Some(view) => return Ok(Json(view).into_response()),
                None if tries < STORING_TRIES => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(25)).await;
                }
                None => return Ok(StatusCode::SERVICE_UNAVAILABLE.into_response()),
            },
            None => return Ok(StatusCode::NOT_FOUND.into_response()),
        }
    };
    let Some((mut view, sees)) = viewed(&shared, &headers, ladder, number).await? else {
        return Ok(StatusCode::NOT_FOUND.into_response());
    };
    // The view has no stderr of a player the caller may not see; its record still has the
    // end of it, kept for a player that broke a rule.
    for side in [0, 1].into_iter().filter(|&side| !sees[side]) {
        if let Some(player) = view["record"]["players"].get_mut(side) {
            player["stderr_tail"] = Value::Null;
        }
    }
    // The arena offers no PDN/SGF download (yet): the viewer shows no link.
    view["export"] = Value::Null;
    // The record holds the game's id in the queue; the ladder numbers its games when they are
    // stored, and the viewer shows that number, under that address (a live game once over).
    view["record"]["number"] = number.into();
    view["stored"] = serde_json::json!({ "source": ladder, "number": number });
    Ok(Json(view).into_response())
}

async fn picture(
    State(shared): App,
    Address((source, number, ply)): Address<(String, i64, usize)>,
) -> Result<Response, ApiError> {
    let svg = match wanted(&shared, &source, number).await? {
        Some(Wanted::Stored { ladder, number }) => {
            let Some((record, _, _)) = owners(&shared, ladder, number).await? else {
                return Ok(StatusCode::NOT_FOUND.into_response());
            };
            let path = shared.dir.join(record);
            tokio::task::spawn_blocking(move || referee_web::recorded_picture(&path, ply)).await
        }
        Some(Wanted::Live(game)) => {
            tokio::task::spawn_blocking(move || referee_web::live_picture(&game.file, ply)).await
        }
        None => return Ok(StatusCode::NOT_FOUND.into_response()),
    }
    .ok()
    .flatten();
    Ok(match svg {
        Some(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    })
}

/// Each version's rating after each of its games in one ladder, as far as its games were
/// folded: games are only ever appended (numbers dense and rising) and the ratings are a fold
/// over them in order, so what was folded stays right and a request folds only what is new
/// (replaying 100,000 games at each request took seconds).
#[derive(Default)]
struct Folded {
    /// The last game number folded.
    last: i64,
    standings: std::collections::BTreeMap<i64, ladder::Standing>,
    /// By version: (game number, mu, sigma) after each of its games.
    points: std::collections::HashMap<i64, Vec<(i64, f64, f64)>>,
}

static FOLDED: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<String, Folded>>> =
    std::sync::LazyLock::new(Default::default);

fn folded() -> std::sync::MutexGuard<'static, std::collections::HashMap<String, Folded>> {
    FOLDED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A bot's rating after each of its games, each version's in turn, from the ratings' one
/// definition ([`ladder::apply`]): what its page plots.
async fn history(
    State(shared): App,
    Address((ladder_name, name)): Address<(String, String)>,
) -> Result<Response, ApiError> {
    let versions: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT versions.id, versions.number FROM versions JOIN bots ON bots.id = versions.bot_id \
         WHERE bots.ladder = $1 AND bots.name = $2",
    )
    .bind(&ladder_name)
    .bind(&name)
    .fetch_all(&shared.pool)
    .await?;
    if versions.is_empty() {
        return Ok(StatusCode::NOT_FOUND.into_response());
    }
    fold_new_games(&shared, &ladder_name).await?;
    let all = folded();
    let Some(fold) = all.get(&ladder_name) else {
        return Ok(Json(Value::Array(Vec::new())).into_response());
    };
    let mut points: Vec<Value> = Vec::new();
    for (id, version) in &versions {
        for (game, mu, sigma) in fold.points.get(id).into_iter().flatten() {
            points.push(
                serde_json::json!({ "game": game, "version": version, "mu": mu, "sigma": sigma }),
            );
        }
    }
    points.sort_by_key(|point| point["game"].as_i64());
    Ok(Json(Value::Array(points)).into_response())
}

/// Folds the games of `ladder` stored since the last fold into its ratings' history: at each
/// request for a history, and once for every ladder when the server starts, so that the first
/// request after a restart does not fold them all (391 ms for 100,000 games).
pub async fn fold_new_games(shared: &Shared, ladder_name: &str) -> Result<(), sqlx::Error> {
    let last = folded().get(ladder_name).map_or(0, |f| f.last);
    let games: Vec<(i64, i64, i64, Option<i64>)> = sqlx::query_as(
        "SELECT number, first_version, second_version, winner FROM games \
         WHERE ladder = $1 AND number > $2 AND rated = 1 ORDER BY number",
    )
    .bind(ladder_name)
    .bind(last)
    .fetch_all(&shared.pool)
    .await?;
    let mut all = folded();
    let fold = all.entry(ladder_name.to_string()).or_default();
    for (number, first, second, winner) in games {
        if number <= fold.last {
            continue; // folded meanwhile by another request
        }
        let winner = winner.and_then(|side| u8::try_from(side).ok());
        ladder::apply(
            &mut fold.standings,
            ladder::Result {
                first,
                second,
                winner,
            },
        );
        for version in [first, second] {
            let rating = fold.standings[&version].rating;
            let points = fold.points.entry(version).or_default();
            points.push((number, rating.mu, rating.sigma));
        }
        fold.last = number;
    }
    Ok(())
}

/// The languages a bot may be written in, each with its toolchain's exact version as the
/// builds see it (looked at once in the build sandbox, then remembered).
async fn languages(State(shared): App) -> Result<Response, ApiError> {
    let list = tokio::task::spawn_blocking(move || {
        let arena = &shared.arena;
        arena
            .profiles
            .iter()
            .map(|(name, profile)| {
                let version = referee_cage::build::toolchain::toolchain(
                    name,
                    profile,
                    &arena.build,
                    &shared.host.supervisor,
                )
                .map_or_else(|error| format!("(not available: {error})"), |t| t.version);
                serde_json::json!({ "name": name, "version": version })
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    Ok(Json(list).into_response())
}

/// What the bot of `side` (0 first, 1 second) wrote to stderr in a game: its owner's (or an
/// administrator's) only; anyone else gets 404, as for a game that does not exist.
async fn stderr(
    State(shared): App,
    headers: HeaderMap,
    Address((ladder, number, side)): Address<(String, i64, usize)>,
) -> Result<Response, ApiError> {
    let viewed = viewed(&shared, &headers, &ladder, number).await?;
    let lines = viewed
        .filter(|(_, sees)| sees.get(side) == Some(&true))
        .map(|(view, _)| view["stderr"][side].clone());
    Ok(match lines {
        Some(lines) => Json(lines).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    })
}

/// The games being played: ladder, id, players, moves so far and when each began.
async fn live_games(State(shared): App) -> Response {
    let games = shared.playing.list();
    let list = tokio::task::spawn_blocking(move || {
        games
            .into_iter()
            .filter_map(|game| {
                let live = referee_records::live::LiveGame::read(&game.file).ok()?;
                // The table writes its live file at each move: the mover has been thinking
                // since the file was last written.
                let thinking = std::fs::metadata(&game.file)
                    .and_then(|meta| meta.modified())
                    .ok()
                    .and_then(|written| written.elapsed().ok())
                    .map_or(0, |elapsed| elapsed.as_millis() as u64);
                let header = &live.header;
                (i64::from(header.number) == game.id).then(|| {
                    serde_json::json!({
                        "ladder": game.ladder,
                        "id": game.id,
                        "game": header.game,
                        "players": header.players,
                        "moves": live.moves.len(),
                        "started": header.started,
                        "clocks": referee_web::live_clocks(&live),
                        "thinking_ms": thinking,
                    })
                })
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    Json(list).into_response()
}

/// Server-sent events: `changed` whenever a game being played moved, began or ended.
async fn events(State(shared): App) -> Response {
    referee_web::server::change_events(shared.playing.subscribe()).into_response()
}
