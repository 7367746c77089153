//! `referee tournament`: plays a tournament file's games, then prints and saves its standings.

use anyhow::Result;
use clap::Args;
use referee_cage::host::{self, Host};
use referee_core::report::{counted, say, watch_line};
use referee_core::standings::render;
use referee_core::table::check_startable;
use referee_core::tournament::config::Tournament;
use referee_core::tournament::progress::{rate, Progress};
use referee_core::tournament::runner::{self, RunOptions};
use referee_core::tournament::schedule::Shard;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub(super) struct TournamentArgs {
    /// The tournament's configuration file (TOML).
    config: PathBuf,
    /// Games played at once, never more than the games to play [default: the configuration's
    /// concurrency, else half the CPU cores, at least 1: a game runs two bots]. With exactly as many games at once as the CPU cores
    /// the referee may use, each game and its two bots run on one core of their own (a bot's
    /// threads share that core).
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = super::at_least_one::<usize>
    )]
    jobs: Option<usize>,
    /// Continue the tournament whose journal is in the output directory: finished games are
    /// not played again.
    #[arg(long)]
    resume: bool,
    /// Play only shard K of N: the game pairs whose number is K-1 modulo N. Every shard writes
    /// its own journal (journal-K-of-N.jsonl); `referee standings` merges them.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Output directory for the journal, records and standings [default: the configuration's
    /// output, else results/NAME].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub(super) fn run(args: TournamentArgs) -> Result<()> {
    let tournament = Tournament::load(&args.config)?;
    let host = host::prepare(&tournament.table.process)?;
    let out = args.out.unwrap_or_else(|| tournament.output.clone());
    play(
        &tournament,
        &host,
        args.jobs,
        args.shard.unwrap_or(Shard::WHOLE),
        args.resume,
        &out,
    )
}

/// How many of the `games` to play run at once: `asked`, else the file's concurrency, else half
/// the cores, or with `pin_games` as many games as the machine holds, each on a processor of
/// its own; never more than the games (a worker each: billions asked would abort the referee).
fn games_at_once(tournament: &Tournament, asked: Option<usize>, games: u64) -> usize {
    let jobs = if tournament.pin_games {
        let memory_per_game = tournament
            .players
            .iter()
            .filter_map(|player| player.limits.memory_mb)
            .max()
            .map(|mb| 2 * mb);
        asked
            .or(tournament.concurrency)
            .unwrap_or_else(|| runner::games_the_machine_holds(memory_per_game))
    } else {
        runner::jobs(asked, tournament.concurrency)
    };
    jobs.min(usize::try_from(games).unwrap_or(usize::MAX).max(1))
}

/// Plays `tournament` (or its `shard`) into `out` with bots of `host`, `jobs` games at a time
/// (else the file's concurrency, else half the cores, or with `pin_games` as many games as the
/// machine holds, each on a processor of its own), then prints and saves its standings:
/// what `referee tournament` does once the file is read, and `referee contest` once its
/// players are built.
pub(super) fn play(
    tournament: &Tournament,
    host: &Host,
    jobs: Option<usize>,
    shard: Shard,
    resume: bool,
    out: &Path,
) -> Result<()> {
    // Every player must be able to start before the first game: a missing program would
    // otherwise stop the tournament at that player's first game, partway through.
    check_startable(
        &tournament.players,
        tournament.table.process.working_dir.as_deref(),
    )?;
    let schedule = &tournament.schedule;
    let games = schedule.games_in(shard);
    let jobs = games_at_once(tournament, jobs, games);
    let cores = runner::cores();
    if jobs > cores {
        eprintln!(
            "referee: warning: -j {jobs} plays {jobs} games at once on {cores} CPU cores; bots may be slowed down and lose on time"
        );
    }
    let options = RunOptions {
        jobs,
        shard,
        resume,
        out: out.to_path_buf(),
        referee_exe: host.referee_exe.clone(),
        pin: tournament.pin_games,
    };
    say(&format!(
        "tournament {}: {}, {} players, {}, {} games per pairing, openings: {}",
        tournament.name,
        tournament.table.rules.spec,
        tournament.players.len(),
        tournament.format.description(),
        tournament.games_per_pairing,
        tournament.openings.description()
    ));
    say(&format!(
        "{}{}, {jobs} at a time, into {}",
        counted(games, "game"),
        if shard.is_whole() {
            String::new()
        } else {
            format!(
                " (shard {shard} of the {} in the schedule)",
                schedule.total_games()
            )
        },
        out.display()
    ));
    for player in &tournament.players {
        if let Some(note) = player
            .spec
            .protocol()
            .timing_note(tournament.table.rules.margin)
        {
            say(&format!("player {}: {}, {note}", player.label, player.spec));
        }
    }
    let mut progress = Progress::new(games, io::stderr().is_terminal(), out.to_path_buf());
    let summary = runner::run(tournament, &options, &host.supervisor, &mut progress)?;
    let seconds = summary.elapsed.as_secs_f64();
    say(&format!(
        "played {} in {:.1} s ({}); journal: {}",
        counted(summary.played, "game"),
        seconds,
        rate(summary.played as f64 / seconds.max(1e-9)),
        summary.journal.display()
    ));
    let standings = summary.standings()?;
    say("");
    say(&render::full_report(&standings));
    if let Some(bracket) = summary.bracket_report(tournament)? {
        say(&bracket);
    }
    let files: Vec<String> = summary
        .save_standings(&standings)?
        .iter()
        .map(|file| file.display().to_string())
        .collect();
    say(&format!("standings: {}", files.join(" and ")));
    if tournament.records.is_some() {
        say(&watch_line(out));
    }
    if !shard.is_whole() {
        say(&format!(
            "when every shard is done: referee standings {}",
            runner::shard_journals(out, shard).display()
        ));
    }
    Ok(())
}
