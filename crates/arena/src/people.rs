//! People at the arena: a signed-in person plays a ladder's bot ("play this bot"), by clicking
//! on the board or typing moves in the page's player console, on the people's clock (the
//! settings' `people_time`, 30 s a move by default).
//!
//! A person plays on a ladder as a version of their own, `@NAME`, which never enters the
//! matchmaking (its state is `person`, not `passed`): their games are stored, numbered and
//! rated as any other game of the ladder, in the same pool as the bots, the person marked by
//! the `@` (lichess keeps bots and people in one pool, bots marked: here the people are, since
//! the ladder is the bots'). The game is a row of the queue from the start, being played, so
//! that it takes the queue's next id (and so its live file is listed and watched like any
//! other) and its result is stored by the same transaction as a bot's. A person's game cut off
//! by a crash is not played again: the person is gone ([`recover`]).
//!
//! The person's seat is the browser seat of `referee play --browser`
//! ([`referee_web::browser::BrowserSeat`]), its page served here through the arena's shield,
//! to that person only (anyone else gets 404).

use crate::accounts::User;
use crate::address::Address;
use crate::api::{not_found, refuse, required, ApiError};
use crate::body::Body;
use crate::live::LiveGame;
use crate::pages::LIVE;
use crate::scheduler::{self, Claimed, FixedBot, Queued};
use crate::store::{self, Pool, Tx};
use crate::Shared;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use referee_core::table::{Recorder, ScheduledGame, Table, Venue};
use referee_web::browser::{answer, BrowserSeat, PlayPage};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

type App = State<Arc<Shared>>;

/// How long a finished game's page stays for its person to see how it ended.
const KEPT_AFTER: Duration = Duration::from_secs(600);

/// A game's ladder, and each person's id and page in it.
type Seated = (String, Vec<(i64, PlayPage)>);

/// The people's pages of the games being played (and of those just finished), by game id.
#[derive(Default)]
pub struct Seats {
    pages: Mutex<HashMap<i64, Seated>>,
}

impl Seats {
    fn pages(&self) -> MutexGuard<'_, HashMap<i64, Seated>> {
        self.pages
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `user`'s page in game `id`, if they play it, and the game's ladder.
    fn page(&self, id: i64, user: &User) -> Option<(PlayPage, String)> {
        let pages = self.pages();
        let (ladder, people) = pages.get(&id)?;
        people
            .iter()
            .find(|(person, _)| *person == user.id)
            .map(|(_, page)| (page.clone(), ladder.clone()))
    }
}

/// The routes of a person's games.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/ladders/{ladder}/bots/{name}/play", post(start))
        .route("/api/people/{id}/state", get(state))
        .route("/api/people/{id}/cut-off", get(was_cut_off))
        .route("/api/people/{id}/events", get(events))
        .route("/api/people/{id}/move", post(play_move))
        .route("/api/people/{id}/resign", post(resign))
        .route("/api/people/{id}/draw", post(draw))
        .with_state(shared)
}

/// What became of a person's game that the arena's stopping cut off.
const CUT_OFF: &str = "was cut off when the arena stopped: a game with a person is not played \
                       again, and counts nowhere";

/// How long a game cut off stays so for its people's pages: a week, for a person who comes
/// back to a tab left open over a weekend. Only a restart adds such games, and it forgets
/// those older (see [`recover`]).
const CUT_OFF_KEPT_S: i64 = 7 * 24 * 3600;

