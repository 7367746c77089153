//! `referee play`: the command line of a game at the console.

use anyhow::{anyhow, Context, Result};
use clap::Args;
use referee_bots::Level;
use referee_cage::host;
use referee_cage::process_options::ProcessOptions;
use referee_core::console_game::{play_at_console, PersonPages, PlayConfig, SideSpec};
use referee_core::players::PlayerSpec;
use referee_core::settings::Settings;
use referee_core::table::{check_startable, Player};
use referee_rules::clock::TimeControl;
use referee_rules::games::{GameSpec, Side};
use referee_web::browser::BrowserPages;
use std::path::PathBuf;
use std::time::Duration;

/// A game at the console takes four of the [`Settings`], in its own words and order.
#[derive(Args, Debug)]
pub(super) struct PlayArgs {
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
    #[arg(long, value_name = "SPEC", default_value_t = Settings::default().time)]
    time: String,
    /// The people's time control, the same way, or 'off' for no clock. A person who runs out
    /// of time loses on time, like a bot. Without a clock, one person against a bot plays a
    /// casual game: `undo` takes back their last move, and the game is then not recorded.
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
    #[arg(long, default_value_t = Settings::default().startup_ms)]
    startup_ms: u64,
    /// Seed handed to built-in bots.
    #[arg(long, default_value_t = Settings::default().seed)]
    seed: u64,
    /// Moves played before anyone takes over, separated by commas, e.g. "4 4,3 3" or
    /// "9-13,21-17,5-9"; for m,n,k games also Gomocup's offsets, e.g. "0,0, 1,0, 1,1".
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
    /// Play in a web browser instead of at the console: the referee prints an address on
    /// 127.0.0.1 (only this machine can open it) where you click your moves (checkers: the
    /// piece, then each square it lands on), with your clock counting down and buttons to
    /// resign and to offer or accept a draw. Clocks, verdicts and records are the console's.
    #[arg(long, conflicts_with = "raw")]
    browser: bool,
    /// With --browser: the port of the page (default: any free port).
    #[arg(long, default_value_t = 0, requires = "browser")]
    port: u16,
}

pub(super) fn run(args: PlayArgs) -> Result<()> {
    let spec = GameSpec::from_words(&args.game, &args.params)?;
    let (sides, defaulted) = side_specs(args.first.as_deref(), args.second.as_deref())?;
    let settings = Settings {
        time: args.time,
        startup_ms: args.startup_ms,
        legal_moves: args.legal_moves,
        seed: args.seed,
        ..Settings::default()
    };
    let bot_time = settings.time_control()?;
    let human_time = match args.human_time.trim() {
        "off" => None,
        text => {
            Some(TimeControl::parse_over(TimeControl::default(), text).context("--human-time")?)
        }
    };
    let process = settings.process();
    check_bots_start(&sides, bot_time, &process)?;
    let host = host::prepare(&process)?;
    let opening = super::moves(&spec, args.opening.as_deref());
    let config = PlayConfig {
        rules: settings.rules(spec),
        opening,
        sides,
        defaulted,
        bot_time,
        human_time,
        raw: args.raw,
        record_dir: super::record_dir((!args.no_record).then_some(args.record))?,
        referee_exe: host.referee_exe,
        process,
        seed: settings.seed,
        pause: Duration::from_millis(args.pause_ms),
    };
    let mut pages = args
        .browser
        .then(|| BrowserPages::new(args.port))
        .transpose()
        .with_context(|| format!("cannot serve the browser page on port {}", args.port))?;
    play_at_console(
        &config,
        &host.supervisor,
        pages.as_mut().map(|pages| pages as &mut dyn PersonPages),
    )?;
    Ok(())
}

/// Refuses, before the game is announced, a bot side whose program cannot start, saying what
/// a side may be (a mistyped `human` is read as a command line).
fn check_bots_start(
    sides: &[SideSpec; 2],
    time: TimeControl,
    process: &ProcessOptions,
) -> Result<()> {
    let bots: Vec<Player> = sides
        .iter()
        .zip(["--first", "--second"])
        .filter_map(|(side, option)| match side {
            SideSpec::Bot(spec) => Some(Player {
                label: option.into(),
                spec: spec.clone(),
                time,
                limits: process.limits,
            }),
            SideSpec::Human => None,
        })
        .collect();
    check_startable(&bots, process.working_dir.as_deref()).map_err(|error| {
        anyhow!(
            "{error}; a side is `human`, `builtin:LEVEL` (random, greedy or strong) or a \
             bot's command line"
        )
    })
}

/// The two sides: a side not given is a person, unless the other side is one; then it is the
/// strongest built-in bot, and that side is returned too (the console suggests easier ones).
fn side_specs(first: Option<&str>, second: Option<&str>) -> Result<([SideSpec; 2], Option<Side>)> {
    let parse =
        |text: &str, which: &str| SideSpec::parse(text).with_context(|| format!("--{which}"));
    let first = first.map(|text| parse(text, "first")).transpose()?;
    let second = second.map(|text| parse(text, "second")).transpose()?;
    let strongest = SideSpec::Bot(PlayerSpec::Builtin(Level::Strong.into()));
    Ok(match (first, second) {
        (None, None) => ([SideSpec::Human, strongest], Some(Side::Second)),
        (Some(first @ SideSpec::Bot(_)), None) => ([first, SideSpec::Human], None),
        (Some(first), None) => ([first, strongest], Some(Side::Second)),
        (None, Some(second @ SideSpec::Bot(_))) => ([SideSpec::Human, second], None),
        (None, Some(second)) => ([strongest, second], Some(Side::First)),
        (Some(first), Some(second)) => ([first, second], None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_not_given_faces_the_other() {
        let strongest = SideSpec::Bot(PlayerSpec::Builtin(Level::Strong.into()));
        let random = SideSpec::parse("builtin:random").unwrap();
        assert_eq!(
            side_specs(None, None).unwrap(),
            ([SideSpec::Human, strongest.clone()], Some(Side::Second))
        );
        assert_eq!(
            side_specs(Some("builtin:random"), None).unwrap(),
            ([random.clone(), SideSpec::Human], None)
        );
        assert_eq!(
            side_specs(None, Some("human")).unwrap(),
            ([strongest.clone(), SideSpec::Human], Some(Side::First))
        );
        assert_eq!(
            side_specs(Some("human"), None).unwrap(),
            ([SideSpec::Human, strongest.clone()], Some(Side::Second))
        );
        // Named, even the strongest, it is the person's choice: no advice.
        assert_eq!(
            side_specs(None, Some("builtin:strong")).unwrap(),
            ([SideSpec::Human, strongest], None)
        );
        assert_eq!(
            side_specs(Some("human"), Some("builtin:random")).unwrap(),
            ([SideSpec::Human, random], None)
        );
        let err = side_specs(Some("builtin:x"), None).unwrap_err();
        assert!(
            format!("{err:#}").starts_with("--first: unknown built-in bot"),
            "{err:#}"
        );
    }
}
