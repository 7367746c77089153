//! The arena's database: the pool (SQLite in `DIR/arena.db`, through sqlx), its migrations
//! (embedded, in SQL PostgreSQL takes too), and the small helpers every query shares.

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use std::borrow::Cow;
use std::path::Path;
use std::time::Duration;

/// The database pool the arena uses.
pub type Pool = sqlx::SqlitePool;
/// A transaction on it.
pub type Tx<'c> = sqlx::Transaction<'c, sqlx::Sqlite>;

/// The migrations, embedded in the binary in their order.
const MIGRATIONS: [(i64, &str, &str); 3] = [
    (1, "arena", include_str!("../migrations/0001_arena.sql")),
    (
        2,
        "invitations",
        include_str!("../migrations/0002_invitations.sql"),
    ),
    (3, "casual", include_str!("../migrations/0003_casual.sql")),
];

/// The database's own failures.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A query failed.
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
    /// The migrations failed.
    #[error("database migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// Opens (creating it if needed) the arena's database in `dir` and brings it up to date.
/// Every commit is synced (WAL, synchronous = FULL): an acknowledged change survives `kill -9`
/// and a power cut.
pub async fn open(dir: &Path) -> Result<Pool, StoreError> {
    let options = SqliteConnectOptions::new()
        .filename(dir.join("arena.db"))
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(Duration::from_secs(30))
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(4)
        .connect_with(options)
        .await?;
    let migrator = Migrator {
        migrations: Cow::Owned(
            MIGRATIONS
                .iter()
                .map(|(version, name, sql)| {
                    Migration::new(
                        *version,
                        Cow::Borrowed(name),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect(),
        ),
        ignore_missing: false,
        locking: true,
        no_tx: false,
    };
    migrator.run(&pool).await?;
    Ok(pool)
}

/// Seconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The next id of `table` (whose key is `column`), read in the transaction that inserts it:
/// ids are the arena's own, the same in SQLite and PostgreSQL.
pub async fn next_id(tx: &mut Tx<'_>, table: &str, column: &str) -> Result<i64, sqlx::Error> {
    let (max,): (Option<i64>,) = sqlx::query_as(&format!("SELECT MAX({column}) FROM {table}"))
        .fetch_one(&mut **tx)
        .await?;
    Ok(max.unwrap_or(0) + 1)
}

/// Whether `name` may name a user, a bot or a ladder: 1 to 40 letters, digits, `-`, `_`, `.`,
/// not starting with a dot.
pub fn valid_name(name: &str) -> bool {
    (1..=40).contains(&name.len())
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Begins a transaction that will write, taking the write lock at once (a no-op update does),
/// so that two writers wait for each other (busy timeout) instead of one failing when it
/// upgrades from reading.
pub async fn write(pool: &Pool) -> Result<Tx<'static>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE ladders SET paused = paused WHERE 1 = 0")
        .execute(&mut *tx)
        .await?;
    Ok(tx)
}
