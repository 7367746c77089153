//! The arena's database: the pool (SQLite in `DIR/arena.db`, through sqlx), its migrations
//! (embedded, in SQL PostgreSQL takes too), and the small helpers every query shares.

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{ConnectOptions, Connection, Executor};
use std::borrow::Cow;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// The database pool the arena uses: sqlx's `any` driver, so that one set of queries (with
/// `$1` placeholders, which both take) runs on SQLite and PostgreSQL alike.
pub type Pool = sqlx::AnyPool;
/// A transaction on it.
pub type Tx<'c> = sqlx::Transaction<'c, sqlx::Any>;

/// The migrations, embedded in the binary in their order.
const MIGRATIONS: [(i64, &str, &str); 6] = [
    (1, "arena", include_str!("../migrations/0001_arena.sql")),
    (
        2,
        "invitations",
        include_str!("../migrations/0002_invitations.sql"),
    ),
    (3, "casual", include_str!("../migrations/0003_casual.sql")),
    (4, "workers", include_str!("../migrations/0004_workers.sql")),
    (5, "names", include_str!("../migrations/0005_names.sql")),
    (6, "cut off", include_str!("../migrations/0006_cut_off.sql")),
];

/// The database's own failures.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A query failed.
    #[error("database")]
    Sql(#[from] sqlx::Error),
    /// The migrations failed.
    #[error("database migrations")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// `--database` names no database the arena runs on.
    #[error("--database takes a postgres:// address, not '{0}'")]
    Address(String),
}

/// Where the arena's data is: SQLite in its folder (the default), or a PostgreSQL database
/// shared by the server and its workers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// `DIR/arena.db`.
    Sqlite(std::path::PathBuf),
    /// A `postgres://` address.
    Postgres(String),
}

impl Database {
    /// The arena's database: `database` when given (a `postgres://` or `postgresql://`
    /// address), else SQLite in `dir`.
    pub fn new(dir: &Path, database: Option<&str>) -> Result<Self, StoreError> {
        match database {
            None => Ok(Self::Sqlite(dir.join("arena.db"))),
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Ok(Self::Postgres(url.to_string()))
            }
            Some(other) => Err(StoreError::Address(other.to_string())),
        }
    }
}

/// Opens (creating it if needed) the arena's SQLite database in `dir` and brings it up to
/// date.
pub async fn open(dir: &Path) -> Result<Pool, StoreError> {
    connect(&Database::Sqlite(dir.join("arena.db"))).await
}

/// Opens the arena's database and brings it up to date. SQLite: every commit is synced (WAL,
/// synchronous = FULL), so an acknowledged change survives `kill -9` and a power cut.
/// PostgreSQL commits are durable as the server is set up (by default, synced).
pub async fn connect(database: &Database) -> Result<Pool, StoreError> {
    sqlx::any::install_default_drivers();
    let pool = match database {
        Database::Sqlite(path) => {
            let sqlite = sqlx::sqlite::SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true);
            let options = AnyConnectOptions::from_str(sqlite.to_url_lossy().as_str())?;
            AnyPoolOptions::new()
                .max_connections(4)
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                             PRAGMA busy_timeout = 30000; PRAGMA foreign_keys = ON",
                        )
                        .await
                        .map(drop)
                    })
                })
                .connect_with(options)
                .await?
        }
        Database::Postgres(url) => {
            // One connection first, so that an address where no database answers is said at
            // once, in its own words: the pool would retry for its whole timeout, then say
            // only that it timed out.
            sqlx::AnyConnection::connect(url).await?.close().await?;
            AnyPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(30))
                .connect(url)
                .await?
        }
    };
    migrator().run(&pool).await?;
    Ok(pool)
}

fn migrator() -> Migrator {
    Migrator {
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
    }
}

/// Whether the pool is on PostgreSQL.
pub fn is_postgres(pool: &Pool) -> bool {
    pool.connect_options()
        .database_url
        .scheme()
        .starts_with("postgres")
}

/// Seconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The database's clock in milliseconds since 1970, as SQL: leases are given and checked by
/// the one clock every machine shares, whatever the workers' own clocks say.
pub fn now_ms_sql(pool: &Pool) -> &'static str {
    if is_postgres(pool) {
        "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
    } else {
        "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
    }
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

/// Whether `error` is a unique index refusing a row: a name taken by a writer at once.
pub fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
}

