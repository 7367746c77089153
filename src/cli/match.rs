//! `referee match`: games between two bots, sides alternating, each game's line as it ends,
//! then the score (and an SPRT's progress and verdict).

use anyhow::{bail, Context, Result};
use clap::{Arg, Args};
use referee_cage::host;
use referee_cage::limits::Limits;
use referee_core::matches::{check_match, play_match, MatchConfig, LABELS};
use referee_core::players::PlayerSpec;
use referee_core::report::{
    counted, elo_lines, game_line, replay_line, say, score_line, sprt_header, sprt_line,
    sprt_verdict, stderr_tail_lines, watch_line,
};
use referee_core::settings::Settings;
use referee_core::standings::sprt::SprtSpec;
use referee_core::table::{Player, Recorder, Venue};
use referee_records::export::is_record_name;
use referee_rules::clock::TimeControl;
use referee_rules::games::GameSpec;
use std::path::PathBuf;

/// The order `--help` lists the options in: each player's own options next to the setting
/// they override (clap would list the flattened settings as one block).
const HELP_ORDER: &[&str] = &[
    "games",
    "params",
    "time",
    "time_a",
    "time_b",
    "margin_ms",
    "startup_ms",
    "legal_moves",
    "opening",
    "record",
    "limits",
    "limits_a",
    "limits_b",
    "gomocup_memory_mb",
    "sandbox",
    "max_line",
    "seed",
    "score_stalled",
    "sprt",
];

#[derive(Args, Debug)]
#[command(mut_args(in_help_order))]
pub(super) struct MatchArgs {
    /// The game (see below).
    game: String,
    /// Player A: a command line such as "python3 bots/python/mnk.py", or a built-in bot:
    /// builtin:random, builtin:greedy or builtin:strong (also builtin:1, 2, 3). A bot written
    /// for another system runs unchanged with its protocol as a prefix: gomocup:./pbrain-foo
    /// (gomoku and mnk with line=5), codingame:CMD, theaigames:CMD, riddles:CMD (uttt).
    player_a: String,
    /// Player B, the same way. A moves first in odd-numbered games, B in even ones.
    player_b: String,
    /// Number of games (default 2; with --sprt, as many as the test needs). An even number
    /// plays each side equally often: games 1 and 2, 3 and 4, ... are pairs with the sides
    /// swapped, which the Elo estimate counts.
    #[arg(short = 'n', long, allow_negative_numbers = true, value_parser = super::at_least_one::<u32>)]
    games: Option<u32>,
    /// Game parameter, key=value (repeatable), e.g. -p size=10 -p line=4.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Time control of player A only, overriding --time where it names a key.
    #[arg(long, value_name = "SPEC")]
    time_a: Option<String>,
    /// Time control of player B only, overriding --time where it names a key.
    #[arg(long, value_name = "SPEC")]
    time_b: Option<String>,
    /// Moves played before the bots take over, separated by commas, e.g. "4 4,3 3"; for m,n,k
    /// games also Gomocup's offsets from the centre, e.g. "0,0, 1,0, 1,1".
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
    /// Write a JSON record, a transcript and the bots' stderr for every game into DIR (a new
    /// or empty one: an earlier run's records there are not written over).
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Resource limits of player A only, overriding --limits where it names a key.
    #[arg(long, value_name = "SPEC")]
    limits_a: Option<String>,
    /// Resource limits of player B only, overriding --limits where it names a key.
    #[arg(long, value_name = "SPEC")]
    limits_b: Option<String>,
    /// Play game pairs (sides swapped) until a sequential probability ratio test decides
    /// whether A is stronger than B by elo1 rather than elo0 (logistic Elo): elo0=N,elo1=N
    /// and optionally alpha=P,beta=P (default 0.05 each), e.g. elo0=0,elo1=5. --games caps it.
    #[arg(long, value_name = "SPEC")]
    sprt: Option<SprtSpec>,
    #[command(flatten)]
    settings: Settings,
}

fn in_help_order(arg: Arg) -> Arg {
    match HELP_ORDER.iter().position(|id| arg.get_id() == *id) {
        Some(at) => arg.display_order(at),
        None => arg,
    }
}

