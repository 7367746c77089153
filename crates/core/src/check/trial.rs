//! The check of a bot of a foreign protocol (Gomocup, CodinGame, riddles.io): its protocol has
//! none of the native one's edge cases to try, so the bot plays the random bot through its
//! adapter, once as each side, exactly as a tournament's table plays it (same adapter, clocks,
//! margins and limits). Whatever it does wrong there is the game's verdict, said as the record
//! says it, with the end of its stderr.

use super::{
    fault_hints, stderr_details, stderr_end, CheckConfig, CheckError, Finding, Severity,
    BUFFERING_VARIABLES,
};
use crate::players::PlayerSpec;
use crate::table::{Player, Recorder, ScheduledGame, Table, TableSettings, Venue};
use referee_bots::Level;
use referee_cage::limits::Limits;
use referee_cage::process_options::ProcessOptions;
use referee_cage::supervisor::Supervisor;
use referee_rules::games::Side;

/// Plays the two games and reports a finding for each as it is made.
pub(super) fn run_trial(
    config: &CheckConfig,
    supervisor: &Supervisor,
    mut report: impl FnMut(&Finding),
) -> Result<Vec<Finding>, CheckError> {
    let players = [
        Player {
            label: "bot".into(),
            spec: config.player.clone(),
            time: config.time,
            limits: config.process.limits,
        },
        Player {
            label: "random".into(),
            spec: PlayerSpec::Builtin(Level::Random.into()),
            time: config.time,
            limits: Limits::default(),
        },
    ];
    let venue = Venue {
        settings: TableSettings {
            rules: config.rules.clone(),
            process: ProcessOptions {
                env_removed: BUFFERING_VARIABLES,
                ..config.process.clone()
            },
            seed: 0,
            replay_stalled: true,
            reuse_processes: false,
        },
        referee_exe: config.referee_exe.clone(),
        records: config.record_dir.clone().map(Recorder::Files),
    };
    // A game (or opening) the protocol cannot tell its bot is refused, as a match refuses it,
    // rather than played with the bot not knowing where the opening's marks are.
    crate::table::check_players(&venue, &players, &config.opening)?;
    let mut table = Table::new(supervisor);
    let mut findings = Vec::new();
    for (number, side) in [(1, Side::First), (2, Side::Second)] {
        let seats = match side {
            Side::First => [0, 1],
            Side::Second => [1, 0],
        };
        let game = ScheduledGame {
            number,
            seats,
            opening: config.opening.clone(),
        };
        let finished = table.play(&venue, &players, &game, |_| {})?;
        let played = &finished.played;
        let result = &played.record.result;
        let title = format!(
            "game {number} (through the {} adapter, as the {side} player)",
            config.player.protocol()
        );
        let finding = if played.faulted[side.index()] {
            Finding {
                severity: Severity::Problem,
                text: fault_hints(played, side, &config.rules).into_iter().fold(
                    format!("{title}: {}: {}", result.reason, result.detail),
                    |text, hint| format!("{text}; {hint}"),
                ),
                details: stderr_details(played, side, finished.files(), config),
                stderr_end: stderr_end(played, side),
            }
        } else {
            Finding {
                severity: Severity::Ok,
                text: format!(
                    "{title}: played to the end ({}, {} moves in all)",
                    result.reason,
                    played.record.moves.len()
                ),
                details: Vec::new(),
                stderr_end: None,
            }
        };
        report(&finding);
        findings.push(finding);
    }
    Ok(findings)
}
