//! `referee check GAME PLAYER`: a compliance check for bot authors, in the spirit of fastchess'
//! `--compliance`. It plays the bot against the built-in random bot through the real protocol:
//! a game as each side (the second in the same process when the bot declares `multi`) and the
//! game's edge cases (an opening already played, a rectangular board, the forced board and a
//! free choice in ultimate tic-tac-toe, a multi-jump in checkers, an extra move after a box in
//! dots and boxes, a draw offered with every move where the game has draw offers), and then says in plain words what the bot does wrong: missing flush, slow
//! start, extra output, wrong notation, CRLF line ends, a stderr flood, not exiting on `quit`.
//!
//! Each cause is said once, where it was first seen, with the end of the bot's stderr; a game
//! that shows it again gets one short line. The check stops early when the games left could
//! only repeat it: after a missing flush, or after the bot failed the same way before its first
//! move in two games (the setups differ little). The bot runs without the environment variables
//! that unbuffer output ([`BUFFERING_VARIABLES`]): a contest server will not set them, and a
//! missing flush must show here rather than there.

use crate::arbiter::{play_game, GameRules, OpeningError, PlayedGame, SeatedPlayer};
use crate::players::PlayerSpec;
use referee_bots::Level;
use referee_cage::process::{BotProcess, SpawnError};
use referee_cage::process_options::ProcessOptions;
use referee_cage::supervisor::Supervisor;
use referee_cage::{Answer, LateAnswer, Protocol, Seat};
use referee_records::record::RecordFiles;
use referee_records::transcript::{Direction, SeatLog};
use referee_rules::clock::TimeControl;
use referee_rules::games::{GameSpec, IllegalMove, MoveError, Side};
use referee_rules::protocol::{Ready, RefereeMessage, Reply};
use referee_rules::quote::escape;
use referee_rules::verdict::{looks_like_prose, Fault, Termination};
use std::fmt;
use std::io;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

mod said;
mod trial;

/// Environment variables that make a program's output unbuffered, which a contest server does
/// not set: Python's, and coreutils' `stdbuf` (which works through them).
pub const BUFFERING_VARIABLES: &[&str] =
    &["PYTHONUNBUFFERED", "_STDBUF_O", "_STDBUF_E", "_STDBUF_I"];

/// What to check and how.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The game as the user gave it, and how its games are played (edge cases may vary its
    /// parameters).
    pub rules: GameRules,
    /// The bot to check, as the user wrote it.
    pub player: PlayerSpec,
    /// The clock for both the bot and its random opponent.
    pub time: TimeControl,
    /// Moves played before the two games from the start (the edge cases have their own).
    pub opening: Vec<String>,
    /// The bot's limits and sandbox; the check removes [`BUFFERING_VARIABLES`] from its
    /// environment.
    pub process: ProcessOptions,
    /// Where each game's record, transcript and stderr go (none when `None`).
    pub record_dir: Option<PathBuf>,
    /// The referee executable, for the built-in opponent.
    pub referee_exe: PathBuf,
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Done right; reported too, so the author sees what was checked.
    Ok,
    /// Worth fixing, but the bot still passes the check.
    Warning,
    /// Makes the bot fail the check: it would likely fail on a contest server too.
    Problem,
    /// A problem already reported, seen again in another game: not counted twice.
    Again,
    /// The check ended early: the games left could only repeat a problem.
    Stopped,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Severity::Ok => "ok",
            Severity::Warning => "warning",
            Severity::Problem => "PROBLEM",
            Severity::Again => "again",
            Severity::Stopped => "stopped",
        })
    }
}

/// One thing the check found, good or bad, in words for the bot's author, with lines to show
/// under it (the end of the bot's stderr).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// How much it matters; only problems make the check fail.
    pub severity: Severity,
    /// What was seen, in one line for the bot's author.
    pub text: String,
    /// Lines shown under it: the end of the bot's stderr and where to find all of it.
    pub details: Vec<String>,
    /// For a problem, the last line the bot wrote to stderr, escaped: most often its cause (a
    /// crash's `ModuleNotFoundError: No module named 'numpy'`).
    pub stderr_end: Option<String>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<8} {}", self.severity, self.text)?;
        for detail in &self.details {
            write!(f, "\n{:<8} {detail}", "")?;
        }
        Ok(())
    }
}

