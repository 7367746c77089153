//! How a game ended, as types: the one place that knows every result reason code, which of them
//! are forfeits, how the standings count them, and the sentence that explains a verdict.
//!
//! Records, journals and `result` lines carry [`Termination`] as its code (`timeout`, `line`,
//! ...); every other module matches on the enum, so a classifier can never disagree with another
//! about a code.

use crate::clock::{Overtime, Strikes};
use crate::games::{Ending, IllegalMove, Side};
use crate::quote::shorten;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Why a game ended: an ending of the rules, a draw agreed, or a forfeit. Serialised as the
/// stable code of protocol.md's "Results".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum Termination {
    /// The rules decided (a line, a full board, no move left, ...).
    Rules(Ending),
    /// The players agreed a draw (checkers).
    Agreement,
    /// Renju: the first player made a forbidden shape and lost by the rules; which shape is the
    /// verdict's [`violation`](Verdict::violation).
    ForbiddenMove,
    /// `resign`: the bot gave up; a loss, but no fault.
    Resign,
    /// `not-ready`: no valid `ready` line within the start-up allowance.
    NotReady,
    /// `timeout`: the answer came later than the limit plus the margin, or never.
    Timeout,
    /// `line-too-long`: a line longer than the maximum.
    LineTooLong,
    /// `unrequested-output`: a line written when no answer was expected.
    UnrequestedOutput,
    /// `exited`: the bot exited, was killed or closed its output before the game ended.
    Exited,
    /// `not-a-move`: an answer not in the game's notation, or a draw answer that does not fit.
    NotAMove,
    /// `illegal-move`: a move in the notation that the rules forbid here.
    IllegalMove,
    /// A Gomocup brain refused the board (`ERROR` to `START`).
    RefusedBoard,
    /// The bot died on one of its resource limits.
    Limit(ResourceLimit),
}

/// A resource limit a bot died on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceLimit {
    /// `memory-limit`: an allocation failed, or the memory cgroup's limit was reached.
    Memory,
    /// `cpu-limit`: the CPU time limit ran out (killed by `SIGXCPU`).
    Cpu,
    /// `file-size-limit`: a file grew past its limit (killed by `SIGXFSZ`).
    FileSize,
    /// `process-limit`: the system refused it another process or thread.
    Processes,
}

impl ResourceLimit {
    /// Every limit, for [`Termination::all`].
    pub const ALL: [ResourceLimit; 4] = [
        ResourceLimit::Memory,
        ResourceLimit::Cpu,
        ResourceLimit::FileSize,
        ResourceLimit::Processes,
    ];
}

/// The column of the standings a forfeit loss is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForfeitColumn {
    /// Late answers, and none at all.
    Timeout,
    /// `illegal-move` or `not-a-move`.
    Illegal,
    /// Everything else a broken bot does: exited, not ready, line too long, unrequested output,
    /// a resource limit, a refused board.
    Crash,
}

impl Termination {
    /// Every termination, for documentation and round-trip tests.
    pub fn all() -> impl Iterator<Item = Termination> {
        let fixed = [
            Termination::Agreement,
            Termination::ForbiddenMove,
            Termination::Resign,
            Termination::NotReady,
            Termination::Timeout,
            Termination::LineTooLong,
            Termination::UnrequestedOutput,
            Termination::Exited,
            Termination::NotAMove,
            Termination::IllegalMove,
            Termination::RefusedBoard,
        ];
        Ending::ALL
            .into_iter()
            .map(Termination::Rules)
            .chain(fixed)
            .chain(ResourceLimit::ALL.into_iter().map(Termination::Limit))
    }

