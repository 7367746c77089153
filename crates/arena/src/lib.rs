//! The arena: where bots live. `referee arena serve DIR` runs, in one process, the HTTP API
//! ([`api`], behind the web layer's shield), the pipeline that builds and validates uploaded
//! versions ([`versions`]), and the slots that play the ladders' games continuously
//! ([`scheduler`]), rated by [`ladder`]; the data is in SQLite in `DIR/arena.db` ([`store`]),
//! the records on disk under `DIR/records`. `DIR/arena.toml` ([`settings`]) says what the
//! ladders are.

pub mod accounts;
pub mod address;
pub mod api;
pub mod archive;
pub mod body;
pub mod client;
pub mod friendly;
pub mod invitations;
pub mod ladder;
pub mod live;
pub mod pages;
pub mod people;
pub mod scheduler;
pub mod settings;
pub mod store;
pub mod versions;
pub mod worker;

use referee_cage::host::{self, Host, HostError};
use referee_cage::process_options::ProcessOptions;
use settings::{Arena, SettingsError};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use store::{Pool, StoreError};

/// The arena's own failures at start.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// `arena.toml` is not usable.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A query.
    #[error("database")]
    Sql(#[from] sqlx::Error),
    /// The bots' host (sandbox, supervisor).
    #[error(transparent)]
    Host(#[from] HostError),
    /// Builds need the sandbox.
    #[error(transparent)]
    Sandbox(#[from] referee_cage::sandbox::SandboxError),
    /// Accounts.
    #[error(transparent)]
    Account(#[from] accounts::AccountError),
    /// A worker's start.
    #[error(transparent)]
    Worker(#[from] worker::WorkerError),
    /// `arena init` of a folder with an `arena.toml` already.
    #[error("{dir} holds an arena.toml already (left as it is): edit it, or start the arena with referee arena serve {dir}")]
    Initialised {
        /// The folder.
        dir: PathBuf,
    },
    /// A folder without `arena.toml`, given for an arena's.
    #[error("{dir} is not an arena's folder (it has no arena.toml): make one with referee arena init {dir}")]
    NotAnArena {
        /// The folder.
        dir: PathBuf,
    },
    /// Files or the network.
    #[error("{what}")]
    Io {
        /// What was being done.
        what: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

pub(crate) fn io_error(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> ArenaError {
    let what = what.into();
    move |source| ArenaError::Io { what, source }
}

/// Writes `DIR/arena.toml` (the commented defaults), refusing to overwrite one.
pub fn init(dir: &Path) -> Result<PathBuf, ArenaError> {
    std::fs::create_dir_all(dir).map_err(io_error(format!("cannot make {}", dir.display())))?;
    let path = dir.join("arena.toml");
    if path.exists() {
        return Err(ArenaError::Initialised {
            dir: dir.to_path_buf(),
        });
    }
    std::fs::write(&path, settings::TEMPLATE)
        .map_err(io_error(format!("cannot write {}", path.display())))?;
    Ok(path)
}

/// What the running arena shares between the API, the build worker and the slots.
pub struct Shared {
    /// The database.
    pub pool: Pool,
    /// The settings.
    pub arena: Arena,
    /// The arena's folder.
    pub dir: PathBuf,
    /// Starts and watches the bots.
    pub host: Host,
    /// The runtime the database is driven on.
    pub runtime: tokio::runtime::Handle,
    /// Set when the build queue has work.
    builder: (Mutex<bool>, Condvar),
    /// Why games do not start, when they do not (a full disk).
    status: Mutex<Option<String>>,
    /// The games the slots are playing.
    pub playing: live::Playing,
    /// The pages of people's games.
    pub seats: people::Seats,
    /// Tells the invitations panels of a change.
    pub invitations: invitations::Changes,
    /// Who plays the games this process claims: `server`, or a worker's name.
    pub player: String,
    /// A worker's own state (none on the server).
    pub worker: Option<worker::Local>,
    /// What coordinating through the queue costs this process.
    pub costs: scheduler::Costs,
}

impl Shared {
    /// What a server or a worker shares between its threads.
    pub fn new(
        pool: Pool,
        arena: Arena,
        dir: PathBuf,
        host: Host,
        runtime: &tokio::runtime::Runtime,
        player: String,
        worker: Option<worker::Local>,
    ) -> Shared {
        Shared {
            pool,
            arena,
            dir,
            host,
            runtime: runtime.handle().clone(),
            builder: (Mutex::new(true), Condvar::new()),
            status: Mutex::new(None),
            playing: live::Playing::default(),
            seats: people::Seats::default(),
            invitations: invitations::Changes::default(),
            player,
            worker,
            costs: scheduler::Costs::default(),
        }
    }

    /// Runs a database future from a worker thread.
    pub fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }

    /// Tells the build worker there is work.
    pub fn wake_builder(&self) {
        let (flag, condvar) = &self.builder;
        *flag
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        condvar.notify_all();
    }

    fn wait_builder(&self, most: Duration) {
        let (flag, condvar) = &self.builder;
        let guard = flag
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (mut guard, _) = condvar
            .wait_timeout_while(guard, most, |woken| !*woken)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *guard = false;
    }

    /// Says something on the server's stderr.
    pub fn say(&self, text: &str) {
        eprintln!("arena: {text}");
    }

    /// Why games wait, if they do.
    pub fn status(&self) -> Option<String> {
        self.status
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    fn set_status(&self, status: Option<String>) {
        let mut now = self
            .status
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if status.is_some() && *now != status {
            self.say(status.as_deref().unwrap_or_default());
        }
        *now = status;
    }
}

/// How `referee arena serve` runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The arena's folder, holding `arena.toml`.
    pub dir: PathBuf,
    /// Where to listen.
    pub address: SocketAddr,
    /// Games played at once by the server itself (0: none, workers play them all).
    pub slots: usize,
    /// A `postgres://` address: the arena's data there rather than in `DIR/arena.db`.
    pub database: Option<String>,
}

/// The name under which the server's own slots hold games.
pub const SERVER: &str = "server";

/// The host the arena's bots run on (the server's or a worker's), in the sandbox when any
/// ladder asks for it; builds need the sandbox in any case.
fn bots_host(arena: &Arena) -> Result<Host, ArenaError> {
    referee_cage::sandbox::check_available()?;
    let sandbox = arena.ladders.iter().any(|l| l.settings.sandbox);
    Ok(host::prepare(&ProcessOptions {
        sandbox,
        ..ProcessOptions::default()
    })?)
}

/// Serves the arena until the process is stopped; `on_ready` hears the address once it
/// listens.
pub fn serve(options: &ServeOptions, on_ready: impl FnOnce(&str)) -> Result<(), ArenaError> {
    let arena = Arena::load(&options.dir)?;
    let host = bots_host(&arena)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(io_error("cannot start the runtime"))?;
    let listener = runtime.block_on(api::listen(options.address))?;
    let dir = std::path::absolute(&options.dir)
        .map_err(io_error(format!("cannot find {}", options.dir.display())))?;
    let database = store::Database::new(&dir, options.database.as_deref())?;
    let pool = runtime.block_on(store::connect(&database))?;
    let text = std::fs::read_to_string(dir.join("arena.toml"))
        .map_err(io_error("cannot read arena.toml"))?;
    let shared = Arc::new(Shared::new(
        pool,
        arena,
        dir,
        host,
        &runtime,
        SERVER.into(),
        None,
    ));
    runtime.block_on(async {
        versions::recover(&shared.pool).await?;
        for cut_off in people::recover(&shared.pool).await? {
            shared.say(&cut_off);
        }
        scheduler::recover(&shared.pool).await?;
        worker::publish_settings(&shared.pool, &text).await?;
        worker::store_missing_sources(&shared).await?;
        scheduler::ensure_ladders(&shared).await?;
        Ok::<(), ArenaError>(())
    })?;
    let watcher = Arc::clone(&shared);
    runtime.spawn(async move { watcher.playing.watch().await });
    let folder = Arc::clone(&shared);
    runtime.spawn(async move {
        for ladder in &folder.arena.ladders {
            let _ = pages::fold_new_games(&folder, &ladder.settings.name).await;
        }
    });
    let worker = Arc::clone(&shared);
    std::thread::spawn(move || versions::worker(&worker));
    let scheduler = Arc::clone(&shared);
    std::thread::spawn(move || scheduler::schedule(&scheduler));
    for _ in 0..options.slots {
        let slot = Arc::clone(&shared);
        std::thread::spawn(move || scheduler::slot(&slot));
    }
    runtime.block_on(api::serve(shared, listener, on_ready))
}

/// Makes `user` if needed (an administrator with `admin`) and returns a new API token for it.
pub fn token(
    dir: &Path,
    database: Option<&str>,
    user: &str,
    admin: bool,
) -> Result<String, ArenaError> {
    // Its database would otherwise be made there, for no arena.
    if database.is_none() && !dir.join("arena.toml").is_file() {
        return Err(ArenaError::NotAnArena {
            dir: dir.to_path_buf(),
        });
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(io_error("cannot start the runtime"))?;
    runtime.block_on(async {
        let pool = store::connect(&store::Database::new(dir, database)?).await?;
        Ok(accounts::token_for(&pool, user, admin).await?)
    })
}
