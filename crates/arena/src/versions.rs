//! Bots' versions: an upload checked and stored, then built (the contest's language profiles,
//! in the sandbox, cached by hash) and validated (`referee check` in the bot's protocol,
//! against the random boss, then a game against itself) by a worker that takes them from a
//! queue in the database. A version's state:
//!
//! `queued` -> `building` -> `validating` -> `passed` | `failed` (with the reason), a build
//! that fails going to `failed` at once. A version found `building` or `validating` when the
//! arena starts was cut off by a crash: it is queued again (its build comes from the cache).

use crate::archive::{self, ArchiveError, Bounds};
use crate::settings::Ladder;
use crate::store::{self, Pool};
use crate::Shared;
use referee_cage::build::compile;
use referee_cage::process_options::ProcessOptions;
use referee_cage::Protocol;
use referee_core::check::{run_check, CheckConfig, Severity};
use referee_core::players::PlayerSpec;
use referee_core::table::{Player, Recorder, ScheduledGame, Table, Venue};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An upload as the API receives it.
#[derive(Clone, Debug)]
pub struct Upload {
    /// The ladder.
    pub ladder: String,
    /// The bot's name.
    pub name: String,
    /// The language, if named.
    pub language: Option<String>,
    /// The protocol, if named (default native).
    pub protocol: Option<String>,
    /// The `.tar.gz`.
    pub bytes: Vec<u8>,
}

/// Why an upload is refused, said to the user.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// Something the user can fix: said as it is.
    #[error("{0}")]
    Refused(String),
    /// Too many uploads in the last hour.
    #[error("too many uploads: at most {0} an hour")]
    RateLimited(u32),
    /// A hostile or broken archive.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] sqlx::Error),
    /// The arena's disk.
    #[error("cannot store the upload: {0}")]
    Io(#[from] std::io::Error),
}

/// A version as stored.
#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct Version {
    /// Its id.
    pub id: i64,
    /// Its bot.
    pub bot_id: i64,
    /// Its number among the bot's versions, from 1.
    pub number: i64,
    /// The protocol it speaks.
    pub protocol: String,
    /// The language it was built as.
    pub language: Option<String>,
    /// Where it is in the pipeline.
    pub state: String,
    /// The command it plays with.
    pub command: Option<String>,
    /// The build's log.
    pub build_log: String,
    /// The check's findings.
    pub validation: String,
    /// Why it failed.
    pub reason: Option<String>,
    /// When it was uploaded.
    pub created_at: i64,
}

/// Columns of [`Version`].
pub const VERSION_COLUMNS: &str =
    "id, bot_id, number, protocol, language, state, command, build_log, validation, reason, created_at";

