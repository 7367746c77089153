//! `referee play`: the command line of a game at the console.

use crate::arbiter::GameRules;
use crate::bots::Level;
use crate::clock::TimeControl;
use crate::games::GameSpec;
use crate::play::{play_at_console, PlayConfig, Sitter};
use crate::players::process::ProcessOptions;
use crate::players::supervisor::Supervisor;
use crate::players::PlayerSpec;
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (see below).
    game: String,
    /// Game parameter, key=value (repeatable), e.g. -p size=10 -p line=4.
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Who moves first: human (a person at this keyboard), a built-in bot (builtin:random,
    /// builtin:greedy, builtin:strong) or a bot's command line. A side not given is a person,
    /// unless the other side is one: then it is the strongest built-in bot that plays the game.
    /// With neither given, you move first against that bot.
    #[arg(long, value_name = "SEAT")]
    first: Option<String>,
    /// Who moves second, the same way (--second human with --first human: two people at one
    /// keyboard; two bots are shown move by move).
    #[arg(long, value_name = "SEAT")]
    second: Option<String>,
    /// The bots' time control, as for `referee match --time`.
    #[arg(long, value_name = "SPEC", default_value = "move=1000")]
    time: String,
    /// The people's time control, the same way, or 'off' for no clock. A person who runs out
    /// of time loses on time, like a bot.
    #[arg(long, value_name = "SPEC", default_value = "move=30000")]
    human_time: String,
    /// Raw mode: see the exact protocol lines the referee sends and type protocol replies
    /// (ready NAME VERSION, then one move per turn), with a bot's verdicts: how a bot author
    /// tries the protocol by hand.
    #[arg(long)]
    raw: bool,
    /// Send the list of legal moves before every turn (seen in raw mode).
    #[arg(long)]
    legal_moves: bool,
    /// Write the game's JSON record and transcript into DIR, numbered after the records there.
    #[arg(long, value_name = "DIR", default_value = "records")]
    record: PathBuf,
    /// Write no record.
    #[arg(long)]
    no_record: bool,
    /// Pause after each move when two bots play, in milliseconds, so the game can be followed.
    #[arg(long, default_value_t = 500)]
    pause_ms: u64,
    /// Time a bot has to answer `start` with `ready`, not charged to its clock.
    #[arg(long, default_value_t = 5000)]
    startup_ms: u64,
    /// Seed handed to built-in bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Moves played before anyone takes over, separated by commas, e.g. "4 4,3 3" or
    /// "9-13,21-17,5-9".
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
}

pub fn run(args: PlayArgs) -> Result<()> {
    let spec = GameSpec::from_words(&args.game, &args.params)?;
    let sitters = sitters(args.first.as_deref(), args.second.as_deref())?;
    let bot_time = TimeControl::parse_over(TimeControl::default(), &args.time)?;
    let human_time = match args.human_time.trim() {
        "off" => None,
        text => {
            Some(TimeControl::parse_over(TimeControl::default(), text).context("--human-time")?)
        }
    };
    let config = PlayConfig {
        rules: GameRules {
            spec,
            margin: Duration::from_millis(10),
            startup: Duration::from_millis(args.startup_ms),
            send_legal_moves: args.legal_moves,
        },
        opening: args
            .opening
            .as_deref()
            .map(|text| text.split(',').map(|m| m.trim().to_string()).collect())
            .unwrap_or_default(),
        sitters,
        bot_time,
        human_time,
        raw: args.raw,
        record_dir: (!args.no_record).then_some(args.record),
        process: ProcessOptions::default(),
        referee_exe: std::env::current_exe().context("cannot locate the referee executable")?,
        seed: args.seed,
        pause: Duration::from_millis(args.pause_ms),
    };
    let supervisor = Supervisor::for_command()?;
    play_at_console(&config, &supervisor)?;
    Ok(())
}

/// The two sides: a side not given is a person, unless the other side is one; then it is the
/// strongest built-in bot.
fn sitters(first: Option<&str>, second: Option<&str>) -> Result<[Sitter; 2]> {
    let parse = |text: &str, which: &str| Sitter::parse(text).with_context(|| format!("--{which}"));
    let first = first.map(|text| parse(text, "first")).transpose()?;
    let second = second.map(|text| parse(text, "second")).transpose()?;
    let opponent = |given: &Option<Sitter>| match given {
        Some(Sitter::Bot(_)) => Sitter::Human,
        _ => Sitter::Bot(PlayerSpec::Builtin(Level::Strong)),
    };
    Ok(match (first, second) {
        (None, None) => [Sitter::Human, opponent(&Some(Sitter::Human))],
        (Some(first), None) => {
            let second = opponent(&Some(first.clone()));
            [first, second]
        }
        (None, Some(second)) => [opponent(&Some(second.clone())), second],
        (Some(first), Some(second)) => [first, second],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_not_given_faces_the_other() {
        let strongest = Sitter::Bot(PlayerSpec::Builtin(Level::Strong));
        let random = Sitter::parse("builtin:random").unwrap();
        assert_eq!(
            sitters(None, None).unwrap(),
            [Sitter::Human, strongest.clone()]
        );
        assert_eq!(
            sitters(Some("builtin:random"), None).unwrap(),
            [random.clone(), Sitter::Human]
        );
        assert_eq!(
            sitters(None, Some("human")).unwrap(),
            [strongest, Sitter::Human]
        );
        assert_eq!(
            sitters(Some("human"), Some("builtin:random")).unwrap(),
            [Sitter::Human, random]
        );
        let err = sitters(Some("builtin:x"), None).unwrap_err();
        assert!(
            format!("{err:#}").starts_with("--first: unknown built-in bot"),
            "{err:#}"
        );
    }
}