/// The referee's own failures during a check (the bot's failures are findings).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The bot or its random opponent could not be started.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// The opening the user gave cannot be played.
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// A game's files could not be written in the record directory.
    #[error("cannot write the game record")]
    Record(#[from] io::Error),
    /// A game through a foreign protocol's adapter failed on the referee's side.
    #[error(transparent)]
    Game(#[from] crate::table::GameError),
}

/// What a problem comes from, to say it once however many games show it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Cause {
    MissingFlush,
    /// A rule broken: the verdict's reason (and violation), and whether before the bot's
    /// `ready`.
    Fault {
        reason: Termination,
        violation: Option<String>,
        in_setup: bool,
    },
}

/// What to say of a line the bot wrote without its line feed.
fn unended(start: &str) -> String {
    format!(
        "it wrote '{}' but never ended the line: end every line with a line feed ('\\n'), \
         then flush",
        referee_rules::quote::shorten(start, 60)
    )
}

/// What to tell a bot that declared `multi` and exited between two games.
const MULTI_EXITED: &str = "; it declared 'multi' but exited after the previous game: a 'multi' \
                            bot reads on after 'result' (the next game's 'referee 1', or \
                            'quit'); a bot that plays one game per process answers 'ready NAME \
                            VERSION' without 'multi'";

/// Whether `side` exited before its `ready` in `played`.
fn exited_before_ready(played: &PlayedGame, side: Side) -> bool {
    played.record.result.reason == Termination::Exited && played.ready[side.index()].is_none()
}

/// What a bot's late answer adds to the sentence of its timeout: the answer it wrote too late,
/// or the line it never ended.
fn late_hint(late: Option<&LateAnswer>) -> Option<String> {
    match late? {
        LateAnswer::Slow(line, after) => Some(format!(
            ". It did answer, '{}', {:.1} s after the game was over: it is too slow for this \
             time limit",
            referee_rules::quote::shorten(line, 60),
            after.as_secs_f64()
        )),
        LateAnswer::Unended(start) => Some(format!("; {}", unended(start))),
        LateAnswer::WhenTold(line) => Some(format!(
            ". It did answer, '{}', at once when it was sent the next line (the result): it \
             waited to read more than it was sent, most likely a line too many or all of its \
             input; answer each 'turn' as soon as it is read",
            referee_rules::quote::shorten(line, 60)
        )),
        LateAnswer::Unflushed(_) => None,
    }
}

/// The missing flush a bot's late answer shows, when it shows one: said rather than the
/// timeout or failed start-up it caused, whatever protocol the bot speaks.
fn missing_flush(late: Option<&LateAnswer>) -> Option<Problem> {
    let Some(LateAnswer::Unflushed(line)) = late else {
        return None;
    };
    Some(Problem {
        cause: Cause::MissingFlush,
        name: "missing flush",
        text: format!(
            "missing flush: the bot wrote '{}' only when its input was closed, so it keeps its \
             output in a buffer: flush stdout after every line (protocol.md, 'Flush after every \
             line')",
            referee_rules::quote::shorten(line, 60)
        ),
    })
}

/// A problem one game showed.
struct Problem {
    cause: Cause,
    /// A few words for it: `crash`, `wrong notation`.
    name: &'static str,
    text: String,
}

/// One game of the check: the bot plays `bot_side` from the position after `opening`.
struct Scenario {
    title: String,
    spec: GameSpec,
    opening: Vec<String>,
    bot_side: Side,
    /// The random opponent offers a draw with every move (see [`DrawOffers`]).
    opponent_offers_draws: bool,
}

/// The random opponent's seat, offering a draw with every move it plays: the built-in bots
/// never offer one, and a bot must be seen to read `offer draw` and answer it (a bot that
/// exits on it would lose every game against one that offers).
struct DrawOffers<'a>(&'a mut dyn Seat);

impl Seat for DrawOffers<'_> {
    fn setup(&mut self, messages: &[RefereeMessage], allowance: Duration) -> Result<Ready, Fault> {
        self.0.setup(messages, allowance)
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        let mut answer = self.0.ask(messages, watchdog)?;
        if let Ok(Reply::Move {
            offers_draw: false, ..
        }) = Reply::parse(&answer.line)
        {
            answer.line.push_str(" draw");
        }
        Ok(answer)
    }

    fn tell(&mut self, messages: &[RefereeMessage]) {
        self.0.tell(messages);
    }

    fn take_log(&mut self) -> SeatLog {
        self.0.take_log()
    }

    fn finish(&mut self) {
        self.0.finish();
    }
}

