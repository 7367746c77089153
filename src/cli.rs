//! The command line: parses arguments, runs the library, prints, and maps the referee's own
//! errors to a message and a non-zero exit (a bot's failure is a game result, exit 0).

use crate::arbiter::GameRules;
use crate::bots::Level;
use crate::check::{run_check, CheckConfig, Severity};
use crate::clock::TimeControl;
use crate::games::GameSpec;
use crate::matches::{check_match, run_match, MatchConfig, LABELS};
use crate::players::cleanup;
use crate::players::limits::Limits;
use crate::players::pids_cgroup;
use crate::players::process::ProcessOptions;
use crate::players::sandbox;
use crate::players::{PlayerSpec, Protocol};
use crate::report::{game_line, Tally};
use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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
    /// Number of games.
    #[arg(short = 'n', long, default_value_t = 2)]
    games: u32,
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

/// Prints a line of output. A closed stdout (`referee match ... | head -1`) must not stop the
/// match or panic: the games, records and bots still need to finish properly.
fn say(line: &str) {
    let mut stdout = io::stdout().lock();
    let _ = writeln!(stdout, "{line}");
    let _ = stdout.flush();
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
    cleanup::enable_orphan_reaping().context("cannot become the reaper of the bots' orphans")?;
    cleanup::stop_bots_on_interrupt().context("cannot install the interrupt handler")?;
    say(&format!("checking {} at {}", config.player, config.spec));
    let findings = run_check(&config, |finding| say(&format!("  {finding}")))?;
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
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
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
    let config = MatchConfig {
        rules: GameRules {
            spec,
            opening,
            margin: Duration::from_millis(args.margin_ms),
            startup: Duration::from_millis(args.startup_ms),
            send_legal_moves: args.legal_moves,
        },
        players,
        time,
        limits,
        games: args.games,
        record_dir: args.record,
        process: ProcessOptions {
            max_line: args.max_line,
            sandbox: args.sandbox,
            ..ProcessOptions::default()
        },
        referee_exe: std::env::current_exe().context("cannot locate the referee executable")?,
        seed: args.seed,
        replay_stalled: !args.score_stalled,
    };
    check_match(&config)?;
    cleanup::enable_orphan_reaping().context("cannot become the reaper of the bots' orphans")?;
    cleanup::stop_bots_on_interrupt().context("cannot install the interrupt handler")?;
    say(&format!("game: {}", config.rules.spec));
    for (label, player) in LABELS.iter().zip(&config.players) {
        say(&format!("player {label}: {player}"));
    }
    let mut tally = Tally::default();
    run_match(&config, |game| {
        if game.replayed {
            say(&format!(
                "game {}: {} during a stall of the referee; replaying it",
                game.played.record.number, game.played.record.result.detail
            ));
            return;
        }
        tally.add(game);
        say(&game_line(game));
        if let Some(files) = &game.files {
            say(&format!("  record: {}", files.record.display()));
        }
    })?;
    say(&tally.score_line());
    Ok(())
}