    /// The stable code written in records, journals and `result` lines.
    pub fn code(self) -> &'static str {
        match self {
            Termination::Rules(ending) => match ending {
                Ending::Line => "line",
                Ending::BoardFull => "board-full",
                Ending::NoMovesLeft => "no-moves-left",
                Ending::MoreSmallBoards => "more-small-boards",
                Ending::NoLegalMove => "no-legal-move",
                Ending::Repetition => "repetition",
                Ending::MoveRule => "move-rule",
                Ending::AllLinesDrawn => "all-lines-drawn",
                Ending::Forbidden(_) => "forbidden-move",
            },
            Termination::Agreement => "agreement",
            Termination::ForbiddenMove => "forbidden-move",
            Termination::Resign => "resign",
            Termination::NotReady => "not-ready",
            Termination::Timeout => "timeout",
            Termination::LineTooLong => "line-too-long",
            Termination::UnrequestedOutput => "unrequested-output",
            Termination::Exited => "exited",
            Termination::NotAMove => "not-a-move",
            Termination::IllegalMove => "illegal-move",
            Termination::RefusedBoard => "refused-board",
            Termination::Limit(ResourceLimit::Memory) => "memory-limit",
            Termination::Limit(ResourceLimit::Cpu) => "cpu-limit",
            Termination::Limit(ResourceLimit::FileSize) => "file-size-limit",
            Termination::Limit(ResourceLimit::Processes) => "process-limit",
        }
    }

    /// Whether a player lost by breaking a rule of the match (a resignation, a protocol fault, an
    /// illegal move) rather than by the rules of the game or by agreement. A forbidden move is
    /// a loss by the rules of renju: the move is played, and the rules end the game.
    pub fn is_forfeit(self) -> bool {
        !matches!(
            self,
            Termination::Rules(_) | Termination::Agreement | Termination::ForbiddenMove
        )
    }

    /// Where the standings count a loss by this termination: `None` for a loss on the board or a
    /// resignation.
    pub fn forfeit_column(self) -> Option<ForfeitColumn> {
        match self {
            Termination::Rules(_)
            | Termination::Agreement
            | Termination::ForbiddenMove
            | Termination::Resign => None,
            Termination::Timeout => Some(ForfeitColumn::Timeout),
            Termination::NotAMove | Termination::IllegalMove => Some(ForfeitColumn::Illegal),
            Termination::NotReady
            | Termination::LineTooLong
            | Termination::UnrequestedOutput
            | Termination::Exited
            | Termination::RefusedBoard
            | Termination::Limit(_) => Some(ForfeitColumn::Crash),
        }
    }
}

impl From<Termination> for &'static str {
    fn from(termination: Termination) -> &'static str {
        termination.code()
    }
}

/// A result reason code that protocol.md does not define.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown result reason '{0}'")]
pub struct UnknownReason(String);

impl FromStr for Termination {
    type Err = UnknownReason;

    fn from_str(code: &str) -> Result<Termination, UnknownReason> {
        Termination::all()
            .find(|termination| termination.code() == code)
            .ok_or_else(|| UnknownReason(code.to_string()))
    }
}

impl TryFrom<String> for Termination {
    type Error = UnknownReason;

