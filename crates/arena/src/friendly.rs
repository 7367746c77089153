//! Friendly matches: a signed-in user asks for N games between two bots of a ladder, colours
//! alternated, unrated. They wait in the queue with the ladder's own games (in the order they
//! were asked for), are played by the same slots and stored and shown like any game, marked
//! unrated; the ratings never see them. A user may have at most the settings'
//! `friendly_games` of them waiting at once, so that nobody fills the queue. On a paused
//! ladder they are queued as on any other and wait, as its own games do, until it resumes:
//! the answer says so.

use crate::address::Address;
use crate::api::{not_found, refuse, required, ApiError};
use crate::body::Body;
use crate::scheduler::{self, Queued};
use crate::store::{self, Tx};
use crate::Shared;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The friendly matches' route.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/ladders/{ladder}/friendlies", post(ask))
        .with_state(shared)
}

#[derive(Deserialize)]
struct Ask {
    /// The two bots, by name; the first moves first in the first game.
    first: String,
    second: String,
    /// How many games.
    games: u32,
}

/// The active version of the bot `name` of `ladder`, if it may play.
async fn playing_version(tx: &mut Tx<'_>, ladder: &str, name: &str) -> Result<i64, ApiError> {
    let found: Option<(i64,)> = sqlx::query_as(
        "SELECT versions.id FROM bots JOIN versions ON versions.id = bots.active_version \
         WHERE bots.ladder = $1 AND bots.name = $2 AND bots.retired = 0 \
         AND versions.state = 'passed'",
    )
    .bind(ladder)
    .bind(name)
    .fetch_optional(&mut **tx)
    .await?;
    found
        .map(|(version,)| version)
        .ok_or_else(|| not_found(&format!("bot ready to play on this ladder named '{name}'")))
}

/// Queues a friendly match; the games' ids, in the order they will be played.
async fn ask(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Address(ladder): Address<String>,
    Body(body): Body<Ask>,
) -> Result<Json<Value>, ApiError> {
    let user = required(&shared, &headers).await?;
    if shared.arena.ladder(&ladder).is_none() {
        return Err(not_found("ladder"));
    }
    let most = shared.arena.settings.friendly_games;
    if !(1..=most).contains(&body.games) {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            format!("a friendly match is 1 to {most} games"),
        ));
    }
    // A name is shown back only once known to be one (no markup, at most 40 characters).
    for (which, name) in [("first", &body.first), ("second", &body.second)] {
        if !store::valid_name(name) {
            return Err(refuse(
                StatusCode::BAD_REQUEST,
                format!("the {which} is not a bot's name (1 to 40 letters, digits, '-', '_', '.')"),
            ));
        }
    }
    if body.first == body.second {
        return Err(refuse(StatusCode::BAD_REQUEST, "choose two different bots"));
    }
    let mut tx = store::write(&shared.pool).await?;
    let (waiting,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM scheduled WHERE requested_by = $1")
            .bind(user.id)
            .fetch_one(&mut *tx)
            .await?;
    if waiting + i64::from(body.games) > i64::from(most) {
        return Err(refuse(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "you have {waiting} friendly games waiting, and may have {most} at once: \
                 ask for fewer, or wait until they are played"
            ),
        ));
    }
    let a = playing_version(&mut tx, &ladder, &body.first).await?;
    let b = playing_version(&mut tx, &ladder, &body.second).await?;
    let mut ids = Vec::new();
    for game in 0..body.games {
        let (first, second) = if game % 2 == 0 { (a, b) } else { (b, a) };
        let queued = Queued {
            rated: false,
            requested_by: Some(user.id),
            ..Queued::rated(&ladder, first, second)
        };
        ids.push(scheduler::enqueue(&mut tx, &queued, "scheduled").await?);
    }
    let (paused,): (i64,) = sqlx::query_as("SELECT paused FROM ladders WHERE name = $1")
        .bind(&ladder)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    let paused = paused != 0;
    Ok(Json(
        json!({ "games": ids, "paused": paused, "said": queued_said(ids.len(), paused) }),
    ))
}

/// What the asker is told of their match's `games` queued: when the ladder is paused, that
/// they wait for it to resume (a paused ladder's queue is not played).
fn queued_said(games: usize, paused: bool) -> String {
    let queued = if games == 1 {
        "1 game queued".to_string()
    } else {
        format!("{games} games queued")
    };
    if paused {
        format!("{queued}; the ladder is paused: the match will be played when it resumes")
    } else {
        queued
    }
}
