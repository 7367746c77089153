//! How long a built-in bot may think about one move.
//!
//! The bot is told `turn MS`: the time it has for this move (with a time bank, the whole bank).
//! It must answer well inside it, because the clock runs from the moment the referee flushed the
//! request to the moment it reads the answer: process wake-ups, pipes and a loaded machine all
//! come out of the same milliseconds.
//!
//! So a budget has two deadlines, both measured on the wall clock from when the `turn` line was
//! read: the search's, where it stops and returns its move, and a hard one, a quarter of the
//! way from there to the limit, where the protocol loop answers with the best move proposed so far if the
//! search has not returned. The search thread runs flat out and may be descheduled for a whole
//! time slice just before its deadline; the loop sleeps until the hard deadline, and a thread
//! waking from sleep is scheduled ahead of busy ones. Both come forward by the lateness the bot
//! has seen lately ([`Lateness`]): when the machine is loaded, the bot thinks less.

use super::proposal::Proposal;
use referee_rules::clock::TimeControl;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The time to think about one move, measured from when the `turn` line was read.
#[derive(Clone, Debug)]
pub struct Budget {
    started: Instant,
    deadline: Instant,
    /// When the protocol loop answers for a search that has not returned.
    hard_deadline: Instant,
    /// When the referee's limit for the move runs out (as far as the bot can tell).
    limit: Instant,
    /// The best move found so far, in notation.
    proposal: Arc<Proposal>,
    /// The most positions the search may visit: `u64::MAX` (no limit) except in
    /// [`Budget::nodes`].
    nodes: u64,
}

/// How far away the deadline of a [`Budget::nodes`] is: in practice, never.
const NO_CLOCK: Duration = Duration::from_secs(24 * 60 * 60);