/// Checks and stores an upload by `user_id`: the bot is made on its first version; returns
/// the new version's id.
pub async fn submit(shared: &Shared, user_id: i64, upload: Upload) -> Result<i64, SubmitError> {
    let pool = &shared.pool;
    let settings = &shared.arena.settings;
    let refused = |text: String| Err(SubmitError::Refused(text));
    let Some(ladder) = shared.arena.ladder(&upload.ladder) else {
        return refused(format!("no ladder is named '{}'", escape(&upload.ladder)));
    };
    if !store::valid_name(&upload.name) {
        return refused("a bot's name is 1 to 40 letters, digits, '-', '_' or '.'".into());
    }
    let protocol = upload.protocol.clone().unwrap_or_else(|| "native".into());
    let allowed = protocol
        .parse::<Protocol>()
        .ok()
        .filter(|p| ladder.protocols.contains(p));
    if allowed.is_none() {
        let names: Vec<String> = ladder.protocols.iter().map(ToString::to_string).collect();
        return refused(format!(
            "the ladder '{}' takes the protocols {}, not '{}'",
            ladder.settings.name,
            names.join(", "),
            escape(&protocol)
        ));
    }
    if let Some(language) = &upload.language {
        if !shared
            .arena
            .profiles
            .iter()
            .any(|(name, _)| name == language)
        {
            return refused(format!("no language is named '{}'", escape(language)));
        }
    }
    if upload.bytes.len() as u64 > settings.limits.upload_bytes {
        return refused(too_large(settings.limits.upload_bytes));
    }
    // Before the archive is unpacked, so that uploads past the limit cost the server nothing;
    // counted again as the upload is stored.
    within_hourly_limit(pool, user_id, settings.limits.uploads_per_hour).await?;
    let sources = shared.dir.join("sources");
    std::fs::create_dir_all(&sources)?;
    let staging = tempfile::tempdir_in(&sources)?;
    let bounds = Bounds {
        unpacked_bytes: settings.limits.unpacked_bytes,
        files: settings.limits.files,
    };
    let bytes = upload.bytes.clone();
    let into = staging.path().to_path_buf();
    tokio::task::spawn_blocking(move || archive::unpack(&bytes, &into, bounds))
        .await
        .map_err(|e| SubmitError::Io(std::io::Error::other(e.to_string())))??;
    let hash: String = Sha256::digest(&upload.bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    store_version(shared, user_id, &upload, &protocol, &hash, staging).await
}

/// Refuses an upload by `user_id` past `per_hour` accepted in the last hour.
async fn within_hourly_limit<'e, E>(
    executor: E,
    user_id: i64,
    per_hour: u32,
) -> Result<(), SubmitError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let (recent,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM uploads WHERE user_id = $1 AND at > $2")
            .bind(user_id)
            .bind(store::now() - 3600)
            .fetch_one(executor)
            .await?;
    if recent >= i64::from(per_hour) {
        return Err(SubmitError::RateLimited(per_hour));
    }
    Ok(())
}

