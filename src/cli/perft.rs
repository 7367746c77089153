//! `referee perft`: counts the move sequences of a given length, to check a move generator.

use crate::games::GameSpec;
use crate::report::say;
use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game (see below).
    game: String,
    /// Number of moves (plies).
    depth: u32,
    /// Game parameter, key=value (repeatable).
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
}

pub fn run(args: PerftArgs) -> Result<()> {
    let spec = GameSpec::from_words(&args.game, &args.params)?;
    say(&spec.perft(args.depth).to_string());
    Ok(())
}