/// A slowest move above this share of the limit is worth a warning: a loaded machine may push
/// it over.
const SLOW_SHARE: f64 = 0.8;
/// A start-up slower than this is worth a warning.
const SLOW_START: Duration = Duration::from_millis(1000);

/// Runs the check with bots started by `supervisor`, reporting each finding as it is made;
/// returns them all. A bot of a foreign protocol plays a game as each side through its
/// adapter instead (see [`trial`]).
pub fn run_check(
    config: &CheckConfig,
    supervisor: &Supervisor,
    mut report: impl FnMut(&Finding),
) -> Result<Vec<Finding>, CheckError> {
    // A bot killed by an interrupt (Ctrl-C, SIGTERM) judges the interrupt, not the bot:
    // nothing of the check may be said or returned then, or a contest or the arena would keep
    // it as the bot's result.
    let stop_if_interrupted = || {
        if supervisor.is_stopping() {
            supervisor.wait_for_exit();
        }
    };
    let report = |finding: &Finding| {
        stop_if_interrupted();
        report(finding);
    };
    let findings = if config.player.protocol() == Protocol::NATIVE {
        native(config, supervisor, report)?
    } else {
        trial::run_trial(config, supervisor, report)?
    };
    stop_if_interrupted();
    Ok(findings)
}

/// The check of a bot speaking protocol.md.
fn native(
    config: &CheckConfig,
    supervisor: &Supervisor,
    report: impl FnMut(&Finding),
) -> Result<Vec<Finding>, CheckError> {
    let mut check = Check {
        config,
        supervisor,
        said: said::Said::new(config, report),
        bot: None,
        opponent: None,
        crlf_lines: 0,
        stderr_dropped: 0,
        multi_noted: false,
        quit_noted: false,
        quit_failed: false,
    };
    let list = scenarios(&config.rules.spec, &config.opening);
    let count = list.len() as u32;
    for (index, scenario) in list.into_iter().enumerate() {
        if check.game(index as u32 + 1, count, &scenario)?.is_break() {
            break;
        }
    }
    Ok(check.finish())
}

/// A check under way: what it found so far, the processes kept for the next game, and what is
/// counted over all games or said only once.
struct Check<'a, R: FnMut(&Finding)> {
    config: &'a CheckConfig,
    supervisor: &'a Supervisor,
    /// What the check found so far.
    said: said::Said<'a, R>,
    /// The bot's process, while it is kept for its next game.
    bot: Option<BotProcess>,
    /// The random opponent's process, kept until it breaks a rule.
    opponent: Option<BotProcess>,
    /// Lines ended with CR LF, over the bot's processes that have ended.
    crlf_lines: usize,
    /// Bytes of stderr dropped past the cap, over all games.
    stderr_dropped: u64,
    /// Whether the bot's `multi`, or its absence, was noted: it is said once.
    multi_noted: bool,
    /// Whether a quit was noted: a clean one is said once.
    quit_noted: bool,
    /// Whether a quit failed: the next failures are said as again.
    quit_failed: bool,
}