pub(super) fn run(args: MatchArgs) -> Result<()> {
    let settings = &args.settings;
    let spec = GameSpec::from_words(&args.game, &args.params)?;
    let [player_a, player_b] = [
        PlayerSpec::parse(&args.player_a).context("player A")?,
        PlayerSpec::parse(&args.player_b).context("player B")?,
    ];
    let games = match (args.games, args.sprt) {
        (Some(games), _) => Some(games),
        (None, Some(_)) => None,
        (None, None) => Some(2),
    };
    if let Some(note) = games.and_then(odd_games_note) {
        eprintln!("referee: note: {note}");
    }
    if let Err(error) = settings.validate() {
        bail!("--{} must be {error}", error.key().replace('_', "-"));
    }
    let base = settings.time_control().context("--time")?;
    let time = [
        TimeControl::parse_over(base, args.time_a.as_deref().unwrap_or("")).context("--time-a")?,
        TimeControl::parse_over(base, args.time_b.as_deref().unwrap_or("")).context("--time-b")?,
    ];
    let table = settings.table(spec.clone(), true);
    let host = host::prepare(&table.process)?;
    let base = settings.limits().context("--limits")?;
    let limits = [
        Limits::parse_over(base, args.limits_a.as_deref().unwrap_or("")).context("--limits-a")?,
        Limits::parse_over(base, args.limits_b.as_deref().unwrap_or("")).context("--limits-b")?,
    ];
    if let Some(warning) = host::processes_limit_warning(&limits) {
        eprintln!("referee: warning: {warning}");
    }
    let player = |at: usize, spec| Player {
        label: LABELS[at].to_string(),
        spec,
        time: time[at],
        limits: limits[at],
    };
    let opening = super::moves(&spec, args.opening.as_deref());
    let config = MatchConfig {
        venue: Venue {
            settings: table,
            referee_exe: host.referee_exe,
            records: record_dir(args.record)?.map(Recorder::Files),
        },
        players: [player(0, player_a), player(1, player_b)],
        opening,
        games,
    };
    check_match(&config)?;
    say(&format!("game: {}", config.venue.settings.rules.spec));
    let margin = config.venue.settings.rules.margin;
    for player in &config.players {
        // A protocol's own timing is stated where it differs from the referee's.
        let timing = player.spec.protocol().timing_note(margin);
        say(&format!(
            "player {}: {}{}",
            player.label,
            player.spec,
            timing.map(|note| format!(" ({note})")).unwrap_or_default()
        ));
    }
    if let Some(sprt) = &args.sprt {
        say(&sprt_header(sprt));
    }
    let score = play_match(
        &config,
        &host.supervisor,
        args.sprt,
        |game, score, completed_pair| {
            say(&game_line(game));
            for line in stderr_tail_lines(game) {
                say(&line);
            }
            if let Some(files) = game.files() {
                say(&format!("  record: {}", files.record.display()));
            }
            if let (Some(sprt), true) = (&score.sprt, completed_pair) {
                say(&sprt_line(sprt, score));
            }
        },
        |game| say(&replay_line(game)),
    )?;
    say(&score_line(&score.tally));
    for line in elo_lines(&score) {
        say(&line);
    }
    if let Some(sprt) = &score.sprt {
        say(&sprt_verdict(sprt, &score));
    }
    if let Some(Recorder::Files(dir)) = &config.venue.records {
        say(&watch_line(dir));
    }
    Ok(())
}

/// What an odd number of games does to the sides: A moves first once more than B, and the last
/// game has no partner with the sides swapped. (A single game is a try-out: nothing to say.)
fn odd_games_note(games: u32) -> Option<String> {
    (games % 2 == 1 && games > 1).then(|| {
        format!(
            "with {} A moves first in {} and B in {}: the first player's advantage goes to A, \
             and game {games} has no partner with the sides swapped, so the Elo estimate leaves \
             it out; an even number (--games {}) plays each side equally often",
            counted(games.into(), "game"),
            games / 2 + 1,
            games / 2,
            games + 1
        )
    })
}

/// The directory the games are recorded into (see [`super::record_dir`]), refused when it
/// holds records already, as a tournament's output is: this match's would write over an
/// earlier run's, or over some of them and leave two runs mixed as one.
fn record_dir(dir: Option<PathBuf>) -> Result<Option<PathBuf>> {
    let dir = super::record_dir(dir)?;
    if let Some(dir) = &dir {
        let earlier = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read the record directory {}", dir.display()))?
            .flatten()
            .any(|entry| entry.file_name().to_str().is_some_and(is_record_name));
        if earlier {
            bail!(
                "the record directory {} holds an earlier run's records: record into a new \
                 one, or empty it",
                dir.display()
            );
        }
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn help_lists_every_option_in_order() {
        let command = super::super::Cli::command();
        let command = command.find_subcommand("match").unwrap();
        let mut options: Vec<(usize, &str)> = command
            .get_opts()
            .map(|arg| (arg.get_display_order(), arg.get_id().as_str()))
            .collect();
        options.sort_unstable();
        let listed: Vec<&str> = options.into_iter().map(|(_, id)| id).collect();
        assert_eq!(listed, HELP_ORDER);
    }

    #[test]
    fn an_odd_number_of_games_is_explained() {
        assert_eq!(odd_games_note(2), None);
        assert_eq!(odd_games_note(1), None);
        let note = odd_games_note(3).unwrap();
        assert!(
            note.starts_with("with 3 games A moves first in 2 and B in 1")
                && note.ends_with("an even number (--games 4) plays each side equally often"),
            "{note}"
        );
    }
}
