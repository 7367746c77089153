//! The ladders' games: bosses kept in place, pairs chosen ([`crate::ladder`]) into a queue of
//! scheduled games in the database, slots that each play one game at a time through the
//! core's [`Table`], and each result stored in one transaction with its dense game number
//! and the two ratings, after its record was written under `DIR/records`.
//!
//! Restart safety: a game is `playing` in the queue while it is played, leased to whoever
//! plays it (the server's slots or a worker, see [`crate::worker`]) until a time by the
//! database's clock, a lease renewed every third of its length while the game goes on. A game
//! whose lease ran out is taken again (by anyone), and so is one the server was playing when
//! it restarts. The transaction that stores a result deletes the game from the queue only
//! under its player's unexpired lease (and `games.scheduled_id` is unique), so no game is
//! counted twice and a late result is refused; the number it takes is the next one in the
//! same transaction, so the numbers have no hole.
//!
//! Claims: on PostgreSQL `SELECT ... FOR UPDATE SKIP LOCKED`, so that workers claiming at
//! once take different games without waiting on each other; on SQLite, under the write lock.

use crate::ladder::{self, Candidate, Rating, Standing};
use crate::live::LiveGame;
use crate::store::{self, Pool, Tx};
use crate::Shared;
use referee_core::table::{FinishedGame, GameError, Recorder, ScheduledGame, Table, Venue};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Puts the games the server's own slots were playing when it was cut off back in the queue,
/// with those of no player (from before leases; the people's games, which the server plays
/// without a lease, were dropped by [`crate::people::recover`] before).
pub async fn recover(pool: &Pool) -> Result<(), sqlx::Error> {
    requeue_cut_off(pool, crate::SERVER, true).await
}

/// Puts the games that the worker `player` was playing when it was cut off back in the queue:
/// its own only. A game of no player is the server's (a person's game being played there):
/// a worker starting must leave it be.
pub async fn recover_player(pool: &Pool, player: &str) -> Result<(), sqlx::Error> {
    requeue_cut_off(pool, player, false).await
}

/// Puts the games being played by `player` (and, with `unleased`, those of no player) back in
/// the queue.
async fn requeue_cut_off(pool: &Pool, player: &str, unleased: bool) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE scheduled SET state = 'scheduled', worker = NULL, lease_until = NULL \
         WHERE state = 'playing' AND (worker = $1 OR ($2 = 1 AND worker IS NULL))",
    )
    .bind(player)
    .bind(i64::from(unleased))
    .execute(pool)
    .await?;
    Ok(())
}