impl<R: FnMut(&Finding)> Check<'_, R> {
    /// Plays game `number` of `count` and says what it showed; breaks when the games left could
    /// only repeat a problem.
    fn game(
        &mut self,
        number: u32,
        count: u32,
        scenario: &Scenario,
    ) -> Result<ControlFlow<()>, CheckError> {
        let same_process = self.bot.is_some();
        let rules = GameRules {
            spec: scenario.spec.clone(),
            watch_late: true,
            ..self.config.rules.clone()
        };
        let played = self.play(number, scenario, &rules)?;
        let files = played.write_files(self.config.record_dir.as_deref())?;
        let side = scenario.bot_side;
        self.stderr_dropped += played.logs[side.index()].stderr_dropped;
        let title = format!(
            "game {number} ({}, as the {} player{})",
            scenario.title,
            side,
            if same_process { ", same process" } else { "" }
        );
        self.note_ready(&played, side, number, &rules);
        if let Some(problem) = self.problem(&played, side, &title, &rules, same_process) {
            let repeated =
                self.said
                    .problem(&problem, &title, number, &played, side, files.as_ref());
            if self.stop_early(&problem.cause, repeated, number, count) {
                return Ok(ControlFlow::Break(()));
            }
        }
        self.end_processes(&played, side);
        Ok(ControlFlow::Continue(()))
    }

    /// Plays `scenario` as game `number`, starting the bot and its opponent unless their
    /// processes were kept from the game before.
    fn play(
        &mut self,
        number: u32,
        scenario: &Scenario,
        rules: &GameRules,
    ) -> Result<PlayedGame, CheckError> {
        let (config, supervisor) = (self.config, self.supervisor);
        let opponent_spec = PlayerSpec::Builtin(Level::Random.into());
        let seat = match &mut self.bot {
            Some(process) => process,
            None => self.bot.insert(BotProcess::spawn(
                supervisor,
                &config
                    .player
                    .command_line(&config.referee_exe, 0, rules.startup),
                ProcessOptions {
                    env_removed: BUFFERING_VARIABLES,
                    ..config.process.clone()
                },
            )?),
        };
        let rival = match &mut self.opponent {
            Some(process) => process,
            None => self.opponent.insert(BotProcess::spawn(
                supervisor,
                &opponent_spec.command_line(&config.referee_exe, number as u64, rules.startup),
                ProcessOptions::default(),
            )?),
        };
        let mut offering;
        let rival: &mut dyn Seat = if scenario.opponent_offers_draws {
            offering = DrawOffers(rival);
            &mut offering
        } else {
            rival
        };
        let seated_player = |seat, label: &str, command: String| SeatedPlayer {
            seat,
            label: label.to_string(),
            command,
            time: config.time,
            // `referee check` checks bots of the native protocol against built-in ones.
            margin: rules.margin,
        };
        let (bot_seat, rival_seat) = (
            seated_player(seat, "bot", config.player.to_string()),
            seated_player(rival, "random", opponent_spec.to_string()),
        );
        let players = match scenario.bot_side {
            Side::First => [bot_seat, rival_seat],
            Side::Second => [rival_seat, bot_seat],
        };
        Ok(play_game(
            supervisor,
            number,
            rules,
            &scenario.opening,
            players,
        )?)
    }

    /// Notes what the bot's `ready` line shows: how long it took to start (in the first game),
    /// and, once, whether it plays `multi`.
    fn note_ready(&mut self, played: &PlayedGame, side: Side, number: u32, rules: &GameRules) {
        let Some(ready) = &played.ready[side.index()] else {
            return;
        };
        if number == 1 {
            let took = ready_time(&played.logs[side.index()]);
            let severity = if took > SLOW_START {
                Severity::Warning
            } else {
                Severity::Ok
            };
            self.said.note(
                severity,
                format!(
                    "start-up: '{}' after {} ms{}",
                    escape(&ready.to_string()),
                    took.as_millis(),
                    if severity == Severity::Ok {
                        String::new()
                    } else {
                        format!(
                            "; that is slow (the allowance is {} ms, not charged to the clock)",
                            rules.startup.as_millis()
                        )
                    }
                ),
                Vec::new(),
            );
        }
        if !self.multi_noted {
            self.multi_noted = true;
            self.said.note(
                Severity::Ok,
                if ready.multi_game {
                    "declares 'multi': the next games are played in the same process".into()
                } else {
                    "plays one game per process (no 'multi'): it is restarted for each game".into()
                },
                Vec::new(),
            );
        }
    }

    /// Notes how the game went for the bot when it went well; otherwise returns the problem it
    /// showed, a missing flush rather than the fault when that explains it. `same_process`:
    /// the game was played by the process of the one before (the bot declared `multi`).
    fn problem(
        &mut self,
        played: &PlayedGame,
        side: Side,
        title: &str,
        rules: &GameRules,
        same_process: bool,
    ) -> Option<Problem> {
        let late = played.late[side.index()].as_ref();
        match diagnose(played, side, &self.config.time, rules, late) {
            Ok((severity, text)) => {
                self.said
                    .note(severity, format!("{title}: {text}"), Vec::new());
                None
            }
            Err(mut problem) => {
                if same_process && exited_before_ready(played, side) {
                    problem.text.push_str(MULTI_EXITED);
                }
                Some(missing_flush(late).unwrap_or(problem))
            }
        }
    }

    /// Whether the games left could only repeat the problem just seen (its `cause`, first seen
    /// in game `repeated` when it was seen before): then says so and ends the bot's process.
    fn stop_early(
        &mut self,
        cause: &Cause,
        repeated: Option<u32>,
        number: u32,
        count: u32,
    ) -> bool {
        if !self.said.stop_early(cause, repeated, number, count) {
            return false;
        }
        if let Some(process) = self.bot.take() {
            self.crlf_lines += process.crlf_lines();
        }
        true
    }

    /// Ends, after a game, the processes that will not play the next: the bot's unless it is
    /// kept (telling it to quit when it broke no rule), the opponent's when it broke one.
    fn end_processes(&mut self, played: &PlayedGame, side: Side) {
        if !played.keeps_process(side) {
            let process = self.bot.take().expect("started above");
            self.crlf_lines += process.crlf_lines();
            if !played.faulted[side.index()] {
                self.quit(process);
            }
        }
        if played.faulted[side.opponent().index()] {
            self.opponent = None;
        }
    }

    /// Tells the bot to quit and notes how it went: the first failure in full and each later
    /// one as again (as for any other problem), and the first success.
    fn quit(&mut self, process: BotProcess) {
        match process.quit() {
            Some(_) if self.quit_noted => {}
            Some(took) => self.said.note(
                Severity::Ok,
                format!("quit: exited {} ms after 'quit'", took.as_millis()),
                Vec::new(),
            ),
            None if self.quit_failed => self.said.note(
                Severity::Again,
                "quit: still running after 'quit' again".into(),
                Vec::new(),
            ),
            None => {
                self.quit_failed = true;
                self.said.note(
                    Severity::Problem,
                    format!(
                        "quit: still running {} ms after 'quit', so it was killed; exit when \
                         you read 'quit' (and when your input ends)",
                        self.config.process.exit_grace.as_millis()
                    ),
                    Vec::new(),
                );
            }
        }
        self.quit_noted = true;
    }

    /// Ends the bot's last process and notes what the games showed together: CRLF line ends
    /// and stderr dropped past the cap.
    fn finish(mut self) -> Vec<Finding> {
        if let Some(process) = self.bot.take() {
            self.crlf_lines += process.crlf_lines();
            self.quit(process);
        }
        let (crlf_lines, stderr_dropped) = (self.crlf_lines, self.stderr_dropped);
        if crlf_lines > 0 {
            self.said.note(
                Severity::Warning,
                format!(
                    "line ends: {crlf_lines} lines ended with CR LF; the referee accepts them, but \
                     write LF ('\\n') alone"
                ),
                Vec::new(),
            );
        }
        if stderr_dropped > 0 {
            self.said.note(
                Severity::Warning,
                format!(
                    "stderr flood: {stderr_dropped} bytes of debug output were dropped past the cap \
                     of {} KiB per game; write less to stderr",
                    self.config.process.stderr_cap / 1024
                ),
                Vec::new(),
            );
        }
        self.said.findings()
    }
}

