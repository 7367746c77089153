//! Time controls and the clock each player runs on during a game.
//!
//! Two styles are supported because bot authors know both, and they combine: a fixed limit per
//! move (the Meridius default, 1000 ms), and a time bank refilled by an increment after every
//! move (riddles.io style: bank = min(bank - used + increment, bank size)). Gomocup plays both
//! at once (a turn limit and a match bank, e.g. 5 s a move and 120 s a game): with a bank, a
//! move limit caps each move. A first-move allowance replaces the limit of a player's first
//! move (CodinGame gives 1000 ms there and 100 ms after: the `codingame` preset).
//!
//! CodinGame's SDK (codingame-game-engine 4.7.7, `AbstractPlayer.execute` and
//! `GameManager.execute`) also forgives a few turns over the limit: a turn longer than its
//! limit is a strike, the third strike (`MAX_SOFT_TIMELIMIT_EXCEEDS = 2`) is a timeout, and a
//! turn longer than the limit plus `SOFT_TIMELIMIT_EXTRA` (50 ms) times out at once. The
//! `codingame` preset plays that rule: `strikes=2,hard=50`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// How much time a player gets. All values in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TimeControl {
    /// Limit for each move; with a bank, a cap on each move (0: none, the bank alone limits).
    #[serde(rename = "move")]
    pub move_ms: u64,
    /// Size of the time bank; 0 means no bank (each move gets `move_ms`).
    #[serde(rename = "bank")]
    pub bank_ms: u64,
    /// Added to the bank after each move (bank mode only), never above the bank size.
    #[serde(rename = "increment")]
    pub increment_ms: u64,
    /// Limit for the player's first move instead of the usual one, not charged to the bank;
    /// 0 means no special allowance.
    #[serde(rename = "first")]
    pub first_move_ms: u64,
    /// Moves over their limit a player may make and play on: each is a strike, and the move
    /// after the last allowed strike that is over its limit loses (0: none, the usual rule).
    #[serde(skip_serializing_if = "is_zero")]
    pub strikes: u64,
    /// With strikes, how far past its limit a move may go and still be a strike; later, it
    /// loses at once.
    #[serde(rename = "hard", skip_serializing_if = "is_zero")]
    pub hard_ms: u64,
}

/// Whether a value is zero: the strikes of a control without them are not written.
fn is_zero(value: &u64) -> bool {
    *value == 0
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            move_ms: 1000,
            bank_ms: 0,
            increment_ms: 0,
            first_move_ms: 0,
            strikes: 0,
            hard_ms: 0,
        }
    }
}

/// A time specification that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad time control '{spec}': {reason} (expected comma-separated key=value with keys move, bank, increment, first (in milliseconds), strikes and hard (CodinGame's late turns allowed, and by how much), e.g. 'move=500', 'bank=10000,increment=500' or 'move=5000,bank=120000', or the preset 'codingame')")]
pub struct TimeSpecError {
    spec: String,
    reason: String,
}

/// The longest limit accepted, so that deadlines never overflow: one day.
pub const MAX_MS: u64 = 86_400_000;

impl TimeControl {
    /// CodinGame's: 1000 ms for a player's first move (its start-up included), 100 ms for each
    /// later one; two moves over the limit by up to 50 ms are strikes, the third loses
    /// (codingame-game-engine 4.7.7: `AbstractPlayer.MAX_SOFT_TIMELIMIT_EXCEEDS`,
    /// `GameManager.SOFT_TIMELIMIT_EXTRA`).
    pub const CODINGAME: TimeControl = TimeControl {
        move_ms: 100,
        bank_ms: 0,
        increment_ms: 0,
        first_move_ms: 1000,
        strikes: 2,
        hard_ms: 50,
    };

    /// The control as `--time` takes it, every key written (strikes and hard when it has them),
    /// so that two controls read alike only if they are the same.
    pub fn spec(&self) -> String {
        let mut spec = format!(
            "move={},bank={},increment={},first={}",
            self.move_ms, self.bank_ms, self.increment_ms, self.first_move_ms
        );
        if self.strikes > 0 {
            spec.push_str(&format!(",strikes={},hard={}", self.strikes, self.hard_ms));
        }
        spec
    }

