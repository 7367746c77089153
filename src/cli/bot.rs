//! `referee bot`: a built-in bot on stdin/stdout, what `builtin:LEVEL` players run.

use anyhow::Result;
use clap::Args;
use referee_bots::BotSpec;
use std::io;
use std::time::Duration;

#[derive(Args, Debug)]
pub(super) struct BotArgs {
    /// How strongly it plays: random (or 1), greedy (or 2), strong (or 3). After a comma,
    /// nodes=N searches N positions a move (playouts in uttt) within the clock, so that the
    /// same seed plays the same moves on any machine at any load: strong,nodes=20000.
    bot: BotSpec,
    /// Seed for the bot's random choices: the same seed replays the same game, except
    /// where a search is cut off by the clock (never with nodes=N, as long as the search fits).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The start-up allowance of each game's setup, in milliseconds (`referee match
    /// --startup-ms`): a bot with a table to build or load (dots and boxes up to 3x3; checkers'
    /// endgame database for a game set up with six pieces or fewer) waits for it up to four
    /// fifths of this before answering `ready`.
    #[arg(long, default_value_t = referee_bots::DEFAULT_STARTUP.as_millis() as u64)]
    startup_ms: u64,
}

pub(super) fn run(args: BotArgs) -> Result<()> {
    referee_bots::run(
        args.bot,
        args.seed,
        Duration::from_millis(args.startup_ms),
        io::stdin().lock(),
        io::stdout(),
    )?;
    Ok(())
}