    fn try_from(code: String) -> Result<Termination, UnknownReason> {
        code.parse()
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Something a seat did wrong, or could not do, that forfeits its game: what a bot process (or
/// an adapter for another protocol) reports to the match loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No valid `ready` line within the start-up allowance: the line that came instead, or
    /// (from an adapter) a reply that never came.
    NotReady {
        /// What went wrong, for the sentence.
        detail: String,
    },
    /// No `ready` line at all within the start-up allowance: the mark of a bot that does not
    /// flush its output, which the sentence points out.
    NoReadyLine {
        /// The start-up allowance.
        allowance: Duration,
    },
    /// No answer before the watchdog gave up waiting.
    Timeout {
        /// How long the watchdog waited.
        waited: Duration,
        /// The lines the bot wrote on standard error meanwhile that its protocol reads as a
        /// move: most likely its answer, written to the wrong stream (see [`Forfeit::Late`]).
        on_stderr: Vec<StderrMove>,
        /// The last line the bot wrote meanwhile that its protocol passed over as no move.
        passed_over: Option<PassedOver>,
    },
    /// A line longer than the maximum, newline not yet seen.
    LineTooLong {
        /// The maximum, in bytes.
        limit: usize,
    },
    /// A line written when no answer was asked for. `memory_limit_mb` is the bot's memory
    /// limit when the line reads like a failure to get memory (see
    /// [`looks_like_allocation_failure`]): the limit most likely stopped the bot, and the
    /// sentence says so rather than leave its author puzzling over a JVM's message.
    Unrequested {
        /// The line, as the bot wrote it.
        line: String,
        /// The memory limit in MiB, when the line reads like a failure to get memory.
        memory_limit_mb: Option<u64>,
    },
    /// The bot closed its output, exited or was killed before the game ended.
    Exited {
        /// How it went: the exit code, the signal, or the closed output.
        detail: String,
    },
    /// The bot died on one of its resource limits.
    Limit {
        /// Which limit.
        limit: ResourceLimit,
        /// The whole sentence of what happened, e.g. the peak memory against the limit.
        detail: String,
    },
    /// A bot of another protocol answered with a line that is not a move in that protocol's
    /// format; `expected` says what would have been.
    NotAMove {
        /// The line, as the bot wrote it.
        line: String,
        /// What the protocol expected there, for the sentence.
        expected: String,
    },
    /// A Gomocup brain refused the board it was asked to play on (`ERROR` to `START`).
    RefusedBoard {
        /// The board's size, e.g. `15x15`.
        board: String,
        /// The brain's answer, as it wrote it.
        answer: String,
    },
    /// A Gomocup brain refused the game's rule set (an `ERROR` naming the rule, after
    /// `INFO rule`): it would play a rule of its own. A verdict of the same kind as
    /// [`Fault::RefusedBoard`]: the brain cannot play this game.
    RefusedRule {
        /// The rule set in words, with its `INFO rule` value: `caro (INFO rule 8)`.
        rule: String,
        /// The brain's line, as it wrote it.
        answer: String,
    },
}

/// A line a bot wrote on standard error while its answer was awaited, which its protocol reads
/// as a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StderrMove {
    /// The line as the bot wrote it.
    pub written: String,
    /// The move it reads as, in the referee's protocol (`x y` for a CodinGame bot's `y x`).
    pub notation: String,
}

/// A line a bot wrote while its answer was awaited that its protocol passes over as no move
/// (a Gomocup brain's `7 7` for `7,7`): most likely its answer, which the sentence of its
/// timeout names with the form a move has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassedOver {
    /// The line as the bot wrote it.
    pub written: String,
    /// What a move is in the bot's protocol, with an example.
    pub expected: &'static str,
}

/// What to tell a bot whose line, not a move, reads like words meant for people: most likely
/// debug output written to stdout, which a bot author should hear goes to stderr.
const DEBUG_OUTPUT_HINT: &str =
    "; it reads like debug output: write that to stderr, stdout carries the protocol only";

/// Whether a line a bot wrote, which is not a move, reads like prose: it holds a run of three
/// letters or more that is no word of a protocol (a move is numbers, square names and a few
/// keywords).
pub fn looks_like_prose(line: &str) -> bool {
    const PROTOCOL_WORDS: [&str; 8] = [
        "resign",
        "draw",
        "ready",
        "multi",
        "place_move",
        "place_disc",
        "swap",
        "more",
    ];
    line.split(|c: char| !c.is_alphabetic() && c != '_')
        .any(|word| {
            word.chars().count() >= 3 && !PROTOCOL_WORDS.contains(&word.to_lowercase().as_str())
        })
}

/// Whether a line a bot wrote reads like a program's failure to get memory, most often at
/// start-up: a JVM reserves its heap and more address space up front, and under an address
/// space limit (`--limits memory=`) it cannot start, saying so on stdout.
pub fn looks_like_allocation_failure(line: &str) -> bool {
    const SIGNS: [&str; 8] = [
        "error occurred during initialization of vm",
        "could not reserve enough space",
        "cannot allocate memory",
        "failed to allocate",
        "out of memory",
        "outofmemoryerror",
        "bad_alloc",
        "memoryerror",
    ];
    // Checked on every answer while a memory limit is set: a line shorter than every sign (a
    // move) is passed at once, without lowering its case into a new string.
    let shortest = SIGNS.iter().map(|sign| sign.len()).min().unwrap_or(0);
    if line.len() < shortest {
        return false;
    }
    let line = line.to_lowercase();
    SIGNS.iter().any(|sign| line.contains(sign))
}

/// [`DEBUG_OUTPUT_HINT`] when `line` reads like prose, else nothing.
fn prose_hint(line: &str) -> &'static str {
    if looks_like_prose(line) {
        DEBUG_OUTPUT_HINT
    } else {
        ""
    }
}

