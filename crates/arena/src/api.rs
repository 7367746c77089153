//! The arena's JSON API (axum), served behind the web layer's shield: the Host allow-list,
//! and for every state-changing request the Origin check and the page token (or, for the
//! command line, a bearer API token and no cookie). Sessions are cookies (`HttpOnly`,
//! `SameSite=Strict`, `Secure` when the settings say the arena is served over HTTPS).
//! Everything a user or a bot sent goes out as JSON strings only (the pages escape them when
//! shown), bounded where it is stored.

use crate::accounts::{self, User};
use crate::address::{Address, Params};
use crate::body::Body;
use crate::store;
use crate::versions::{self, SubmitError, Upload, Version, VERSION_COLUMNS};
use crate::{ArenaError, Shared};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use referee_web::shield::{self, Shield, WebSettings};
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

type App = State<Arc<Shared>>;

/// The session cookie's name.
pub const COOKIE: &str = "arena_session";

/// A refusal or failure, sent as `{"error": "..."}` with its status.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl ApiError {
    /// The status sent.
    pub fn status(&self) -> StatusCode {
        self.0
    }

    /// The text sent as `error`.
    pub fn text(&self) -> &str {
        &self.1
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        eprintln!("arena: database: {error}");
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "the arena's database failed: try again".into(),
        )
    }
}

pub(crate) fn refuse(status: StatusCode, text: impl Into<String>) -> ApiError {
    ApiError(status, text.into())
}

pub(crate) fn not_found(what: &str) -> ApiError {
    refuse(StatusCode::NOT_FOUND, format!("no such {what}"))
}

type Answer = Result<Json<Value>, ApiError>;

/// Takes `address`, before the server touches anything: a second server started on a port
/// in use must stop before it recovers games the first one is playing.
pub async fn listen(address: SocketAddr) -> Result<tokio::net::TcpListener, ArenaError> {
    tokio::net::TcpListener::bind(address)
        .await
        .map_err(crate::io_error(format!("cannot listen on {address}")))
}

/// Serves the API on `listener` until the process stops.
pub async fn serve(
    shared: Arc<Shared>,
    listener: tokio::net::TcpListener,
    on_ready: impl FnOnce(&str),
) -> Result<(), ArenaError> {
    let bound = listener
        .local_addr()
        .map_err(crate::io_error("cannot read the address listened on"))?;
    let shield = Shield::new(bound, &shared.arena.settings.allowed_hosts).accepting_bearer_tokens();
    let upload = shared.arena.settings.limits.upload_bytes as usize;
    let settings = WebSettings {
        max_body_bytes: upload + 4096,
        ..WebSettings::default()
    };
    let api = router(Arc::clone(&shared), &shield, upload);
    let app = shield
        .guard(
            api.merge(crate::pages::router(Arc::clone(&shared), &shield))
                .merge(crate::people::router(Arc::clone(&shared)))
                .merge(crate::invitations::router(Arc::clone(&shared)))
                .merge(crate::friendly::router(Arc::clone(&shared))),
            &settings,
        )
        .layer(axum::middleware::from_fn(move |request, next| {
            in_api_shape(request, next, upload)
        }));
    on_ready(&format!("http://{}", shield.shown_host()));
    shield::serve(listener, app, settings).await;
    Ok(())
}

