//! `referee arena`: the arena's commands, thin over the arena crate.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use referee_arena::client::{self, Submission};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub(super) struct ArenaArgs {
    #[command(subcommand)]
    command: ArenaCommand,
}

#[derive(Subcommand, Debug)]
enum ArenaCommand {
    /// Write DIR/arena.toml: the ladders tictactoe and uttt with the built-in bots as bosses,
    /// every setting commented.
    Init {
        /// The arena's folder.
        dir: PathBuf,
    },
    /// Serve the arena in DIR: the HTTP API, the build queue and the game slots, in one
    /// process; data in DIR/arena.db (or the PostgreSQL database of --database), records under
    /// DIR/records.
    Serve {
        /// The arena's folder (with arena.toml).
        dir: PathBuf,
        /// The port to listen on (0: any free port).
        #[arg(long, default_value_t = 8400)]
        port: u16,
        /// The address to listen on.
        #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
        bind: IpAddr,
        /// Games played at once by the server itself (0: it only schedules and serves, and
        /// workers play every game).
        #[arg(long, default_value_t = 1)]
        slots: usize,
        /// The arena's data in this PostgreSQL database, shared with its workers (e.g.
        /// postgres://arena@db.example/arena), instead of SQLite in DIR/arena.db.
        #[arg(long, value_name = "URL")]
        database: Option<String>,
    },
    /// Play an arena's games on this machine: take them from its PostgreSQL database, build
    /// the bots here, store each result there.
    ///
    /// The arena's server must have been started once on the same database (`referee arena
    /// serve DIR --database URL`, with `--slots 0` if it should play nothing itself); the worker
    /// needs no route to it, only to the database. Each game is leased and the lease renewed
    /// while it is played (`[workers] lease_s` in arena.toml, 30 s by default): a worker that is
    /// stopped or cut off loses its games to the others and its late results are refused. A
    /// bot's sources are built here in the sandbox (bubblewrap), cached in --cache; a language
    /// whose toolchain here differs from the server's is not taken (the worker says so). Stop it
    /// with Ctrl-C or a signal: its games in flight are played again by others.
    ///
    /// Example: referee arena worker --database postgres://arena@db.example/arena --slots 2
    Worker {
        /// The arena's PostgreSQL database, as given to `referee arena serve --database`.
        #[arg(long, value_name = "URL")]
        database: String,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        slots: usize,
        /// The worker's name, unique among the arena's workers: it holds the leases and is
        /// stored with each game it plays (default: HOST-PID).
        #[arg(long)]
        name: Option<String>,
        /// Where the sources, builds and records of its games are kept.
        #[arg(long, default_value = "arena-worker")]
        cache: PathBuf,
    },
    /// Make USER if needed and print a new API token for it.
    Token {
        /// The arena's folder.
        dir: PathBuf,
        /// The arena's PostgreSQL database, if it is served with --database.
        #[arg(long, value_name = "URL")]
        database: Option<String>,
        /// The user.
        user: String,
        /// Make the user an administrator.
        #[arg(long)]
        admin: bool,
    },
    /// Upload a folder of sources as a new version of a bot.
    Submit {
        /// The arena's address, e.g. http://127.0.0.1:8400.
        #[arg(long)]
        server: String,
        /// An API token (referee arena token).
        #[arg(long)]
        token: String,
        /// The ladder.
        #[arg(long)]
        ladder: String,
        /// The bot's name.
        #[arg(long)]
        name: String,
        /// The folder of sources.
        source_dir: PathBuf,
        /// The language (default: the one its files show).
        #[arg(long)]
        language: Option<String>,
        /// The protocol it speaks (default native).
        #[arg(long)]
        protocol: Option<String>,
        /// Wait until the version is built and validated, and print the outcome.
        #[arg(long)]
        wait: bool,
    },
    /// Print a ladder's leaderboard.
    Leaderboard {
        /// The arena's address.
        #[arg(long)]
        server: String,
        /// The ladder.
        #[arg(long)]
        ladder: String,
        /// Print it as JSON.
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn run(args: ArenaArgs) -> Result<()> {
    match args.command {
        ArenaCommand::Init { dir } => {
            let path = referee_arena::init(&dir)?;
            println!(
                "wrote {}; start the arena with: referee arena serve {}",
                path.display(),
                dir.display()
            );
        }
        ArenaCommand::Serve {
            dir,
            port,
            bind,
            slots,
            database,
        } => {
            let options = referee_arena::ServeOptions {
                dir: dir.clone(),
                address: SocketAddr::new(bind, port),
                slots,
                database,
            };
            referee_arena::serve(&options, |url| {
                println!("arena {} at {url} ({slots} game slot(s))", dir.display());
            })
            .with_context(|| format!("arena {}", dir.display()))?;
        }
        ArenaCommand::Token {
            dir,
            database,
            user,
            admin,
        } => {
            println!(
                "{}",
                referee_arena::token(&dir, database.as_deref(), &user, admin)?
            );
        }
        ArenaCommand::Worker {
            database,
            slots,
            name,
            cache,
        } => {
            let name = name.unwrap_or_else(default_worker_name);
            let options = referee_arena::worker::WorkerOptions {
                database,
                slots,
                name: name.clone(),
                cache,
            };
            referee_arena::worker::run(&options, || {
                eprintln!("arena worker {name}: taking games ({slots} slot(s))");
            })
            .with_context(|| format!("arena worker {name}"))?;
        }
        ArenaCommand::Submit {
            server,
            token,
            ladder,
            name,
            source_dir,
            language,
            protocol,
            wait,
        } => submit(
            &Submission {
                server: &server,
                token: &token,
                ladder: &ladder,
                name: &name,
                sources: &source_dir,
                language: language.as_deref(),
                protocol: protocol.as_deref(),
            },
            wait,
        )?,
        ArenaCommand::Leaderboard {
            server,
            ladder,
            json,
        } => {
            let board = client::leaderboard(&server, &ladder)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&board)?);
            } else {
                print!("{}", client::leaderboard_text(&board));
            }
        }
    }
    Ok(())
}