impl Fault {
    /// The advice the fault's sentence ends with, if any: said after where in the game it
    /// happened, so that `at move 3` stays with what the bot did.
    fn hint(&self) -> String {
        match self {
            Fault::Unrequested {
                memory_limit_mb: Some(mb),
                ..
            } => format!(
                "; it reads like a failure to get memory: its memory limit of {mb} MiB \
                 (address space, --limits memory=) most likely stopped it (a JVM reserves more \
                 than its heap: raise the limit, or cap the heap with -Xmx)"
            ),
            Fault::Unrequested {
                line,
                memory_limit_mb: None,
            }
            | Fault::NotAMove { line, .. } => prose_hint(line).to_string(),
            Fault::NoReadyLine { .. } => "; a line the bot wrote but did not flush never \
                arrives: flush stdout after every line"
                .to_string(),
            _ => String::new(),
        }
    }

    /// What the bot did, without the advice of [`Fault::hint`].
    fn what(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::NotReady { detail } => write!(f, "not ready: {detail}"),
            Fault::NoReadyLine { allowance } => write!(
                f,
                "not ready: no 'ready' line within {} ms",
                allowance.as_millis()
            ),
            Fault::Timeout { waited, .. } => {
                write!(f, "no answer after {} ms", waited.as_millis())
            }
            Fault::LineTooLong { limit } => {
                write!(f, "wrote a line longer than {limit} bytes")
            }
            Fault::Unrequested { line, .. } => {
                write!(f, "wrote when not asked: '{}'", shorten(line, 80))
            }
            Fault::Exited { detail } | Fault::Limit { detail, .. } => f.write_str(detail),
            Fault::NotAMove { line, expected } => write!(
                f,
                "sent '{}', which is not a move: {expected}",
                shorten(line, 60)
            ),
            Fault::RefusedBoard { board, answer } => {
                write!(f, "refused the {board} board: '{}'", shorten(answer, 80))
            }
            Fault::RefusedRule { rule, answer } => {
                write!(f, "refused the rule {rule}: '{}'", shorten(answer, 80))
            }
        }
    }
}

impl Fault {
    /// No answer within `waited`, and nothing on standard error that reads as a move.
    pub fn timeout(waited: Duration) -> Fault {
        Fault::Timeout {
            waited,
            on_stderr: Vec::new(),
            passed_over: None,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.what(f)?;
        f.write_str(&self.hint())
    }
}

/// A move as a verdict names it: its number (see [`Moment::Move`]) and its notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// Counted from 1 over both sides, the opening not included.
    pub number: u32,
    /// As the rules write it, e.g. `7 7`.
    pub notation: String,
}

/// When in the game a forfeit happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Before the first move: start-up, `ready`, the setup lines of a game.
    Setup,
    /// The move asked for, counted from 1 over both sides (the opening not included).
    Move(u32),
}

/// What a player did that lost it the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// `resign`: the player gave up.
    Resigned,
    /// Over its time: `answered_after` is `None` when the watchdog gave up before any answer.
    Late {
        /// How long the answer took, measured by the referee.
        answered_after: Option<Duration>,
        /// The time the move had.
        limit: Duration,
        /// How long past `limit` an answer still counted.
        margin: Duration,
        /// The player's strikes, under a time control that forgives moves over the limit
        /// (CodinGame's): used up, or the move was past the hard limit.
        strikes: Option<Strikes>,
        /// A legal move the player wrote on standard error while its answer was awaited, as it
        /// wrote it: the sentence tells it that moves go to standard output.
        on_stderr: Option<String>,
        /// The last line the player wrote meanwhile that its protocol passed over as no move.
        passed_over: Option<PassedOver>,
    },
    /// `draw` when no draw was offered.
    UnofferedDraw,
    /// `MOVE draw` in a game without draw offers (named).
    DrawOfferNotAllowed {
        /// The game's name, e.g. `tictactoe`.
        game: String,
    },
    /// A line the rules (or an adapter) cannot read as a move. `written` is the bot's own line
    /// when an adapter translated it into `sent`.
    NotAMove {
        /// The reply in the protocol's native form, as the rules read it.
        sent: String,
        /// The bot's own line, when an adapter translated it.
        written: Option<String>,
        /// What a reply must be instead, for the sentence.
        expected: String,
    },
    /// A move in the notation that the rules forbid here. `written` is the bot's own line when
    /// an adapter translated it into `sent`.
    IllegalMove {
        /// The move in the protocol's native form, as the rules read it.
        sent: String,
        /// The bot's own line, when an adapter translated it.
        written: Option<String>,
        /// Which rule it broke.
        error: IllegalMove,
    },
    /// Any other fault of the seat (see [`Fault`]).
    Seat(Fault),
}

