//! `referee perft`: counts the move sequences of a given length, to check a move generator,
//! from the start or from the position after an opening.
//! The counts grow by the branching factor with each move, so a deep one may take longer than
//! anyone waits: the depths below are counted first, and from their growth the time of the one
//! asked for is foretold on stderr (when it is more than a moment) before it is started.

use anyhow::{Context, Result};
use clap::Args;
use referee_core::report::say;
use referee_rules::games::GameSpec;
use referee_rules::quote;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub(super) struct PerftArgs {
    /// The game (see below).
    game: String,
    /// Number of moves (plies).
    depth: u32,
    /// Game parameter, key=value (repeatable).
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Count from the position after these moves, separated by commas, e.g. "7 7,8 8,6 7".
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
}

/// A wait shorter than this needs no word.
const WORTH_SAYING: Duration = Duration::from_secs(2);
/// A count quicker than this is too short a measure to foretell from.
const MEASURABLE: Duration = Duration::from_millis(50);

pub(super) fn run(args: PerftArgs) -> Result<()> {
    let spec = GameSpec::from_words(&args.game, &args.params)?;
    let mut game = spec.new_game();
    for mv in super::moves(&spec, args.opening.as_deref()) {
        game.play_text(&mv)
            .with_context(|| format!("opening move '{}'", quote::shorten(&mv, 40)))?;
    }
    let mut previous: Option<u64> = None;
    for depth in 1..=args.depth {
        let started = Instant::now();
        let count = game.perft(depth);
        let took = started.elapsed();
        if depth == args.depth || count == 0 {
            // No sequence of `depth` moves: none longer either.
            say(&count.to_string());
            return Ok(());
        }
        let Some(before) = previous.replace(count) else {
            continue;
        };
        let left = foretell(took, count as f64 / before as f64, args.depth - depth);
        if took >= MEASURABLE && left >= WORTH_SAYING.as_secs_f64() {
            eprintln!(
                "referee: perft {} depth {depth}: {count} in {:.1} s; depth {} will take {} at \
                 this rate (Ctrl-C stops it)",
                spec,
                took.as_secs_f64(),
                args.depth,
                in_words(left)
            );
        }
    }
    say(&game.perft(0).to_string());
    Ok(())
}

/// Seconds the count `more` moves deeper will take, from the last one's time and the growth
/// per move (each count takes about as long per sequence as the last).
fn foretell(took: Duration, branching: f64, more: u32) -> f64 {
    took.as_secs_f64().max(1e-6) * branching.max(1.0).powf(f64::from(more))
}

/// `about 3h 20m`, or `about 1.2e83 years` past what a calendar says.
fn in_words(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86_400.0;
    if seconds < 100.0 * YEAR {
        let rounded = if seconds < 60.0 {
            seconds.round()
        } else {
            (seconds / 60.0).round() * 60.0
        };
        format!(
            "about {}",
            humantime::format_duration(Duration::from_secs(rounded as u64))
        )
    } else {
        format!("about {:.1e} years", seconds / YEAR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_is_foretold_in_words() {
        assert_eq!(foretell(Duration::from_secs(1), 8.0, 2), 64.0);
        assert_eq!(in_words(64.0), "about 1m");
        assert_eq!(in_words(3.2 * 3600.0), "about 3h 12m");
        assert_eq!(in_words(2.0e90), "about 6.3e82 years");
    }
}
