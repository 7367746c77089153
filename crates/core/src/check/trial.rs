//! The check of a bot of a foreign protocol (Gomocup, CodinGame, riddles.io): its protocol has
//! none of the native one's edge cases to try, so the bot plays the random bot through its
//! adapter, once as each side, exactly as a tournament's table plays it (same adapter, clocks,
//! margins and limits). Whatever it does wrong there is the game's verdict, said as the record
//! says it, with the end of its stderr, once: a game that shows it again gets one short line, as
//! for a bot speaking protocol.md.

use super::said::Said;
use super::{
    fault_cause, fault_hints, late_hint, missing_flush, CheckConfig, CheckError, Finding, Problem,
    Severity, BUFFERING_VARIABLES,
};
use crate::arbiter::{GameRules, PlayedGame};
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
    report: impl FnMut(&Finding),
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
    let mut said = Said::new(config, report);
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
        let played = &finished.played;
        let title = format!(
            "game {number} (through the {} adapter, as the {side} player)",
            config.player.protocol()
        );
        let Some(problem) = problem(config, played, side) else {
            let result = &played.record.result;
            let text = format!(
                "{title}: played to the end ({}, {} moves in all)",
                result.reason,
                played.record.moves.len()
            );
            said.note(Severity::Ok, text, Vec::new());
            continue;
        };
        let repeated = said.problem(&problem, &title, number, played, side, finished.files());
        if said.stop_early(&problem.cause, repeated, number, games.len() as u32) {
            break;
        }
    }
    Ok(said.findings())
}

/// The rule the bot playing `side` broke in `played`, as the record says it, a missing flush
/// rather than the fault when its late answer shows one; `None` when it broke none.
fn problem(config: &CheckConfig, played: &PlayedGame, side: Side) -> Option<Problem> {
    if !played.faulted[side.index()] {
        return None;
    }
    let late = played.late[side.index()].as_ref();
    let result = &played.record.result;
    let fault = || Problem {
        cause: fault_cause(played, side),
        name: result.reason.code(),
        text: fault_hints(played, side, &config.rules).into_iter().fold(
            format!(
                "{}: {}{}",
                result.reason,
                result.detail,
                late_hint(late).unwrap_or_default()
            ),
            |text, hint| format!("{text}; {hint}"),
        ),
    };
    Some(missing_flush(late).unwrap_or_else(fault))
}
