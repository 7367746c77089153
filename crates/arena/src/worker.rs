//! `referee arena worker`: the arena's games played on any machine that reaches its
//! PostgreSQL database, and nothing else: a worker needs no route to the server. It reads the
//! arena's settings from the database (as the server last published them), claims games from
//! the queue under a lease ([`crate::scheduler::claim`], `FOR UPDATE SKIP LOCKED`), renews the
//! lease while it plays, and stores the result, the record and its own name in one transaction
//! that checks the lease. A bot's sources come from the database and are built here, in the
//! arena's boxes, cached by the sources' hash and the toolchain's version; a worker whose
//! toolchain for a language differs from the one the arena built that language's bots with
//! does not take their games, and says so.

use crate::archive::{self, ArchiveError, Bounds};
use crate::scheduler::PlayError;
use crate::settings::{Arena, Settings, SettingsError};
use crate::store::{self, Database};
use crate::{io_error, ArenaError, Shared};
use referee_cage::build::compile;
use referee_cage::build::toolchain::toolchain;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How `referee arena worker` runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// The arena's database (PostgreSQL).
    pub database: String,
    /// Games played at once.
    pub slots: usize,
    /// Its name in the queue and on the games it stores; unique among the arena's workers.
    pub name: String,
    /// Where it keeps the sources, builds and records of the games it plays.
    pub cache: PathBuf,
}

/// What a worker keeps besides what the server has: the languages it said it does not take.
#[derive(Default)]
pub struct Local {
    said: Mutex<BTreeSet<(String, String)>>,
}

