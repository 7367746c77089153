//! `referee contest`: builds and checks a contest's players, then plays it as a tournament.

use anyhow::{bail, Result};
use clap::Args;
use referee_contest as contest;
use referee_contest::{config::Contest, field};
use referee_core::report::say;
use referee_core::tournament::carry::carry_over;
use referee_core::tournament::config::Tournament;
use referee_core::tournament::schedule::Shard;
use std::path::{Path, PathBuf};

const CONTEST_HELP: &str = "\
A contest file: every key of a tournament file (game, params, format, rounds, games, time,
limits, openings, seed, concurrency, output, ...; see docs/tournaments.md, \"The
configuration\"), and:

  sources = \"submissions\"        every folder in it is a player, named after the folder
  failed_check = \"leave-out\"     or \"keep\": a player that fails `referee check` plays, flagged
                                 [default: leave-out]
  build_limits = \"memory=4096\"   the builds' limits, as --limits takes them
  build_timeout_s = 300          wall-clock time a build may take
  build_cache = \"DIR\"            where builds are kept [default: OUT/builds]
  box_ids = \"60000-60999\"        as root, the user ids of the boxes (each build, each bot)

  A contest differs from a tournament by default: sandbox = true (every bot boxed; false is
  warned of), reuse_processes = false (a fresh process each game: same seed, same games on one
  machine and a cluster), pin_games = true (each running game on a processor of its own).

  [[players]]                    a player given by hand: source = \"DIR\" (with an optional
  name = \"alice\"                 language = \"cpp\"), or command = \"...\" or builtin = \"LEVEL\"
  source = \"late/alice\"

  [languages.python]             change a profile's detect, compile, run or version command, or
                                 add a language
  run = \"pypy3 {dir}/main.py\"

Languages built in: cpp, c, rust, go, java (class Main), python, javascript; the entry point is
main.EXT. Writes OUT/players.txt (who plays, who does not and why: the compiler's or the
check's words), OUT/tournament.toml, then the tournament's journal, records and standings,
and at the end the results page OUT/index.html: the contest's standings (with each player's
version), every entrant and why one was left out, a page per entrant, the languages with their
toolchains, every game replayable; in one file to open in a browser or publish as it is.";

