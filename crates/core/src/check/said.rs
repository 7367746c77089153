//! What a check has said so far, whatever protocol its bot speaks: each finding is reported as
//! it is made and kept, a problem in full (with the end of the bot's stderr) the first time its
//! cause is seen and in one short line after that, and the games left are not played when they
//! could only repeat a problem.

use super::{stderr_details, stderr_end, Cause, CheckConfig, Finding, Problem, Severity};
use crate::arbiter::PlayedGame;
use referee_records::record::RecordFiles;
use referee_rules::games::Side;

/// The findings of a check under way, and the causes of the problems among them.
pub(super) struct Said<'a, R: FnMut(&Finding)> {
    config: &'a CheckConfig,
    /// Told each finding as it is made.
    report: R,
    findings: Vec<Finding>,
    /// Each cause reported, with the game it was first seen in.
    causes: Vec<(Cause, u32)>,
}

impl<'a, R: FnMut(&Finding)> Said<'a, R> {
    /// Nothing said yet of the check of `config`'s bot; each finding will be told to `report`.
    pub(super) fn new(config: &'a CheckConfig, report: R) -> Self {
        Said {
            config,
            report,
            findings: Vec::new(),
            causes: Vec::new(),
        }
    }

    /// Reports a finding and keeps it.
    pub(super) fn note(&mut self, severity: Severity, text: String, details: Vec<String>) {
        self.keep(Finding {
            severity,
            text,
            details,
            stderr_end: None,
        });
    }

    /// Reports a finding made whole and keeps it.
    pub(super) fn keep(&mut self, finding: Finding) {
        (self.report)(&finding);
        self.findings.push(finding);
    }

    /// Says a problem game `number` (`title`) showed of the bot playing `side`: in full, with
    /// the end of the bot's stderr, the first time its cause is seen, in one short line after
    /// that. Returns the game it was first seen in, when it was seen before.
    pub(super) fn problem(
        &mut self,
        problem: &Problem,
        title: &str,
        number: u32,
        played: &PlayedGame,
        side: Side,
        files: Option<&RecordFiles>,
    ) -> Option<u32> {
        let repeated = self
            .causes
            .iter()
            .find(|(cause, _)| *cause == problem.cause)
            .map(|&(_, first)| first);
        match repeated {
            Some(first) => self.note(
                Severity::Again,
                format!("{title}: {} again, as in game {first}", problem.name),
                Vec::new(),
            ),
            None => {
                self.keep(Finding {
                    severity: Severity::Problem,
                    text: format!("{title}: {}", problem.text),
                    details: stderr_details(played, side, files, self.config),
                    stderr_end: stderr_end(played, side),
                });
                self.causes.push((problem.cause.clone(), number));
            }
        }
        repeated
    }

    /// Whether the games left after game `number` of `count` could only repeat the problem
    /// just seen (its `cause`, first seen in game `repeated` when it was seen before): then
    /// says so.
    pub(super) fn stop_early(
        &mut self,
        cause: &Cause,
        repeated: Option<u32>,
        number: u32,
        count: u32,
    ) -> bool {
        let left = count - number;
        let Some(why) = needless_games(cause, repeated, number).filter(|_| left > 0) else {
            return false;
        };
        self.keep(stopped(left, &why));
        true
    }

    /// Everything said.
    pub(super) fn findings(self) -> Vec<Finding> {
        self.findings
    }
}

/// Why the games left could only repeat the problem just seen in game `number` (its `cause`,
/// first seen in game `repeated` when it was seen before), when they could only.
fn needless_games(cause: &Cause, repeated: Option<u32>, number: u32) -> Option<String> {
    match (cause, repeated) {
        (Cause::MissingFlush, _) => {
            Some("every game would end the same way until the bot flushes its output".to_string())
        }
        (Cause::Fault { in_setup: true, .. }, Some(first)) => Some(format!(
            "the bot failed the same way before its first move in games {first} and {number}, \
             and the other games begin with the same setup"
        )),
        _ => None,
    }
}

/// The finding that the last `left` games were not played, and `why`.
fn stopped(left: u32, why: &str) -> Finding {
    let games = if left == 1 {
        "game was".to_string()
    } else {
        format!("{left} games were")
    };
    Finding {
        severity: Severity::Stopped,
        text: format!("the last {games} not played: {why}"),
        details: Vec::new(),
        stderr_end: None,
    }
}