/// Kept back from every move for the pipes and the scheduler: on a loaded machine a process
/// that has used its share of the CPU waits tens of milliseconds for it.
const RESERVE: Duration = Duration::from_millis(30);
/// The share of a per-move limit a bot uses: most of it, with room for a late wake-up.
const SHARE_OF_MOVE: f64 = 0.8;
/// The hard deadline is a quarter of the way from the search's deadline to the limit, and at
/// most this long after the search's (with a bank, whose limit is far away).
const HARD_SLACK: Duration = Duration::from_millis(100);
/// How much of the lateness seen on one move is still feared on the next: a load spike is
/// remembered for a few dozen moves.
const LATENESS_KEPT: f64 = 0.95;
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
        let hard = think + (available.saturating_sub(think) / 4).min(HARD_SLACK);
        Budget {
            hard_deadline: received + hard,
            limit: received + available,
            ..Budget::fixed(received, think)
        }
    }

    /// This budget on a machine with `oversubscription` runnable tasks per processor (see
    /// [`super::MachineLoad`]): the search's time divided by it, the hard deadline a quarter of
    /// the way from there to the limit again. Where the search gets a whole processor (1 or
    /// less) the budget is unchanged.
    pub fn shared_by(self, oversubscription: f64) -> Budget {
        if oversubscription <= 1.0 {
            return self;
        }
        let think = self
            .total()
            .div_f64(oversubscription)
            .max(Duration::from_millis(1));
        let deadline = self.started + think;
        let room = self.limit.saturating_duration_since(deadline);
        Budget {
            deadline,
            hard_deadline: deadline + (room / 4).min(HARD_SLACK),
            ..self
        }
    }

    /// This budget with both deadlines brought forward by `lateness` (what [`Lateness`] fears),
    /// keeping at least a millisecond to think.
    pub fn leaving(self, lateness: Duration) -> Budget {
        let earliest = self.started + Duration::from_millis(1);
        let deadline = self
            .deadline
            .checked_sub(lateness)
            .map_or(earliest, |at| at.max(earliest));
        let hard_deadline = self
            .hard_deadline
            .checked_sub(lateness)
            .map_or(deadline, |at| at.max(deadline));
        Budget {
            deadline,
            hard_deadline,
            ..self
        }
    }

    /// Exactly `think` from `started`, the hard deadline with it: for tests and callers that
    /// set their own time.
    pub fn fixed(started: Instant, think: Duration) -> Budget {
        Budget {
            started,
            deadline: started + think,
            hard_deadline: started + think,
            limit: started + think,
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

    /// Whether the deadline has passed: the search must stop and answer.
    pub fn expired(&self) -> bool {
        Instant::now() >= self.deadline
    }
}

/// How late a bot's answers went out lately, past its search's deadline, and how late its
/// sleeping thread woke: on a loaded machine the process waits for the CPU, and that wait comes
/// out of the move's time. The next budgets leave that much more room, forgetting a spike
/// slowly.
#[derive(Clone, Copy, Debug)]
pub struct Lateness {
    feared: Duration,
}

/// What a bot fears before it has seen how promptly the machine runs it: its first moves are
/// often instant (an opening, a table), so its first search would otherwise have no room.
const FIRST_FEAR: Duration = Duration::from_millis(15);

impl Default for Lateness {
    fn default() -> Lateness {
        Lateness { feared: FIRST_FEAR }
    }
}

impl Lateness {
    /// What the next budget should leave room for.
    pub fn feared(&self) -> Duration {
        self.feared
    }

    /// Notes that the answer to `budget` went out at `answered`, and that a thread sleeping
    /// meanwhile woke up to `oversleep` late.
    pub fn record(&mut self, budget: &Budget, answered: Instant, oversleep: Duration) {
        let late = answered.saturating_duration_since(budget.deadline());
        self.feared = late.max(oversleep).max(self.feared.mul_f64(LATENESS_KEPT));
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
        assert_eq!(think_ms(1000, "move=1000"), 770);
        assert_eq!(think_ms(100, "move=100"), 50);
        assert_eq!(think_ms(5, "move=5"), 1, "never nothing");
    }

    #[test]
    fn the_hard_deadline_is_between_the_search_deadline_and_the_limit() {
        let hard_ms = |turn_ms, spec| {
            let control = TimeControl::parse_over(TimeControl::default(), spec).unwrap();
            let budget = Budget::for_turn(turn_ms, &control, false, Instant::now());
            (budget.hard_deadline() - budget.started).as_millis()
        };
        assert_eq!(hard_ms(100, "move=100"), 62);
        assert_eq!(hard_ms(1000, "move=1000"), 827);
        assert_eq!(hard_ms(10_000, "bank=10000"), 470, "a bank's limit is far");
        assert_eq!(hard_ms(5, "move=5"), 2);
    }

    #[test]
    fn an_oversubscribed_machine_shortens_the_search_and_keeps_the_room_before_the_limit() {
        let control = TimeControl::parse_over(TimeControl::default(), "move=100").unwrap();
        let budget = Budget::for_turn(100, &control, false, Instant::now());
        let ms = |budget: &Budget| {
            (
                budget.total().as_micros(),
                (budget.hard_deadline() - budget.started).as_micros(),
            )
        };
        assert_eq!(ms(&budget.clone().shared_by(1.0)), (50_000, 62_500));
        assert_eq!(ms(&budget.clone().shared_by(0.3)), (50_000, 62_500));
        // Two tasks per processor: half the search, a quarter of the 75 ms left to the limit.
        assert_eq!(ms(&budget.clone().shared_by(2.0)), (25_000, 43_750));
        assert_eq!(ms(&budget.shared_by(100.0)), (1_000, 25_750));
    }

    #[test]
    fn lateness_seen_brings_the_next_deadlines_forward() {
        let started = Instant::now();
        let control = TimeControl::parse_over(TimeControl::default(), "move=100").unwrap();
        let budget = Budget::for_turn(100, &control, false, started);
        let mut lateness = Lateness::default();
        assert_eq!(lateness.feared(), FIRST_FEAR);
        lateness.record(
            &budget,
            budget.deadline() + Duration::from_millis(30),
            Duration::from_millis(20),
        );
        assert_eq!(lateness.feared(), Duration::from_millis(30));
        let next = budget.clone().leaving(lateness.feared());
        assert_eq!(next.total(), Duration::from_millis(20));
        assert_eq!(
            next.hard_deadline() - started,
            Duration::from_micros(32_500)
        );
        // A prompt answer keeps most of the fear; a huge one leaves a millisecond to think.
        lateness.record(&next, next.deadline(), Duration::ZERO);
        assert_eq!(lateness.feared(), Duration::from_millis(30).mul_f64(0.95));
        lateness.record(&next, next.deadline(), Duration::from_millis(40));
        assert_eq!(
            lateness.feared(),
            Duration::from_millis(40),
            "a late wake-up"
        );
        let squeezed = budget.leaving(Duration::from_secs(1));
        assert_eq!(squeezed.total(), Duration::from_millis(1));
        assert_eq!(squeezed.hard_deadline(), squeezed.deadline());
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
        assert_eq!(think_ms(10_000, "bank=10000"), 370);
        assert_eq!(think_ms(10_000, "bank=10000,increment=500"), 770);
        // Never more than half of what is left.
        assert_eq!(think_ms(600, "bank=10000,increment=1000"), 270);
        // The first-move allowance is a limit of its own, not the bank.
        assert_eq!(think_ms_at(1000, "bank=10000,first=1000", true), 770);
        assert_eq!(think_ms_at(10_000, "bank=10000", true), 370);
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
