//! The check of a bot of a foreign protocol (Gomocup, CodinGame, riddles.io): its protocol has
//! none of the native one's edge cases to try, so the bot plays the random bot through its
//! adapter, once as each side, exactly as a tournament's table plays it (same adapter, clocks,
//! margins and limits). Whatever it does wrong there is the game's verdict, said as the record
//! says it, with the end of its stderr.

use super::{
    fault_hints, late_hint, missing_flush, needless_games, stderr_details, stderr_end, stopped,
    CheckConfig, CheckError, Finding, Severity, BUFFERING_VARIABLES,
};
use crate::arbiter::GameRules;
use crate::players::PlayerSpec;
use crate::table::{FinishedGame, Player, Recorder, ScheduledGame, Table, TableSettings, Venue};
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
            rules: GameRules {
                watch_late: true,
                ..config.rules.clone()
            },
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
    let games = [(1, Side::First), (2, Side::Second)];
    for (number, side) in games {
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
        let title = format!(
            "game {number} (through the {} adapter, as the {side} player)",
            config.player.protocol()
        );
        let finding = finding(config, &finished, side, &title);
        report(&finding);
        findings.push(finding);
        // A missing flush would end the next game the same way.
        let left = games.len() as u32 - number;
        let late = finished.played.late[side.index()].as_ref();
        let flush = missing_flush(late);
        let needless = flush.and_then(|flush| needless_games(&flush.cause, None, number));
        if let Some(why) = needless.filter(|_| left > 0) {
            let stop = stopped(left, &why);
            report(&stop);
            findings.push(stop);
            break;
        }
    }
    Ok(findings)
}

/// What game `finished` showed of the bot playing `side`: how it ended, or the rule it broke,
/// a missing flush rather than the fault when its late answer shows one.
fn finding(config: &CheckConfig, finished: &FinishedGame, side: Side, title: &str) -> Finding {
    let played = &finished.played;
    let result = &played.record.result;
    if !played.faulted[side.index()] {
        return Finding {
            severity: Severity::Ok,
            text: format!(
                "{title}: played to the end ({}, {} moves in all)",
                result.reason,
                played.record.moves.len()
            ),
            details: Vec::new(),
            stderr_end: None,
        };
    }
    let late = played.late[side.index()].as_ref();
    let text = match missing_flush(late) {
        Some(flush) => flush.text,
        None => fault_hints(played, side, &config.rules).into_iter().fold(
            format!(
                "{}: {}{}",
                result.reason,
                result.detail,
                late_hint(late).unwrap_or_default()
            ),
            |text, hint| format!("{text}; {hint}"),
        ),
    };
    Finding {
        severity: Severity::Problem,
        text: format!("{title}: {text}"),
        details: stderr_details(played, side, finished.files(), config),
        stderr_end: stderr_end(played, side),
    }
}