/// The answer to `request`, and when it is a refusal of an API address (`/api/...`) not in
/// the API's shape, its text put as `{"error": "..."}`: the framework and the shield answer in
/// plain text ('only this server's own page may do that', 'no such address') or with no text
/// at all (a method the address does not take: 405, with the framework's `Allow`). A 413 of
/// an upload says the bound (`upload_bytes`), and of any other address that its body is too
/// large: the framework says only 'length limit exceeded'. The headers stay (the shield's).
async fn in_api_shape(
    request: axum::extract::Request,
    next: axum::middleware::Next,
    upload_bytes: usize,
) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let upload = request.uri().path() == "/api/upload";
    let method = request.method().clone();
    let response = next.run(request).await;
    let response = match upload {
        true => too_large_said(response, upload_bytes),
        false => response,
    };
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"));
    if !api || json || !status.is_client_error() {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 16 << 10)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
        .unwrap_or_default();
    let text = if status == StatusCode::PAYLOAD_TOO_LARGE {
        "the body is too large for this address".to_string()
    } else if !text.is_empty() {
        text
    } else if status == StatusCode::METHOD_NOT_ALLOWED {
        format!("this address does not take {method} (its header Allow says what it takes)")
    } else if status == StatusCode::NOT_FOUND {
        "no such address".to_string()
    } else {
        status.canonical_reason().unwrap_or("refused").to_string()
    };
    with_text(parts, refuse(status, text))
}

/// `response`, and when it is a 413, its text replaced by the API's refusal saying the bound.
fn too_large_said(response: Response, upload_bytes: usize) -> Response {
    let status = response.status();
    if status != StatusCode::PAYLOAD_TOO_LARGE {
        return response;
    }
    let why = versions::too_large(upload_bytes as u64);
    with_text(response.into_parts().0, refuse(status, why))
}

/// A response of `parts` (its status and headers) with `why` as its text, in the API's shape.
fn with_text(mut parts: axum::http::response::Parts, why: ApiError) -> Response {
    let (json, body) = why.into_response().into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    if let Some(kind) = json.headers.get(header::CONTENT_TYPE) {
        parts.headers.insert(header::CONTENT_TYPE, kind.clone());
    }
    Response::from_parts(parts, body)
}

/// The API's routes.
pub fn router(shared: Arc<Shared>, shield: &Shield, upload_bytes: usize) -> Router {
    let token = shield.page_token().to_string();
    Router::new()
        .route(
            "/api/session",
            get(move |state: App, headers: HeaderMap| session(state, headers, token)),
        )
        .route("/api/signup", post(sign_up))
        .route("/api/login", post(log_in))
        .route("/api/logout", post(log_out))
        .route("/api/me", get(me))
        .route("/api/tokens", post(new_token))
        .route("/api/status", get(status))
        .route("/api/ladders", get(ladders))
        .route("/api/ladders/{ladder}/leaderboard", get(leaderboard))
        .route("/api/ladders/{ladder}/games", get(games))
        .route("/api/ladders/{ladder}/bots/{name}", get(bot))
        .route(
            "/api/ladders/{ladder}/bots/{name}/active",
            post(choose_active),
        )
        .route(
            "/api/upload",
            post(upload).layer(DefaultBodyLimit::max(upload_bytes)),
        )
        .route("/api/versions/{id}", get(version))
        .route("/api/games/{number}", get(game))
        .route("/api/games/{number}/record", get(record))
        .route("/api/admin/ladders/{ladder}/pause", post(pause))
        .route(
            "/api/admin/ladders/{ladder}/bots/{name}/retire",
            post(retire),
        )
        .route("/api/admin/rerate", post(rerate))
        .with_state(shared)
}

/// The caller: by bearer API token, else by session cookie.
pub(crate) async fn caller(shared: &Shared, headers: &HeaderMap) -> Result<Option<User>, ApiError> {
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let Some(token) = value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")) else {
            return Err(refuse(
                StatusCode::UNAUTHORIZED,
                "give the API token as the header 'Authorization: Bearer TOKEN'",
            ));
        };
        return match accounts::token_user(&shared.pool, token.trim()).await? {
            Some(user) => Ok(Some(user)),
            None => Err(refuse(
                StatusCode::UNAUTHORIZED,
                "this API token is not known",
            )),
        };
    }
    match session_token(headers) {
        Some(token) => Ok(accounts::session_user(&shared.pool, &token).await?),
        None => Ok(None),
    }
}