/// Stores the version (and its bot on its first version) and moves its sources into place,
/// counting the upload toward its user's hourly limit (only an upload taken counts).
async fn store_version(
    shared: &Shared,
    user_id: i64,
    upload: &Upload,
    protocol: &str,
    hash: &str,
    staging: tempfile::TempDir,
) -> Result<i64, SubmitError> {
    let mut tx = store::write(&shared.pool).await?;
    let per_hour = shared.arena.settings.limits.uploads_per_hour;
    within_hourly_limit(&mut *tx, user_id, per_hour).await?;
    let now = store::now();
    sqlx::query("INSERT INTO uploads (user_id, at) VALUES ($1, $2)")
        .bind(user_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    // The bot of that name, or else one whose name differs only in case (which would pass
    // for it on the leaderboard).
    let bot: Option<(i64, Option<i64>, i64, String)> = sqlx::query_as(
        "SELECT id, owner_id, retired, name FROM bots WHERE ladder = $1 \
         AND LOWER(name) = LOWER($2) ORDER BY CASE WHEN name = $3 THEN 0 ELSE 1 END, id LIMIT 1",
    )
    .bind(&upload.ladder)
    .bind(&upload.name)
    .bind(&upload.name)
    .fetch_optional(&mut *tx)
    .await?;
    let bot_id = match bot {
        Some((_, _, _, name)) if name != upload.name => {
            return Err(SubmitError::Refused(format!(
                "the name '{}' is taken on this ladder (by the bot '{name}': names that differ \
                 only in upper and lower case are the same name)",
                upload.name
            )))
        }
        Some((id, Some(owner), 0, _)) if owner == user_id => id,
        Some((_, _, retired, _)) if retired != 0 => {
            return Err(SubmitError::Refused(format!(
                "the bot '{}' was retired",
                upload.name
            )))
        }
        Some(_) => {
            return Err(SubmitError::Refused(format!(
                "the name '{}' is another's bot on this ladder",
                upload.name
            )))
        }
        None => {
            let id = store::next_id(&mut tx, "bots", "id").await?;
            sqlx::query(
                "INSERT INTO bots (id, ladder, name, owner_id, created_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(&upload.ladder)
            .bind(&upload.name)
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            id
        }
    };
    let id = store::next_id(&mut tx, "versions", "id").await?;
    let (number,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(number) FROM versions WHERE bot_id = $1")
            .bind(bot_id)
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO versions (id, bot_id, number, protocol, language, archive_hash, state, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8)",
    )
    .bind(id)
    .bind(bot_id)
    .bind(number.unwrap_or(0) + 1)
    .bind(protocol)
    .bind(&upload.language)
    .bind(hash)
    .bind(now)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    // The sources as uploaded, for the workers that build them on their own machines.
    sqlx::query(
        "INSERT INTO sources (hash, archive) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING",
    )
    .bind(hash)
    .bind(&upload.bytes)
    .execute(&mut *tx)
    .await?;
    let target = sources_of(&shared.dir, id);
    let _ = std::fs::remove_dir_all(&target);
    std::fs::rename(staging.keep(), &target)?;
    tx.commit().await?;
    shared.wake_builder();
    Ok(id)
}

/// Why an upload larger than `upload_bytes` is refused: the server's answer, and the command
/// line's before it sends one.
pub fn too_large(upload_bytes: u64) -> String {
    format!(
        "the upload is too large: the arena takes at most {upload_bytes} bytes ({:.1} MiB) of \
         sources as a .tar.gz",
        upload_bytes as f64 / f64::from(1 << 20)
    )
}

/// Where a version's sources are unpacked.
pub fn sources_of(dir: &Path, version: i64) -> PathBuf {
    dir.join("sources").join(version.to_string())
}

/// Escapes what a user sent for a message.
fn escape(text: &str) -> String {
    referee_rules::quote::shorten(text, 60)
}

/// The versions cut off by a crash, queued again.
pub async fn recover(pool: &Pool) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE versions SET state = 'queued' WHERE state IN ('building', 'validating')")
        .execute(pool)
        .await?;
    Ok(())
}

/// Builds and validates queued versions, one at a time, until the arena stops.
pub fn worker(shared: &Shared) {
    loop {
        match shared.block_on(claim(&shared.pool)) {
            Ok(Some((version, ladder))) => {
                if let Err(error) = process(shared, &version, &ladder) {
                    shared.say(&format!("version {}: {error}", version.id));
                    if let Err(error) = shared.block_on(failed_by_the_arena(&shared.pool, &version))
                    {
                        shared.say(&format!("version {}: {error}", version.id));
                    }
                    std::thread::sleep(Duration::from_secs(5));
                }
            }
            Ok(None) => shared.wait_builder(Duration::from_secs(2)),
            Err(error) => {
                shared.say(&format!("build queue: {error}"));
                std::thread::sleep(Duration::from_secs(2));
            }
        }
    }
}

/// The oldest queued version, marked as building, with its ladder.
async fn claim(pool: &Pool) -> Result<Option<(Version, String)>, sqlx::Error> {
    let mut tx = store::write(pool).await?;
    let version: Option<Version> = sqlx::query_as(&format!(
        "SELECT {VERSION_COLUMNS} FROM versions WHERE state = 'queued' ORDER BY id LIMIT 1"
    ))
    .fetch_optional(&mut *tx)
    .await?;
    let Some(version) = version else {
        return Ok(None);
    };
    let (ladder,): (String,) = sqlx::query_as("SELECT ladder FROM bots WHERE id = $1")
        .bind(version.bot_id)
        .fetch_one(&mut *tx)
        .await?;
    set_state(&mut tx, version.id, "building").await?;
    tx.commit().await?;
    Ok(Some((version, ladder)))
}

/// Why a version failed by the arena's own fault, said to its owner (the fault itself, which
/// may name the server's files, is said on the server's stderr).
const ARENA_FAULT: &str = "the arena could not build or validate it (a fault of the arena's, not \
                           of the bot): upload it again later, or tell the arena's administrator";

/// Marks `version` failed by the arena's own fault (its build or check machinery failed): it
/// stayed `building` until a restart, and `submit --wait` waited for it half an hour.
async fn failed_by_the_arena(pool: &Pool, version: &Version) -> Result<(), sqlx::Error> {
    let mut tx = store::write(pool).await?;
    sqlx::query(
        "UPDATE versions SET state = 'failed', reason = $1, updated_at = $2 WHERE id = $3 \
         AND state IN ('building', 'validating')",
    )
    .bind(ARENA_FAULT)
    .bind(store::now())
    .bind(version.id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

async fn set_state(tx: &mut store::Tx<'_>, id: i64, state: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE versions SET state = $1, updated_at = $2 WHERE id = $3")
        .bind(state)
        .bind(store::now())
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The arena's own failure while building or validating (the bot's failures are its result).
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The build machinery.
    #[error(transparent)]
    Build(#[from] compile::BuildError),
    /// The check machinery.
    #[error(transparent)]
    Check(#[from] referee_core::check::CheckError),
    /// The database.
    #[error(transparent)]
    Store(#[from] sqlx::Error),
}

/// What became of a version.
struct Outcome {
    state: &'static str,
    language: Option<String>,
    command: Option<String>,
    /// The toolchain it was built with.
    toolchain: Option<String>,
    build_log: String,
    validation: String,
    reason: Option<String>,
}

fn process(shared: &Shared, version: &Version, ladder: &str) -> Result<(), PipelineError> {
    let ladder = shared.arena.ladder(ladder).cloned();
    let mut outcome = Outcome {
        state: "failed",
        language: version.language.clone(),
        command: None,
        toolchain: None,
        build_log: String::new(),
        validation: String::new(),
        reason: None,
    };
    match ladder {
        None => outcome.reason = Some("its ladder is no longer in arena.toml".into()),
        Some(ladder) => {
            build(shared, version, &mut outcome)?;
            if let Some(command) = outcome.command.clone() {
                shared.block_on(async {
                    let mut tx = store::write(&shared.pool).await?;
                    set_state(&mut tx, version.id, "validating").await?;
                    tx.commit().await
                })?;
                validate(shared, version, &ladder, &command, &mut outcome)?;
            }
        }
    }
    shared.block_on(finish(shared, version, outcome))?;
    Ok(())
}

fn build(shared: &Shared, version: &Version, outcome: &mut Outcome) -> Result<(), PipelineError> {
    let dir = sources_of(&shared.dir, version.id);
    let profiles = &shared.arena.profiles;
    let language = match &version.language {
        Some(language) => Some(language.clone()),
        None => match referee_cage::build::profile::detect(profiles, &dir) {
            Ok(found) if found.len() == 1 => Some(found[0].0.to_string()),
            Ok(found) if found.is_empty() => {
                outcome.reason = Some(
                    "no source file of a known language (a main.cpp, main.c, main.rs, main.go, \
                     Main.java, main.py or main.js at the top level)"
                        .into(),
                );
                None
            }
            Ok(found) => {
                let names: Vec<&str> = found.iter().map(|(name, _)| *name).collect();
                outcome.reason = Some(format!(
                    "its files show several languages ({}): name one with --language",
                    names.join(", ")
                ));
                None
            }
            Err(error) => {
                outcome.reason = Some(format!("its sources cannot be read: {error}"));
                None
            }
        },
    };
    let Some(language) = language else {
        return Ok(());
    };
    let Some((_, profile)) = profiles.iter().find(|(name, _)| *name == language) else {
        outcome.reason = Some(format!("no language is named '{language}'"));
        return Ok(());
    };
    outcome.language = Some(language.clone());
    match compile::build(
        &dir,
        &language,
        profile,
        &shared.arena.build,
        &shared.host.supervisor,
    )? {
        Ok(built) => {
            outcome.build_log = format!(
                "{} with {}",
                if built.cached {
                    "cached".to_string()
                } else {
                    format!("built in {:.1} s", built.elapsed.as_secs_f64())
                },
                built.toolchain
            );
            outcome.command = Some(built.command);
            outcome.toolchain = Some(built.toolchain);
        }
        Err(failed) => {
            outcome.build_log = failed.to_string();
            outcome.reason = failed.to_string().lines().next().map(str::to_string);
        }
    }
    Ok(())
}

/// The player a version plays as in `ladder`.
pub fn player(ladder: &Ladder, label: &str, command: &str, protocol: &str) -> Option<Player> {
    let protocol: Protocol = protocol.parse().ok()?;
    let spec = PlayerSpec::parse(command)
        .ok()?
        .with_protocol(protocol)
        .ok()?;
    Some(Player {
        label: label.to_string(),
        spec,
        ..ladder.template.clone()
    })
}

fn validate(
    shared: &Shared,
    version: &Version,
    ladder: &Ladder,
    command: &str,
    outcome: &mut Outcome,
) -> Result<(), PipelineError> {
    let Some(bot) = player(ladder, "bot", command, &version.protocol) else {
        outcome.reason = Some("its command cannot be run".into());
        return Ok(());
    };
    let records = shared.dir.join("checks").join(version.id.to_string());
    let config = CheckConfig {
        rules: ladder.table.rules.clone(),
        player: bot.spec.clone(),
        time: bot.time,
        opening: Vec::new(),
        process: ProcessOptions {
            limits: bot.limits,
            ..ladder.table.process.clone()
        },
        record_dir: Some(records.clone()),
        referee_exe: shared.host.referee_exe.clone(),
    };
    let findings = run_check(&config, &shared.host.supervisor, |_| {})?;
    outcome.validation = findings
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(problem) = findings.iter().find(|f| f.severity == Severity::Problem) {
        outcome.reason = Some(match &problem.stderr_end {
            Some(line) => format!("{} [its stderr ended: {line}]", problem.text),
            None => problem.text.clone(),
        });
        return Ok(());
    }
    // Then a game against itself.
    let venue = Venue {
        settings: ladder.table.clone(),
        referee_exe: shared.host.referee_exe.clone(),
        records: Some(Recorder::Files(records.join("self"))),
    };
    let players = [
        Player {
            label: "bot".into(),
            ..bot.clone()
        },
        Player {
            label: "itself".into(),
            ..bot
        },
    ];
    let game = ScheduledGame {
        number: 1,
        seats: [0, 1],
        opening: Vec::new(),
    };
    let mut table = Table::new(&shared.host.supervisor);
    match table.play(&venue, &players, &game, |_| {}) {
        Ok(finished) if finished.played.faulted.iter().any(|f| *f) => {
            outcome.validation.push_str(&format!(
                "\nPROBLEM  against itself: {}",
                finished.played.record.result.detail
            ));
            outcome.reason = Some(format!(
                "against itself: {}",
                finished.played.record.result.detail
            ));
        }
        Ok(_) => {
            outcome
                .validation
                .push_str("\nok       a game against itself");
            outcome.state = "passed";
        }
        Err(error) => outcome.reason = Some(format!("against itself: {error}")),
    }
    Ok(())
}

/// Stores what became of the version; a passing one becomes its bot's active version and
/// is scheduled for its placement games, in the same transaction.
async fn finish(shared: &Shared, version: &Version, outcome: Outcome) -> Result<(), sqlx::Error> {
    let mut tx = store::write(&shared.pool).await?;
    sqlx::query(
        "UPDATE versions SET state = $1, language = $2, command = $3, build_log = $4, validation = $5, \
         reason = $6, updated_at = $7 WHERE id = $8",
    )
    .bind(outcome.state)
    .bind(&outcome.language)
    .bind(&outcome.command)
    .bind(&outcome.build_log)
    .bind(&outcome.validation)
    .bind(&outcome.reason)
    .bind(store::now())
    .bind(version.id)
    .execute(&mut *tx)
    .await?;
    // The toolchain the arena builds the language with, published for the workers.
    if let (Some(language), Some(toolchain)) = (&outcome.language, &outcome.toolchain) {
        sqlx::query(
            "INSERT INTO toolchains (language, version) VALUES ($1, $2) \
             ON CONFLICT (language) DO UPDATE SET version = excluded.version",
        )
        .bind(language)
        .bind(toolchain)
        .execute(&mut *tx)
        .await?;
    }
    if outcome.state == "passed" {
        sqlx::query("UPDATE bots SET active_version = $1 WHERE id = $2")
            .bind(version.id)
            .bind(version.bot_id)
            .execute(&mut *tx)
            .await?;
        if shared.arena.settings.matchmaking.placement {
            crate::scheduler::schedule_placement(&mut tx, version.id, version.bot_id).await?;
        }
    }
    tx.commit().await
}