/// Begins a transaction that will write, taking the write lock at once, so that writers take
/// turns as SQLite makes them (and the ids each reads as the next are its own): on SQLite a
/// no-op update takes the database's lock (two writers wait for each other, busy timeout,
/// instead of one failing when it upgrades from reading); on PostgreSQL a transaction-scoped
/// advisory lock does the same. Claiming a game does not take it (see the scheduler).
pub async fn write(pool: &Pool) -> Result<Tx<'static>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let lock = if is_postgres(pool) {
        "SELECT pg_advisory_xact_lock(39) IS NULL"
    } else {
        "UPDATE ladders SET paused = paused WHERE 1 = 0"
    };
    sqlx::query(lock).execute(&mut *tx).await?;
    Ok(tx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An arena's database in `dir` as an older arena made it: SQLite's own driver, the first
    /// `migrations` migrations.
    async fn made_before(dir: &Path, migrations: usize) -> sqlx::SqlitePool {
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(dir.join("arena.db"))
            .create_if_missing(true);
        let old = sqlx::SqlitePool::connect_with(options).await.unwrap();
        let mut before = migrator();
        before.migrations = Cow::Owned(before.migrations[..migrations].to_vec());
        before.run(&old).await.unwrap();
        old
    }

    #[tokio::test]
    async fn an_arena_made_before_workers_opens_and_keeps_its_data() {
        let dir = tempfile::tempdir().unwrap();
        let old = made_before(dir.path(), 3).await;
        sqlx::query("INSERT INTO users (id, name, created_at) VALUES (1, 'alice', 0)")
            .execute(&old)
            .await
            .unwrap();
        sqlx::query("INSERT INTO ladders (name) VALUES ('l')")
            .execute(&old)
            .await
            .unwrap();
        old.close().await;

        for _ in 0..2 {
            let pool = open(dir.path()).await.unwrap();
            let (name,): (String,) = sqlx::query_as("SELECT name FROM users WHERE id = 1")
                .fetch_one(&pool)
                .await
                .unwrap();
            assert_eq!(name, "alice");
            let applied: Vec<(i64,)> =
                sqlx::query_as("SELECT version FROM _sqlx_migrations ORDER BY version")
                    .fetch_all(&pool)
                    .await
                    .unwrap();
            assert_eq!(applied, [(1,), (2,), (3,), (4,), (5,), (6,)]);
            // The new columns and tables are there.
            sqlx::query("UPDATE scheduled SET worker = 'w', lease_until = 0 WHERE 1 = 0")
                .execute(&pool)
                .await
                .unwrap();
            sqlx::query(
                "INSERT INTO toolchains (language, version) VALUES ('c', 'cc 1') \
                         ON CONFLICT (language) DO NOTHING",
            )
            .execute(&pool)
            .await
            .unwrap();
            pool.close().await;
        }
    }

    /// Names taken before names were told apart ignoring case are kept, the later ones as case
    /// twins; no new name is taken beside any of them.
    #[tokio::test]
    async fn names_taken_before_differing_only_in_case_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let old = made_before(dir.path(), 4).await;
        sqlx::query(
            "INSERT INTO users (id, name, created_at) VALUES (1, 'alice', 0), (2, 'Alice', 0), \
             (3, 'bob', 0); INSERT INTO ladders (name) VALUES ('l'), ('m'); \
             INSERT INTO bots (id, ladder, name, created_at) VALUES (1, 'l', 'Rocket', 0), \
             (2, 'l', 'rocket', 0), (3, 'm', 'rocket', 0)",
        )
        .execute(&old)
        .await
        .unwrap();
        old.close().await;

        let pool = open(dir.path()).await.unwrap();
        let users: Vec<(String, i64)> =
            sqlx::query_as("SELECT name, case_twin FROM users ORDER BY id")
                .fetch_all(&pool)
                .await
                .unwrap();
        let twins = |names: [&str; 3], flags: [i64; 3]| {
            names
                .into_iter()
                .map(String::from)
                .zip(flags)
                .collect::<Vec<_>>()
        };
        assert_eq!(users, twins(["alice", "Alice", "bob"], [0, 1, 0]));
        let bots: Vec<(String, i64)> =
            sqlx::query_as("SELECT name, case_twin FROM bots ORDER BY id")
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_eq!(bots, twins(["Rocket", "rocket", "rocket"], [0, 1, 0]));
        for taken in [
            "INSERT INTO users (id, name, created_at) VALUES (4, 'ALICE', 0)",
            "INSERT INTO users (id, name, created_at) VALUES (4, 'Bob', 0)",
            "INSERT INTO bots (id, ladder, name, created_at) VALUES (4, 'm', 'ROCKET', 0)",
        ] {
            let refused = sqlx::query(taken).execute(&pool).await.unwrap_err();
            assert!(is_unique_violation(&refused), "{taken}: {refused}");
        }
    }

    #[test]
    fn only_postgres_addresses_are_taken_besides_the_folder() {
        let dir = Path::new("/a");
        assert_eq!(
            Database::new(dir, None).unwrap(),
            Database::Sqlite("/a/arena.db".into())
        );
        assert_eq!(
            Database::new(dir, Some("postgres://h/db")).unwrap(),
            Database::Postgres("postgres://h/db".into())
        );
        let refused = Database::new(dir, Some("mysql://h/db")).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "--database takes a postgres:// address, not 'mysql://h/db'"
        );
    }
}
