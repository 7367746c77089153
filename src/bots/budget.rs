//! How long a built-in bot may think about one move.
//!
//! The bot is told `turn MS`: the time it has for this move (with a time bank, the whole bank).
//! It must answer well inside it, because the clock runs from the moment the referee flushed the
//! request to the moment it reads the answer: process wake-ups, pipes and a loaded machine all
//! come out of the same milliseconds.
//!
//! So a budget has two deadlines, both measured on the wall clock from when the `turn` line was
//! read: the search's, where it stops and returns its move, and a hard one, halfway from there
//! to the limit, where the protocol loop answers with the best move proposed so far if the
//! search has not returned. The search thread runs flat out and may be descheduled for a whole
//! time slice just before its deadline; the loop sleeps until the hard deadline, and a thread
//! waking from sleep is scheduled ahead of busy ones.

use super::proposal::Proposal;
use crate::clock::TimeControl;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The time to think about one move, measured from when the `turn` line was read.
#[derive(Clone, Debug)]
pub struct Budget {
    started: Instant,
    deadline: Instant,
    /// When the protocol loop answers for a search that has not returned.
    hard_deadline: Instant,
    /// The best move found so far, in notation.
    proposal: Arc<Proposal>,
    /// The most positions the search may visit: `u64::MAX` (no limit) except in
    /// [`Budget::nodes`].
    nodes: u64,
}

/// How far away the deadline of a [`Budget::nodes`] is: in practice, never.
const NO_CLOCK: Duration = Duration::from_secs(24 * 60 * 60);

/// Kept back from every move for the pipes and the scheduler.
const RESERVE: Duration = Duration::from_millis(15);
/// The share of a per-move limit a bot uses: most of it, with room for a late wake-up.
const SHARE_OF_MOVE: f64 = 0.8;
/// The hard deadline is at most this long after the search's (with a bank, whose limit is
/// far away), and at least this long before the limit when there is room.
const HARD_SLACK: Duration = Duration::from_millis(100);
/// With a bank, a move takes this fraction of what is left (plus most of the increment), so the
/// bank lasts a long game.
const SHARE_OF_BANK: f64 = 1.0 / 25.0;

impl Budget {
    /// The budget for a `turn MS` request read at `received`, under `control`; `first_move`
    /// when it asks for the bot's first move of the game (which may have an allowance of its
    /// own, not taken from the bank).
    pub fn for_turn(
        turn_ms: u64,
        control: &TimeControl,
        first_move: bool,
        received: Instant,
    ) -> Budget {
        let available = Duration::from_millis(turn_ms);
        let banked = control.bank_ms > 0 && !(first_move && control.first_move_ms > 0);
        let think = if banked {
            let share = available.mul_f64(SHARE_OF_BANK)
                + Duration::from_millis(control.increment_ms).mul_f64(SHARE_OF_MOVE);
            share.min(available / 2)
        } else {
            available.mul_f64(SHARE_OF_MOVE)
        };
        let think = think.saturating_sub(RESERVE).max(Duration::from_millis(1));
        // Halfway from the search's deadline to the limit, and never long after the former.
        let hard = think + (available.saturating_sub(think) / 2).min(HARD_SLACK);
        Budget {
            hard_deadline: received + hard,
            ..Budget::fixed(received, think)
        }
    }

    /// Exactly `think` from `started`, the hard deadline with it: for tests and callers that
    /// set their own time.
    pub fn fixed(started: Instant, think: Duration) -> Budget {
        Budget {
            started,
            deadline: started + think,
            hard_deadline: started + think,
            proposal: Arc::default(),
            nodes: u64::MAX,
        }
    }

    /// For tests: a search bounded by the positions it visits (playouts, for Monte Carlo)
    /// rather than by the clock, so that what it finds does not depend on the speed of the
    /// machine or how loaded it is. The deadline is a day away. The searches that count
    /// positions honour it: m,n,k strong, checkers search, uttt Monte Carlo, and the
    /// exhaustive search of dots strong, whose chain knowledge (timed only) then gets no time.
    pub fn nodes(nodes: u64) -> Budget {
        let started = Instant::now();
        Budget {
            nodes,
            ..Budget::fixed(started, NO_CLOCK)
        }
    }