#[derive(Args, Debug)]
#[command(after_help = CONTEST_HELP)]
pub(super) struct ContestArgs {
    /// The contest's file (TOML): a tournament file whose players may also be source folders
    /// (source = "DIR", or sources = "DIR" for a folder of them), see docs/contests.md.
    config: PathBuf,
    /// Builds, checks and games run at once [default: for the builds and checks, the file's
    /// concurrency, else half the CPU cores, at least 1; for the games, the file's concurrency,
    /// else as many as the machine holds, each on a processor of its own: the processors the
    /// referee may use, fewer if its available memory cannot hold twice the largest memory limit
    /// of a player for each (half the CPU cores with pin_games = false)].
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = super::at_least_one::<usize>
    )]
    jobs: Option<usize>,
    /// Continue the contest in the output directory: builds are reused from the cache, players
    /// already checked with the same build are not checked again, finished games are kept.
    /// A player whose build changed (a resubmission) is a new version: its games are played
    /// again, and so are a new player's; the other games are kept.
    #[arg(long)]
    resume: bool,
    /// Judge player NAME again (repeatable; implies --resume): check it again and replay
    /// every game it played, keeping the others.
    #[arg(long, value_name = "NAME")]
    rejudge: Vec<String>,
    /// Build every source folder again, over the cached builds and the cached failures (a
    /// failed build is not tried again otherwise: the same sources fail the same way).
    #[arg(long)]
    rebuild: bool,
    /// Build and check the players and write OUT/tournament.toml, but play nothing: for a
    /// cluster, whose tasks then play its shards (`referee tournament OUT/tournament.toml
    /// --shard K/N`).
    #[arg(long)]
    prepare_only: bool,
    /// Write only the results page (OUT/index.html) from what OUT holds: for a contest whose
    /// shards were played on a cluster (tools/slurm-contest.sh does it once they are done).
    #[arg(long, conflicts_with_all = ["prepare_only", "resume", "rejudge", "rebuild"])]
    page_only: bool,
    /// Output directory for the builds, the list of players, the tournament file, the journal,
    /// records, standings and the results page, index.html [default: the file's output, else
    /// results/NAME].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub(super) fn run(args: ContestArgs) -> Result<()> {
    let mut contest = Contest::load(&args.config)?;
    let out = args.out.unwrap_or_else(|| contest.output.clone());
    contest.set_output(&out);
    if args.page_only {
        return page_only(&contest, &out);
    }
    contest.build.rebuild = args.rebuild;
    referee_cage::boxes::use_box_ids(contest.box_ids)?;
    // Never more at once than there are players to build and check.
    let jobs = referee_core::tournament::runner::jobs(args.jobs, contest.concurrency())
        .min(contest.players.len().max(1));
    let resume = args.resume || !args.rejudge.is_empty();
    for name in &args.rejudge {
        if !contest.players.iter().any(|player| player.name == *name) {
            bail!(
                "--rejudge {}: the contest has no such player (its players: {})",
                referee_rules::quote::escape(name),
                contest
                    .players
                    .iter()
                    .map(|player| player.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let options = contest::PrepareOptions {
        jobs,
        resume,
        plays: !args.prepare_only,
        rejudge: &args.rejudge,
    };
    let host = contest::open(&contest, &args.config, &out, options)?;
    if contest.unboxed {
        eprintln!(
            "referee: warning: sandbox = false: the contestants' bots run unboxed, as this user: \
             each can read and change the others' programs, sources and builds, and this \
             user's files"
        );
    }
    say(&format!(
        "contest {}: {} players; building and checking {jobs} at a time",
        contest.name,
        contest.players.len()
    ));
    let prepared = contest::prepare(&contest, &args.config, &out, options, &host, &|entry| {
        say(&format!("  {}", field::line(entry)));
    })?;
    let [json, text] = field::saved(&out);
    say(&format!(
        "{} of {} players play (list: {} and {}); tournament file: {}",
        field::playing(&prepared.entries).len(),
        prepared.entries.len(),
        text.display(),
        json.display(),
        prepared.tournament_file.display()
    ));
    if resume {
        if let Some(carried) = carry_over(&prepared.tournament, &out, &args.rejudge)? {
            let mut said = Vec::new();
            if !carried.changed.is_empty() {
                said.push(format!(
                    "new or changed players: {}",
                    carried.changed.join(", ")
                ));
            }
            if !carried.rejudged.is_empty() {
                said.push(format!("re-judged: {}", carried.rejudged.join(", ")));
            }
            said.push(format!(
                "{} finished games kept, {} dropped (played again unless a player left)",
                carried.kept, carried.dropped
            ));
            say(&said.join("; "));
        }
    }
    if args.prepare_only {
        say(&format!(
            "to play it in N shards: referee tournament {} --shard K/N, for K = 1..N; then referee standings {}",
            prepared.tournament_file.display(),
            out.join("journal-*-of-N.jsonl").display()
        ));
        return Ok(());
    }
    super::tournament::play(
        &prepared.tournament,
        &host,
        args.jobs,
        Shard::WHOLE,
        resume,
        &out,
    )?;
    publish(
        &contest.name,
        &prepared.entries,
        prepared.tournament.records.is_some(),
        &out,
    )
}

/// Writes the results page and says where it is.
fn publish(title: &str, entries: &[field::Entry], records: bool, out: &Path) -> Result<()> {
    match contest::page::write(title, entries, records, out)? {
        Some(page) => say(&format!(
            "results page: {} ({} games): open it in a browser, no server needed",
            page.path.display(),
            page.games
        )),
        None => say("no results page: the contest keeps no game records (records = false)"),
    }
    Ok(())
}

/// `--page-only`: the page of a contest whose games were played elsewhere (a cluster's
/// shards), from the list of players and the tournament file its preparation wrote.
fn page_only(contest: &Contest, out: &Path) -> Result<()> {
    let entries = field::earlier(out);
    if entries.is_empty() {
        bail!(
            "--page-only: {} holds no list of players (players.json): prepare the contest there first (referee contest FILE --prepare-only --out {})",
            out.display(),
            out.display()
        );
    }
    let tournament = Tournament::load(&out.join("tournament.toml"))?;
    publish(&contest.name, &entries, tournament.records.is_some(), out)
}
