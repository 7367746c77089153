//! Invitations to a game between people, as Meridius had them: a person invites another by
//! name (or anyone: an open challenge) to a ladder's game; the invitation waits in the
//! invitee's panel, which hears of it at once (server-sent events), until it is accepted,
//! declined, cancelled by its sender, or expires (the settings' `invitation_expiry_s`).
//! Accepting begins the game ([`crate::people::begin`]): the sender moves first.

use crate::accounts::User;
use crate::address::Address;
use crate::api::{not_found, refuse, required, ApiError};
use crate::body::Body;
use crate::people::{self, Sitter};
use crate::store;
use crate::Shared;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::watch;

type App = State<Arc<Shared>>;

/// Invitations a person may have waiting at once: nobody fills another's panel or the table.
const MAX_WAITING: i64 = 20;

/// Tells the invitations panels that something changed.
pub struct Changes(watch::Sender<u64>);

impl Default for Changes {
    fn default() -> Changes {
        Changes(watch::Sender::new(0))
    }
}

impl Changes {
    fn changed(&self) {
        self.0.send_modify(|generation| *generation += 1);
    }
}

/// The invitations' routes.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/invitations", get(list).post(invite))
        .route("/api/invitations/events", get(events))
        .route("/api/invitations/{id}/{action}", post(act))
        .with_state(shared)
}

#[derive(Deserialize)]
struct Invite {
    ladder: String,
    /// The invitee's name; none for an open challenge.
    to: Option<String>,
    /// Whether the game counts for the ratings (by default it does).
    #[serde(default = "crate::people::rated_by_default")]
    rated: bool,
}

async fn invite(
    State(shared): App,
    headers: HeaderMap,
    Body(body): Body<Invite>,
) -> Result<Json<Value>, ApiError> {
    let user = required(&shared, &headers).await?;
    if shared.arena.ladder(&body.ladder).is_none() {
        return Err(not_found("ladder"));
    }
    let mut tx = store::write(&shared.pool).await?;
    let (waiting,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM invitations WHERE from_user = $1 AND state = 'waiting' \
         AND expires_at > $2",
    )
    .bind(user.id)
    .bind(store::now())
    .fetch_one(&mut *tx)
    .await?;
    if waiting >= MAX_WAITING {
        return Err(refuse(
            StatusCode::TOO_MANY_REQUESTS,
            format!("you have {MAX_WAITING} invitations waiting: cancel one, or wait for answers"),
        ));
    }
    let to = match body
        .to
        .as_deref()
        .map(str::trim)
        .filter(|to| !to.is_empty())
    {
        None => None,
        Some(name) => {
            let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE name = $1")
                .bind(name)
                .fetch_optional(&mut *tx)
                .await?;
            let (id,) = found.ok_or_else(|| not_found("user of that name"))?;
            if id == user.id {
                return Err(refuse(StatusCode::BAD_REQUEST, "invite someone else"));
            }
            Some(id)
        }
    };
    let id = store::next_id(&mut tx, "invitations", "id").await?;
    let now = store::now();
    let expiry = i64::try_from(shared.arena.settings.invitation_expiry_s).unwrap_or(i64::MAX);
    sqlx::query(
        "INSERT INTO invitations (id, ladder, from_user, to_user, state, rated, created_at, \
         expires_at) VALUES ($1, $2, $3, $4, 'waiting', $5, $6, $7)",
    )
    .bind(id)
    .bind(&body.ladder)
    .bind(user.id)
    .bind(to)
    .bind(i64::from(body.rated))
    .bind(now)
    .bind(now.saturating_add(expiry))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    shared.invitations.changed();
    Ok(Json(json!({ "id": id })))
}

/// An invitation as read: id, ladder, sender, invitee, state, game, expiry, rated.
type Row = (
    i64,
    String,
    String,
    Option<String>,
    String,
    Option<i64>,
    i64,
    i64,
);

/// The caller's invitations (sent, received, and the open challenges of others), newest
/// first.
async fn list(State(shared): App, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let user = required(&shared, &headers).await?;
    Ok(Json(Value::Array(listed(&shared.pool, &user).await?)))
}

/// `user`'s invitations as the panel shows them: a waiting one past its time says `expired`;
/// only one still waiting says in how long it expires (`expires_in_s`; null for any other,
/// which no longer can).
async fn listed(pool: &store::Pool, user: &User) -> Result<Vec<Value>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT invitations.id, ladder, sender.name, invitee.name, state, game_id, expires_at, \
         rated FROM invitations JOIN users AS sender ON sender.id = from_user \
         LEFT JOIN users AS invitee ON invitee.id = to_user \
         WHERE from_user = $1 OR to_user = $2 OR (to_user IS NULL AND state = 'waiting') \
         ORDER BY invitations.id DESC LIMIT 100",
    )
    .bind(user.id)
    .bind(user.id)
    .fetch_all(pool)
    .await?;
    let now = store::now();
    Ok(rows
        .into_iter()
        .map(|(id, ladder, from, to, state, game, expires, rated)| {
            let waiting = state == "waiting" && expires > now;
            let state = if state == "waiting" && !waiting {
                "expired".to_string()
            } else {
                state
            };
            json!({
                "id": id, "ladder": ladder, "from": from, "to": to, "state": state,
                "game": game, "expires_in_s": waiting.then_some(expires - now),
                "mine": from == user.name, "rated": rated != 0,
            })
        })
        .collect())
}