/// The lines under a problem: the end of the bot's stderr in that game, escaped, and where the
/// whole of it is (or how to keep it).
fn stderr_details(
    played: &PlayedGame,
    side: Side,
    files: Option<&RecordFiles>,
    config: &CheckConfig,
) -> Vec<String> {
    let Some(tail) = &played.record.players[side.index()].stderr_tail else {
        return Vec::new();
    };
    let mut details = vec!["its stderr ended with:".to_string()];
    details.extend(tail.iter().map(|line| format!("| {}", escape(line))));
    details.push(
        match files.and_then(|files| files.stderr[side.index()].as_ref()) {
            Some(path) => crate::report::whole_stderr_at(path),
            None if config.record_dir.is_none() => {
                "(check again with --record DIR to keep all of it, and every game's transcript)"
                    .to_string()
            }
            None => String::new(),
        },
    );
    details.retain(|line| !line.is_empty());
    details
}

/// The last non-blank line `side` wrote to stderr in `played`, escaped.
fn stderr_end(played: &PlayedGame, side: Side) -> Option<String> {
    played.record.players[side.index()]
        .stderr_tail
        .as_ref()?
        .iter()
        .rev()
        .find(|line| !line.trim().is_empty())
        .map(|line| escape(line))
}

/// How long the bot took from `start` to its `ready` line.
fn ready_time(log: &SeatLog) -> Duration {
    let start = log
        .transcript
        .iter()
        .position(|line| line.direction == Direction::ToBot && line.line == "start");
    start
        .and_then(|at| {
            let asked = log.transcript[at].at;
            log.transcript[at..]
                .iter()
                .find(|line| line.direction == Direction::FromBot)
                .map(|line| line.at.saturating_duration_since(asked))
        })
        .unwrap_or_default()
}

