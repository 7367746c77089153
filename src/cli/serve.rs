//! `referee serve`: the web viewer over record and tournament directories.

use anyhow::{bail, Result};
use clap::Args;
use referee_web::shield::check_allowed_host;
use referee_web::{serve, ServeOptions};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub(super) struct ServeArgs {
    /// Directories to serve: --record directories (NNNN.json), tournament outputs
    /// (journal.jsonl and games.jsonl), or directories holding such directories (results/). Games
    /// being played into them (referee match --record DIR, a tournament) appear and move live,
    /// in a directory made after the server started too.
    #[arg(value_name = "DIR", default_values = ["results", "records"])]
    dirs: Vec<PathBuf>,
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8300)]
    port: u16,
    /// The address to listen on. Only this machine can connect to the default, 127.0.0.1; any
    /// other address (0.0.0.0 for every network) needs the access token printed at start.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// A name the pages may be opened by besides the address listened on (repeatable):
    /// NAME or NAME:PORT, e.g. --allow-host myhost.lan. A request naming the server otherwise
    /// (as a DNS-rebinding page would) is refused. Needed with --bind 0.0.0.0.
    #[arg(long, value_name = "NAME", value_parser = host_name)]
    allow_host: Vec<String>,
}

pub(super) fn run(args: ServeArgs) -> Result<()> {
    check_dirs(&args.dirs)?;
    let options = ServeOptions {
        dirs: args.dirs.clone(),
        address: SocketAddr::new(args.bind, args.port),
        allowed_hosts: args.allow_host.clone(),
    };
    serve(options, |url| {
        let dirs: Vec<String> = args.dirs.iter().map(|d| d.display().to_string()).collect();
        println!("serving {} at {url}", dirs.join(", "));
        println!("(new games and moves appear as they are played; Ctrl-C stops)");
    })?;
    Ok(())
}

/// Refuses a file (or a device) given for a directory; notes a directory that does not exist
/// (yet), whose games appear once a run makes it, rather than serve an empty index without a
/// word.
fn check_dirs(dirs: &[PathBuf]) -> Result<()> {
    for dir in dirs {
        if dir.exists() && !dir.is_dir() {
            bail!(
                "{} is not a directory: serve the directory holding it (referee serve {})",
                dir.display(),
                dir.parent()
                    .filter(|parent| !parent.as_os_str().is_empty())
                    .unwrap_or(Path::new("."))
                    .display()
            );
        }
        if !dir.exists() {
            eprintln!(
                "referee: note: {} does not exist (yet): its games appear once it is made",
                dir.display()
            );
        }
    }
    Ok(())
}

/// A name the pages may be opened by, as --allow-host takes it (see [`check_allowed_host`]).
fn host_name(text: &str) -> Result<String, String> {
    check_allowed_host(text).map(|()| text.to_string())
}