fn submit(submission: &Submission<'_>, wait: bool) -> Result<()> {
    let id = client::submit(submission)?;
    // The id is the upload's, across bots; the bot numbers its versions 1, 2, ... (below).
    println!("{} uploaded (upload id {id})", submission.name);
    if !wait {
        return Ok(());
    }
    let version = client::wait(submission, id, Duration::from_secs(1800))?;
    let text = |key: &str| version[key].as_str().unwrap_or_default().to_string();
    println!("{}", version_line(&version));
    if !text("build_log").is_empty() {
        println!("build: {}", text("build_log"));
    }
    if text("state") != "passed" {
        bail!("version {} failed: {}", version["number"], text("reason"));
    }
    Ok(())
}

/// A version's number, its language and protocol where known, and its state: `version 1
/// (python, native): passed`, or `version 1 (native): failed` for sources of no language.
fn version_line(version: &serde_json::Value) -> String {
    let known: Vec<&str> = ["language", "protocol"]
        .iter()
        .filter_map(|key| version[key].as_str().filter(|text| !text.is_empty()))
        .collect();
    format!(
        "version {} ({}): {}",
        version["number"],
        known.join(", "),
        version["state"].as_str().unwrap_or_default()
    )
}

/// HOST-PID: a worker's name unless it is given one.
fn default_worker_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map_or_else(|_| "worker".into(), |name| name.trim().to_string());
    format!("{host}-{}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Sources of no known language fail without one: the line said '(, native)'.
    #[test]
    fn a_version_line_names_only_what_is_known() {
        let version = |language: &str| json!({ "number": 1, "language": language, "protocol": "native", "state": "failed" });
        assert_eq!(
            version_line(&version("python")),
            "version 1 (python, native): failed"
        );
        assert_eq!(version_line(&version("")), "version 1 (native): failed");
    }
}
