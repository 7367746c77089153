//! `referee check`: the compliance check of a bot, findings printed as they are made.

use crate::check::{run_check, CheckConfig, Severity};
use crate::games::GameSpec;
use crate::host;
use crate::report::say;
use crate::seats::{PlayerSpec, Protocol};
use crate::settings::Settings;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::process::ExitCode;

/// The check takes two of the [`Settings`], with its own words for one bot.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The game (see below).
    game: String,
    /// The bot: a command line such as "python3 bots/python/uttt.py".
    player: String,
    /// Game parameter, key=value (repeatable).
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// The bot's time control, as for `referee match --time`.
    #[arg(long, value_name = "SPEC", default_value_t = Settings::default().time)]
    time: String,
    /// Time the bot has to answer `start` with `ready`.
    #[arg(long, default_value_t = Settings::default().startup_ms)]
    startup_ms: u64,
}

pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let player = PlayerSpec::parse(&args.player).context("the player")?;
    if player.protocol() != Protocol::Native {
        bail!(
            "referee check tests bots of the referee's own protocol; a {} bot can play \
             `referee match` as it is",
            player.protocol()
        );
    }
    let settings = Settings {
        time: args.time,
        startup_ms: args.startup_ms,
        ..Settings::default()
    };
    let rules = settings.rules(GameSpec::from_words(&args.game, &args.params)?);
    let time = settings.time_control()?;
    let process = settings.process();
    let host = host::prepare(&process)?;
    let config = CheckConfig {
        referee_exe: host.referee_exe,
        spec: rules.spec,
        player,
        time,
        margin: rules.margin,
        startup: rules.startup,
        process,
    };
    say(&format!("checking {} at {}", config.player, config.spec));
    let findings = run_check(&config, &host.supervisor, |finding| {
        say(&format!("  {finding}"))
    })?;
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