/// Why the game ended, with everything its sentence needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The rules ended the game.
    Rules {
        /// Who won; `None` for a draw.
        winner: Option<Side>,
        /// Which rule ended the game.
        ending: Ending,
        /// The move that ended it, when the bots played one (not the opening's): a forbidden
        /// move is named by it.
        last: Option<LastMove>,
    },
    /// `accepted_by` answered `draw` to its opponent's offer.
    Agreement {
        /// The player who accepted the draw.
        accepted_by: Side,
    },
    /// `loser` forfeited at `at`.
    Forfeit {
        /// The player who forfeited; the other one wins.
        loser: Side,
        /// When in the game it happened.
        at: Moment,
        /// What it did.
        forfeit: Forfeit,
    },
}

impl Forfeit {
    /// Lateness: the answer after `answered_after` (`None`: none before the watchdog gave up),
    /// over `overtime`; `on_stderr`, a legal move written on standard error meanwhile;
    /// `passed_over`, the last line written meanwhile that is no move.
    pub fn late(
        answered_after: Option<Duration>,
        overtime: Overtime,
        on_stderr: Option<String>,
        passed_over: Option<PassedOver>,
    ) -> Forfeit {
        Forfeit::Late {
            answered_after,
            limit: overtime.limit,
            margin: overtime.margin,
            strikes: overtime.strikes,
            on_stderr,
            passed_over,
        }
    }
}

impl Verdict {
    /// The verdict for a seat's fault: a watchdog timeout is lateness, judged like any other,
    /// naming the last of the moves the bot wrote on standard error meanwhile that `legal`
    /// says the rules allow.
    pub fn fault(
        loser: Side,
        at: Moment,
        fault: Fault,
        overtime: Overtime,
        legal: impl Fn(&str) -> bool,
    ) -> Self {
        let forfeit = match fault {
            Fault::Timeout {
                on_stderr,
                passed_over,
                ..
            } => {
                let written = on_stderr.into_iter().rev().find(|mv| legal(&mv.notation));
                Forfeit::late(None, overtime, written.map(|mv| mv.written), passed_over)
            }
            Fault::NotAMove { line, expected } => Forfeit::NotAMove {
                sent: line,
                written: None,
                expected,
            },
            fault => Forfeit::Seat(fault),
        };
        Verdict::Forfeit { loser, at, forfeit }
    }

