//! `referee check`: the compliance check of a bot, findings printed as they are made.

use anyhow::{Context, Result};
use clap::Args;
use referee_cage::host;
use referee_cage::limits::Limits;
use referee_core::check::{run_check, CheckConfig, Severity, BUFFERING_VARIABLES};
use referee_core::players::PlayerSpec;
use referee_core::report::{counted, say, watch_line};
use referee_core::settings::Settings;
use referee_core::table::{check_startable, Player};
use referee_rules::games::GameSpec;
use std::path::PathBuf;
use std::process::ExitCode;

/// The check takes the [`Settings`] that change what a bot is sent or how it runs, with its
/// own words for one bot.
#[derive(Args, Debug)]
pub(super) struct CheckArgs {
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
    /// Send the list of legal moves before every turn, as `referee match --legal-moves` does.
    #[arg(long)]
    legal_moves: bool,
    /// Moves played before the two games from the start, separated by commas, e.g. "4 4,3 3"
    /// (the edge cases keep their own).
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
    /// The bot's resource limits, as for `referee match --limits` (its defaults unless given).
    #[arg(long, value_name = "SPEC")]
    limits: Option<String>,
    /// Run the bot under bubblewrap, as `referee match --sandbox` does.
    #[arg(long)]
    sandbox: bool,
    /// Write a JSON record, a transcript and the bot's whole stderr for every game into DIR.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
}

pub(super) fn run(args: CheckArgs) -> Result<ExitCode> {
    let player = PlayerSpec::parse(&args.player).context("the player")?;
    let settings = Settings {
        time: args.time,
        startup_ms: args.startup_ms,
        legal_moves: args.legal_moves,
        limits: args.limits.unwrap_or_default(),
        sandbox: args.sandbox,
        ..Settings::default()
    };
    let spec = GameSpec::from_words(&args.game, &args.params)?;
    let opening = super::moves(&spec, args.opening.as_deref());
    referee_core::arbiter::play_opening(&spec, &opening)?;
    let rules = settings.rules(spec);
    let time = settings.time_control()?;
    let limits: Limits = settings.limits()?;
    let process = referee_cage::process_options::ProcessOptions {
        limits,
        ..settings.process()
    };
    check_startable(
        &[Player {
            label: "bot".into(),
            spec: player.clone(),
            time,
            limits,
        }],
        process.working_dir.as_deref(),
    )?;
    let host = host::prepare(&process)?;
    let config = CheckConfig {
        referee_exe: host.referee_exe,
        rules,
        player,
        time,
        opening,
        process,
        record_dir: super::record_dir(args.record)?,
    };
    say(&format!(
        "checking {} at {}",
        config.player, config.rules.spec
    ));
    let unbuffered: Vec<&str> = BUFFERING_VARIABLES
        .iter()
        .copied()
        .filter(|name| std::env::var_os(name).is_some())
        .collect();
    if !unbuffered.is_empty() {
        say(&format!(
            "  ({} is set in this shell; the bot runs without it, as a contest server runs it, \
             so that a missing flush shows)",
            unbuffered.join(", ")
        ));
    }
    let findings = run_check(&config, &host.supervisor, |finding| {
        for line in finding.to_string().lines() {
            say(&format!("  {line}"));
        }
    })?;
    let count = |severity| findings.iter().filter(|f| f.severity == severity).count() as u64;
    let (problems, warnings) = (count(Severity::Problem), count(Severity::Warning));
    say(&format!(
        "{}: {}, {}",
        if problems == 0 {
            "compliant"
        } else {
            "not compliant"
        },
        counted(problems, "problem"),
        counted(warnings, "warning")
    ));
    if let Some(dir) = &config.record_dir {
        say(&watch_line(dir));
    }
    Ok(if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
