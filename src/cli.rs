//! The command line: parses arguments, runs the library, prints, and maps the referee's own
//! errors to a message and a non-zero exit (a bot's failure is a game result, exit 0).

use crate::arbiter::GameRules;
use crate::bots::Level;
use crate::check::{run_check, CheckConfig, Severity};
use crate::clock::TimeControl;
use crate::games::GameSpec;
use crate::matches::{check_match, run_match, MatchConfig, LABELS};
use crate::players::limits::Limits;
use crate::players::pids_cgroup;
use crate::players::process::ProcessOptions;
use crate::players::sandbox;
use crate::players::supervisor::Supervisor;
use crate::players::{PlayerSpec, Protocol};
use crate::report::{game_line, say, Tally};
use crate::standings::render;
use crate::standings::sprt::{Decision, PairedTest, SprtSpec};
use crate::table::{Entrant, Venue};
use crate::tournament::config::Tournament;
use crate::tournament::merge::merge;
use crate::tournament::progress::Progress;
use crate::tournament::runner::{self, RunOptions};
use crate::tournament::schedule::Shard;
use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use std::io::{self, IsTerminal};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

mod play;

const GAMES_HELP: &str = "\
Games and their parameters (-p key=value):
  tictactoe   3x3, three in a row
  gomoku      15x15, five in a row; exact=yes: only exactly five wins (default no: five or more)
  mnk         width, height (3..20; size=N sets both; default 15), line (3..10, default 5,
              at most the longer side), exact (yes|no)
  uttt        ultimate tic-tac-toe; tiebreak=none (a draw when no move is left, default)
              or tiebreak=codingame (more small boards won wins)
  checkers    English checkers (Black is the first player); fen=the start position in PDN
              FEN, e.g. fen=W:W18,K30:B14,K3 (default: the standard start),
              repetition=N (a draw when a position occurs N times; 2..10, default 3),
              moverule=N (a draw after N moves each without a man move or a capture;
              0..200, default 40, 0 = off)
  dots        dots and boxes; rows, cols: boxes (1..10, default 3; size=N sets both); a player
              who completes a box moves again

Moves: 'x y' (column, row, from 0 at the top left) for tictactoe, gomoku, mnk, uttt;
PDN '11-15', '22x15', '9x18x27' (every landing square) for checkers, where 'MOVE draw' offers
a draw and 'draw' accepts one; 'h x y' / 'v x y' for dots: the line from dot x y (column, row)
to the right / downwards. See protocol.md.";

