//! How long a built-in bot may think about one move.
//!
//! The bot is told `turn MS`: the time it has for this move. Under a move limit that is the
//! limit; with a bank, it is the bank left, or the move cap when the bank holds more (so under
//! Gomocup's `move=5000,bank=120000` the bot sees `turn 5000` for most of a game, and must count
//! its bank itself: [`GameClock`]). It must answer well inside the limit, because the clock runs
//! from the moment the referee flushed the request to the moment it reads the answer: process
//! wake-ups, pipes and a loaded machine all come out of the same milliseconds.
//!
//! So a budget has two deadlines, both measured on the wall clock from when the `turn` line was
//! read: the search's, where it stops and returns its move, and a hard one, a quarter of the
//! way from there to the limit, where the protocol loop answers with the best move proposed so
//! far if the search has not returned. The search thread runs flat out and may be descheduled
//! for a whole time slice just before its deadline; the loop sleeps until the hard deadline,
//! and a thread waking from sleep is scheduled ahead of busy ones. Both come forward by the
//! lateness the bot has seen lately ([`Lateness`]): when the machine makes it late, it thinks
//! less, by what it measured rather than by a guess from the machine's load.

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
    /// The best move found so far, in notation.
    proposal: Arc<Proposal>,
    /// The most positions the search may visit: `u64::MAX` (no limit) unless set by
    /// [`Budget::nodes`] or [`Budget::with_nodes`].
    nodes: u64,
}

/// How far away the deadline of a [`Budget::nodes`] is: in practice, never.
const NO_CLOCK: Duration = Duration::from_secs(24 * 60 * 60);

/// Kept back from a move's limit for the pipes and the scheduler: a fifth of it, and at least
/// [`MIN_RESERVE`], since on a loaded machine a process that has used its share of the CPU
/// waits milliseconds for it. `turn 100` thinks 80 ms, `turn 5000` 4000 ms.
const RESERVE_SHARE: f64 = 0.2;
/// The least kept back from a move's limit.
const MIN_RESERVE: Duration = Duration::from_millis(20);
/// The hard deadline is a quarter of the way from the search's deadline to the limit, and at
/// most this long after the search's (with a bank, whose limit is far away).
const HARD_SLACK: Duration = Duration::from_millis(100);
/// How much of the lateness seen on one move is still feared on the next: a load spike is
/// remembered for a few dozen moves.
const LATENESS_KEPT: f64 = 0.95;
/// With a bank, a move takes this fraction of what is left (plus most of the increment), so the
/// bank lasts a long game and the first moves, where a game is decided, get the most.
const SHARE_OF_BANK: f64 = 1.0 / 20.0;
/// The share of the increment a move spends beyond its share of the bank.
const SHARE_OF_INCREMENT: f64 = 0.8;
/// Charged to the bank's reckoning for every move beyond what the bot measured itself: the
/// referee's clock also runs while the request and the answer are in the pipes.
const PIPE_OVERHEAD: Duration = Duration::from_millis(2);

/// The thinking time for a move limited to `limit`: all of it but the reserve, at least a
/// millisecond.
fn think_within(limit: Duration) -> Duration {
    let reserve = limit.mul_f64(RESERVE_SHARE).max(MIN_RESERVE);
    limit.saturating_sub(reserve).max(Duration::from_millis(1))
}

/// What a bot knows of its own clock during one game: the time control, and the bank left as
/// far as it can tell. The `turn` line shows the bank only when it is below the move cap, so
/// the bot also charges every move to its own reckoning of the bank, as the referee does,
/// and takes the referee's figure whenever `turn` gives it.
#[derive(Clone, Debug)]
pub struct GameClock {
    control: TimeControl,
    /// The bank left, as far as the bot can tell (unused without a bank).
    bank: Duration,
    /// Whether the bot has moved yet in this game (the first move may have an allowance).
    moved: bool,
    /// Whether the move being answered is charged to the bank.
    charging: bool,
}

impl GameClock {
    /// The clock of a new game under `control`: the bank full, no move made.
    pub fn new(control: TimeControl) -> GameClock {
        GameClock {
            bank: Duration::from_millis(control.bank_ms),
            control,
            moved: false,
            charging: false,
        }
    }