    /// Who won; `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self {
            Verdict::Rules { winner, .. } => *winner,
            Verdict::Agreement { .. } => None,
            Verdict::Forfeit { loser, .. } => Some(loser.opponent()),
        }
    }

    /// The side that broke the rules of the match (its process should not be reused): the
    /// loser of any forfeit but a resignation.
    pub fn at_fault(&self) -> Option<Side> {
        match self {
            Verdict::Forfeit {
                forfeit: Forfeit::Resigned,
                ..
            } => None,
            Verdict::Forfeit { loser, .. } => Some(*loser),
            _ => None,
        }
    }

    /// The points `side` scores: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(&self, side: Side) -> f64 {
        match self.winner() {
            None => 0.5,
            Some(winner) if winner == side => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The result reason this verdict is recorded and sent under.
    pub fn termination(&self) -> Termination {
        match self {
            Verdict::Rules {
                ending: Ending::Forbidden(_),
                ..
            } => Termination::ForbiddenMove,
            Verdict::Rules { ending, .. } => Termination::Rules(*ending),
            Verdict::Agreement { .. } => Termination::Agreement,
            Verdict::Forfeit { forfeit, .. } => match forfeit {
                Forfeit::Resigned => Termination::Resign,
                Forfeit::Late { .. } => Termination::Timeout,
                Forfeit::UnofferedDraw
                | Forfeit::DrawOfferNotAllowed { .. }
                | Forfeit::NotAMove { .. } => Termination::NotAMove,
                Forfeit::IllegalMove { .. } => Termination::IllegalMove,
                Forfeit::Seat(fault) => match fault {
                    Fault::NotReady { .. } | Fault::NoReadyLine { .. } => Termination::NotReady,
                    Fault::Timeout { .. } => Termination::Timeout,
                    Fault::LineTooLong { .. } => Termination::LineTooLong,
                    Fault::Unrequested { .. } => Termination::UnrequestedOutput,
                    Fault::Exited { .. } => Termination::Exited,
                    Fault::Limit { limit, .. } => Termination::Limit(*limit),
                    Fault::NotAMove { .. } => Termination::NotAMove,
                    Fault::RefusedBoard { .. } | Fault::RefusedRule { .. } => {
                        Termination::RefusedBoard
                    }
                },
            },
        }
    }

    /// The bot's line the sentence quotes, as the bot wrote it (the sentence escapes and
    /// shortens it): a reply that is not a move or an illegal move, a line written when not
    /// asked, a Gomocup brain's refusal of the board or the rule, the move a bot that timed out
    /// wrote on standard error.
    pub fn quoted_line(&self) -> Option<&str> {
        let Verdict::Forfeit { forfeit, .. } = self else {
            return None;
        };
        match forfeit {
            Forfeit::NotAMove { sent, written, .. }
            | Forfeit::IllegalMove { sent, written, .. } => {
                Some(written.as_deref().unwrap_or(sent))
            }
            Forfeit::Seat(Fault::Unrequested { line, .. } | Fault::NotAMove { line, .. }) => {
                Some(line)
            }
            Forfeit::Seat(
                Fault::RefusedBoard { answer, .. } | Fault::RefusedRule { answer, .. },
            ) => Some(answer),
            Forfeit::Late {
                on_stderr,
                passed_over,
                ..
            } => on_stderr
                .as_deref()
                .or(passed_over.as_ref().map(|line| line.written.as_str())),
            _ => None,
        }
    }

    /// For an illegal move: the move as the rules read it, in the referee's notation (what an
    /// adapter made of the bot's line): where a viewer marks it on the board.
    pub fn illegal_move(&self) -> Option<&str> {
        match self {
            Verdict::Forfeit {
                forfeit: Forfeit::IllegalMove { sent, .. },
                ..
            } => Some(sent.as_str()),
            _ => None,
        }
    }

    /// For an illegal move: which rule it broke (`occupied`, `off-board`, ...); for a forbidden
    /// move, which shape (`double-three`, `double-four`, `overline`).
    pub fn violation(&self) -> Option<&'static str> {
        match self {
            Verdict::Rules {
                ending: Ending::Forbidden(shape),
                ..
            } => Some(shape.code()),
            Verdict::Forfeit {
                forfeit: Forfeit::IllegalMove { error, .. },
                ..
            } => Some(error.code()),
            _ => None,
        }
    }

    /// The sentence that explains the verdict, naming the players as `names` (first, second)
    /// say, e.g. `A (first player) answered move 3 after 212.4 ms; the limit is 200 ms (+10 ms
    /// margin)`.
    pub fn sentence<'a>(&'a self, names: &'a [String; 2]) -> Sentence<'a> {
        Sentence {
            verdict: self,
            names,
        }
    }
}

/// A verdict told in words; see [`Verdict::sentence`].
pub struct Sentence<'a> {
    verdict: &'a Verdict,
    names: &'a [String; 2],
}

/// How much of a bot's line a verdict quotes.
const QUOTED: usize = 60;

/// What a bot that ran out of time wrote while its answer was awaited, that was no answer: a
/// move on standard error, a line its protocol passed over as no move.
fn written_meanwhile(
    f: &mut fmt::Formatter<'_>,
    on_stderr: Option<&str>,
    passed_over: Option<&PassedOver>,
) -> fmt::Result {
    if let Some(line) = on_stderr {
        write!(
            f,
            "; it wrote '{}' on standard error; moves must go to standard output \
             (print / System.out / cout), flushed",
            shorten(line, QUOTED)
        )?;
    }
    if let Some(line) = passed_over {
        write!(
            f,
            "; it wrote '{}', which is no move and was passed over: {}",
            shorten(&line.written, QUOTED),
            line.expected
        )?;
    }
    Ok(())
}