/// The finding for one game, from the bot's side: how it went, or the problem it showed.
fn diagnose(
    played: &PlayedGame,
    side: Side,
    time: &TimeControl,
    rules: &GameRules,
    late: Option<&LateAnswer>,
) -> Result<(Severity, String), Problem> {
    if played.faulted[side.index()] {
        Err(fault_problem(played, side, rules, late))
    } else {
        Ok(how_it_went(played, side, time))
    }
}

/// A game the bot broke no rule in: how it ended and its slowest move, a warning when that
/// came close to the limit.
fn how_it_went(played: &PlayedGame, side: Side, time: &TimeControl) -> (Severity, String) {
    let record = &played.record;
    let result = &record.result;
    // Each move against its own limit: the first may have an allowance of its own.
    let limit_ms = |first: bool| match time.first_move_ms {
        ms if first && ms > 0 => ms,
        _ => time.move_ms.max(time.bank_ms),
    };
    let (slowest, limit) = record
        .moves
        .iter()
        .filter(|mv| mv.side == side)
        .enumerate()
        .map(|(at, mv)| (mv.us, limit_ms(at == 0)))
        .max_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1)))
        .unwrap_or((0, limit_ms(false)));
    let share = slowest as f64 / (limit * 1000).max(1) as f64;
    let mut text = format!(
        "played to the end ({}, {} moves in all); its slowest move {:.1} ms",
        result.reason,
        record.moves.len(),
        slowest as f64 / 1000.0
    );
    if played.faulted[side.opponent().index()] {
        text = format!("the built-in opponent failed ({})", result.detail);
    }
    if time.bank_ms == 0 && share > SLOW_SHARE {
        text.push_str(&format!(
            ", {:.0}% of the {limit} ms limit: a busy machine may push a move over it",
            share * 100.0,
        ));
        return (Severity::Warning, text);
    }
    (Severity::Ok, text)
}

/// The rule the bot broke, in words for its author, with a hint where a common mistake
/// explains it.
fn fault_problem(
    played: &PlayedGame,
    side: Side,
    rules: &GameRules,
    late: Option<&LateAnswer>,
) -> Problem {
    let record = &played.record;
    let result = &record.result;
    let sent = played.logs[side.index()]
        .transcript
        .iter()
        .rev()
        .find(|line| line.direction == Direction::FromBot)
        .map(|line| line.line.as_str());
    let (name, mut text) = match result.reason {
        Termination::NotAMove => (
            "wrong notation",
            format!(
                "wrong notation: {}. See protocol.md, 'The games'",
                result.detail
            ),
        ),
        Termination::IllegalMove => {
            let mut text = format!("illegal move: {}", result.detail);
            if let Some(hint) = sent.and_then(|s| illegal_move_hint(s, record, rules, side)) {
                text.push_str(&format!("; {hint}"));
            }
            ("illegal move", text)
        }
        Termination::UnrequestedOutput => (
            "extra output",
            format!(
                "extra output: {}. Write exactly one line after 'start' and after each 'turn', \
                 nothing else (debug output goes to stderr)",
                result.detail
            ),
        ),
        Termination::Timeout => {
            // A move quoted from its stderr: the detail already says where moves go, flushed.
            let advice = match &result.line {
                Some(_) => "",
                None => ". Answer every 'turn' within its time, and flush",
            };
            let hint = late_hint(late).unwrap_or_else(|| advice.to_string());
            ("timeout", format!("timeout: {}{hint}", result.detail))
        }
        Termination::NotReady => {
            let mut text = format!(
                "start-up failed: {}. Answer 'start' with 'ready NAME VERSION' within {} ms",
                result.detail,
                rules.startup.as_millis()
            );
            // A line other than `ready` that reads like prose is a banner or a debug line.
            if sent.is_some_and(|line| !line.starts_with("ready") && looks_like_prose(line)) {
                text.push_str(
                    "; its line reads like debug output: write that to stderr, stdout carries \
                     the protocol only",
                );
            }
            if let Some(LateAnswer::Unended(start)) = late {
                text.push_str(&format!("; {}", unended(start)));
            }
            ("start-up failed", text)
        }
        Termination::LineTooLong => ("line too long", format!("line too long: {}", result.detail)),
        Termination::Exited => {
            let mut text = format!("crash: {}", result.detail);
            // Dying when first asked to move, without a `legal` line: the beginner's bot that
            // plays from one.
            let first_turn = played.ready[side.index()].is_some()
                && !record.moves.iter().any(|mv| mv.side == side);
            if first_turn && !rules.send_legal_moves {
                text.push_str(
                    "; if your bot plays from the 'legal' line, check (and play) with --legal-moves",
                );
            }
            ("crash", text)
        }
        _ => ("fault", format!("{}: {}", result.reason, result.detail)),
    };
    for hint in fault_hints(played, side, rules) {
        text.push_str("; ");
        text.push_str(&hint);
    }
    Problem {
        cause: fault_cause(played, side),
        name,
        text,
    }
}