    /// The budget for a `turn MS` request read at `received`: most of the move's limit under a
    /// move limit or a first-move allowance; with a bank, a share of the bank (never more than
    /// half of it), within the move cap if there is one.
    pub fn budget(&mut self, turn_ms: u64, received: Instant) -> Budget {
        let control = &self.control;
        let first_allowance = !self.moved && control.first_move_ms > 0;
        self.moved = true;
        self.charging = control.bank_ms > 0 && !first_allowance;
        let limit = Duration::from_millis(turn_ms);
        if !self.charging {
            return Budget::within(limit, think_within(limit), received);
        }
        let capped = control.move_ms > 0 && turn_ms >= control.move_ms;
        self.bank = if capped {
            // The bank holds at least the cap: the bot's own reckoning, if higher, stands.
            self.bank.max(limit)
        } else {
            limit
        };
        let share = self.bank.mul_f64(SHARE_OF_BANK)
            + Duration::from_millis(control.increment_ms).mul_f64(SHARE_OF_INCREMENT);
        let think = share.min(self.bank / 2).min(think_within(limit));
        Budget::within(limit, think.max(Duration::from_millis(1)), received)
    }

    /// Charges the move asked for at `received` and answered at `answered` to the bank, as
    /// the referee will (with the increment, never above the bank's size).
    pub fn answered(&mut self, received: Instant, answered: Instant) {
        if !self.charging {
            return;
        }
        let used = answered.saturating_duration_since(received) + PIPE_OVERHEAD;
        let size = Duration::from_millis(self.control.bank_ms);
        let increment = Duration::from_millis(self.control.increment_ms);
        self.bank = (self.bank.saturating_sub(used) + increment).min(size);
    }
}

impl Budget {
    /// A budget thinking `think` for a move limited to `limit`, from `received`; the hard
    /// deadline a quarter of the way from the search's deadline to the limit, at most
    /// [`HARD_SLACK`] after it.
    fn within(limit: Duration, think: Duration, received: Instant) -> Budget {
        let hard = think + (limit.saturating_sub(think) / 4).min(HARD_SLACK);
        Budget {
            hard_deadline: received + hard,
            ..Budget::fixed(received, think)
        }
    }

    /// The budget for a move limited to `limit_ms` alone (no bank, no allowance), asked for at
    /// `received`: what [`GameClock::budget`] gives under `move=LIMIT_MS`, for callers that
    /// play a move limit without the protocol.
    pub fn for_limit(limit_ms: u64, received: Instant) -> Budget {
        let limit = Duration::from_millis(limit_ms);
        Budget::within(limit, think_within(limit), received)
    }

