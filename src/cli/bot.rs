//! `referee bot`: a built-in bot on stdin/stdout, what `builtin:LEVEL` players run.

use anyhow::Result;
use clap::Args;
use referee_bots::Level;
use std::io;

#[derive(Args, Debug)]
pub(super) struct BotArgs {
    /// How strongly it plays: random (or 1), greedy (or 2), strong (or 3).
    level: Level,
    /// Seed for the bot's random choices: the same seed replays the same game, except
    /// where a search is cut off by the clock.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub(super) fn run(args: BotArgs) -> Result<()> {
    referee_bots::run(
        args.level,
        args.seed,
        io::stdin().lock(),
        io::stdout().lock(),
    )?;
    Ok(())
}