/// The cause of the rule `side` broke in `played`, to say it once however many games show it.
fn fault_cause(played: &PlayedGame, side: Side) -> Cause {
    let result = &played.record.result;
    Cause::Fault {
        reason: result.reason,
        violation: result.violation.clone(),
        in_setup: played.ready[side.index()].is_none(),
    }
}

/// What the bot was last sent explains many faults: the lines it died after, a draw offer it
/// could not answer, a box completed that gave it another move.
fn fault_hints(played: &PlayedGame, side: Side, rules: &GameRules) -> Vec<String> {
    let result = &played.record.result;
    let last = last_request(&played.logs[side.index()]);
    let mut hints = Vec::new();
    if result.reason == Termination::Exited && !last.is_empty() {
        hints.push(format!("it died after it was sent {}", quoted_lines(&last)));
    }
    if last.contains(&"offer draw") {
        hints.push(
            "its opponent had offered a draw ('offer draw' before its 'turn'): answer 'draw' to \
             accept it, or a move to decline it (protocol.md, 'offer draw')"
                .into(),
        );
    }
    let moved_last = played.record.moves.last().filter(|mv| mv.side == side);
    if let (Termination::Timeout, GameSpec::Dots(_), Some(mv)) =
        (result.reason, &rules.spec, moved_last)
    {
        hints.push(format!(
            "its line '{}' completed a box, so it had to move again, and did not: protocol.md \
             says \"a bot whose line completes a box moves again: its next `turn` comes at \
             once, with no `opponent` line before it\"",
            escape(&mv.notation)
        ));
    }
    hints
}

/// The lines of the last request a bot was sent before it failed: those sent after its last
/// line, without the `result` (or `quit`, Gomocup's `END`) that followed the failure.
fn last_request(log: &SeatLog) -> Vec<&str> {
    let answered = log
        .transcript
        .iter()
        .rposition(|line| line.direction == Direction::FromBot)
        .map_or(0, |at| at + 1);
    log.transcript[answered..]
        .iter()
        .filter(|line| line.direction == Direction::ToBot)
        .map(|line| line.line.as_str())
        .take_while(|line| !line.starts_with("result ") && !matches!(*line, "quit" | "END"))
        .collect()
}

/// The last lines of a request (at most [`LINES_QUOTED`]), each escaped and cut short:
/// `'opponent swap' and 'turn 1000'`.
fn quoted_lines(lines: &[&str]) -> String {
    let shown = &lines[lines.len().saturating_sub(LINES_QUOTED)..];
    let mut quoted: Vec<String> = shown
        .iter()
        .map(|line| format!("'{}'", referee_rules::quote::shorten(line, 60)))
        .collect();
    let last = quoted.pop().expect("a line at least");
    let mut text = if lines.len() > shown.len() {
        "..., ".to_string()
    } else {
        String::new()
    };
    if !quoted.is_empty() {
        text.push_str(&format!("{} and ", quoted.join(", ")));
    }
    text.push_str(&last);
    text
}

/// The most lines of a request a finding quotes.
const LINES_QUOTED: usize = 3;