    /// The most positions the search may visit: `u64::MAX` under a clock.
    pub fn node_limit(&self) -> u64 {
        self.nodes
    }

    /// When the move must be chosen.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// When the protocol loop answers with [`Budget::proposal`] if the search has not returned.
    pub fn hard_deadline(&self) -> Instant {
        self.hard_deadline
    }

    /// Records `notation` as the move to answer with if the search is still running at the hard
    /// deadline. A search proposes its best move whenever that changes.
    pub fn propose(&self, notation: String) {
        self.proposal.set(notation);
    }

    /// The move proposed last.
    pub fn proposal(&self) -> Option<String> {
        self.proposal.get()
    }

    /// The whole thinking time.
    pub fn total(&self) -> Duration {
        self.deadline - self.started
    }

    /// Time left before the deadline.
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    pub fn expired(&self) -> bool {
        Instant::now() >= self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn think_ms(turn_ms: u64, spec: &str) -> u128 {
        think_ms_at(turn_ms, spec, false)
    }

    fn think_ms_at(turn_ms: u64, spec: &str, first_move: bool) -> u128 {
        let control = TimeControl::parse_over(TimeControl::default(), spec).unwrap();
        Budget::for_turn(turn_ms, &control, first_move, Instant::now())
            .total()
            .as_millis()
    }

    #[test]
    fn most_of_a_move_limit_is_used() {
        assert_eq!(think_ms(1000, "move=1000"), 785);
        assert_eq!(think_ms(100, "move=100"), 65);
        assert_eq!(think_ms(5, "move=5"), 1, "never nothing");
    }

    #[test]
    fn the_hard_deadline_is_between_the_search_deadline_and_the_limit() {
        let hard_ms = |turn_ms, spec| {
            let control = TimeControl::parse_over(TimeControl::default(), spec).unwrap();
            let budget = Budget::for_turn(turn_ms, &control, false, Instant::now());
            (budget.hard_deadline() - budget.started).as_millis()
        };
        assert_eq!(hard_ms(100, "move=100"), 82);
        assert_eq!(hard_ms(1000, "move=1000"), 885);
        assert_eq!(hard_ms(10_000, "bank=10000"), 485, "a bank's limit is far");
        assert_eq!(hard_ms(5, "move=5"), 3);
    }

    #[test]
    fn the_last_proposal_is_kept() {
        let budget = Budget::nodes(1);
        assert_eq!(budget.proposal(), None);
        budget.propose("1 1".into());
        budget.clone().propose("2 2".into());
        assert_eq!(budget.proposal().as_deref(), Some("2 2"));
    }

    #[test]
    fn a_bank_is_spread_over_the_game() {
        assert_eq!(think_ms(10_000, "bank=10000"), 385);
        assert_eq!(think_ms(10_000, "bank=10000,increment=500"), 785);
        // Never more than half of what is left.
        assert_eq!(think_ms(600, "bank=10000,increment=1000"), 285);
        // The first-move allowance is a limit of its own, not the bank.
        assert_eq!(think_ms_at(1000, "bank=10000,first=1000", true), 785);
        assert_eq!(think_ms_at(10_000, "bank=10000", true), 385);
    }

    #[test]
    fn only_a_node_budget_limits_nodes() {
        let control = TimeControl::default();
        let timed = Budget::for_turn(1000, &control, false, Instant::now());
        assert_eq!(timed.node_limit(), u64::MAX);
        assert_eq!(
            Budget::fixed(Instant::now(), Duration::ZERO).node_limit(),
            u64::MAX
        );
        let counted = Budget::nodes(5000);
        assert_eq!(counted.node_limit(), 5000);
        assert!(counted.remaining() > Duration::from_secs(23 * 60 * 60));
    }
}