    /// Reads `key=value,key=value` (keys `move`, `bank`, `increment`, `first`), starting from
    /// `base` so a per-player spec only overrides what it names. The word `codingame` stands for
    /// [`TimeControl::CODINGAME`] whole; keys after it override its values. A bank given to a
    /// control that had none, without `move`, has no move limit: `bank=10000` means the bank
    /// alone, as it always has, and `move=5000,bank=120000` both.
    pub fn parse_over(base: TimeControl, spec: &str) -> Result<TimeControl, TimeSpecError> {
        let error = |reason: String| TimeSpecError {
            spec: spec.to_string(),
            reason,
        };
        let mut tc = base;
        let mut move_named = false;
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part == "codingame" {
                tc = TimeControl::CODINGAME;
                move_named = true;
                continue;
            }
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| error(format!("'{part}' is not key=value")))?;
            // Every key but strikes (a count of moves) is in milliseconds.
            let unit = if key.trim() == "strikes" {
                ""
            } else {
                " of milliseconds"
            };
            let ms: u64 = value
                .trim()
                .parse()
                .ok()
                .filter(|&ms| ms <= MAX_MS)
                .ok_or_else(|| {
                    error(format!(
                        "'{value}' is not a whole number{unit} up to {MAX_MS}"
                    ))
                })?;
            match key.trim() {
                "move" => {
                    tc.move_ms = ms;
                    move_named = true;
                }
                "bank" => tc.bank_ms = ms,
                "increment" => tc.increment_ms = ms,
                "first" => tc.first_move_ms = ms,
                "strikes" => tc.strikes = ms,
                "hard" => tc.hard_ms = ms,
                other => return Err(error(format!("unknown key '{other}'"))),
            }
        }
        if base.bank_ms == 0 && tc.bank_ms > 0 && !move_named {
            tc.move_ms = 0;
        }
        if tc.bank_ms == 0 && tc.move_ms == 0 {
            return Err(error(
                "without a bank, each move needs a limit above 0 ms: give move=MS".into(),
            ));
        }
        // An increment refills a bank; without one it would be ignored, and the user would
        // believe the bots get time they do not.
        if tc.bank_ms == 0 && tc.increment_ms > 0 {
            return Err(error(format!(
                "increment={} is added to a time bank after each move, and there is no bank \
                 (bank=0): give one, e.g. 'bank=10000,increment={}', or leave the increment out",
                tc.increment_ms, tc.increment_ms
            )));
        }
        if (tc.strikes == 0) != (tc.hard_ms == 0) {
            return Err(error(
                "strikes and hard go together: how many moves over the limit are forgiven, \
                 and by how much at most, e.g. 'strikes=2,hard=50'"
                    .into(),
            ));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    /// The protocol's form: `move=1000 bank=0 increment=0 first=0` (strikes are not told: the
    /// `time` line keeps its four keys).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move={} bank={} increment={} first={}",
            self.move_ms, self.bank_ms, self.increment_ms, self.first_move_ms
        )
    }
}

/// A move over its time: the limit it had and the margin allowed past it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overtime {
    /// The time the move had: what was available on the clock when it was asked for.
    pub limit: Duration,
    /// How long past `limit` an answer still counted.
    pub margin: Duration,
    /// The strikes of a control that has them, as they stood when the move was asked for.
    pub strikes: Option<Strikes>,
}

/// A player's strikes (see [`TimeControl::strikes`]), for a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strikes {
    /// How many the time control forgives.
    pub allowed: u64,
    /// How many the player had used before the move.
    pub used: u64,
    /// How long past its limit a move could still be a strike.
    pub hard: Duration,
}

/// How a move in time enough to count was timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Within its limit and margin.
    InTime,
    /// Over them, within the hard limit: the player's strike number `n`, from 1.
    Strike(u64),
}

/// One player's clock during one game.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    bank: Duration,
    moves_made: u32,
    strikes_used: u64,
}