/// Puts the games whose lease ran out back in the queue; says which.
async fn requeue_expired(shared: &Shared) -> Result<(), sqlx::Error> {
    let now = store::now_ms_sql(&shared.pool);
    let mut tx = store::write(&shared.pool).await?;
    let expired: Vec<(i64, String)> = sqlx::query_as(&format!(
        "SELECT id, worker FROM scheduled WHERE state = 'playing' AND worker IS NOT NULL \
         AND lease_until < {now} ORDER BY id"
    ))
    .fetch_all(&mut *tx)
    .await?;
    for (id, worker) in &expired {
        sqlx::query(
            "UPDATE scheduled SET state = 'scheduled', worker = NULL, lease_until = NULL \
             WHERE id = $1",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        shared.say(&format!(
            "game {id}: the lease of {worker} ran out; it is queued again"
        ));
    }
    tx.commit().await
}

/// Keeps every ladder's queue topped up and requeues the games whose lease ran out, until the
/// arena stops: the server's part of the games, whoever plays them.
pub fn schedule(shared: &Shared) {
    loop {
        if let Err(error) = shared.block_on(requeue_expired(shared)) {
            shared.say(&format!("game queue: {error}"));
        }
        let mut scheduled = false;
        for ladder in &shared.arena.ladders {
            match shared.block_on(top_up(shared, &ladder.settings.name)) {
                Ok(pair) => scheduled |= pair,
                Err(error) => shared.say(&format!("matchmaking: {error}")),
            }
        }
        // Full queues: look again in a while (a game played, a version passed, a ladder resumed).
        if !scheduled {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Makes sure every ladder of the settings and its bosses are in the database.
pub async fn ensure_ladders(shared: &Shared) -> Result<(), sqlx::Error> {
    let mut tx = store::write(&shared.pool).await?;
    for ladder in &shared.arena.ladders {
        let name = &ladder.settings.name;
        sqlx::query(
            "INSERT INTO ladders (name, paused) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .execute(&mut *tx)
        .await?;
        for level in &ladder.settings.bosses {
            ensure_boss(&mut tx, name, level).await?;
        }
    }
    tx.commit().await
}

async fn ensure_boss(tx: &mut Tx<'_>, ladder: &str, level: &str) -> Result<(), sqlx::Error> {
    let name = format!("builtin-{level}");
    let command = format!("builtin:{level}");
    let boss = FixedBot {
        ladder,
        name: &name,
        owner: None,
        builtin: Some(level),
        state: "passed",
        command: &command,
    };
    ensure_fixed_bot(tx, &boss).await.map(drop)
}

/// A bot the arena makes itself, with one version that is never built: a boss, or a person's
/// seat on a ladder.
pub(crate) struct FixedBot<'a> {
    pub ladder: &'a str,
    pub name: &'a str,
    pub owner: Option<i64>,
    /// The built-in level of a boss.
    pub builtin: Option<&'a str>,
    /// Its version's state: `passed` for a boss, `person` for a person.
    pub state: &'a str,
    pub command: &'a str,
}

/// The active version of the bot `fixed` names on its ladder, made if it is not there yet.
pub(crate) async fn ensure_fixed_bot(
    tx: &mut Tx<'_>,
    fixed: &FixedBot<'_>,
) -> Result<i64, sqlx::Error> {
    let found: Option<(Option<i64>,)> =
        sqlx::query_as("SELECT active_version FROM bots WHERE ladder = $1 AND name = $2")
            .bind(fixed.ladder)
            .bind(fixed.name)
            .fetch_optional(&mut **tx)
            .await?;
    if let Some((Some(version),)) = found {
        return Ok(version);
    }
    let now = store::now();
    let bot = store::next_id(tx, "bots", "id").await?;
    let version = store::next_id(tx, "versions", "id").await?;
    // A person whose name differs from an earlier one's only in case (kept from before names
    // were told apart so) sits as a case twin too.
    sqlx::query(
        "INSERT INTO bots (id, ladder, name, owner_id, builtin, active_version, created_at, \
         case_twin) VALUES ($1, $2, $3, $4, $5, $6, $7, \
         COALESCE((SELECT case_twin FROM users WHERE id = $8), 0))",
    )
    .bind(bot)
    .bind(fixed.ladder)
    .bind(fixed.name)
    .bind(fixed.owner)
    .bind(fixed.builtin)
    .bind(version)
    .bind(now)
    .bind(fixed.owner)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO versions (id, bot_id, number, protocol, archive_hash, state, command, \
         build_log, created_at, updated_at) VALUES ($1, $2, 1, 'native', '', $3, $4, 'built in', $5, $6)",
    )
    .bind(version)
    .bind(bot)
    .bind(fixed.state)
    .bind(fixed.command)
    .bind(now)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(version)
}

/// Schedules a new version's placement games: each boss of its ladder, with both colours.
pub async fn schedule_placement(
    tx: &mut Tx<'_>,
    version: i64,
    bot: i64,
) -> Result<(), sqlx::Error> {
    let bosses: Vec<(String, i64)> = sqlx::query_as(
        "SELECT ladder, active_version FROM bots WHERE builtin IS NOT NULL AND retired = 0 \
         AND active_version IS NOT NULL AND ladder = (SELECT ladder FROM bots WHERE id = $1) \
         ORDER BY id",
    )
    .bind(bot)
    .fetch_all(&mut **tx)
    .await?;
    for (ladder, boss) in bosses {
        schedule_pair(tx, &ladder, version, boss, true).await?;
    }
    Ok(())
}

/// Schedules the two games of a pair, one with each colour.
async fn schedule_pair(
    tx: &mut Tx<'_>,
    ladder: &str,
    a: i64,
    b: i64,
    placement: bool,
) -> Result<(), sqlx::Error> {
    for (first, second) in [(a, b), (b, a)] {
        let game = Queued {
            placement,
            ..Queued::rated(ladder, first, second)
        };
        enqueue(tx, &game, "scheduled").await?;
    }
    Ok(())
}

/// A game to put in the queue.
pub(crate) struct Queued<'a> {
    pub(crate) ladder: &'a str,
    pub(crate) first: i64,
    pub(crate) second: i64,
    /// One of a new version's games against the bosses (played first).
    pub(crate) placement: bool,
    /// Whether it counts for the ratings.
    pub(crate) rated: bool,
    /// The user who asked for it (a friendly match), if anyone did.
    pub(crate) requested_by: Option<i64>,
}

impl<'a> Queued<'a> {
    /// A rated game of the ladder's own.
    pub(crate) fn rated(ladder: &'a str, first: i64, second: i64) -> Queued<'a> {
        Queued {
            ladder,
            first,
            second,
            placement: false,
            rated: true,
            requested_by: None,
        }
    }
}

/// The id of the queue's next game: never that of a game already stored (whose queue row is
/// gone), since it names the game's record files too.
pub(crate) async fn next_scheduled_id(tx: &mut Tx<'_>) -> Result<i64, sqlx::Error> {
    // A game cut off by a restart is in neither table but still has its page (and its void
    // invitation): its number, kept with it in `cut_off`, is not given to another game. (An
    // invitation being accepted names the number this returns before its game is queued.)
    let (max,): (Option<i64>,) = sqlx::query_as(
        "SELECT MAX(m) FROM (SELECT MAX(id) AS m FROM scheduled \
         UNION ALL SELECT MAX(scheduled_id) AS m FROM games \
         UNION ALL SELECT MAX(scheduled_id) AS m FROM cut_off) AS ids",
    )
    .fetch_one(&mut **tx)
    .await?;
    Ok(max.unwrap_or(0) + 1)
}

/// Puts `game` in the queue in `state` ('scheduled' to wait for a slot; 'playing' for a
/// person's game, played as it is asked for); its id.
pub(crate) async fn enqueue(
    tx: &mut Tx<'_>,
    game: &Queued<'_>,
    state: &str,
) -> Result<i64, sqlx::Error> {
    let id = next_scheduled_id(tx).await?;
    sqlx::query(
        "INSERT INTO scheduled (id, ladder, first_version, second_version, placement, rated, \
         requested_by, state, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(id)
    .bind(game.ladder)
    .bind(game.first)
    .bind(game.second)
    .bind(i64::from(game.placement))
    .bind(i64::from(game.rated))
    .bind(game.requested_by)
    .bind(state)
    .bind(store::now())
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// A candidate as read: version, bot, boss, mu, sigma, games.
type CandidateRow = (i64, i64, i64, Option<f64>, Option<f64>, Option<i64>);

/// Tops up the queue of `ladder` to the settings' number of waiting games with pairs chosen
/// by [`ladder::choose_pair`]; whether it scheduled a pair.
async fn top_up(shared: &Shared, ladder: &str) -> Result<bool, sqlx::Error> {
    let mut tx = store::write(&shared.pool).await?;
    let (waiting,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM scheduled WHERE ladder = $1 AND rated = 1")
            .bind(ladder)
            .fetch_one(&mut *tx)
            .await?;
    let matchmaking = &shared.arena.settings.matchmaking;
    if waiting >= i64::from(matchmaking.scheduled) {
        return Ok(false);
    }
    let rows: Vec<CandidateRow> = sqlx::query_as(
        "SELECT bots.active_version, bots.id, CASE WHEN bots.builtin IS NULL THEN 0 ELSE 1 END, ratings.mu, ratings.sigma, \
         ratings.games FROM bots JOIN versions ON versions.id = bots.active_version \
         LEFT JOIN ratings ON ratings.version_id = bots.active_version \
         WHERE bots.ladder = $1 AND bots.retired = 0 AND versions.state = 'passed' ORDER BY bots.id",
    )
    .bind(ladder)
    .fetch_all(&mut *tx)
    .await?;
    let candidates: Vec<Candidate> = rows
        .into_iter()
        .map(|(version, bot, boss, mu, sigma, games)| Candidate {
            version,
            bot,
            boss: boss != 0,
            standing: Standing {
                rating: match (mu, sigma) {
                    (Some(mu), Some(sigma)) => Rating { mu, sigma },
                    _ => Rating::INITIAL,
                },
                games: games.unwrap_or(0) as u32,
                ..Standing::default()
            },
        })
        .collect();
    let last: Option<(i64, i64)> = sqlx::query_as(
        "SELECT first_version, second_version FROM scheduled WHERE ladder = $1 AND placement = 0 \
         AND rated = 1 ORDER BY id DESC LIMIT 1",
    )
    .bind(ladder)
    .fetch_optional(&mut *tx)
    .await?;
    let last = match last {
        Some(pair) => Some(pair),
        None => sqlx::query_as(
            "SELECT first_version, second_version FROM games WHERE ladder = $1 AND placement = 0 \
                 AND rated = 1 ORDER BY number DESC LIMIT 1",
        )
        .bind(ladder)
        .fetch_optional(&mut *tx)
        .await?,
    };
    let pair = ladder::choose_pair(&candidates, last, matchmaking.window, matchmaking.widen);
    if let Some((a, b)) = pair {
        schedule_pair(&mut tx, ladder, a, b, false).await?;
    }
    tx.commit().await?;
    Ok(pair.is_some())
}

/// The time the queue's coordination takes a player (claims, lease renewals, commits),
/// which it reports every [`Costs::EVERY`] games it stores.
#[derive(Default)]
pub struct Costs {
    totals: std::sync::Mutex<Totals>,
}

#[derive(Default)]
struct Totals {
    games: u32,
    claiming: Duration,
    renewing: Duration,
    committing: Duration,
}

impl Costs {
    /// Games between two reports.
    pub const EVERY: u32 = 100;

    fn add(&self, change: impl FnOnce(&mut Totals)) -> Option<String> {
        let mut totals = self
            .totals
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        change(&mut totals);
        if totals.games == 0 || totals.games % Self::EVERY != 0 {
            return None;
        }
        let ms = |d: Duration| d.as_secs_f64() * 1000.0 / f64::from(totals.games);
        let all = totals.claiming + totals.renewing + totals.committing;
        Some(format!(
            "{} games stored; coordination {:.2} ms a game (claim {:.2}, renew {:.2}, commit {:.2})",
            totals.games,
            ms(all),
            ms(totals.claiming),
            ms(totals.renewing),
            ms(totals.committing)
        ))
    }
}

/// A game taken from the queue.
pub(crate) struct Claimed {
    pub id: i64,
    pub ladder: String,
    pub first_version: i64,
    pub second_version: i64,
    pub placement: i64,
    pub rated: bool,
}

// Read by hand: `rated` is an INTEGER 0/1 in both databases, which the `any` driver does not
// decode as a bool.
impl sqlx::FromRow<'_, sqlx::any::AnyRow> for Claimed {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            id: row.try_get("id")?,
            ladder: row.try_get("ladder")?,
            first_version: row.try_get("first_version")?,
            second_version: row.try_get("second_version")?,
            placement: row.try_get("placement")?,
            rated: row.try_get::<i64, _>("rated")? != 0,
        })
    }
}

/// The next game to play (placements first; a game whose lease ran out too), leased to
/// `player` for `lease`; never a game with a person in it (the server plays those, as they are
/// asked for, and a person's seat played by a slot would be absent: a loss, rated), nor one of
/// a bot built with a language in `excluded`.
pub(crate) async fn claim(
    pool: &Pool,
    player: &str,
    lease: Duration,
    excluded: &[String],
) -> Result<Option<Claimed>, sqlx::Error> {
    let postgres = store::is_postgres(pool);
    let now = store::now_ms_sql(pool);
    let list: Vec<String> = (1..=excluded.len()).map(|i| format!("${i}")).collect();
    let languages = if excluded.is_empty() {
        String::new()
    } else {
        format!(" OR versions.language IN ({})", list.join(", "))
    };
    let mut sql = format!(
        "SELECT scheduled.id, scheduled.ladder, first_version, second_version, placement, \
         scheduled.rated FROM scheduled JOIN ladders ON ladders.name = scheduled.ladder \
         WHERE ladders.paused = 0 AND (state = 'scheduled' \
         OR (state = 'playing' AND worker IS NOT NULL AND lease_until < {now})) \
         AND NOT EXISTS (SELECT 1 FROM versions WHERE versions.id IN \
         (first_version, second_version) AND (versions.state = 'person'{languages})) \
         ORDER BY placement DESC, scheduled.id LIMIT 1"
    );
    let mut tx = if postgres {
        sql.push_str(" FOR UPDATE OF scheduled SKIP LOCKED");
        pool.begin().await?
    } else {
        store::write(pool).await?
    };
    let mut query = sqlx::query_as(&sql);
    for language in excluded {
        query = query.bind(language);
    }
    let game: Option<Claimed> = query.fetch_optional(&mut *tx).await?;
    if let Some(game) = &game {
        sqlx::query(&format!(
            "UPDATE scheduled SET state = 'playing', worker = $1, lease_until = {now} + $2 \
             WHERE id = $3"
        ))
        .bind(player)
        .bind(lease.as_millis() as i64)
        .bind(game.id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(game)
}

/// Renews the lease of game `id` every third of its length until aborted; says so once when
/// the lease is lost (ran out, or the game was taken by another), and stops.
pub(crate) async fn renew(shared: Arc<Shared>, id: i64) {
    let lease = shared.arena.settings.workers.lease();
    let now = store::now_ms_sql(&shared.pool);
    loop {
        tokio::time::sleep(lease / 3).await;
        let started = std::time::Instant::now();
        let renewed = sqlx::query(&format!(
            "UPDATE scheduled SET lease_until = {now} + $1 WHERE id = $2 AND worker = $3 \
             AND state = 'playing' AND lease_until >= {now}"
        ))
        .bind(lease.as_millis() as i64)
        .bind(id)
        .bind(&shared.player)
        .execute(&shared.pool)
        .await;
        let took = started.elapsed();
        shared.costs.add(|totals| totals.renewing += took);
        match renewed {
            Ok(done) if done.rows_affected() == 1 => {}
            Ok(_) => {
                shared.say(&format!(
                    "game {id}: the lease of {} was lost; its result will not count",
                    shared.player
                ));
                return;
            }
            // The database unreachable for a while: try again, the lease may still hold.
            Err(error) => shared.say(&format!("game {id}: lease not renewed: {error}")),
        }
    }
}

/// Bytes free for the arena's files in `dir`.
fn free_bytes(dir: &Path) -> Option<u64> {
    let stat = nix::sys::statvfs::statvfs(dir).ok()?;
    Some(stat.blocks_available() as u64 * stat.fragment_size() as u64)
}

/// One slot: plays games from the queue, one at a time, until the arena stops; a table for
/// each ladder, whose live file shows the game being played. The game's lease is renewed
/// while it is played.
pub fn slot(shared: &Arc<Shared>) {
    let mut tables: BTreeMap<String, Table> = BTreeMap::new();
    loop {
        let min_free = shared
            .arena
            .settings
            .limits
            .min_free_mb
            .saturating_mul(1 << 20);
        if free_bytes(&shared.dir).is_some_and(|free| free < min_free) {
            shared.set_status(Some(format!(
                "the disk holding {} has less than {} MiB free: no new game starts until there is",
                shared.dir.display(),
                min_free >> 20
            )));
            std::thread::sleep(Duration::from_secs(5));
            continue;
        }
        let excluded = crate::worker::excluded(shared);
        let started = std::time::Instant::now();
        let lease = shared.arena.settings.workers.lease();
        let claimed = match shared.block_on(claim(&shared.pool, &shared.player, lease, &excluded)) {
            Ok(Some(game)) => {
                let took = started.elapsed();
                shared.costs.add(|totals| totals.claiming += took);
                game
            }
            Ok(None) => {
                // Nothing to play: look again in a while (a game scheduled, a ladder resumed).
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
            Err(error) => {
                shared.say(&format!("game queue: {error}"));
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
        };
        let renewal = shared.runtime.spawn(renew(Arc::clone(shared), claimed.id));
        let table = tables
            .entry(claimed.ladder.clone())
            .or_insert_with(|| Table::new(&shared.host.supervisor));
        let records = shared.dir.join("records").join(&claimed.ladder);
        shared.playing.begin(LiveGame {
            id: claimed.id,
            ladder: claimed.ladder.clone(),
            file: table.live_file(&records).to_path_buf(),
        });
        let played = play(shared, &claimed, table, records);
        renewal.abort();
        shared.playing.end(claimed.id);
        if let Err(error) = played {
            shared.say(&format!("game {} not stored: {error}", claimed.id));
            // Played again later (a game that failed on the arena's side counts nowhere).
            let _ = shared.block_on(requeue(shared, claimed.id));
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

/// What a slot's game failed of, on the arena's side.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PlayError {
    #[error(transparent)]
    Store(#[from] sqlx::Error),
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Build(#[from] crate::worker::BuildError),
}

fn play(
    shared: &Shared,
    claimed: &Claimed,
    table: &mut Table,
    records: PathBuf,
) -> Result<(), PlayError> {
    let Some(ladder) = shared.arena.ladder(&claimed.ladder) else {
        return Ok(());
    };
    let mut players = Vec::new();
    for version in [claimed.first_version, claimed.second_version] {
        let (name, command, protocol) = crate::worker::command(shared, version)?;
        let player =
            command.and_then(|command| crate::versions::player(ladder, &name, &command, &protocol));
        let Some(player) = player else {
            shared.block_on(drop_scheduled(&shared.pool, claimed.id))?;
            return Ok(());
        };
        players.push(player);
    }
    let venue = Venue {
        settings: ladder.table.clone(),
        referee_exe: shared.host.referee_exe.clone(),
        records: Some(Recorder::Files(records)),
    };
    let game = ScheduledGame {
        number: claimed.id as u32,
        seats: [0, 1],
        opening: Vec::new(),
    };
    match table.play(&venue, &players, &game, |_| {}) {
        Ok(finished) => {
            shared.set_status(None);
            shared.block_on(store_result(shared, claimed, &finished))?;
            Ok(())
        }
        Err(GameError::Record(error)) => {
            shared.set_status(Some(format!(
                "cannot write game records under {}: {error}; games wait until it can",
                shared.dir.display()
            )));
            shared.block_on(requeue(shared, claimed.id))?;
            std::thread::sleep(Duration::from_secs(5));
            Ok(())
        }
        Err(error) => {
            shared.block_on(drop_scheduled(&shared.pool, claimed.id))?;
            Err(error.into())
        }
    }
}

/// Gives game `id` back to the queue, if `shared`'s player still holds it.
async fn requeue(shared: &Shared, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE scheduled SET state = 'scheduled', worker = NULL, lease_until = NULL \
         WHERE id = $1 AND state = 'playing' AND worker = $2",
    )
    .bind(id)
    .bind(&shared.player)
    .execute(&shared.pool)
    .await?;
    Ok(())
}

pub(crate) async fn drop_scheduled(pool: &Pool, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM scheduled WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Stores a finished game: its number, the game with its player, its record, the queue row
/// gone and both ratings, in one transaction; none of it if the game is no longer in the
/// queue or its lease is no longer `shared`'s player's (a late result: refused, and said).
pub(crate) async fn store_result(
    shared: &Shared,
    claimed: &Claimed,
    finished: &FinishedGame,
) -> Result<(), sqlx::Error> {
    let record = &finished.played.record;
    let path = finished
        .files()
        .map(|files| {
            files
                .record
                .strip_prefix(&shared.dir)
                .unwrap_or(&files.record)
                .to_path_buf()
        })
        .unwrap_or_default();
    let text = finished
        .files()
        .and_then(|files| std::fs::read_to_string(&files.record).ok())
        .unwrap_or_default();
    let now = store::now_ms_sql(&shared.pool);
    let started = std::time::Instant::now();
    let mut tx = store::write(&shared.pool).await?;
    let deleted = sqlx::query(&format!(
        "DELETE FROM scheduled WHERE id = $1 AND state = 'playing' \
         AND (worker IS NULL OR (worker = $2 AND lease_until >= {now}))"
    ))
    .bind(claimed.id)
    .bind(&shared.player)
    .execute(&mut *tx)
    .await?;
    if deleted.rows_affected() != 1 {
        shared.say(&format!(
            "game {}: a late result of {} refused (its lease ran out; the game is played again)",
            claimed.id, shared.player
        ));
        return Ok(());
    }
    let number = store::next_id(&mut tx, "games", "number").await?;
    let winner = record.result.winner.map(|side| side.index() as i64);
    sqlx::query(
        "INSERT INTO games (number, scheduled_id, ladder, first_version, second_version, winner, \
         reason, detail, moves, placement, rated, record, finished_at, worker) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(number)
    .bind(claimed.id)
    .bind(&claimed.ladder)
    .bind(claimed.first_version)
    .bind(claimed.second_version)
    .bind(winner)
    .bind(record.result.reason.to_string())
    .bind(&record.result.detail)
    .bind(record.moves.len() as i64)
    .bind(claimed.placement)
    .bind(i64::from(claimed.rated))
    .bind(path.to_string_lossy().into_owned())
    .bind(store::now())
    .bind(&shared.player)
    .execute(&mut *tx)
    .await?;
    sqlx::query("INSERT INTO game_records (number, record) VALUES ($1, $2)")
        .bind(number)
        .bind(text)
        .execute(&mut *tx)
        .await?;
    if claimed.rated {
        rate_game(&mut tx, claimed, winner).await?;
    }
    tx.commit().await?;
    let took = started.elapsed();
    let report = shared.costs.add(|totals| {
        totals.committing += took;
        totals.games += 1;
    });
    if let Some(report) = report {
        shared.say(&format!("{}: {report}", shared.player));
    }
    Ok(())
}

/// Brings the two versions' stored ratings up to date with one more game.
async fn rate_game(
    tx: &mut Tx<'_>,
    claimed: &Claimed,
    winner: Option<i64>,
) -> Result<(), sqlx::Error> {
    let mut standings = BTreeMap::new();
    for version in [claimed.first_version, claimed.second_version] {
        if let Some(standing) = standing_of(tx, version).await? {
            standings.insert(version, standing);
        }
    }
    ladder::apply(
        &mut standings,
        ladder::Result {
            first: claimed.first_version,
            second: claimed.second_version,
            winner: winner.map(|w| w as u8),
        },
    );
    for (version, standing) in standings {
        save_standing(tx, version, &standing).await?;
    }
    Ok(())
}

async fn standing_of(tx: &mut Tx<'_>, version: i64) -> Result<Option<Standing>, sqlx::Error> {
    let row: Option<(f64, f64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT mu, sigma, games, wins, draws, losses FROM ratings WHERE version_id = $1",
    )
    .bind(version)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|(mu, sigma, games, wins, draws, losses)| Standing {
        rating: Rating { mu, sigma },
        games: games as u32,
        wins: wins as u32,
        draws: draws as u32,
        losses: losses as u32,
    }))
}

async fn save_standing(tx: &mut Tx<'_>, version: i64, s: &Standing) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO ratings (version_id, mu, sigma, games, wins, draws, losses) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (version_id) DO UPDATE SET mu = excluded.mu, \
         sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, \
         draws = excluded.draws, losses = excluded.losses",
    )
    .bind(version)
    .bind(s.rating.mu)
    .bind(s.rating.sigma)
    .bind(i64::from(s.games))
    .bind(i64::from(s.wins))
    .bind(i64::from(s.draws))
    .bind(i64::from(s.losses))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The rated games' results, in their numbers' order: what the ratings are a function of.
async fn rated_results<'e, E>(executor: E) -> Result<Vec<ladder::Result>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let games: Vec<(i64, i64, Option<i64>)> = sqlx::query_as(
        "SELECT first_version, second_version, winner FROM games WHERE rated = 1 ORDER BY number",
    )
    .fetch_all(executor)
    .await?;
    Ok(games
        .into_iter()
        .map(|(first, second, winner)| ladder::Result {
            first,
            second,
            winner: winner.map(|w| w as u8),
        })
        .collect())
}

/// Every version's standing recomputed from the stored games, in their numbers' order.
pub async fn recomputed(pool: &Pool) -> Result<BTreeMap<i64, Standing>, sqlx::Error> {
    Ok(ladder::recompute(rated_results(pool).await?))
}

/// Every version's standing as stored.
pub async fn stored(pool: &Pool) -> Result<BTreeMap<i64, Standing>, sqlx::Error> {
    stored_in(&mut pool.begin().await?).await
}

async fn stored_in(tx: &mut Tx<'_>) -> Result<BTreeMap<i64, Standing>, sqlx::Error> {
    let versions: Vec<(i64,)> = sqlx::query_as("SELECT version_id FROM ratings")
        .fetch_all(&mut **tx)
        .await?;
    let mut all = BTreeMap::new();
    for (version,) in versions {
        if let Some(standing) = standing_of(tx, version).await? {
            all.insert(version, standing);
        }
    }
    Ok(all)
}

/// Re-rates: replaces the stored ratings by those recomputed from the games; how many versions
/// are rated, and whether any stored rating differed (read in the same transaction, so that a
/// game stored meanwhile cannot make them seem to).
pub async fn rerate(pool: &Pool) -> Result<(usize, bool), sqlx::Error> {
    let mut tx = store::write(pool).await?;
    let all = ladder::recompute(rated_results(&mut *tx).await?);
    let changed = stored_in(&mut tx).await? != all;
    sqlx::query("DELETE FROM ratings").execute(&mut *tx).await?;
    for (version, standing) in &all {
        save_standing(&mut tx, *version, standing).await?;
    }
    tx.commit().await?;
    Ok((all.len(), changed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new database with a ladder `l` whose bosses are random (bot and version 1) and
    /// greedy (2), in a transaction still open.
    async fn ladder_with_bosses(dir: &std::path::Path) -> (Pool, Tx<'static>) {
        let pool = store::open(dir).await.unwrap();
        let mut tx = store::write(&pool).await.unwrap();
        sqlx::query("INSERT INTO ladders (name) VALUES ('l')")
            .execute(&mut *tx)
            .await
            .unwrap();
        ensure_boss(&mut tx, "l", "random").await.unwrap();
        ensure_boss(&mut tx, "l", "greedy").await.unwrap();
        (pool, tx)
    }

    /// [`ladder_with_bosses`], with the user ann (1) and her seat on the ladder (its version).
    async fn ladder_with_a_person(dir: &std::path::Path) -> (Pool, Tx<'static>, i64) {
        let (pool, mut tx) = ladder_with_bosses(dir).await;
        sqlx::query("INSERT INTO users (id, name, created_at) VALUES (1, 'ann', 0)")
            .execute(&mut *tx)
            .await
            .unwrap();
        let ann = crate::accounts::User {
            id: 1,
            name: "ann".into(),
            is_admin: false,
        };
        let person = crate::people::person_version(&mut tx, "l", &ann)
            .await
            .unwrap();
        (pool, tx, person)
    }

    #[tokio::test]
    async fn work_cut_off_by_a_crash_is_taken_up_again() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, mut tx) = ladder_with_bosses(dir.path()).await;
        ensure_boss(&mut tx, "l", "random").await.unwrap();
        sqlx::query(
            "INSERT INTO versions (id, bot_id, number, protocol, archive_hash, state, created_at, \
             updated_at) VALUES (3, 1, 2, 'native', '', 'building', 0, 0)",
        )
        .execute(&mut *tx)
        .await
        .unwrap();
        schedule_pair(&mut tx, "l", 1, 2, false).await.unwrap();
        sqlx::query("UPDATE scheduled SET state = 'playing' WHERE id = 1")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        crate::versions::recover(&pool).await.unwrap();
        recover(&pool).await.unwrap();
        let states: Vec<(String,)> = sqlx::query_as("SELECT state FROM scheduled ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(states, [("scheduled".into(),), ("scheduled".into(),)]);
        let (state,): (String,) = sqlx::query_as("SELECT state FROM versions WHERE id = 3")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(state, "queued");
        let (bosses,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM bots")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(bosses, 2, "a boss is made once");
    }

    /// A worker starting takes up again the games it was playing when it was cut off, and
    /// none other: not the server's, nor a person's game the server is playing (which has no
    /// lease). It took the person's game, played it with the person's seat absent (a loss,
    /// rated) and the person's real result was then refused as late.
    #[tokio::test]
    async fn a_worker_starting_leaves_a_persons_game_being_played_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, mut tx, person) = ladder_with_a_person(dir.path()).await;
        let persons = enqueue(&mut tx, &Queued::rated("l", person, 1), "playing")
            .await
            .unwrap();
        let mut held = Vec::new();
        for holder in ["w1", crate::SERVER] {
            let id = enqueue(&mut tx, &Queued::rated("l", 1, 2), "playing")
                .await
                .unwrap();
            sqlx::query("UPDATE scheduled SET worker = $1, lease_until = 1 WHERE id = $2")
                .bind(holder)
                .bind(id)
                .execute(&mut *tx)
                .await
                .unwrap();
            held.push(id);
        }
        tx.commit().await.unwrap();

        recover_player(&pool, "w1").await.unwrap();
        let states: Vec<(i64, String)> =
            sqlx::query_as("SELECT id, state FROM scheduled ORDER BY id")
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_eq!(
            states,
            [
                (persons, "playing".to_string()),
                (held[0], "scheduled".to_string()),
                (held[1], "playing".to_string()),
            ]
        );
    }

    /// A worker (or a slot of the server) never takes a game with a person in it, whatever
    /// state the queue shows it in: queued again (as a worker starting once did to it), or
    /// leased to a worker whose lease ran out.
    #[tokio::test]
    async fn a_game_with_a_person_is_never_claimed() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, mut tx, person) = ladder_with_a_person(dir.path()).await;
        enqueue(&mut tx, &Queued::rated("l", person, 1), "scheduled")
            .await
            .unwrap();
        let leased = enqueue(&mut tx, &Queued::rated("l", 2, person), "playing")
            .await
            .unwrap();
        sqlx::query("UPDATE scheduled SET worker = 'w1', lease_until = 1 WHERE id = $1")
            .bind(leased)
            .execute(&mut *tx)
            .await
            .unwrap();
        let bots = enqueue(&mut tx, &Queued::rated("l", 1, 2), "scheduled")
            .await
            .unwrap();
        tx.commit().await.unwrap();

        let lease = Duration::from_secs(30);
        let claimed = claim(&pool, "w2", lease, &[]).await.unwrap();
        assert_eq!(claimed.map(|game| game.id), Some(bots));
        let python = ["python".to_string()];
        assert!(claim(&pool, "w2", lease, &python).await.unwrap().is_none());
        assert!(claim(&pool, "w2", lease, &[]).await.unwrap().is_none());
    }

    /// Casual games and friendlies are stored with the others but rate nobody: recomputing
    /// the ratings from the stored games gives what the rated games alone give.
    #[tokio::test]
    async fn unrated_games_are_stored_but_never_rated() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, mut tx) = ladder_with_bosses(dir.path()).await;
        // Version 1 beats version 2 once rated, and loses to it three times unrated.
        for (number, winner, rated) in [(1, 0, 1), (2, 1, 0), (3, 1, 0), (4, 1, 0)] {
            sqlx::query(
                "INSERT INTO games (number, scheduled_id, ladder, first_version, second_version, \
                 winner, reason, detail, moves, rated, record, finished_at) \
                 VALUES ($1, $2, 'l', 1, 2, $3, 'win', '', 5, $4, '', 0)",
            )
            .bind(number)
            .bind(number)
            .bind(winner)
            .bind(rated)
            .execute(&mut *tx)
            .await
            .unwrap();
        }
        tx.commit().await.unwrap();
        let rated_only = ladder::recompute([ladder::Result {
            first: 1,
            second: 2,
            winner: Some(0),
        }]);
        assert_eq!(recomputed(&pool).await.unwrap(), rated_only);
        rerate(&pool).await.unwrap();
        let stored = stored(&pool).await.unwrap();
        assert_eq!(stored, rated_only);
        assert_eq!((stored[&1].wins, stored[&1].losses), (1, 0));
    }
}
