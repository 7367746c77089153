//! `referee contest`: from submitted sources to standings in one command. The contest file
//! ([`config`]) is a tournament file whose players may be source folders; the [`field`] is
//! built (language profiles, in the sandbox, cached) and gated by `referee check`; the players
//! who pass are written into a tournament file of their own (`OUT/tournament.toml`), which
//! the tournament runner plays, resumably, on one machine or in shards on a cluster; the
//! results page is then written beside them.

pub mod config;
pub mod field;
pub mod page;

use config::Contest;
use field::{Entry, FieldError};
use referee_cage::host::{self, Host, HostError};
use referee_core::tournament::config::{ConfigError, Tournament};
use referee_core::tournament::journal::{self, JournalError};
use referee_core::tournament::runner::{identity, journal_path};
use referee_core::tournament::schedule::Shard;
use referee_web::report::ReportError;
use std::path::{Path, PathBuf};

/// The referee's own failures while preparing a contest.
#[derive(Debug, thiserror::Error)]
pub enum ContestError {
    /// Building or checking the players failed on the referee's side.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// The tournament file written for the players is not one the tournament runner takes.
    #[error(transparent)]
    Tournament(#[from] ConfigError),
    /// The bots' host (sandbox, supervisor) could not be set up for the checks.
    #[error(transparent)]
    Host(#[from] HostError),
    /// The output folder's journal will not take this run (see [`journal::precheck`]).
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The results page could not be written.
    #[error(transparent)]
    Page(#[from] ReportError),
    /// Fewer than two players are left to play once built and checked.
    #[error(
        "{playing} of the {total} players passed their build and check, and a contest needs at \
         least 2 to play: {list} says why each was left out"
    )]
    TooFew {
        /// The players left to play.
        playing: usize,
        /// The players of the field.
        total: usize,
        /// The saved list of players.
        list: String,
    },
    /// The list of players or the tournament file could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The file, or the output folder it goes in.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
}

/// A contest ready to play.
pub struct Prepared {
    /// Every player of the field, with what became of it (those left out included).
    pub entries: Vec<Entry>,
    /// The tournament file written for the players who play.
    pub tournament_file: PathBuf,
    /// That file, read back as the tournament runner reads it.
    pub tournament: Tournament,
}

/// How a contest is prepared.
#[derive(Clone, Copy, Debug)]
pub struct PrepareOptions<'a> {
    /// Builds and checks run at once.
    pub jobs: usize,
    /// Continue the run in the output folder (`--resume`).
    pub resume: bool,
    /// The tournament will be played here, into the output folder's journal (not only
    /// prepared for shards): its journal must then admit this run.
    pub plays: bool,
    /// Players to check again although their build was checked before (`--rejudge`).
    pub rejudge: &'a [String],
}

/// Refuses, before anything is built or printed, a run of `contest` (from the file at
/// `origin`) that makes no tournament, or that the journal in `out` will refuse when it is
/// played there: finished games without `resume`, or another tournament's journal. Then sets
/// up the host of the builds, the checks and the games: from here on, Ctrl-C or SIGTERM kills
/// every one of their processes and ends the run.
pub fn open(
    contest: &Contest,
    origin: &Path,
    out: &Path,
    options: PrepareOptions<'_>,
) -> Result<Host, ContestError> {
    let shape = shape(contest, origin)?;
    // Made now: a file in its way is said as such, not as a journal that cannot be read.
    std::fs::create_dir_all(out).map_err(|source| ContestError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    if options.plays {
        journal::precheck(
            &journal_path(out, Shard::WHOLE),
            &identity(&shape),
            options.resume,
        )?;
    }
    Ok(host::prepare(&shape.table.process)?)
}

/// Builds and checks the field of `contest` (from the file at `origin`) with `host` (see
/// [`open`]), writes the list of players and the tournament file into `out`, and returns the
/// tournament to play. With `resume`, players checked by the run being resumed (same command,
/// so same sources) are not checked again. `report` hears each player's line as it is known.
pub fn prepare(
    contest: &Contest,
    origin: &Path,
    out: &Path,
    options: PrepareOptions<'_>,
    host: &Host,
    report: &(dyn Fn(&Entry) + Sync),
) -> Result<Prepared, ContestError> {
    let PrepareOptions { jobs, resume, .. } = options;
    // Read before this run saves its own list over it.
    let mut earlier = if resume {
        field::earlier(out)
    } else {
        Vec::new()
    };
    earlier.retain(|entry| !options.rejudge.contains(&entry.name));
    let entries = field::build_all(contest, &host.supervisor, jobs, &|entry| {
        if entry.status != field::Status::Plays {
            report(entry);
        }
    })?;
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ContestError::Write { path, source }
    };
    // Saved now too: if too few players are left to play, the list still says why.
    field::save(out, &entries).map_err(write_error(out))?;
    // Every built player, to read the game, the clocks and the limits the check needs.
    let candidates = Tournament::from_text(
        &contest.tournament_text(&enough_play(&entries, out)?),
        &contest.name,
        origin,
    )?;
    let entries = field::gate(contest, entries, &candidates, host, &earlier, jobs, report)?;
    field::save(out, &entries).map_err(write_error(out))?;
    let mut text = contest.tournament_text(&enough_play(&entries, out)?);
    text.insert_str(
        0,
        &format!(
            "# Written by `referee contest {}`: the players who passed, as built.\n",
            origin.display()
        ),
    );
    let tournament_file = out.join("tournament.toml");
    std::fs::write(&tournament_file, text).map_err(write_error(&tournament_file))?;
    let tournament = Tournament::load(&tournament_file)?;
    Ok(Prepared {
        entries,
        tournament_file,
        tournament,
    })
}

/// The players of `entries` left to play, when there are enough for a tournament: a contest
/// whose field fell below two says so as its own (the tournament file written for it said
/// 'a tournament needs at least 2 players').
fn enough_play(entries: &[Entry], out: &Path) -> Result<Vec<toml::Table>, ContestError> {
    let playing = field::playing(entries);
    if playing.len() >= 2 {
        return Ok(playing);
    }
    let [_, list] = field::saved(out);
    Err(ContestError::TooFew {
        playing: playing.len(),
        total: entries.len(),
        list: list.display().to_string(),
    })
}

/// The contest's tournament as far as the file decides it, its players aside (each stands in
/// as a built-in bot, with its own time control and limits). A file that makes none this way
/// makes none with its players built either (too few players, a bad time control): it is
/// refused before any build.
fn shape(contest: &Contest, origin: &Path) -> Result<Tournament, ConfigError> {
    let stand_ins: Vec<toml::Table> = contest
        .players
        .iter()
        .map(|player| {
            let mut table: toml::Table = ["time", "limits"]
                .into_iter()
                .filter_map(|key| Some((key.to_string(), player.table.get(key)?.clone())))
                .collect();
            table.insert("name".into(), toml::Value::String(player.name.clone()));
            table.insert("builtin".into(), toml::Value::String("random".into()));
            table
        })
        .collect();
    let text = contest.tournament_text(&stand_ins);
    Tournament::from_text(&text, &contest.name, origin)
}
