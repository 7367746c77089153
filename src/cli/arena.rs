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
    /// process; data in DIR/arena.db, records under DIR/records.
    Serve {
        /// The arena's folder (with arena.toml).
        dir: PathBuf,
        /// The port to listen on (0: any free port).
        #[arg(long, default_value_t = 8400)]
        port: u16,
        /// The address to listen on.
        #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
        bind: IpAddr,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        slots: usize,
    },
    /// Make USER if needed and print a new API token for it.
    Token {
        /// The arena's folder.
        dir: PathBuf,
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
        } => {
            let options = referee_arena::ServeOptions {
                dir: dir.clone(),
                address: SocketAddr::new(bind, port),
                slots,
            };
            referee_arena::serve(&options, |url| {
                println!("arena {} at {url} ({slots} game slot(s))", dir.display());
            })
            .with_context(|| format!("arena {}", dir.display()))?;
        }
        ArenaCommand::Token { dir, user, admin } => {
            println!("{}", referee_arena::token(&dir, &user, admin)?);
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
    let id = client::submit(submission).context("refused")?;
    println!("version {id} of {} uploaded", submission.name);
    if !wait {
        return Ok(());
    }
    let version = client::wait(
        submission.server,
        submission.token,
        id,
        Duration::from_secs(1800),
    )?;
    let text = |key: &str| version[key].as_str().unwrap_or_default().to_string();
    println!(
        "version {} ({}, {}): {}",
        version["number"],
        text("language"),
        text("protocol"),
        text("state")
    );
    if !text("build_log").is_empty() {
        println!("build: {}", text("build_log"));
    }
    if text("state") != "passed" {
        bail!("version {id} failed: {}", text("reason"));
    }
    Ok(())
}
