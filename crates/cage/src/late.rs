//! What a bot wrote after it lost on time or never got ready: watched for a moment once the
//! game is over, it tells a bot that keeps its output in a buffer (it writes its answer as it
//! exits, when its input is closed) from a bot that is slow (it writes it while its input is
//! still open, or well after) and from one that never ends its line. `referee check` says which
//! to the bot's author, whatever protocol the bot speaks: the adapters hand over their process.

use super::process::BotProcess;
use std::time::{Duration, Instant};

/// How long a bot is watched with its input open, then again after it is closed.
const WATCH: Duration = Duration::from_millis(1500);

/// A line written within this of the bot's input being closed was in its buffer: it came as
/// the bot exited. One that came later was still being worked out: the bot is slow.
const FLUSHED_AT_EXIT: Duration = Duration::from_millis(150);

/// A line a bot that lost on time (or never got ready) wrote once the game was over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LateAnswer {
    /// Written at once when its input was closed: kept in a buffer, never flushed.
    Unflushed(String),
    /// Written while its input was open, or well after it was closed, this long after the
    /// game ended: the bot was working it out.
    Slow(String, Duration),
    /// Written without its line feed (the referee waits for the end of a line): its start.
    Unended(String),
    /// Written at once when its input was still open and it was sent a line after its request
    /// (the result): the bot waited to read more than it was sent before answering.
    WhenTold(String),
}

impl BotProcess {
    /// Watches for what the bot writes after it lost on time or never got ready: first with
    /// its input open, then closed (see [`LateAnswer`]); the lines for which `is_answer` is
    /// false (a Gomocup brain's `MESSAGE` and `DEBUG`) are passed over. Up to twice
    /// [`WATCH`]; the lines are logged as any other.
    pub fn watch_late(&mut self, is_answer: impl Fn(&str) -> bool) -> Option<LateAnswer> {
        let watched = Instant::now();
        let first =
            |lines: Vec<(String, Instant)>| lines.into_iter().find(|(line, _)| is_answer(line));
        if let Some((line, at)) = first(self.collect_for(WATCH)) {
            let told = self
                .last_sent
                .is_some_and(|sent| at.saturating_duration_since(sent) <= FLUSHED_AT_EXIT);
            return Some(if told {
                LateAnswer::WhenTold(line)
            } else {
                LateAnswer::Slow(line, at.saturating_duration_since(watched))
            });
        }
        let closed = Instant::now();
        let Some((line, at)) = first(self.close_input_and_collect(WATCH)) else {
            return self.unfinished_line().map(LateAnswer::Unended);
        };
        Some(if at.saturating_duration_since(closed) <= FLUSHED_AT_EXIT {
            LateAnswer::Unflushed(line)
        } else {
            LateAnswer::Slow(line, at.saturating_duration_since(watched))
        })
    }
}
