//! The command line: parses arguments, runs the library, prints, and maps the referee's own
//! errors to a message and a non-zero exit (a bot's failure is a game result, exit 0). One
//! module per command.

use anyhow::{Context, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use referee_rules::games::{opening_moves, GameSpec};
use std::path::PathBuf;
use std::process::ExitCode;

mod arena;
mod bot;
mod check;
mod contest;
mod export;
mod r#match;
mod perft;
mod play;
mod report;
mod serve;
mod standings;
mod tournament;

const GAMES_HELP: &str = "\
Games and their parameters (-p key=value):
  tictactoe   3x3, three in a row
  gomoku      five in a row on a 15x15 board, or size=N (5..20; Gomocup's freestyle plays 20);
              exact=yes: only exactly five wins (default no: five or more);
              rule=renju|caro (default none): Gomocup's rule sets;
              swap=swap1|swap2 (default none): a swap opening: the first player places three
              stones (Black, White, Black), then the second answers 'swap' (takes Black) or
              White's stone 'x y'; swap2 also allows 'x y more' (White's 4th stone, then
              Black's 5th) after which the first player chooses the same way
  mnk         width, height (3..20; size=N sets both; default 15), line (3..10, default 5,
              at most the longer side), exact (yes|no), rule (none|renju|caro),
              swap (none|swap1|swap2; needs line 4 or more)
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
    Match(Box<r#match::MatchArgs>),
    /// Check that a bot follows the protocol: plays it against the built-in random bot (a game
    /// as each side, then the game's edge cases) and says in plain words what it does wrong.
    /// Exits 0 when it found no problem, 1 when it did.
    #[command(after_help = GAMES_HELP)]
    Check(check::CheckArgs),
    /// Play a tournament described in a TOML file: a round robin, a gauntlet, a Swiss
    /// tournament (format = "swiss", rounds = N) or a knock-out (format = "knockout"), openings
    /// played with both colours, several games at once, every result journaled (see
    /// docs/tournaments.md).
    Tournament(tournament::TournamentArgs),
    /// Run a contest from a TOML file: build every player's sources with its language's
    /// profile (in the sandbox, cached), check each with `referee check` (leaving out, or
    /// flagging, those that fail), then play the players who pass as a tournament (see
    /// docs/contests.md).
    Contest(contest::ContestArgs),
    /// Print the standings, ratings and crosstable of tournament journals: one run's, or the
    /// journals of every shard of a tournament, merged.
    Standings(standings::StandingsArgs),
    /// Play a game at the console: you against a bot (by default the strongest built-in bot,
    /// you moving first), two people at one keyboard, or two bots shown move by move. Type help
    /// at your turn for the commands and how to write moves.
    #[command(after_help = GAMES_HELP)]
    Play(play::PlayArgs),
    /// Count the move sequences of a given length from the start (checks a move generator).
    #[command(after_help = GAMES_HELP)]
    Perft(perft::PerftArgs),
    /// Run a built-in bot on stdin/stdout, speaking protocol.md (what `builtin:LEVEL` players
    /// run). It plays whichever game the referee's `game` line names.
    Bot(bot::BotArgs),
    /// Export game records as PDN (checkers: the ballot, the result and each move's time as
    /// comments) or SGF (tic-tac-toe, gomoku, mnk: FF[4], GM[4], each move's time as its
    /// comment, as c-gomoku-cli writes them), or a tournament's records file back as each
    /// game's own files (--files). Example: referee export records/ --out exported
    Export(export::ExportArgs),
    /// Serve a web viewer of recorded games on this machine: an index with filters, every game
    /// replayable move by move with each bot's protocol lines and stderr, tournament standings,
    /// and games being played shown live. Example: referee serve results/ then open the
    /// address it prints.
    Serve(serve::ServeArgs),
    /// Write one self-contained HTML file with the standings and every game replayable, to
    /// publish results without a server. Example: referee report site --from results/bundled
    Report(report::ReportArgs),
    /// Run an arena, where bots live: ladders played continuously and rated, bots uploaded as
    /// sources, built and validated (see docs/arena.md). Start with: referee arena init
    /// DIR, then referee arena serve DIR.
    Arena(arena::ArenaArgs),
}

/// Runs the command line; errors are printed as `referee: ...` with exit code 2.
pub(crate) fn main() -> ExitCode {
    // A negative number given to an option is read as its value, so that the parser says
    // the value is invalid ("invalid digit") rather than advising `-- -5`, which no command
    // of the referee takes.
    let command = Cli::command().mut_subcommands(|command| command.allow_negative_numbers(true));
    let cli = Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|error| error.exit());
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("referee: {}", message(&error));
            ExitCode::from(2)
        }
    }
}

/// An error and its causes, joined by ': ', leaving out a cause its error already says (as
/// some libraries' errors do: 'error returned from database: X' caused by 'X').
fn message(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain().map(ToString::to_string) {
        if text.is_empty() {
            text = cause;
        } else if !text.ends_with(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    text
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Match(args) => r#match::run(*args),
        Command::Check(args) => return check::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Contest(args) => contest::run(args),
        Command::Standings(args) => standings::run(args),
        Command::Play(args) => play::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bot(args) => bot::run(args),
        Command::Export(args) => export::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Report(args) => report::run(args),
        Command::Arena(args) => arena::run(args),
    }
    .map(|()| ExitCode::SUCCESS)
}

/// A count of at least 1 (`--games`, `-j`), read by clap. Negative numbers reach it (the
/// argument allows them), so that `--games -1` is told what is wrong rather than to write
/// `-- -1`.
fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    text.parse::<T>()
        .ok()
        .filter(|n| *n >= T::from(1))
        .ok_or_else(|| format!("'{text}' is not a whole number of 1 or more"))
}

/// An opening given as one argument (see [`opening_moves`]); none when not given.
/// The directory games are recorded into, made now: a path that cannot be one (under a file,
/// or where this user may not write) is refused before any game is played, not after the first.
fn record_dir(dir: Option<PathBuf>) -> Result<Option<PathBuf>> {
    if let Some(dir) = &dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot make the record directory {}", dir.display()))?;
    }
    Ok(dir)
}

fn moves(spec: &GameSpec, list: Option<&str>) -> Vec<String> {
    list.map(|text| opening_moves(spec, text))
        .unwrap_or_default()
}