/// Drops the people's games a crash cut off (before the queue's other games go back to it),
/// in one transaction with the invitations that began them, which become `void` (they named a
/// game that is no more), and kept as cut off for their people's pages (for
/// [`CUT_OFF_KEPT_S`]: those cut off longer ago are forgotten); what was dropped, said as the
/// server says it.
pub async fn recover(pool: &Pool) -> Result<Vec<String>, sqlx::Error> {
    const PLAYING: &str = "FROM scheduled WHERE state = 'playing' AND (first_version IN \
         (SELECT id FROM versions WHERE state = 'person') OR second_version IN \
         (SELECT id FROM versions WHERE state = 'person'))";
    let mut tx = store::write(pool).await?;
    let games: Vec<(i64, String, String, String)> = sqlx::query_as(&format!(
        "SELECT scheduled.id, scheduled.ladder, \
         (SELECT bots.name FROM versions JOIN bots ON bots.id = versions.bot_id \
          WHERE versions.id = first_version), \
         (SELECT bots.name FROM versions JOIN bots ON bots.id = versions.bot_id \
          WHERE versions.id = second_version) {PLAYING} ORDER BY scheduled.id"
    ))
    .fetch_all(&mut *tx)
    .await?;
    for (id, ..) in &games {
        sqlx::query("UPDATE invitations SET state = 'void' WHERE game_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
    }
    let now = store::now();
    sqlx::query("DELETE FROM cut_off WHERE at < $1")
        .bind(now - CUT_OFF_KEPT_S)
        .execute(&mut *tx)
        .await?;
    sqlx::query(&format!(
        "INSERT INTO cut_off (scheduled_id, ladder, first_version, second_version, at) \
         SELECT id, ladder, first_version, second_version, $1 {PLAYING}"
    ))
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(&format!("DELETE {PLAYING}"))
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(games
        .into_iter()
        .map(|(id, ladder, first, second)| {
            format!("game {id} ({ladder}, {first} against {second}) {CUT_OFF}")
        })
        .collect())
}

/// What became of game `id` of `user`'s that the arena's stopping cut off, said to them, and
/// its ladder; none if `user` played no such game.
pub(crate) async fn cut_off(
    pool: &Pool,
    id: i64,
    user: i64,
) -> Result<Option<(String, String)>, sqlx::Error> {
    let ladder: Option<(String,)> = sqlx::query_as(
        "SELECT cut_off.ladder FROM cut_off JOIN versions ON versions.id IN \
         (cut_off.first_version, cut_off.second_version) JOIN bots ON bots.id = versions.bot_id \
         WHERE cut_off.scheduled_id = $1 AND versions.state = 'person' AND bots.owner_id = $2",
    )
    .bind(id)
    .bind(user)
    .fetch_optional(pool)
    .await?;
    Ok(ladder.map(|(ladder,)| (format!("This game {CUT_OFF}."), ladder)))
}

/// Which side the person takes; by default the first (they move first).
#[derive(Deserialize, Default)]
#[serde(rename_all = "lowercase")]
enum Side {
    #[default]
    First,
    Second,
}

#[derive(Deserialize)]
struct StartBody {
    #[serde(default)]
    side: Side,
    /// Whether the game counts for the ratings: "play this bot" is rated unless asked casual.
    #[serde(default = "rated_by_default")]
    rated: bool,
}

/// A person's game counts for the ratings unless they ask for a casual one.
pub(crate) fn rated_by_default() -> bool {
    true
}

/// The person's version on `ladder`, made at their first game there.
pub(crate) async fn person_version(
    tx: &mut Tx<'_>,
    ladder: &str,
    user: &User,
) -> Result<i64, sqlx::Error> {
    let name = format!("@{}", user.name);
    let seat = FixedBot {
        ladder,
        name: &name,
        owner: Some(user.id),
        builtin: None,
        state: "person",
        command: "human",
    };
    scheduler::ensure_fixed_bot(tx, &seat).await
}

/// "Play this bot": a game against the bot's active version begins at once.
async fn start(
    State(shared): App,
    headers: HeaderMap,
    Address((ladder_name, bot_name)): Address<(String, String)>,
    body: Option<Body<StartBody>>,
) -> Result<Json<Value>, ApiError> {
    let user = required(&shared, &headers).await?;
    if shared.arena.ladder(&ladder_name).is_none() {
        return Err(not_found("ladder"));
    }
    let (side, rated) = body.map_or((Side::First, true), |Body(body)| (body.side, body.rated));
    let mut tx = store::write(&shared.pool).await?;
    let bot: Option<(i64, String, String)> = sqlx::query_as(
        "SELECT versions.id, versions.command, versions.protocol FROM bots \
         JOIN versions ON versions.id = bots.active_version \
         WHERE bots.ladder = $1 AND bots.name = $2 AND bots.retired = 0 AND versions.state = 'passed'",
    )
    .bind(&ladder_name)
    .bind(&bot_name)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((bot_version, command, protocol)) = bot else {
        return Err(not_found("bot ready to play on this ladder"));
    };
    let person = person_version(&mut tx, &ladder_name, &user).await?;
    let you = Sitter::Person {
        user: user.id,
        label: format!("@{}", user.name),
        version: person,
    };
    let them = Sitter::Bot {
        name: bot_name,
        command,
        protocol,
        version: bot_version,
    };
    let sitters = match side {
        Side::First => [you, them],
        Side::Second => [them, you],
    };
    let id = begin(&shared, tx, &ladder_name, sitters, rated).await?;
    Ok(Json(
        json!({ "id": id, "ladder": ladder_name, "rated": rated }),
    ))
}

/// Who sits on a side of a person's game.
pub(crate) enum Sitter {
    /// A person, as their version of the ladder (`@NAME`).
    Person {
        user: i64,
        label: String,
        version: i64,
    },
    /// A bot's version.
    Bot {
        name: String,
        command: String,
        protocol: String,
        version: i64,
    },
}

impl Sitter {
    fn version(&self) -> i64 {
        match self {
            Sitter::Person { version, .. } | Sitter::Bot { version, .. } => *version,
        }
    }

    fn label(&self) -> &str {
        match self {
            Sitter::Person { label, .. } => label,
            Sitter::Bot { name, .. } => name,
        }
    }
}

/// Begins a game of people (and maybe a bot) in `tx`'s transaction: in the queue as being
/// played, each person's page kept for them, played on a thread of its own; its id.
pub(crate) async fn begin(
    shared: &Arc<Shared>,
    mut tx: Tx<'_>,
    ladder: &str,
    sitters: [Sitter; 2],
    rated: bool,
) -> Result<i64, ApiError> {
    let [first, second] = [sitters[0].version(), sitters[1].version()];
    let queued = Queued {
        rated,
        ..Queued::rated(ladder, first, second)
    };
    let id = scheduler::enqueue(&mut tx, &queued, "playing").await?;
    tx.commit().await?;
    let pages = sitters.each_ref().map(|sitter| match sitter {
        Sitter::Person { user, .. } => Some((*user, PlayPage::detached())),
        Sitter::Bot { .. } => None,
    });
    shared.seats.pages().insert(
        id,
        (
            ladder.to_string(),
            pages.iter().flatten().cloned().collect(),
        ),
    );
    let game = PersonGame {
        claimed: Claimed {
            id,
            ladder: ladder.to_string(),
            first_version: first,
            second_version: second,
            placement: 0,
            rated,
        },
        sitters,
        pages: pages.map(|page| page.map(|(_, page)| page)),
    };
    let played = Arc::clone(shared);
    std::thread::Builder::new()
        .name(format!("person-game-{id}"))
        .spawn(move || play(&played, game))
        .map_err(|_| refuse(StatusCode::SERVICE_UNAVAILABLE, "cannot start the game"))?;
    Ok(id)
}

/// A game with people to play: the queue's row, who sits on each side and each person's page.
struct PersonGame {
    claimed: Claimed,
    sitters: [Sitter; 2],
    pages: [Option<PlayPage>; 2],
}

/// Plays a person's game to its end and stores it as the ladder's games are stored.
fn play(shared: &Shared, game: PersonGame) {
    let id = game.claimed.id;
    if let Err(error) = play_and_store(shared, &game) {
        shared.say(&format!("game {id} (of people) not stored: {error}"));
        let _ = shared.block_on(scheduler::drop_scheduled(&shared.pool, id));
    }
    shared.playing.end(id);
    std::thread::sleep(KEPT_AFTER);
    shared.seats.pages().remove(&id);
}

fn play_and_store(shared: &Shared, game: &PersonGame) -> Result<(), scheduler::PlayError> {
    let claimed = &game.claimed;
    let Some(ladder) = shared.arena.ladder(&claimed.ladder) else {
        return Ok(());
    };
    let mut players = Vec::new();
    let mut given: [Option<Box<dyn referee_cage::Seat + Send>>; 2] = [None, None];
    for (at, sitter) in game.sitters.iter().enumerate() {
        let player = match sitter {
            Sitter::Bot {
                name,
                command,
                protocol,
                ..
            } => crate::versions::player(ladder, name, command, protocol),
            Sitter::Person { label, .. } => {
                let opponent = game.sitters[1 - at].label().to_string();
                let page = game.pages[at].clone().unwrap_or_else(PlayPage::detached);
                given[at] = Some(Box::new(BrowserSeat::new(page, opponent)));
                crate::versions::player(ladder, label, "human", "native").map(|mut person| {
                    person.time = shared.arena.people_time;
                    person
                })
            }
        };
        let Some(player) = player else {
            return Ok(());
        };
        players.push(player);
    }
    let records = shared.dir.join("records").join(&claimed.ladder);
    let venue = Venue {
        settings: ladder.table.clone(),
        referee_exe: shared.host.referee_exe.clone(),
        records: Some(Recorder::Files(records.clone())),
    };
    let mut table = Table::new(&shared.host.supervisor);
    shared.playing.begin(LiveGame {
        id: claimed.id,
        ladder: claimed.ladder.clone(),
        file: table.live_file(&records).to_path_buf(),
    });
    let scheduled = ScheduledGame {
        number: claimed.id as u32,
        seats: [0, 1],
        opening: Vec::new(),
    };
    let finished = table.play_given(&venue, &players, &scheduled, given)?;
    shared.block_on(scheduler::store_result(shared, claimed, &finished))?;
    Ok(())
}

/// The person's game `id`, if the caller plays it (404 to anyone else, as for no game), and
/// its ladder.
async fn own_page(
    shared: &Shared,
    headers: &HeaderMap,
    id: i64,
) -> Result<(PlayPage, String), ApiError> {
    let user = required(shared, headers).await?;
    shared
        .seats
        .page(id, &user)
        .ok_or_else(|| not_found("game of yours"))
}

/// Does `act` on the caller's page of game `id`; 404 (or 401) when it is not theirs.
async fn on_own_page(
    shared: &Shared,
    headers: &HeaderMap,
    id: i64,
    act: impl FnOnce(PlayPage) -> Response,
) -> Response {
    match own_page(shared, headers, id).await {
        Ok((page, _)) => act(page),
        Err(error) => error.into_response(),
    }
}

/// The page's state, with where the viewer shows the game (its live address, which leads to
/// the game stored once it is): the page links to it when the game is over.
async fn state(State(shared): App, headers: HeaderMap, Address(id): Address<i64>) -> Response {
    match own_page(&shared, &headers, id).await {
        Ok((page, ladder)) => {
            let mut view = page.view();
            view["viewer"] = json!({ "source": format!("{LIVE}{ladder}"), "number": id });
            Json(view).into_response()
        }
        Err(error) => error.into_response(),
    }
}

/// What became of the caller's game `id` that the arena's stopping cut off (its page asks
/// when the game is not there); 404 for any other.
async fn was_cut_off(
    State(shared): App,
    headers: HeaderMap,
    Address(id): Address<i64>,
) -> Result<Json<Value>, ApiError> {
    let user = required(&shared, &headers).await?;
    let (said, ladder) = cut_off(&shared.pool, id, user.id)
        .await?
        .ok_or_else(|| not_found("game of yours cut off"))?;
    Ok(Json(json!({ "id": id, "ladder": ladder, "said": said })))
}

async fn events(State(shared): App, headers: HeaderMap, Address(id): Address<i64>) -> Response {
    on_own_page(&shared, &headers, id, |page| {
        referee_web::server::change_events(page.changes()).into_response()
    })
    .await
}

async fn play_move(
    State(shared): App,
    headers: HeaderMap,
    Address(id): Address<i64>,
    body: String,
) -> Response {
    on_own_page(&shared, &headers, id, |page| answer(page.play_move(&body))).await
}

async fn resign(State(shared): App, headers: HeaderMap, Address(id): Address<i64>) -> Response {
    on_own_page(&shared, &headers, id, |page| answer(page.resign())).await
}

async fn draw(State(shared): App, headers: HeaderMap, Address(id): Address<i64>) -> Response {
    on_own_page(&shared, &headers, id, |page| answer(page.accept_draw())).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ladder `t` and its user `ann` (id 1), made in `tx`: ann's version on it.
    async fn ann_on_ladder_t(tx: &mut Tx<'_>) -> i64 {
        sqlx::query(
            "INSERT INTO ladders (name, paused) VALUES ('t', 0); \
             INSERT INTO users (id, name, created_at) VALUES (1, 'ann', 0)",
        )
        .execute(&mut **tx)
        .await
        .unwrap();
        let ann = User {
            id: 1,
            name: "ann".into(),
            is_admin: false,
        };
        person_version(tx, "t", &ann).await.unwrap()
    }

    /// The built-in bot `level` as a boss of ladder `t`, made in `tx`: its version.
    async fn boss(tx: &mut Tx<'_>, level: &'static str) -> i64 {
        let boss = FixedBot {
            ladder: "t",
            name: level,
            owner: None,
            builtin: Some(level),
            state: "passed",
            command: level,
        };
        scheduler::ensure_fixed_bot(tx, &boss).await.unwrap()
    }

    /// A crash with a person's game and a bots' game in flight: at restart the person's is
    /// dropped (the person is gone) and the bots' goes back to the queue to be played again.
    #[tokio::test]
    async fn a_persons_game_cut_off_by_a_crash_is_dropped_and_a_bots_requeued() {
        let dir = tempfile::tempdir().unwrap();
        let pool = store::open(dir.path()).await.unwrap();
        let mut tx = store::write(&pool).await.unwrap();
        let person = ann_on_ladder_t(&mut tx).await;
        let ann = User {
            id: 1,
            name: "ann".into(),
            is_admin: false,
        };
        assert_eq!(person_version(&mut tx, "t", &ann).await.unwrap(), person);
        let bosses = [boss(&mut tx, "random").await, boss(&mut tx, "greedy").await];
        let theirs = scheduler::enqueue(&mut tx, &Queued::rated("t", person, bosses[0]), "playing")
            .await
            .unwrap();
        let bots = scheduler::enqueue(
            &mut tx,
            &Queued::rated("t", bosses[0], bosses[1]),
            "playing",
        )
        .await
        .unwrap();
        // The person's game began with an invitation (as if from themselves, for the test).
        sqlx::query(
            "INSERT INTO invitations (id, ladder, from_user, to_user, state, game_id, \
             created_at, expires_at) VALUES (1, 't', 1, 1, 'accepted', $1, 0, 0)",
        )
        .bind(theirs)
        .execute(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();

        let said = recover(&pool).await.unwrap();
        scheduler::recover(&pool).await.unwrap();
        let left: Vec<(i64, String)> =
            sqlx::query_as("SELECT id, state FROM scheduled ORDER BY id")
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_ne!(theirs, bots);
        assert_eq!(left, [(bots, "scheduled".to_string())]);
        // Said, and the invitation no longer names a game as accepted.
        assert_eq!(
            said,
            [format!(
                "game {theirs} (t, @ann against random) was cut off when the arena stopped: a \
                 game with a person is not played again, and counts nowhere"
            )]
        );
        let (state,): (String,) = sqlx::query_as("SELECT state FROM invitations WHERE id = 1")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(state, "void");
        // The game's page tells its person what became of it; it is nobody else's.
        assert_eq!(
            cut_off(&pool, theirs, 1).await.unwrap(),
            Some((
                "This game was cut off when the arena stopped: a game with a person is not \
                 played again, and counts nowhere."
                    .to_string(),
                "t".to_string()
            ))
        );
        assert_eq!(cut_off(&pool, theirs, 2).await.unwrap(), None);
        assert_eq!(cut_off(&pool, bots, 1).await.unwrap(), None);
    }

    /// A game cut off by a restart keeps its number: the next game is not given it (it was,
    /// and its page then said the new game had been cut off).
    #[tokio::test]
    async fn the_number_of_a_game_cut_off_is_not_given_again() {
        let dir = tempfile::tempdir().unwrap();
        let pool = store::open(dir.path()).await.unwrap();
        let mut tx = store::write(&pool).await.unwrap();
        let person = ann_on_ladder_t(&mut tx).await;
        let boss = boss(&mut tx, "random").await;
        let game = scheduler::enqueue(&mut tx, &Queued::rated("t", person, boss), "playing")
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(recover(&pool).await.unwrap().len(), 1);
        let mut tx = store::write(&pool).await.unwrap();
        assert!(scheduler::next_scheduled_id(&mut tx).await.unwrap() > game);
    }

    /// The games cut off are kept for a week, not for ever: a restart forgets those cut off
    /// longer ago (only a restart adds any), and keeps the others for their people's pages.
    #[tokio::test]
    async fn games_cut_off_are_forgotten_after_a_week() {
        let dir = tempfile::tempdir().unwrap();
        let pool = store::open(dir.path()).await.unwrap();
        let now = store::now();
        for (id, at) in [
            (1, now - CUT_OFF_KEPT_S - 60),
            (2, now - CUT_OFF_KEPT_S + 60),
        ] {
            sqlx::query(
                "INSERT INTO cut_off (scheduled_id, ladder, first_version, second_version, at) \
                 VALUES ($1, 't', 1, 2, $2)",
            )
            .bind(id)
            .bind(at)
            .execute(&pool)
            .await
            .unwrap();
        }
        assert_eq!(recover(&pool).await.unwrap(), Vec::<String>::new());
        let kept: Vec<(i64,)> = sqlx::query_as("SELECT scheduled_id FROM cut_off")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(kept, [(2,)]);
    }
}