impl Sentence<'_> {
    /// The sentence of a game the rules ended, `last` its last move: a forbidden one is named.
    fn rules_ending(
        &self,
        f: &mut fmt::Formatter<'_>,
        winner: Option<Side>,
        ending: Ending,
        last: Option<&LastMove>,
    ) -> fmt::Result {
        let who = |side: Side| &self.names[side.index()];
        match (winner, ending, last) {
            (Some(side), Ending::Forbidden(shape), Some(last)) => write!(
                f,
                "{} wins: {} made a forbidden {shape} with move {}, '{}' (renju forbids it to \
                 Black)",
                who(side),
                who(side.opponent()),
                last.number,
                last.notation
            ),
            (Some(side), ending, _) => write!(f, "{} wins: {ending}", who(side)),
            (None, ending, _) => write!(f, "draw: {ending}"),
        }
    }
}

impl fmt::Display for Sentence<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = |side: Side| &self.names[side.index()];
        let (loser, at, forfeit) = match self.verdict {
            Verdict::Rules {
                winner,
                ending,
                last,
            } => return self.rules_ending(f, *winner, *ending, last.as_ref()),
            Verdict::Agreement { accepted_by } => {
                return write!(
                    f,
                    "draw: {} accepted the draw offered by {}",
                    who(*accepted_by),
                    who(accepted_by.opponent())
                )
            }
            Verdict::Forfeit { loser, at, forfeit } => (who(*loser), *at, forfeit),
        };
        let number = match at {
            Moment::Setup => 0,
            Moment::Move(number) => number,
        };
        let written = |written: &Option<String>| match written {
            Some(line) => format!(" (written '{}')", shorten(line, QUOTED)),
            None => String::new(),
        };
        match forfeit {
            Forfeit::Resigned => write!(f, "{loser} resigned at move {number}"),
            Forfeit::Late {
                answered_after,
                limit,
                margin,
                strikes,
                on_stderr,
                passed_over,
            } => {
                match answered_after {
                    Some(after) => write!(
                        f,
                        "{loser} answered move {number} after {:.1} ms",
                        after.as_secs_f64() * 1000.0
                    )?,
                    None => write!(
                        f,
                        "{loser} did not answer move {number} within {} ms",
                        (*limit + *margin).as_millis()
                    )?,
                }
                write!(
                    f,
                    "; the limit is {} ms (+{} ms margin)",
                    limit.as_millis(),
                    margin.as_millis()
                )?;
                match strikes {
                    Some(strikes) if strikes.used < strikes.allowed => write!(
                        f,
                        ", and {} ms for a move counted as a strike",
                        (*limit + *margin + strikes.hard).as_millis()
                    )?,
                    Some(strikes) => write!(
                        f,
                        ": its strike {} over the limit, {} being forgiven",
                        strikes.used + 1,
                        strikes.allowed
                    )?,
                    None => {}
                }
                written_meanwhile(f, on_stderr.as_deref(), passed_over.as_ref())
            }
            Forfeit::UnofferedDraw => write!(
                f,
                "{loser} answered 'draw' for move {number}, but no draw was offered"
            ),
            Forfeit::DrawOfferNotAllowed { game } => write!(
                f,
                "{loser} offered a draw with move {number}, but {game} has no draw offers"
            ),
            Forfeit::NotAMove {
                sent,
                written: original,
                expected,
            } => write!(
                f,
                "{loser} sent '{}'{} for move {number}, which is not a move: {expected}{}",
                shorten(sent, QUOTED),
                written(original),
                prose_hint(original.as_deref().unwrap_or(sent))
            ),
            Forfeit::IllegalMove {
                sent,
                written: original,
                error,
            } => write!(
                f,
                "{loser} played the illegal move '{}'{} at move {number}: {error}",
                shorten(sent, QUOTED),
                written(original)
            ),
            Forfeit::Seat(fault) => {
                write!(f, "{loser} ")?;
                fault.what(f)?;
                match at {
                    Moment::Setup => write!(f, " during the setup{}", fault.hint()),
                    Moment::Move(number) => write!(f, " at move {number}{}", fault.hint()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