#[derive(Parser, Debug)]
#[command(
    name = "referee",
    version,
    about = "Referee and bot harness for turn-based board games",
    long_about = "Referee and bot harness for turn-based board games.\n\n\
        Bots are programs in any language that speak the line protocol of protocol.md over \
        stdin/stdout. The referee starts them, enforces the time limits, checks every move \
        against the rules and records the games.",
    after_help = GAMES_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play games between two bots, alternating sides, and print the score.
    #[command(after_help = GAMES_HELP)]
    Match(Box<MatchArgs>),
    /// Check that a bot follows the protocol: plays it against the built-in random bot (a game
    /// as each side, then the game's edge cases) and says in plain words what it does wrong.
    /// Exits 0 when it found no problem, 1 when it did.
    #[command(after_help = GAMES_HELP)]
    Check(CheckArgs),
    /// Play a tournament described in a TOML file: a round robin or a gauntlet, openings played
    /// with both colours, several games at once, every result journaled (see README.md,
    /// "Tournaments").
    Tournament(TournamentArgs),
    /// Print the standings, ratings and crosstable of tournament journals: one run's, or the
    /// journals of every shard of a tournament, merged.
    Standings(StandingsArgs),
    /// Play a game at the console: you against a bot (by default the strongest built-in bot,
    /// you moving first), two people at one keyboard, or two bots shown move by move. Type help
    /// at your turn for the commands and how to write moves.
    #[command(after_help = GAMES_HELP)]
    Play(play::PlayArgs),
    /// Count the move sequences of a given length from the start (checks a move generator).
    #[command(after_help = GAMES_HELP)]
    Perft {
        /// The game (see below).
        game: String,
        /// Number of moves (plies).
        depth: u32,
        /// Game parameter, key=value (repeatable).
        #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
        params: Vec<String>,
    },
    /// Run a built-in bot on stdin/stdout, speaking protocol.md (what `builtin:LEVEL` players
    /// run). It plays whichever game the referee's `game` line names.
    Bot {
        /// How strongly it plays: random (or 1), greedy (or 2), strong (or 3).
        level: Level,
        /// Seed for the bot's random choices: the same seed replays the same game, except
        /// where a search is cut off by the clock.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

#[derive(Args, Debug)]
struct MatchArgs {
    /// The game (see below).
    game: String,
    /// Player A: a command line such as "python3 bots/python/mnk.py", or a built-in bot:
    /// builtin:random, builtin:greedy or builtin:strong (also builtin:1, 2, 3). A bot written
    /// for another system runs unchanged with its protocol as a prefix: gomocup:./pbrain-foo
    /// (gomoku and mnk with line=5), codingame:CMD, theaigames:CMD, riddles:CMD (uttt).
    player_a: String,
    /// Player B, the same way. A moves first in odd-numbered games, B in even ones.
    player_b: String,
    /// Number of games (default 2; with --sprt, as many as the test needs).
    #[arg(short = 'n', long)]
    games: Option<u32>,
    /// Game parameter, key=value (repeatable), e.g. -p size=10 -p line=4.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Time control for both players, in milliseconds: move=N (limit per move, default 1000),
    /// bank=N (a time bank instead), increment=N (added to the bank after each move),
    /// first=N (limit of a player's first move, not charged to the bank); the preset
    /// codingame is move=100,first=1000.
    #[arg(long, value_name = "SPEC", default_value = "move=1000")]
    time: String,
    /// Time control of player A only, overriding --time where it names a key.
    #[arg(long, value_name = "SPEC")]
    time_a: Option<String>,
    /// Time control of player B only, overriding --time where it names a key.
    #[arg(long, value_name = "SPEC")]
    time_b: Option<String>,
    /// A reply may arrive this many milliseconds after the limit and still count.
    #[arg(long, default_value_t = 10)]
    margin_ms: u64,
    /// Time a bot has to answer `start` with `ready`, not charged to its clock.
    #[arg(long, default_value_t = 5000)]
    startup_ms: u64,
    /// Send the list of legal moves before every turn (for beginners' bots).
    #[arg(long)]
    legal_moves: bool,
    /// Moves played before the bots take over, separated by commas, e.g. "4 4,3 3".
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
    /// Write a JSON record, a transcript and the bots' stderr for every game into DIR.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Resource limits for both bots: memory=MiB (address space, default 4096), cpu=seconds
    /// (default none), processes=N (processes and threads at once, default none; enforced with
    /// a pids cgroup where the referee can make one, otherwise with RLIMIT_NPROC), filesize=MiB
    /// (default 64), files=N (open files, default 1024); 'none' lifts one, e.g. memory=none.
    #[arg(long, value_name = "SPEC", default_value = "")]
    limits: String,
    /// Resource limits of player A only, overriding --limits where it names a key.
    #[arg(long, value_name = "SPEC")]
    limits_a: Option<String>,
    /// Resource limits of player B only, overriding --limits where it names a key.
    #[arg(long, value_name = "SPEC")]
    limits_b: Option<String>,
    /// Run every bot under bubblewrap: no network, read-only system, a private scratch
    /// directory (its HOME and TMPDIR), its own PID namespace and session.
    #[arg(long)]
    sandbox: bool,
    /// Longest line, in bytes, accepted from a bot.
    #[arg(long, default_value_t = crate::protocol::DEFAULT_MAX_LINE)]
    max_line: usize,
    /// Seed handed to built-in bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Score a timeout that coincided with a stall of the referee's own machine (longer than
    /// the margin) instead of replaying the game.
    #[arg(long)]
    score_stalled: bool,
    /// Play game pairs (sides swapped) until a sequential probability ratio test decides
    /// whether A is stronger than B by elo1 rather than elo0 (logistic Elo): elo0=N,elo1=N
    /// and optionally alpha=P,beta=P (default 0.05 each), e.g. elo0=0,elo1=5. --games caps it.
    #[arg(long, value_name = "SPEC")]
    sprt: Option<SprtSpec>,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The game (see below).
    game: String,
    /// The bot: a command line such as "python3 bots/python/uttt.py".
    player: String,
    /// Game parameter, key=value (repeatable).
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// The bot's time control, as for `referee match --time`.
    #[arg(long, value_name = "SPEC", default_value = "move=1000")]
    time: String,
    /// Time the bot has to answer `start` with `ready`.
    #[arg(long, default_value_t = 5000)]
    startup_ms: u64,
}

#[derive(Args, Debug)]
struct TournamentArgs {
    /// The tournament's configuration file (TOML).
    config: PathBuf,
    /// Games played at once [default: the configuration's concurrency, else half the CPU cores,
    /// at least 1: a game runs two bots].
    #[arg(short = 'j', long, value_name = "N")]
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

#[derive(Args, Debug)]
struct StandingsArgs {
    /// Journal files (journal.jsonl, or every shard's journal-K-of-N.jsonl).
    #[arg(required = true, value_name = "JOURNAL")]
    journals: Vec<PathBuf>,
    /// Also write the standings, ratings and crosstable as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write one CSV row per player (standings and ratings) to FILE.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

/// Runs the command line; errors are printed as `referee: ...` with exit code 2.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("referee: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Match(args) => run_match_command(*args),
        Command::Check(args) => return run_check_command(args),
        Command::Tournament(args) => run_tournament_command(args),
        Command::Standings(args) => run_standings_command(args),
        Command::Play(args) => play::run(args),
        Command::Perft {
            game,
            depth,
            params,
        } => {
            let spec = GameSpec::from_words(&game, &params)?;
            say(&spec.perft(depth).to_string());
            Ok(())
        }
        Command::Bot { level, seed } => {
            let stdin = io::stdin().lock();
            let stdout = io::stdout().lock();
            crate::bots::run(level, seed, stdin, stdout)?;
            Ok(())
        }
    }
    .map(|()| ExitCode::SUCCESS)
}

fn run_check_command(args: CheckArgs) -> Result<ExitCode> {
    let player = PlayerSpec::parse(&args.player).context("the player")?;
    if player.protocol() != Protocol::Native {
        bail!(
            "referee check tests bots of the referee's own protocol; a {} bot can play \
             `referee match` as it is",
            player.protocol()
        );
    }
    let config = CheckConfig {
        spec: GameSpec::from_words(&args.game, &args.params)?,
        player,
        time: TimeControl::parse_over(TimeControl::default(), &args.time)?,
        margin: Duration::from_millis(10),
        startup: Duration::from_millis(args.startup_ms),
        process: ProcessOptions::default(),
        referee_exe: std::env::current_exe().context("cannot locate the referee executable")?,
    };
    let supervisor = Supervisor::for_command()?;
    say(&format!("checking {} at {}", config.player, config.spec));
    let findings = run_check(&config, &supervisor, |finding| say(&format!("  {finding}")))?;
    let count = |severity| findings.iter().filter(|f| f.severity == severity).count();
    let (problems, warnings) = (count(Severity::Problem), count(Severity::Warning));
    say(&format!(
        "{}: {problems} problem(s), {warnings} warning(s)",
        if problems == 0 {
            "compliant"
        } else {
            "not compliant"
        }
    ));
    Ok(if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn run_match_command(args: MatchArgs) -> Result<()> {
    let spec = GameSpec::from_words(&args.game, &args.params)?;
    let players = [
        PlayerSpec::parse(&args.player_a).context("player A")?,
        PlayerSpec::parse(&args.player_b).context("player B")?,
    ];
    let games = match (args.games, args.sprt) {
        (Some(0), _) => bail!("--games must be at least 1"),
        (Some(games), _) => Some(games),
        (None, Some(_)) => None,
        (None, None) => Some(2),
    };
    if args.max_line < 16 {
        bail!("--max-line must be at least 16 bytes");
    }
    let base = TimeControl::parse_over(TimeControl::default(), &args.time)?;
    let time = [
        TimeControl::parse_over(base, args.time_a.as_deref().unwrap_or(""))?,
        TimeControl::parse_over(base, args.time_b.as_deref().unwrap_or(""))?,
    ];
    if args.sandbox {
        sandbox::check_available()?;
    }
    let base_limits = Limits::parse_over(Limits::default(), &args.limits)?;
    let limits = [
        Limits::parse_over(base_limits, args.limits_a.as_deref().unwrap_or(""))?,
        Limits::parse_over(base_limits, args.limits_b.as_deref().unwrap_or(""))?,
    ];
    if limits.iter().any(|l| l.processes.is_some()) {
        if let Err(why) = pids_cgroup::available() {
            eprintln!(
                "referee: warning: {why}, so the processes limit falls back to RLIMIT_NPROC, \
                 which counts every process of the user{}",
                if nix::unistd::geteuid().is_root() {
                    " and is not enforced for root: it will not hold"
                } else {
                    ""
                }
            );
        }
    }
    let opening = args
        .opening
        .as_deref()
        .map(|text| text.split(',').map(|m| m.trim().to_string()).collect())
        .unwrap_or_default();
    let [player_a, player_b] = players;
    let [time_a, time_b] = time;
    let [limits_a, limits_b] = limits;
    let entrant = |label: &str, player, time, limits| Entrant {
        label: label.to_string(),
        player,
        time,
        limits,
    };
    let config = MatchConfig {
        venue: Venue {
            rules: GameRules {
                spec,
                margin: Duration::from_millis(args.margin_ms),
                startup: Duration::from_millis(args.startup_ms),
                send_legal_moves: args.legal_moves,
            },
            process: ProcessOptions {
                max_line: args.max_line,
                sandbox: args.sandbox,
                ..ProcessOptions::default()
            },
            referee_exe: std::env::current_exe().context("cannot locate the referee executable")?,
            seed: args.seed,
            record_dir: args.record,
            replay_stalled: !args.score_stalled,
            reuse_processes: true,
        },
        entrants: [
            entrant(LABELS[0], player_a, time_a, limits_a),
            entrant(LABELS[1], player_b, time_b, limits_b),
        ],
        opening,
        games,
    };
    check_match(&config)?;
    let supervisor = Supervisor::for_command()?;
    say(&format!("game: {}", config.venue.rules.spec));
    for entrant in &config.entrants {
        say(&format!("player {}: {}", entrant.label, entrant.player));
    }
    if let Some(sprt) = &args.sprt {
        let (lower, upper) = sprt.bounds();
        say(&format!(
            "sprt: {sprt} (logistic Elo of A over B); LLR bounds ({lower:.2}, {upper:.2})"
        ));
    }
    let mut tally = Tally::default();
    let mut test = args.sprt.map(PairedTest::new);
    let mut decision = Decision::Continue;
    run_match(
        &config,
        &supervisor,
        |game| {
            tally.add(game);
            say(&game_line(game));
            if let Some(files) = &game.files {
                say(&format!("  record: {}", files.record.display()));
            }
            let Some(test) = test.as_mut() else {
                return ControlFlow::Continue(());
            };
            let points_a = match game.winner() {
                None => 0.5,
                Some(player) => f64::from(u8::from(player == 0)),
            };
            if let Some((llr, verdict)) = test.add_game(points_a) {
                say(&sprt_line(test, llr));
                decision = verdict;
            }
            if decision == Decision::Continue {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        },
        |game| {
            say(&format!(
                "game {}: {} during a stall of the referee; replaying it",
                game.played.record.number, game.played.record.result.detail
            ))
        },
    )?;
    say(&tally.score_line());
    if let Some(test) = &test {
        let (lower, upper) = test.spec.bounds();
        let llr = test.spec.llr(&test.pairs);
        say(&match decision {
            Decision::H1 => format!(
                "sprt: H1 accepted (LLR {llr:.2} >= {upper:.2}): A is stronger than B by {} Elo rather than {}",
                test.spec.elo1, test.spec.elo0
            ),
            Decision::H0 => format!(
                "sprt: H0 accepted (LLR {llr:.2} <= {lower:.2}): A is not stronger than B by {} Elo",
                test.spec.elo1
            ),
            Decision::Continue => format!(
                "sprt: no decision after {} pairs (LLR {llr:.2}, bounds {lower:.2}, {upper:.2}): the --games cap was reached",
                test.pairs.pairs()
            ),
        });
    }
    Ok(())
}

/// `sprt: 12 pairs [0, 2, 5, 4, 1]  LLR 1.23 (-2.94, 2.94)  elo +35 +/- 20`
fn sprt_line(test: &PairedTest, llr: f64) -> String {
    let (lower, upper) = test.spec.bounds();
    let mut line = format!(
        "sprt: {} pairs {}  LLR {llr:.2} ({lower:.2}, {upper:.2})",
        test.pairs.pairs(),
        test.pairs
    );
    if let Some((elo, error)) = test.pairs.elo_estimate() {
        line.push_str(&format!("  elo {elo:+.1} +/- {error:.1}"));
    }
    line
}

fn run_tournament_command(args: TournamentArgs) -> Result<()> {
    let tournament = Tournament::load(&args.config)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = args
        .jobs
        .or(tournament.concurrency)
        .unwrap_or((cores / 2).max(1));
    if jobs == 0 {
        bail!("-j must be at least 1");
    }
    if jobs > cores {
        eprintln!(
            "referee: warning: -j {jobs} plays {jobs} games at once on {cores} CPU cores; bots may be slowed down and lose on time"
        );
    }
    if tournament.process.sandbox {
        sandbox::check_available()?;
    }
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let out = args.out.unwrap_or_else(|| tournament.output.clone());
    let options = RunOptions {
        jobs,
        shard,
        resume: args.resume,
        out: out.clone(),
        referee_exe: std::env::current_exe().context("cannot locate the referee executable")?,
    };
    let supervisor = Supervisor::for_command()?;
    let schedule = &tournament.schedule;
    let games = schedule.games_in(shard);
    say(&format!(
        "tournament {}: {}, {} players, {}, {} games per pairing, openings: {}",
        tournament.name,
        tournament.rules.spec,
        tournament.entrants.len(),
        runner::identity(&tournament).format,
        tournament.games_per_pairing,
        tournament.openings.description()
    ));
    say(&format!(
        "{} games{}, {jobs} at a time, into {}",
        games,
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
    let mut progress = Progress::new(games, io::stderr().is_terminal());
    let summary = runner::run(&tournament, &options, &supervisor, &mut progress)?;
    let seconds = summary.elapsed.as_secs_f64();
    say(&format!(
        "played {} games in {:.1} s ({:.2} games/s); journal: {}",
        summary.played,
        seconds,
        summary.played as f64 / seconds.max(1e-9),
        summary.journal.display()
    ));
    let merged = merge(std::slice::from_ref(&summary.journal))?;
    let standings = merged.tally.standings();
    say("");
    say(&render::full_report(&standings));
    let stem = summary
        .journal
        .file_stem()
        .map(|s| s.to_string_lossy().replacen("journal", "standings", 1))
        .unwrap_or_else(|| "standings".into());
    let json = out.join(format!("{stem}.json"));
    let csv = out.join(format!("{stem}.csv"));
    render::write_json(&json, &standings)
        .with_context(|| format!("cannot write {}", json.display()))?;
    render::write_csv(&csv, &standings)
        .with_context(|| format!("cannot write {}", csv.display()))?;
    say(&format!(
        "standings: {} and {}",
        json.display(),
        csv.display()
    ));
    if !shard.is_whole() {
        say(&format!(
            "when every shard is done: referee standings {}",
            out.join(format!("journal-*-of-{}.jsonl", shard.count))
                .display()
        ));
    }
    Ok(())
}

fn run_standings_command(args: StandingsArgs) -> Result<()> {
    let merged = merge(&args.journals)?;
    for note in &merged.notes {
        eprintln!("referee: note: {note}");
    }
    let standings = merged.tally.standings();
    say(&render::full_report(&standings));
    if let Some(path) = &args.json {
        render::write_json(path, &standings)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.csv {
        render::write_csv(path, &standings)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