pub(crate) async fn required(shared: &Shared, headers: &HeaderMap) -> Result<User, ApiError> {
    caller(shared, headers).await?.ok_or_else(|| {
        refuse(
            StatusCode::UNAUTHORIZED,
            "log in first (or give an API token)",
        )
    })
}

async fn admin(shared: &Shared, headers: &HeaderMap) -> Result<User, ApiError> {
    let user = required(shared, headers).await?;
    if !user.is_admin {
        return Err(refuse(
            StatusCode::FORBIDDEN,
            "only an administrator may do that",
        ));
    }
    Ok(user)
}

fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .find_map(|pair| {
            pair.trim()
                .strip_prefix(&format!("{COOKIE}="))
                .map(str::to_string)
        })
}

fn cookie(shared: &Shared, token: &str, max_age: i64) -> HeaderValue {
    let secure = if shared.arena.settings.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .expect("a token is a header value")
}

async fn session(State(shared): App, headers: HeaderMap, page_token: String) -> Answer {
    let user = caller(&shared, &headers).await.ok().flatten();
    let signup = match shared.arena.settings.signup {
        crate::settings::Signup::Open => "open",
        crate::settings::Signup::Invitation => "invitation",
        crate::settings::Signup::Closed => "closed",
    };
    Ok(Json(json!({
        "user": user.map(|u| json!({ "name": u.name, "admin": u.is_admin })),
        "page_token": page_token,
        "signup": signup,
    })))
}

#[derive(Deserialize)]
struct Credentials {
    name: String,
    password: String,
    #[serde(default)]
    code: Option<String>,
}

async fn sign_up(State(shared): App, Body(body): Body<Credentials>) -> Result<Response, ApiError> {
    accounts::sign_up(
        &shared.pool,
        &shared.arena.settings,
        &body.name,
        &body.password,
        body.code.as_deref(),
    )
    .await
    .map_err(|error| match error {
        accounts::AccountError::Store(error) => error.into(),
        accounts::AccountError::Refused(why) => refuse(StatusCode::FORBIDDEN, why),
        accounts::AccountError::Invalid(why) => refuse(StatusCode::BAD_REQUEST, why),
        accounts::AccountError::Taken(why) => refuse(StatusCode::CONFLICT, why),
    })?;
    log_in(State(shared), Body(body)).await
}

async fn log_in(State(shared): App, Body(body): Body<Credentials>) -> Result<Response, ApiError> {
    match accounts::log_in(&shared.pool, &body.name, &body.password).await? {
        None => Err(refuse(StatusCode::UNAUTHORIZED, "wrong name or password")),
        Some(token) => {
            let mut response = Json(json!({ "name": body.name })).into_response();
            response.headers_mut().insert(
                header::SET_COOKIE,
                cookie(&shared, &token, accounts::SESSION_SECONDS),
            );
            Ok(response)
        }
    }
}

async fn log_out(State(shared): App, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = session_token(&headers) {
        accounts::log_out(&shared.pool, &token).await?;
    }
    let mut response = Json(json!({})).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(&shared, "", 0));
    Ok(response)
}

async fn me(State(shared): App, headers: HeaderMap) -> Answer {
    let user = required(&shared, &headers).await?;
    let bots: Vec<(String, String, Option<i64>, i64)> = sqlx::query_as(
        "SELECT ladder, name, active_version, retired FROM bots WHERE owner_id = $1 ORDER BY id",
    )
    .bind(user.id)
    .fetch_all(&shared.pool)
    .await?;
    let bots: Vec<Value> = bots
        .into_iter()
        .map(|(ladder, name, active, retired)| {
            json!({ "ladder": ladder, "name": name, "active_version": active, "retired": retired != 0 })
        })
        .collect();
    Ok(Json(
        json!({ "name": user.name, "admin": user.is_admin, "bots": bots }),
    ))
}