/// Why a worker cannot play a version.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A query.
    #[error("database")]
    Sql(#[from] sqlx::Error),
    /// The sources are not in the database (uploaded before workers were).
    #[error("the sources of version {0} are not in the database")]
    NoSources(i64),
    /// The stored archive does not unpack.
    #[error("the sources of version {version} do not unpack")]
    Archive {
        /// The version.
        version: i64,
        /// Why.
        #[source]
        source: ArchiveError,
    },
    /// The build machinery.
    #[error("building version {version}")]
    Machinery {
        /// The version.
        version: i64,
        /// Why.
        #[source]
        source: compile::BuildError,
    },
    /// The version does not build here (it did on the server).
    #[error("version {version} does not build here: {log}")]
    Failed {
        /// The version.
        version: i64,
        /// The build's first line.
        log: String,
    },
    /// The worker's disk.
    #[error("the worker's cache")]
    Io(#[from] std::io::Error),
}

/// A version's bot name, the command it plays with here, and its protocol: as stored on the
/// server; on a worker, a bot that is not built in is built here from its stored sources.
pub(crate) fn command(
    shared: &Shared,
    version: i64,
) -> Result<(String, Option<String>, String), PlayError> {
    type Row = (String, Option<String>, String, Option<String>, String);
    let (name, command, protocol, language, hash): Row = shared.block_on(
        sqlx::query_as(
            "SELECT bots.name, versions.command, versions.protocol, versions.language, \
             versions.archive_hash FROM versions JOIN bots ON bots.id = versions.bot_id \
             WHERE versions.id = $1",
        )
        .bind(version)
        .fetch_one(&shared.pool),
    )?;
    let built_in = command
        .as_deref()
        .is_some_and(|c| c.starts_with("builtin:"));
    let (Some(_), Some(language), false) = (&shared.worker, language, built_in) else {
        return Ok((name, command, protocol));
    };
    let command = build_here(shared, version, &language, &hash)?;
    Ok((name, Some(command), protocol))
}

/// Builds `version` (sources `hash`, in `language`) in this worker's cache; its command.
fn build_here(
    shared: &Shared,
    version: i64,
    language: &str,
    hash: &str,
) -> Result<String, BuildError> {
    let dir = shared.dir.join("sources").join(hash);
    if !dir.is_dir() {
        let row: Option<(Vec<u8>,)> = shared.block_on(
            sqlx::query_as("SELECT archive FROM sources WHERE hash = $1")
                .bind(hash)
                .fetch_optional(&shared.pool),
        )?;
        let (bytes,) = row.ok_or(BuildError::NoSources(version))?;
        unpack_into(shared, &bytes, &dir)
            .map_err(|source| BuildError::Archive { version, source })?;
    }
    let profiles = &shared.arena.profiles;
    let Some((_, profile)) = profiles.iter().find(|(name, _)| name == language) else {
        return Err(BuildError::Failed {
            version,
            log: format!("no language is named '{language}'"),
        });
    };
    match compile::build(
        &dir,
        language,
        profile,
        &shared.arena.build,
        &shared.host.supervisor,
    )
    .map_err(|source| BuildError::Machinery { version, source })?
    {
        Ok(built) => Ok(built.command),
        Err(failed) => Err(BuildError::Failed {
            version,
            log: failed.to_string().lines().next().unwrap_or("").to_string(),
        }),
    }
}

/// Unpacks stored sources into `dir` (through a folder beside it, so that a half-unpacked
/// one is never taken for whole).
fn unpack_into(shared: &Shared, bytes: &[u8], dir: &Path) -> Result<(), ArchiveError> {
    let io = |e: std::io::Error| ArchiveError::Io(e.to_string());
    let parent = dir.parent().unwrap_or(dir);
    std::fs::create_dir_all(parent).map_err(io)?;
    let staging = tempfile::tempdir_in(parent).map_err(io)?;
    let limits = &shared.arena.settings.limits;
    let bounds = Bounds {
        unpacked_bytes: limits.unpacked_bytes,
        files: limits.files,
    };
    archive::unpack(bytes, staging.path(), bounds)?;
    std::fs::rename(staging.keep(), dir).map_err(io)
}

/// The languages whose bots this worker does not play: those the arena built with another
/// toolchain than this machine has (said once for each). None on the server.
pub(crate) fn excluded(shared: &Shared) -> Vec<String> {
    let Some(local) = &shared.worker else {
        return Vec::new();
    };
    let published: Vec<(String, String)> = match shared.block_on(
        sqlx::query_as("SELECT language, version FROM toolchains ORDER BY language")
            .fetch_all(&shared.pool),
    ) {
        Ok(rows) => rows,
        Err(error) => {
            shared.say(&format!("toolchains: {error}"));
            return Vec::new();
        }
    };
    let mut excluded = Vec::new();
    for (language, version) in published {
        let Some((_, profile)) = shared.arena.profiles.iter().find(|(n, _)| *n == language) else {
            continue;
        };
        let here = toolchain(
            &language,
            profile,
            &shared.arena.build,
            &shared.host.supervisor,
        )
        .map_or_else(|error| format!("(not available: {error})"), |t| t.version);
        if here == version {
            continue;
        }
        let mut said = local
            .said
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if said.insert((language.clone(), version.clone())) {
            shared.say(&format!(
                "not taking the games of {language} bots: the arena builds them with \
                 '{version}', this machine has '{here}'"
            ));
        }
        excluded.push(language);
    }
    excluded
}

/// The arena's settings as the server published them in the database.
async fn published_settings(pool: &store::Pool) -> Result<Option<String>, sqlx::Error> {
    let row: Option<(String,)> = sqlx::query_as("SELECT text FROM arena_settings WHERE id = 1")
        .fetch_optional(pool)
        .await?;
    Ok(row.map(|(text,)| text))
}

/// Publishes the settings the server runs with, for the workers.
pub(crate) async fn publish_settings(pool: &store::Pool, text: &str) -> Result<(), sqlx::Error> {
    let mut tx = store::write(pool).await?;
    sqlx::query(
        "INSERT INTO arena_settings (id, text) VALUES (1, $1) \
         ON CONFLICT (id) DO UPDATE SET text = excluded.text",
    )
    .bind(text)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Stores the sources of the versions uploaded before the database kept them (packed again
/// from their folder under `DIR/sources`), so that workers can build those bots too.
pub(crate) async fn store_missing_sources(shared: &Shared) -> Result<(), ArenaError> {
    let missing: Vec<(i64, String)> = sqlx::query_as(
        "SELECT id, archive_hash FROM versions WHERE archive_hash <> '' \
         AND archive_hash NOT IN (SELECT hash FROM sources) ORDER BY id",
    )
    .fetch_all(&shared.pool)
    .await?;
    for (version, hash) in missing {
        let dir = crate::versions::sources_of(&shared.dir, version);
        if !dir.is_dir() {
            continue;
        }
        let bytes =
            archive::pack(&dir).map_err(io_error(format!("cannot pack {}", dir.display())))?;
        sqlx::query(
            "INSERT INTO sources (hash, archive) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING",
        )
        .bind(&hash)
        .bind(bytes)
        .execute(&shared.pool)
        .await?;
    }
    Ok(())
}

/// Why a worker does not start.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// No server ever published its settings there.
    #[error(
        "no arena in this database yet: start `referee arena serve DIR --database URL` once first"
    )]
    NoArena,
    /// The published settings do not parse here (another version of the referee?).
    #[error("the arena's settings")]
    Settings(#[from] SettingsError),
}

/// Runs a worker until the process is stopped; `on_ready` hears once it takes games.
pub fn run(options: &WorkerOptions, on_ready: impl FnOnce()) -> Result<(), ArenaError> {
    // Only a postgres:// address is taken (SQLite is one machine's).
    let database = Database::new(&options.cache, Some(&options.database))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(io_error("cannot start the runtime"))?;
    std::fs::create_dir_all(&options.cache)
        .map_err(io_error(format!("cannot make {}", options.cache.display())))?;
    let cache = std::path::absolute(&options.cache)
        .map_err(io_error(format!("cannot find {}", options.cache.display())))?;
    let pool = runtime.block_on(store::connect(&database))?;
    let text = runtime
        .block_on(published_settings(&pool))?
        .ok_or(ArenaError::Worker(WorkerError::NoArena))?;
    let settings = Settings::parse(&text).map_err(WorkerError::Settings)?;
    let arena = Arena::new(settings, &cache).map_err(WorkerError::Settings)?;
    let host = crate::bots_host(&arena)?;
    let shared = Arc::new(Shared::new(
        pool,
        arena,
        cache,
        host,
        &runtime,
        options.name.clone(),
        Some(Local::default()),
    ));
    runtime.block_on(crate::scheduler::recover_player(
        &shared.pool,
        &shared.player,
    ))?;
    let mut slots = Vec::new();
    for _ in 0..options.slots.max(1) {
        let slot = Arc::clone(&shared);
        slots.push(std::thread::spawn(move || {
            crate::scheduler::slot(&slot);
        }));
    }
    on_ready();
    for slot in slots {
        let _ = slot.join();
    }
    Ok(())
}