/// For an illegal move, the common mistakes that explain it: on a square already taken, which
/// move took it (the bot's board lost that move); for an `x y` move, whether `y x` would have
/// been legal (rows and columns mixed up).
fn illegal_move_hint(
    sent: &str,
    record: &referee_records::record::GameRecord,
    rules: &GameRules,
    side: Side,
) -> Option<String> {
    let mut game = rules.spec.new_game();
    for mv in record
        .opening
        .iter()
        .chain(record.moves.iter().map(|m| &m.notation))
    {
        game.play_text(mv).ok()?;
    }
    let taken = match game.boxed_clone().play_text(sent) {
        Err(MoveError::Illegal(IllegalMove::Occupied { square, .. })) => {
            Some(taken_by(&square, record, side))
        }
        _ => None,
    };
    let swapped = match sent.split_whitespace().collect::<Vec<_>>().as_slice() {
        [a, b] if game.play_text(&format!("{b} {a}")).is_ok() => Some(format!(
            "'{b} {a}' would have been legal: moves are written 'x y', the column first, then \
             the row"
        )),
        _ => None,
    };
    match (taken, swapped) {
        (Some(taken), Some(swapped)) => Some(format!(
            "{taken}; or its coordinates are the wrong way round: {swapped}"
        )),
        (taken, swapped) => taken.or(swapped),
    }
}

/// Which move of `record` took `square`, said to the author of the bot playing `side`.
fn taken_by(square: &str, record: &referee_records::record::GameRecord, side: Side) -> String {
    let played = record.moves.iter().enumerate().rev();
    match played.clone().find(|(_, mv)| mv.notation == square) {
        Some((index, mv)) if mv.side == side => format!(
            "the bot itself played {square} at move {}: its board lost that move",
            index + 1
        ),
        Some((index, _)) if index + 1 == record.moves.len() => format!(
            "the opponent played {square} at move {}, just before: the bot did not put that \
             move on its own board",
            index + 1
        ),
        Some((index, _)) => format!(
            "the opponent played {square} at move {}: the bot's board lost that move",
            index + 1
        ),
        None => format!(
            "{square} was played in the opening (the 'played' lines before the first 'turn')"
        ),
    }
}

/// The games the check plays for `spec`: one as each side from `opening` (the start when it
/// is empty), then the game's edge cases.
fn scenarios(spec: &GameSpec, opening: &[String]) -> Vec<Scenario> {
    let plain = |side: Side| Scenario {
        title: if opening.is_empty() {
            "from the start".into()
        } else {
            format!("from the opening '{}'", opening.join(","))
        },
        spec: spec.clone(),
        opening: opening.to_vec(),
        bot_side: side,
        opponent_offers_draws: false,
    };
    let mut list = vec![plain(Side::First), plain(Side::Second)];
    for case in spec.check_scenarios() {
        let spec = spec
            .with_params(&case.params)
            .expect("the check's scenarios are valid");
        let mut game = spec.new_game();
        for mv in &case.opening {
            game.play_text(mv).expect("the check's openings are legal");
        }
        list.push(Scenario {
            title: case.title,
            spec,
            opening: case.opening,
            bot_side: game.side_to_move(),
            opponent_offers_draws: false,
        });
    }
    if spec.allows_draw_offers() {
        // Every turn of the bot's after the opponent's first move comes with an offer.
        list.push(Scenario {
            title: "a draw offered with every move of the opponent".into(),
            opponent_offers_draws: true,
            ..plain(Side::First)
        });
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_edge_cases() {
        let count = |name: &str, params: &[&str]| {
            scenarios(&GameSpec::from_words(name, params).unwrap(), &[]).len()
        };
        assert_eq!(count("tictactoe", &[]), 3);
        assert_eq!(count("mnk", &["size=20"]), 4);
        assert_eq!(count("uttt", &[]), 4);
        assert_eq!(count("checkers", &[]), 4);
        assert_eq!(count("dots", &[]), 3);
        assert_eq!(count("dots", &["size=1"]), 2);
        let rect = scenarios(&GameSpec::from_words("mnk", &["size=20"]).unwrap(), &[]);
        assert_eq!(
            rect[3].spec.to_string(),
            "mnk width=20 height=18 line=5 exact=no"
        );
    }
}