    /// This budget searching at most `nodes` positions (playouts, for Monte Carlo), its
    /// deadlines kept: a fixed amount of search per move, so that the moves do not depend on
    /// the machine's speed or load as long as the search fits in the clock (see
    /// [`Budget::node_limit`]).
    pub fn with_nodes(self, nodes: u64) -> Budget {
        Budget { nodes, ..self }
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
            proposal: Arc::default(),
            nodes: u64::MAX,
        }
    }

    /// For tests: a search bounded by the positions it visits alone (see
    /// [`Budget::with_nodes`]), the deadline a day away.
    pub fn nodes(nodes: u64) -> Budget {
        let started = Instant::now();
        Budget {
            nodes,
            ..Budget::fixed(started, NO_CLOCK)
        }
    }

    /// The most positions the search may visit: `u64::MAX` under the clock alone. The searches
    /// that count positions honour it: m,n,k strong, checkers search, uttt Monte Carlo (its
    /// playouts), and the exhaustive search of dots strong, whose chain knowledge (timed only)
    /// then gets no time, so that what they find does not depend on the machine.
    pub fn node_limit(&self) -> u64 {
        self.nodes
    }

    /// When a part of the search given `share` of the time left must stop: that share of what
    /// is left under the clock alone; the deadline itself under a node limit, so that the
    /// parts' own node limits, not the clock, decide what they find.
    pub fn share_deadline(&self, share: f64) -> Instant {
        if self.nodes == u64::MAX {
            Instant::now() + self.remaining().mul_f64(share)
        } else {
            self.deadline
        }
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

    /// Notes that a thread sleeping while the bot waited for its turn woke up to `oversleep`
    /// late: the `turn` request itself was likely read that late, on the referee's clock but
    /// out of the bot's sight, so the next budget leaves at least that much room.
    pub fn woke_late(&mut self, oversleep: Duration) {
        self.feared = self.feared.max(oversleep);
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

    fn clock(spec: &str) -> GameClock {
        GameClock::new(TimeControl::parse_over(TimeControl::default(), spec).unwrap())
    }

    /// The thinking time and the hard deadline, in ms, of a `turn` under `clock`.
    fn think_ms(clock: &mut GameClock, turn_ms: u64) -> (u128, u128) {
        let budget = clock.budget(turn_ms, Instant::now());
        (
            budget.total().as_millis(),
            (budget.hard_deadline() - budget.started).as_millis(),
        )
    }

    #[test]
    fn most_of_a_move_limit_is_used() {
        assert_eq!(think_ms(&mut clock("move=1000"), 1000), (800, 850));
        assert_eq!(think_ms(&mut clock("move=5000"), 5000), (4000, 4100));
        assert_eq!(think_ms(&mut clock("move=100"), 100), (80, 85));
        assert_eq!(think_ms(&mut clock("move=5"), 5), (1, 2), "never nothing");
        let budget = Budget::for_limit(100, Instant::now());
        assert_eq!(budget.total(), Duration::from_millis(80));
    }

    #[test]
    fn a_bank_is_spread_over_the_game() {
        assert_eq!(think_ms(&mut clock("bank=10000"), 10_000), (500, 600));
        assert_eq!(
            think_ms(&mut clock("bank=10000,increment=500"), 10_000),
            (900, 1000)
        );
        // Never more than half of what is left.
        assert_eq!(
            think_ms(&mut clock("bank=10000,increment=1000"), 600),
            (300, 375)
        );
        // The first-move allowance is a limit of its own, not the bank.
        let mut allowance = clock("bank=10000,first=1000");
        assert_eq!(think_ms(&mut allowance, 1000), (800, 850));
        assert_eq!(think_ms(&mut allowance, 10_000), (500, 600));
        assert_eq!(think_ms(&mut clock("bank=10000"), 10_000).0, 500);
    }

    /// Under Gomocup's control `turn 5000` is the cap, not the bank: the bot counts its bank
    /// itself and thinks most of the cap while the bank affords it.
    #[test]
    fn a_capped_bank_is_counted_by_the_bot() {
        let mut gomocup = clock("move=5000,bank=120000");
        let received = Instant::now();
        assert_eq!(gomocup.budget(5000, received).total().as_millis(), 4000);
        // After 100 s of moves, 20 s are left: a twentieth of them.
        gomocup.answered(received, received + Duration::from_secs(100));
        assert_eq!(gomocup.budget(5000, received).total().as_millis(), 999);
        // The referee's figure, once below the cap, replaces the bot's.
        assert_eq!(gomocup.budget(4000, received).total().as_millis(), 200);
        // A move under a plain move limit charges nothing.
        let mut plain = clock("move=1000");
        plain.budget(1000, received);
        plain.answered(received, received + Duration::from_secs(100));
        assert_eq!(plain.budget(1000, received).total().as_millis(), 800);
    }

    #[test]
    fn the_bank_reckoning_adds_the_increment_up_to_the_bank_size() {
        let mut clock = clock("move=1000,bank=10000,increment=500");
        let received = Instant::now();
        clock.budget(1000, received);
        clock.answered(received, received + Duration::from_millis(98));
        assert_eq!(clock.bank, Duration::from_millis(10_000), "full again");
        clock.budget(1000, received);
        clock.answered(received, received + Duration::from_millis(3998));
        assert_eq!(clock.bank, Duration::from_millis(6500));
    }

    #[test]
    fn lateness_seen_brings_the_next_deadlines_forward() {
        let started = Instant::now();
        let budget = Budget::for_limit(100, started);
        let mut lateness = Lateness::default();
        assert_eq!(lateness.feared(), FIRST_FEAR);
        lateness.record(
            &budget,
            budget.deadline() + Duration::from_millis(30),
            Duration::from_millis(20),
        );
        assert_eq!(lateness.feared(), Duration::from_millis(30));
        let next = budget.clone().leaving(lateness.feared());
        assert_eq!(next.total(), Duration::from_millis(50));
        assert_eq!(
            next.hard_deadline() - started,
            Duration::from_micros(55_000)
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
        lateness.woke_late(Duration::from_millis(10));
        assert_eq!(
            lateness.feared(),
            Duration::from_millis(40),
            "less is no news"
        );
        lateness.woke_late(Duration::from_millis(70));
        assert_eq!(
            lateness.feared(),
            Duration::from_millis(70),
            "a late wake-up while idle"
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
    fn only_a_node_budget_limits_nodes_and_keeps_its_parts_to_the_deadline() {
        let timed = Budget::for_limit(1000, Instant::now());
        assert_eq!(timed.node_limit(), u64::MAX);
        assert!(timed.share_deadline(0.5) < timed.deadline());
        assert_eq!(
            Budget::fixed(Instant::now(), Duration::ZERO).node_limit(),
            u64::MAX
        );
        let counted = Budget::nodes(5000);
        assert_eq!(counted.node_limit(), 5000);
        assert!(counted.remaining() > Duration::from_secs(23 * 60 * 60));
        let clocked = timed.with_nodes(20_000);
        assert_eq!(clocked.node_limit(), 20_000);
        assert_eq!(clocked.share_deadline(0.1), clocked.deadline());
        assert_eq!(
            clocked.total(),
            Duration::from_millis(800),
            "the clock kept"
        );
    }
}