async fn events(State(shared): App, headers: HeaderMap) -> Response {
    match required(&shared, &headers).await {
        Ok(_) => {
            referee_web::server::change_events(shared.invitations.0.subscribe()).into_response()
        }
        Err(error) => error.into_response(),
    }
}

/// Accept, decline or cancel an invitation.
async fn act(
    State(shared): App,
    headers: HeaderMap,
    Address((id, action)): Address<(i64, String)>,
) -> Result<Json<Value>, ApiError> {
    let user = required(&shared, &headers).await?;
    let mut tx = store::write(&shared.pool).await?;
    let found: Option<(String, i64, Option<i64>, String, i64, i64)> = sqlx::query_as(
        "SELECT ladder, from_user, to_user, state, expires_at, rated FROM invitations WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let (ladder, from, to, state, expires, rated) = found.ok_or_else(|| not_found("invitation"))?;
    // Anyone but its sender takes an open challenge; only a named invitee declines.
    let allowed = match action.as_str() {
        "accept" => to.map_or(from != user.id, |to| to == user.id),
        "decline" => to == Some(user.id),
        "cancel" => from == user.id,
        _ => return Err(not_found("action")),
    };
    if !allowed {
        return Err(not_found("invitation"));
    }
    if state != "waiting" || expires <= store::now() {
        let state = if state == "waiting" {
            "expired"
        } else {
            &state
        };
        return Err(refuse(
            StatusCode::CONFLICT,
            format!("this invitation is {state}"),
        ));
    }
    let new_state = match action.as_str() {
        "accept" => "accepted",
        "decline" => "declined",
        _ => "cancelled",
    };
    sqlx::query("UPDATE invitations SET state = $1, to_user = $2 WHERE id = $3")
        .bind(new_state)
        .bind(to.or((action == "accept").then_some(user.id)))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    if action != "accept" {
        tx.commit().await?;
        shared.invitations.changed();
        return Ok(Json(json!({ "state": new_state })));
    }
    let accepted = Accepted {
        id,
        ladder: &ladder,
        from,
        rated: rated != 0,
    };
    let game = accept(&shared, tx, &accepted, &user).await?;
    shared.invitations.changed();
    Ok(Json(json!({ "state": new_state, "game": game })))
}

/// An invitation being accepted.
struct Accepted<'a> {
    id: i64,
    ladder: &'a str,
    /// Its sender.
    from: i64,
    rated: bool,
}

/// Begins the game of an invitation accepted by `user`: its sender first.
async fn accept(
    shared: &Arc<Shared>,
    mut tx: store::Tx<'static>,
    invitation: &Accepted<'_>,
    user: &User,
) -> Result<i64, ApiError> {
    let Accepted {
        id,
        ladder,
        from,
        rated,
    } = *invitation;
    let (name,): (String,) = sqlx::query_as("SELECT name FROM users WHERE id = $1")
        .bind(from)
        .fetch_one(&mut *tx)
        .await?;
    let sender = User {
        id: from,
        name,
        is_admin: false,
    };
    let mut sitters = Vec::new();
    for person in [&sender, user] {
        sitters.push(Sitter::Person {
            user: person.id,
            label: format!("@{}", person.name),
            version: people::person_version(&mut tx, ladder, person).await?,
        });
    }
    let [first, second]: [Sitter; 2] = sitters.try_into().ok().expect("two people");
    // The game takes the queue's next id: the invitation names it in the same transaction.
    let game = crate::scheduler::next_scheduled_id(&mut tx).await?;
    sqlx::query("UPDATE invitations SET game_id = $1 WHERE id = $2")
        .bind(game)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    people::begin(shared, tx, ladder, [first, second], rated).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a waiting invitation says when it expires: an accepted one (or one declined,
    /// cancelled, void or expired) no longer can, and said `expires_in_s` as if it would.
    #[tokio::test]
    async fn only_a_waiting_invitation_says_when_it_expires() {
        let dir = tempfile::tempdir().unwrap();
        let pool = store::open(dir.path()).await.unwrap();
        let later = store::now() + 300;
        sqlx::query(
            "INSERT INTO ladders (name, paused) VALUES ('t', 0); \
             INSERT INTO users (id, name, created_at) VALUES (1, 'ann', 0), (2, 'bob', 0)",
        )
        .execute(&pool)
        .await
        .unwrap();
        for (id, state, expires) in [
            (1, "waiting", later),
            (2, "waiting", 0),
            (3, "accepted", later),
            (4, "declined", later),
            (5, "cancelled", later),
            (6, "void", later),
        ] {
            sqlx::query(
                "INSERT INTO invitations (id, ladder, from_user, to_user, state, created_at, \
                 expires_at) VALUES ($1, 't', 1, 2, $2, 0, $3)",
            )
            .bind(id)
            .bind(state)
            .bind(expires)
            .execute(&pool)
            .await
            .unwrap();
        }
        let ann = User {
            id: 1,
            name: "ann".into(),
            is_admin: false,
        };
        let listed = listed(&pool, &ann).await.unwrap();
        let shown: Vec<(&str, &Value)> = listed
            .iter()
            .map(|invitation| {
                (
                    invitation["state"].as_str().unwrap(),
                    &invitation["expires_in_s"],
                )
            })
            .collect();
        let waiting = shown[5].1.as_i64().unwrap();
        assert!((299..=300).contains(&waiting), "{listed:?}");
        assert_eq!(
            shown,
            [
                ("void", &Value::Null),
                ("cancelled", &Value::Null),
                ("declined", &Value::Null),
                ("accepted", &Value::Null),
                ("expired", &Value::Null),
                ("waiting", &json!(waiting)),
            ]
        );
    }
}