impl Clock {
    /// A clock before the first move: the bank full, the first-move allowance still to come.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            bank: Duration::from_millis(control.bank_ms),
            moves_made: 0,
            strikes_used: 0,
        }
    }

    /// The time the player may use for its next move: with a bank, what is left of it, capped
    /// by the move limit when there is one.
    pub fn available(&self) -> Duration {
        if self.moves_made == 0 && self.control.first_move_ms > 0 {
            Duration::from_millis(self.control.first_move_ms)
        } else if self.control.bank_ms > 0 {
            match self.control.move_ms {
                0 => self.bank,
                cap => self.bank.min(Duration::from_millis(cap)),
            }
        } else {
            Duration::from_millis(self.control.move_ms)
        }
    }

    /// Whether the player's time includes a bank.
    pub fn has_bank(&self) -> bool {
        self.control.bank_ms > 0
    }

    /// What is left in the bank (zero without a bank).
    pub fn bank(&self) -> Duration {
        self.bank
    }

    /// How long the next answer may take and still count: the time available plus `margin`.
    pub fn allowed(&self, margin: Duration) -> Duration {
        self.available() + margin
    }

    /// How long the next answer may take and not lose: the time allowed, and with strikes
    /// left the hard limit past it (the watchdog waits that long).
    pub fn deadline(&self, margin: Duration) -> Duration {
        if self.strikes_used < self.control.strikes {
            self.allowed(margin) + Duration::from_millis(self.control.hard_ms)
        } else {
            self.allowed(margin)
        }
    }

    /// Charges a move that took `used`, or finds it late: longer than the time available plus
    /// `margin`, and with strikes left longer than the hard limit too (a move between the two
    /// is a strike). The one place that decides lateness; an answer exactly at the end still
    /// counts.
    pub fn settle(&mut self, used: Duration, margin: Duration) -> Result<Settled, Overtime> {
        if used > self.deadline(margin) {
            return Err(self.overtime(margin));
        }
        let settled = if used > self.allowed(margin) {
            self.strikes_used += 1;
            Settled::Strike(self.strikes_used)
        } else {
            Settled::InTime
        };
        self.charge(used);
        Ok(settled)
    }

    /// What the next move's limit was, for a verdict of lateness.
    pub fn overtime(&self, margin: Duration) -> Overtime {
        Overtime {
            limit: self.available(),
            margin,
            strikes: (self.control.strikes > 0).then(|| Strikes {
                allowed: self.control.strikes,
                used: self.strikes_used,
                hard: Duration::from_millis(self.control.hard_ms),
            }),
        }
    }

    /// Charges a move that took `used`.
    fn charge(&mut self, used: Duration) {
        let first_allowance = self.moves_made == 0 && self.control.first_move_ms > 0;
        self.moves_made += 1;
        if self.control.bank_ms > 0 && !first_allowance {
            let refilled =
                self.bank.saturating_sub(used) + Duration::from_millis(self.control.increment_ms);
            self.bank = refilled.min(Duration::from_millis(self.control.bank_ms));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Clock {
        /// Settles a move that must be in time, with no margin.
        fn settle_ok(&mut self, used: Duration) {
            assert_eq!(self.settle(used, Duration::ZERO), Ok(Settled::InTime));
        }
    }

    #[test]
    fn default_is_one_second_per_move() {
        let clock = Clock::new(TimeControl::default());
        assert_eq!(clock.available(), Duration::from_millis(1000));
    }

    #[test]
    fn specs_override_only_what_they_name() {
        let base = TimeControl::parse_over(TimeControl::default(), "move=200").unwrap();
        let tc = TimeControl::parse_over(base, "first=1000").unwrap();
        assert_eq!(tc.move_ms, 200);
        assert_eq!(tc.first_move_ms, 1000);
        assert_eq!(tc.to_string(), "move=200 bank=0 increment=0 first=1000");
    }

    #[test]
    fn the_codingame_preset() {
        let base = TimeControl::parse_over(TimeControl::default(), "bank=5000").unwrap();
        let tc = TimeControl::parse_over(base, "codingame").unwrap();
        assert_eq!(tc.to_string(), "move=100 bank=0 increment=0 first=1000");
        let tc = TimeControl::parse_over(base, "codingame,first=2000").unwrap();
        assert_eq!(tc.to_string(), "move=100 bank=0 increment=0 first=2000");
        let mut clock = Clock::new(tc);
        assert_eq!(clock.available(), Duration::from_millis(2000));
        clock.settle_ok(Duration::from_millis(1500));
        assert_eq!(clock.available(), Duration::from_millis(100));
        assert_eq!((tc.strikes, tc.hard_ms), (2, 50));
        let without = TimeControl::parse_over(base, "codingame,strikes=0,hard=0").unwrap();
        assert_eq!(without.strikes, 0);
        for bad in ["codingame,strikes=0", "move=100,hard=50"] {
            let error = TimeControl::parse_over(base, bad).unwrap_err().to_string();
            assert!(error.contains("strikes and hard go together"), "{error}");
        }
    }

    /// As CodinGame's SDK: two turns over the limit (within 50 ms past it) are strikes, the
    /// third loses; a turn past the hard limit loses at once.
    #[test]
    fn two_strikes_and_the_third_is_out() {
        let ms = Duration::from_millis;
        let margin = ms(10);
        let tc = TimeControl::parse_over(TimeControl::default(), "codingame").unwrap();
        let mut clock = Clock::new(tc);
        assert_eq!(clock.settle(ms(1030), margin), Ok(Settled::Strike(1)));
        assert_eq!(clock.settle(ms(110), margin), Ok(Settled::InTime));
        assert_eq!(clock.deadline(margin), ms(160));
        assert_eq!(clock.settle(ms(160), margin), Ok(Settled::Strike(2)));
        assert_eq!(clock.deadline(margin), ms(110));
        let third = clock.settle(ms(111), margin).unwrap_err();
        assert_eq!(
            third.strikes,
            Some(Strikes {
                allowed: 2,
                used: 2,
                hard: ms(50)
            })
        );
        let mut fresh = Clock::new(tc);
        fresh.settle_ok(ms(5));
        assert!(
            fresh.settle(ms(161), margin).is_err(),
            "past the hard limit"
        );
        let mut plain = Clock::new(TimeControl::parse_over(tc, "strikes=0,hard=0").unwrap());
        plain.settle_ok(ms(5));
        assert_eq!(plain.overtime(margin).strikes, None);
        assert!(plain.settle(ms(111), margin).is_err());
    }

    #[test]
    fn bad_specs_are_explained() {
        for spec in [
            "move",
            "move=fast",
            "speed=3",
            "move=-1",
            "move=0",
            "move=99999999999",
            "bank=0,increment=100",
            "increment=100",
        ] {
            let err = TimeControl::parse_over(TimeControl::default(), spec).unwrap_err();
            assert!(
                err.to_string().contains("expected comma-separated"),
                "{err}"
            );
        }
    }

    #[test]
    fn an_increment_needs_a_bank() {
        let err = TimeControl::parse_over(TimeControl::default(), "bank=0,increment=100")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("increment=100 is added to a time bank after each move, and there is no bank (bank=0): give one, e.g. 'bank=10000,increment=100'"),
            "{err}"
        );
        // A player's own spec that removes the bank of the common one is refused the same way.
        let base =
            TimeControl::parse_over(TimeControl::default(), "bank=5000,increment=100").unwrap();
        assert!(TimeControl::parse_over(base, "bank=0").is_err());
        assert!(TimeControl::parse_over(base, "bank=0,increment=0,move=300").is_ok());
        let err = TimeControl::parse_over(base, "bank=0,increment=0").unwrap_err();
        assert!(err.to_string().contains("give move=MS"), "{err}");
    }

    #[test]
    fn the_bank_drains_refills_and_is_capped() {
        let tc =
            TimeControl::parse_over(TimeControl::default(), "bank=1000,increment=300").unwrap();
        let mut clock = Clock::new(tc);
        assert_eq!(clock.available(), Duration::from_millis(1000));
        clock.settle_ok(Duration::from_millis(100));
        assert_eq!(clock.available(), Duration::from_millis(1000), "capped");
        clock.settle_ok(Duration::from_millis(900));
        assert_eq!(clock.available(), Duration::from_millis(400));
        // Past the bank but within the margin: charged, the bank never below zero.
        clock
            .settle(Duration::from_millis(450), Duration::from_millis(100))
            .unwrap();
        assert_eq!(
            clock.available(),
            Duration::from_millis(300),
            "never below zero"
        );
    }

    #[test]
    fn a_move_limit_and_a_bank_together() {
        let tc = TimeControl::parse_over(TimeControl::default(), "move=500,bank=1200").unwrap();
        assert_eq!(tc.to_string(), "move=500 bank=1200 increment=0 first=0");
        let mut clock = Clock::new(tc);
        assert_eq!(clock.available(), Duration::from_millis(500), "capped");
        clock.settle_ok(Duration::from_millis(450));
        clock.settle_ok(Duration::from_millis(450));
        assert_eq!(clock.bank(), Duration::from_millis(300));
        assert_eq!(clock.available(), Duration::from_millis(300), "the bank");
        assert!(
            Clock::new(tc)
                .settle(Duration::from_millis(501), Duration::ZERO)
                .is_err(),
            "over the move limit with the bank still full"
        );
    }

    #[test]
    fn a_bank_without_move_has_no_move_limit() {
        let tc = TimeControl::parse_over(TimeControl::default(), "bank=10000").unwrap();
        assert_eq!(tc.to_string(), "move=0 bank=10000 increment=0 first=0");
        assert_eq!(Clock::new(tc).available(), Duration::from_millis(10000));
        // A player's own spec over a control with a bank keeps its move limit.
        let both =
            TimeControl::parse_over(TimeControl::default(), "move=5000,bank=120000").unwrap();
        let own = TimeControl::parse_over(both, "bank=60000").unwrap();
        assert_eq!(own.to_string(), "move=5000 bank=60000 increment=0 first=0");
    }

    #[test]
    fn the_first_move_allowance_is_not_charged() {
        let tc = TimeControl::parse_over(TimeControl::default(), "move=100,first=1000").unwrap();
        let mut clock = Clock::new(tc);
        assert_eq!(clock.available(), Duration::from_millis(1000));
        clock.settle_ok(Duration::from_millis(900));
        assert_eq!(clock.available(), Duration::from_millis(100));
        let tc = TimeControl::parse_over(TimeControl::default(), "bank=500,first=2000").unwrap();
        let mut clock = Clock::new(tc);
        clock.settle_ok(Duration::from_millis(1500));
        assert_eq!(clock.bank(), Duration::from_millis(500));
    }
}