async fn new_token(State(shared): App, headers: HeaderMap) -> Answer {
    let user = required(&shared, &headers).await?;
    let token = accounts::new_api_token(&shared.pool, user.id)
        .await
        .map_err(|_| refuse(StatusCode::SERVICE_UNAVAILABLE, "cannot make a token now"))?;
    Ok(Json(json!({ "token": token })))
}

async fn status(State(shared): App) -> Answer {
    let (games,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM games")
        .fetch_one(&shared.pool)
        .await?;
    let (builds,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM versions WHERE state IN ('queued', 'building', 'validating')",
    )
    .fetch_one(&shared.pool)
    .await?;
    let (playing,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM scheduled WHERE state = 'playing'")
            .fetch_one(&shared.pool)
            .await?;
    Ok(Json(json!({
        "games": games, "playing": playing, "builds_waiting": builds, "message": shared.status(),
        "upload_bytes": shared.arena.settings.limits.upload_bytes,
    })))
}

async fn ladders(State(shared): App) -> Answer {
    let mut list = Vec::new();
    for ladder in &shared.arena.ladders {
        let name = &ladder.settings.name;
        let (paused,): (i64,) = sqlx::query_as("SELECT paused FROM ladders WHERE name = $1")
            .bind(name)
            .fetch_one(&shared.pool)
            .await?;
        let (games,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM games WHERE ladder = $1")
            .bind(name)
            .fetch_one(&shared.pool)
            .await?;
        list.push(json!({
            "name": name,
            "game": ladder.table.rules.spec.to_string(),
            "time": ladder.settings.time,
            "protocols": ladder.settings.protocols,
            "bosses": ladder.settings.bosses,
            "paused": paused != 0,
            "games": games,
        }));
    }
    Ok(Json(Value::Array(list)))
}

fn known_ladder(shared: &Shared, ladder: &str) -> Result<(), ApiError> {
    shared
        .arena
        .ladder(ladder)
        .map(|_| ())
        .ok_or_else(|| not_found("ladder"))
}

pub(crate) type BoardRow = (
    String,
    Option<String>,
    Option<String>,
    i64,
    i64,
    Option<f64>,
    Option<f64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

/// A leaderboard's row as the page and the command line show it.
pub(crate) fn board_row(row: BoardRow) -> Value {
    let (bot, owner, builtin, version_id, version, mu, sigma, games, wins, draws, losses) = row;
    let rating = crate::ladder::Rating {
        mu: mu.unwrap_or(crate::ladder::Rating::INITIAL.mu),
        sigma: sigma.unwrap_or(crate::ladder::Rating::INITIAL.sigma),
    };
    let person = bot.starts_with('@');
    json!({
        "person": person, "mark": mark(person, builtin.is_some()),
        "bot": bot, "owner": owner, "boss": builtin.is_some(),
        "version": version, "version_id": version_id,
        "mu": rating.mu, "sigma": rating.sigma, "conservative": rating.conservative(),
        "games": games.unwrap_or(0), "wins": wins.unwrap_or(0),
        "draws": draws.unwrap_or(0), "losses": losses.unwrap_or(0),
    })
}

/// What a leaderboard says after a name that is no contestant's bot, in brackets (the page and
/// the command line both show it): a boss, or a person (`@NAME`, rated in the bots' pool).
fn mark(person: bool, boss: bool) -> Option<&'static str> {
    if boss {
        Some("boss")
    } else if person {
        Some("a person")
    } else {
        None
    }
}

async fn leaderboard(State(shared): App, Address(ladder): Address<String>) -> Answer {
    known_ladder(&shared, &ladder)?;
    let rows: Vec<BoardRow> = sqlx::query_as(
        "SELECT bots.name, users.name, bots.builtin, versions.id, versions.number, ratings.mu, \
         ratings.sigma, ratings.games, ratings.wins, ratings.draws, ratings.losses FROM bots \
         JOIN versions ON versions.id = bots.active_version \
         LEFT JOIN users ON users.id = bots.owner_id \
         LEFT JOIN ratings ON ratings.version_id = versions.id \
         WHERE bots.ladder = $1 AND bots.retired = 0 AND (versions.state = 'passed' \
         OR (versions.state = 'person' AND ratings.games > 0))",
    )
    .bind(&ladder)
    .fetch_all(&shared.pool)
    .await?;
    let mut rows: Vec<Value> = rows.into_iter().map(board_row).collect();
    rows.sort_by(|a, b| {
        b["conservative"]
            .as_f64()
            .unwrap_or_default()
            .total_cmp(&a["conservative"].as_f64().unwrap_or_default())
    });
    for (at, row) in rows.iter_mut().enumerate() {
        row["rank"] = json!(at + 1);
    }
    let (paused,): (i64,) = sqlx::query_as("SELECT paused FROM ladders WHERE name = $1")
        .bind(&ladder)
        .fetch_one(&shared.pool)
        .await?;
    Ok(Json(
        json!({ "ladder": ladder, "paused": paused != 0, "rows": rows }),
    ))
}

#[derive(Deserialize)]
struct Page {
    before: Option<i64>,
    limit: Option<i64>,
}

type GameRow = (
    i64,
    String,
    String,
    Option<i64>,
    String,
    String,
    i64,
    i64,
    i64,
    i64,
);

const GAME_COLUMNS: &str =
    "games.number, a.name, b.name, games.winner, games.reason, games.detail, \
     games.moves, games.placement, games.rated, games.finished_at FROM games \
     JOIN versions va ON va.id = games.first_version JOIN bots a ON a.id = va.bot_id \
     JOIN versions vb ON vb.id = games.second_version JOIN bots b ON b.id = vb.bot_id";

fn game_json(row: GameRow) -> Value {
    let (number, first, second, winner, reason, detail, moves, placement, rated, finished_at) = row;
    json!({
        "number": number, "players": [first, second], "winner": winner, "reason": reason,
        "detail": detail, "moves": moves, "placement": placement != 0, "rated": rated != 0,
        "finished_at": finished_at,
    })
}

async fn games(
    State(shared): App,
    Address(ladder): Address<String>,
    Params(page): Params<Page>,
) -> Answer {
    known_ladder(&shared, &ladder)?;
    let limit = page.limit.unwrap_or(100).clamp(1, 1000);
    let rows: Vec<GameRow> = sqlx::query_as(&format!(
        "SELECT {GAME_COLUMNS} WHERE games.ladder = $1 AND games.number < $2 \
         ORDER BY games.number DESC LIMIT $3"
    ))
    .bind(&ladder)
    .bind(page.before.unwrap_or(i64::MAX))
    .bind(limit)
    .fetch_all(&shared.pool)
    .await?;
    Ok(Json(Value::Array(
        rows.into_iter().map(game_json).collect(),
    )))
}

async fn game(State(shared): App, Address(number): Address<i64>) -> Answer {
    let row: Option<GameRow> =
        sqlx::query_as(&format!("SELECT {GAME_COLUMNS} WHERE games.number = $1"))
            .bind(number)
            .fetch_optional(&shared.pool)
            .await?;
    row.map(|row| Json(game_json(row)))
        .ok_or_else(|| not_found("game"))
}

async fn record(State(shared): App, Address(number): Address<i64>) -> Result<Response, ApiError> {
    let row: Option<(String,)> = sqlx::query_as("SELECT record FROM games WHERE number = $1")
        .bind(number)
        .fetch_optional(&shared.pool)
        .await?;
    let (path,) = row.ok_or_else(|| not_found("game"))?;
    let path = crate::pages::record_file(&shared, number, &path).await?;
    let text = referee_records::input_files::read_text(&path, 64 << 20)
        .map_err(|_| not_found("record"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        text,
    )
        .into_response())
}

/// The most of a version's validation stderr shown to its owner, in bytes.
const STDERR_SHOWN: u64 = 16 << 10;

/// What the version wrote to stderr in its validation games (the first ones, bounded, each
/// file's name before it), for its owner: files the referee wrote, the bot's bytes escaped
/// there already.
fn check_stderr(shared: &Shared, version: i64) -> String {
    use std::io::Read;
    let dir = shared.dir.join("checks").join(version.to_string());
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.to_string_lossy().ends_with(".stderr.txt"))
        .collect();
    files.sort();
    let mut text = String::new();
    for path in files {
        let left = STDERR_SHOWN.saturating_sub(text.len() as u64);
        if left == 0 {
            break;
        }
        let mut bytes = Vec::new();
        if let Ok(file) = std::fs::File::open(&path) {
            let _ = file.take(left).read_to_end(&mut bytes);
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        text.push_str(&format!("== {name}\n{}", String::from_utf8_lossy(&bytes)));
    }
    text
}

/// A version's findings as its owner reads them: where the whole stderr of a validation game
/// is, said as the bot's page shows it (the file's name, among the version's stderr), never by
/// the server's path, which they cannot open.
fn findings_shown(validation: &str) -> String {
    let shown: Vec<String> = validation
        .lines()
        .map(|line| {
            let path = referee_core::report::whole_stderr_path(line);
            match path.map(|path| std::path::Path::new(path).file_name()) {
                Some(Some(name)) => format!(
                    "{}(more of it: {}, in the version's stderr on the bot's page)",
                    &line[..line.len() - line.trim_start().len()],
                    name.to_string_lossy()
                ),
                _ => line.to_string(),
            }
        })
        .collect();
    shown.join("\n")
}

/// A version as its owner (everything) or anyone else (no build log, validation or reason)
/// sees it.
fn version_json(version: &Version, owner: bool, stderr: &str) -> Value {
    let mut value = json!({
        "id": version.id, "number": version.number, "protocol": version.protocol,
        "language": version.language, "state": version.state, "created_at": version.created_at,
    });
    if owner {
        value["stderr"] = json!(stderr);
        value["build_log"] = json!(version.build_log);
        value["validation"] = json!(findings_shown(&version.validation));
        value["reason"] = json!(version.reason);
    }
    value
}

/// A bot as read: id, owner's id, built-in level, active version, retired, owner's name.
type BotRow = (
    i64,
    Option<i64>,
    Option<String>,
    Option<i64>,
    i64,
    Option<String>,
);

async fn bot(
    State(shared): App,
    headers: HeaderMap,
    Address((ladder, name)): Address<(String, String)>,
) -> Answer {
    let user = caller(&shared, &headers).await?;
    let row: Option<BotRow> = sqlx::query_as(
        "SELECT bots.id, owner_id, builtin, active_version, retired, users.name FROM bots \
         LEFT JOIN users ON users.id = bots.owner_id WHERE ladder = $1 AND bots.name = $2",
    )
    .bind(&ladder)
    .bind(&name)
    .fetch_optional(&shared.pool)
    .await?;
    let (id, owner_id, builtin, active, retired, owner) = row.ok_or_else(|| not_found("bot"))?;
    let is_owner = user
        .as_ref()
        .is_some_and(|u| u.is_admin || Some(u.id) == owner_id);
    let versions: Vec<Version> = sqlx::query_as(&format!(
        "SELECT {VERSION_COLUMNS} FROM versions WHERE bot_id = $1 ORDER BY number"
    ))
    .bind(id)
    .fetch_all(&shared.pool)
    .await?;
    Ok(Json(json!({
        "ladder": ladder, "name": name, "owner": owner, "boss": builtin.is_some(),
        "retired": retired != 0, "active_version": active,
        "versions": versions.iter().map(|v| version_json(v, is_owner, &check_stderr(&shared, v.id))).collect::<Vec<_>>(),
    })))
}

async fn version(State(shared): App, headers: HeaderMap, Address(id): Address<i64>) -> Answer {
    let user = required(&shared, &headers).await?;
    let version: Option<Version> = sqlx::query_as(&format!(
        "SELECT {VERSION_COLUMNS} FROM versions WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(&shared.pool)
    .await?;
    let version = version.ok_or_else(|| not_found("version"))?;
    let (owner,): (Option<i64>,) = sqlx::query_as("SELECT owner_id FROM bots WHERE id = $1")
        .bind(version.bot_id)
        .fetch_one(&shared.pool)
        .await?;
    // Another's version is as unknown as one that does not exist.
    if !user.is_admin && owner != Some(user.id) {
        return Err(not_found("version"));
    }
    let stderr = check_stderr(&shared, version.id);
    Ok(Json(version_json(&version, true, &stderr)))
}

#[derive(Deserialize)]
struct Active {
    version: i64,
}

async fn choose_active(
    State(shared): App,
    headers: HeaderMap,
    Address((ladder, name)): Address<(String, String)>,
    Body(body): Body<Active>,
) -> Answer {
    let user = required(&shared, &headers).await?;
    let mut tx = store::write(&shared.pool).await?;
    let found: Option<(i64, String)> = sqlx::query_as(
        "SELECT versions.id, versions.state FROM versions JOIN bots ON bots.id = versions.bot_id \
         WHERE bots.ladder = $1 AND bots.name = $2 AND bots.owner_id = $3 AND versions.number = $4",
    )
    .bind(&ladder)
    .bind(&name)
    .bind(user.id)
    .bind(body.version)
    .fetch_optional(&mut *tx)
    .await?;
    let (id, state) = found.ok_or_else(|| not_found("version of your bot"))?;
    if state != "passed" {
        return Err(refuse(
            StatusCode::CONFLICT,
            format!(
                "version {} has not passed its validation ({state})",
                body.version
            ),
        ));
    }
    sqlx::query("UPDATE bots SET active_version = $1 WHERE ladder = $2 AND name = $3")
        .bind(id)
        .bind(&ladder)
        .bind(&name)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Json(json!({ "active_version": body.version })))
}

#[derive(Deserialize)]
struct UploadQuery {
    ladder: String,
    name: String,
    language: Option<String>,
    protocol: Option<String>,
}

async fn upload(
    State(shared): App,
    headers: HeaderMap,
    Params(query): Params<UploadQuery>,
    body: Bytes,
) -> Answer {
    let user = required(&shared, &headers).await?;
    let upload = Upload {
        ladder: query.ladder,
        name: query.name,
        language: query.language.filter(|l| !l.is_empty()),
        protocol: query.protocol.filter(|p| !p.is_empty()),
        bytes: body.to_vec(),
    };
    match versions::submit(&shared, user.id, upload).await {
        Ok(id) => Ok(Json(json!({ "version_id": id, "state": "queued" }))),
        Err(SubmitError::Store(error)) => Err(error.into()),
        Err(SubmitError::Io(error)) => {
            eprintln!("arena: upload: {error}");
            Err(refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                "the arena cannot store uploads now",
            ))
        }
        Err(error @ SubmitError::RateLimited(_)) => {
            Err(refuse(StatusCode::TOO_MANY_REQUESTS, error.to_string()))
        }
        Err(error) => Err(refuse(StatusCode::BAD_REQUEST, error.to_string())),
    }
}

#[derive(Deserialize)]
struct Pause {
    paused: bool,
}

async fn pause(
    State(shared): App,
    headers: HeaderMap,
    Address(ladder): Address<String>,
    Body(body): Body<Pause>,
) -> Answer {
    admin(&shared, &headers).await?;
    known_ladder(&shared, &ladder)?;
    sqlx::query("UPDATE ladders SET paused = $1 WHERE name = $2")
        .bind(i64::from(body.paused))
        .bind(&ladder)
        .execute(&shared.pool)
        .await?;
    Ok(Json(json!({ "ladder": ladder, "paused": body.paused })))
}

async fn retire(
    State(shared): App,
    headers: HeaderMap,
    Address((ladder, name)): Address<(String, String)>,
) -> Answer {
    admin(&shared, &headers).await?;
    let mut tx = store::write(&shared.pool).await?;
    let found: Option<(i64,)> =
        sqlx::query_as("SELECT id FROM bots WHERE ladder = $1 AND name = $2")
            .bind(&ladder)
            .bind(&name)
            .fetch_optional(&mut *tx)
            .await?;
    let (id,) = found.ok_or_else(|| not_found("bot"))?;
    sqlx::query("UPDATE bots SET retired = 1 WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "DELETE FROM scheduled WHERE state = 'scheduled' AND (first_version IN \
         (SELECT id FROM versions WHERE bot_id = $1) OR second_version IN \
         (SELECT id FROM versions WHERE bot_id = $2))",
    )
    .bind(id)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Json(
        json!({ "ladder": ladder, "name": name, "retired": true }),
    ))
}

async fn rerate(State(shared): App, headers: HeaderMap) -> Answer {
    admin(&shared, &headers).await?;
    let (versions, changed) = crate::scheduler::rerate(&shared.pool).await?;
    Ok(Json(json!({ "versions": versions, "changed": changed })))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An upload past the bound is refused saying the bound, in the API's JSON (the command
    /// line and the upload page show its `error`); other answers pass unchanged.
    #[tokio::test]
    async fn a_413_says_how_large_an_upload_may_be() {
        let mut framework =
            (StatusCode::PAYLOAD_TOO_LARGE, "length limit exceeded").into_response();
        framework
            .headers_mut()
            .insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        let said = too_large_said(framework, 2 << 20);
        assert_eq!(said.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(said.headers()[header::X_FRAME_OPTIONS], "DENY");
        assert_eq!(said.headers()[header::CONTENT_TYPE], "application/json");
        let body = axum::body::to_bytes(said.into_body(), 4096).await.unwrap();
        let body: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            body["error"],
            "the upload is too large: the arena takes at most 2097152 bytes (2.0 MiB) of \
             sources as a .tar.gz"
        );

        let other = too_large_said((StatusCode::NOT_FOUND, "no").into_response(), 10);
        assert_eq!(other.status(), StatusCode::NOT_FOUND);
        let body = axum::body::to_bytes(other.into_body(), 4096).await.unwrap();
        assert_eq!(&body[..], b"no");
    }

    /// The findings shown to a version's owner name no file by the server's path: they said
    /// '(all of it: /tmp/aa/arena/checks/16/0001.bot.stderr.txt)', which nobody but the server
    /// can open; the file is named as the bot's page shows the version's stderr.
    #[test]
    fn findings_name_no_server_path() {
        let version = Version {
            id: 16,
            bot_id: 1,
            number: 1,
            protocol: "native".into(),
            language: Some("python".into()),
            state: "failed".into(),
            command: None,
            build_log: String::new(),
            validation: "ok       it answers ready\n\
                         PROBLEM  game 1: it crashed\n\
                         \x20        its stderr ended with:\n\
                         \x20        | Traceback (most recent call last):\n\
                         \x20        (all of it: /tmp/aa/arena/checks/16/0001.bot.stderr.txt)"
                .into(),
            reason: Some("game 1: it crashed".into()),
            created_at: 0,
        };
        let shown = version_json(&version, true, "== 0001.bot.stderr.txt\nTraceback\n");
        assert_eq!(
            shown["validation"],
            "ok       it answers ready\n\
             PROBLEM  game 1: it crashed\n\
             \x20        its stderr ended with:\n\
             \x20        | Traceback (most recent call last):\n\
             \x20        (more of it: 0001.bot.stderr.txt, in the version's stderr on the bot's \
             page)"
        );
    }
}
