//! The order of a tournament's games, computed on demand from a game's index: nothing is built
//! per game or per pairing up front, so a 1000-bot round robin (half a million pairings) costs
//! no memory before its first game.
//!
//! Games come in pairs: the same two players, the same opening, the colours swapped. Pair `q`
//! holds games `2q` and `2q + 1`. The schedule is a sequence of cycles in which every pairing
//! plays one pair; cycle `c` plays opening `c` (see [`super::openings`]). A round robin orders
//! each cycle by rounds of the circle method (every player plays once per round, so partial
//! standings stay balanced); a gauntlet goes through the field, each challenger in turn.
//!
//! A Swiss tournament or a knock-out cannot be ordered up front: its rounds are paired from
//! the results of the rounds before, by [`super::rounds`]; the schedule gives its shape.
//!
//! Shard K of N plays the pairs whose number is K - 1 modulo N: a deterministic slice that
//! spreads every pairing and every cycle evenly over the shards, and keeps pairs together.

use super::rounds::{KnockoutLayout, Rounds, SwissLayout};
use super::slot::Slot;
use std::fmt;
use std::str::FromStr;

/// Who plays whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of players.
    RoundRobin,
    /// Every challenger against every other player (the field); challengers do not meet.
    Gauntlet {
        /// Player indices of the challengers.
        challengers: Vec<usize>,
    },
    /// Rounds paired by score from the results so far (see [`super::swiss`]).
    Swiss {
        /// Rounds to play; the configuration allows up to half the field, so that no one need
        /// meet twice.
        rounds: u32,
    },
    /// A seeded bracket, a drawn match settled by up to `tiebreaks` pairs of games (see
    /// [`super::knockout`]).
    Knockout {
        /// Pairs of tie-break games a match level after its regular games may play.
        tiebreaks: u32,
    },
}

/// How a knock-out's format begins in its journal (see [`Format::description`]): its
/// schedule's size is only the most it may take.
pub const KNOCKOUT: &str = "knockout";

impl Format {
    /// Whether the games are paired round by round from results ([`super::rounds`]) rather
    /// than all known up front.
    pub fn is_paired_by_results(&self) -> bool {
        matches!(self, Format::Swiss { .. } | Format::Knockout { .. })
    }

    /// The format as its journal and `referee tournament` name it: a Swiss's rounds and a
    /// knock-out's tie-breaks with it, not a gauntlet's challengers (the journal lists them).
    pub fn description(&self) -> String {
        match self {
            Format::RoundRobin => "round-robin".into(),
            Format::Gauntlet { .. } => "gauntlet".into(),
            Format::Swiss { rounds } => format!("swiss, {rounds} rounds"),
            Format::Knockout { tiebreaks } => {
                format!("{KNOCKOUT}, up to {tiebreaks} tie-break pairs")
            }
        }
    }
}

/// A tournament's games in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    players: usize,
    format: Format,
    /// Players not among the challengers (gauntlet only).
    field: Vec<usize>,
    cycles: u64,
    games_per_pairing: u32,
}

impl Schedule {
    /// `games_per_pairing` must be even and at least 2 (a pair per cycle), or at least 1 for
    /// a format paired by results; gauntlet challengers must be valid, distinct player
    /// indices, leaving a non-empty field.
    pub fn new(players: usize, format: Format, games_per_pairing: u32) -> Schedule {
        debug_assert!(
            games_per_pairing >= 1 && (games_per_pairing % 2 == 0 || format.is_paired_by_results())
        );
        let field = match &format {
            Format::RoundRobin | Format::Swiss { .. } | Format::Knockout { .. } => Vec::new(),
            Format::Gauntlet { challengers } => {
                (0..players).filter(|p| !challengers.contains(p)).collect()
            }
        };
        Schedule {
            players,
            format,
            field,
            cycles: u64::from(games_per_pairing / 2),
            games_per_pairing,
        }
    }

    /// Pairings played once per cycle (none known up front for a format paired by results).
    pub fn pairings(&self) -> u64 {
        match &self.format {
            Format::RoundRobin => {
                let n = self.players as u64;
                n * n.saturating_sub(1) / 2
            }
            Format::Gauntlet { challengers } => challengers.len() as u64 * self.field.len() as u64,
            Format::Swiss { .. } | Format::Knockout { .. } => 0,
        }
    }

    /// Pairs of games (the same opening, sides swapped) in the schedule known up front.
    pub fn pair_count(&self) -> u64 {
        self.pairings() * self.cycles
    }

    /// Every game of the schedule; for a knock-out, the most it may take (every match to its
    /// last tie-break).
    pub fn total_games(&self) -> u64 {
        match self.rounds() {
            Some(Rounds::Swiss(layout)) => layout.total_games(),
            Some(Rounds::Knockout(layout)) => layout.total_games(),
            None => self.pair_count() * 2,
        }
    }

    /// The shape of a format paired by results, None for one known up front.
    pub fn rounds(&self) -> Option<Rounds> {
        match self.format {
            Format::Swiss { rounds } => Some(Rounds::Swiss(SwissLayout {
                players: self.players,
                rounds,
                games_per_pairing: self.games_per_pairing,
            })),
            Format::Knockout { tiebreaks } => Some(Rounds::Knockout(KnockoutLayout {
                players: self.players,
                games_per_pairing: self.games_per_pairing,
                tiebreaks,
            })),
            Format::RoundRobin | Format::Gauntlet { .. } => None,
        }
    }

    /// The two games of pair `q` (which must be below [`Schedule::pair_count`]).
    pub fn pair(&self, q: u64) -> [Slot; 2] {
        let pairings = self.pairings();
        let cycle = q / pairings;
        let [home, away] = self.pairing(q % pairings);
        [
            Slot {
                index: 2 * q,
                seats: [home, away],
                cycle,
            },
            Slot {
                index: 2 * q + 1,
                seats: [away, home],
                cycle,
            },
        ]
    }

    /// The pairs of `shard`, in order, generated as they are taken.
    pub fn pairs(&self, shard: Shard) -> impl Iterator<Item = [Slot; 2]> + '_ {
        (u64::from(shard.index - 1)..self.pair_count())
            .step_by(shard.count as usize)
            .map(|q| self.pair(q))
    }

    /// Games in `shard` (for a format paired by results, played whole, the most it may take).
    pub fn games_in(&self, shard: Shard) -> u64 {
        if self.format.is_paired_by_results() {
            return self.total_games();
        }
        let pairs = self.pair_count();
        let before = u64::from(shard.index - 1);
        if pairs <= before {
            0
        } else {
            2 * ((pairs - before - 1) / u64::from(shard.count) + 1)
        }
    }

    /// Pairing `m` of a cycle.
    fn pairing(&self, m: u64) -> [usize; 2] {
        match &self.format {
            Format::RoundRobin => circle_pairing(self.players as u64, m),
            Format::Gauntlet { challengers } => {
                let count = challengers.len() as u64;
                [
                    challengers[(m % count) as usize],
                    self.field[(m / count) as usize],
                ]
            }
            Format::Swiss { .. } | Format::Knockout { .. } => {
                unreachable!("a format paired by results has no pairings up front")
            }
        }
    }
}

/// Pairing `m` of a round robin of `n` players by the circle method: with n' = n rounded up to
/// even, player n' - 1 stays put and the others turn around it, one round at a time; board 0
/// of each round is the fixed player's game (a bye when n is odd, and skipped).
fn circle_pairing(n: u64, m: u64) -> [usize; 2] {
    let even = n + n % 2;
    let turning = even - 1;
    let bye = n % 2;
    let boards = even / 2 - bye;
    let round = m / boards;
    let board = m % boards + bye;
    let [a, b] = if board == 0 {
        // The fixed player alternates colours from round to round.
        if round % 2 == 0 {
            [round, turning]
        } else {
            [turning, round]
        }
    } else {
        [
            (round + board) % turning,
            (round + turning - board) % turning,
        ]
    };
    [a as usize, b as usize]
}

/// A deterministic slice of the schedule: shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1: it takes every `count`-th pair from this one.
    pub index: u32,
    /// Shards the schedule is split into.
    pub count: u32,
}

impl Shard {
    /// The whole schedule.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether this is the whole schedule, unsplit.
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }
}

/// A `--shard` that is not K/N with 1 <= K <= N.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad shard '{0}': expected K/N with 1 <= K <= N, e.g. 3/8 for the third of eight shards")]
pub struct ShardError(String);

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let error = || ShardError(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(error)?;
        let index: u32 = index.trim().parse().map_err(|_| error())?;
        let count: u32 = count.trim().parse().map_err(|_| error())?;
        if index == 0 || index > count {
            return Err(error());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    #[test]
    fn every_round_robin_pairing_once_per_cycle() {
        for n in 2..=13usize {
            let schedule = Schedule::new(n, Format::RoundRobin, 2);
            let mut seen = BTreeSet::new();
            for q in 0..schedule.pair_count() {
                let [first, second] = schedule.pair(q);
                let [a, b] = first.seats;
                assert_ne!(a, b);
                assert!(a < n && b < n);
                assert_eq!(second.seats, [b, a], "colours swapped within the pair");
                assert!(
                    seen.insert((a.min(b), a.max(b))),
                    "{n} players: {a}-{b} twice"
                );
            }
            assert_eq!(seen.len(), n * (n - 1) / 2);
        }
    }

    #[test]
    fn a_round_of_the_circle_method_seats_every_player_once() {
        let schedule = Schedule::new(8, Format::RoundRobin, 2);
        for round in 0..7 {
            let mut seated = BTreeSet::new();
            for board in 0..4 {
                let [slot, _] = schedule.pair(round * 4 + board);
                assert!(seated.insert(slot.seats[0]) && seated.insert(slot.seats[1]));
            }
            assert_eq!(seated.len(), 8);
        }
    }

    #[test]
    fn both_colours_and_cycles() {
        let schedule = Schedule::new(4, Format::RoundRobin, 6);
        assert_eq!(schedule.total_games(), 36);
        let mut colours: BTreeMap<[usize; 2], u32> = BTreeMap::new();
        let mut cycles: BTreeMap<u64, u32> = BTreeMap::new();
        for [a, b] in schedule.pairs(Shard::WHOLE) {
            for slot in [a, b] {
                *colours.entry(slot.seats).or_default() += 1;
                *cycles.entry(slot.cycle).or_default() += 1;
            }
            assert_eq!((a.index % 2, b.index, a.cycle), (0, a.index + 1, b.cycle));
        }
        assert_eq!(colours.len(), 12, "every ordered pair");
        assert!(colours.values().all(|&n| n == 3), "{colours:?}");
        assert_eq!(cycles, BTreeMap::from([(0, 12), (1, 12), (2, 12)]));
    }

    #[test]
    fn gauntlet_challengers_face_the_field_only() {
        let schedule = Schedule::new(
            5,
            Format::Gauntlet {
                challengers: vec![1, 3],
            },
            2,
        );
        assert_eq!(schedule.total_games(), 12);
        let pairings: BTreeSet<[usize; 2]> = schedule
            .pairs(Shard::WHOLE)
            .map(|[slot, _]| slot.seats)
            .collect();
        assert_eq!(
            pairings,
            BTreeSet::from([[1, 0], [3, 0], [1, 2], [3, 2], [1, 4], [3, 4]])
        );
    }

    #[test]
    fn shards_partition_the_schedule() {
        let schedule = Schedule::new(7, Format::RoundRobin, 4);
        let whole: Vec<u64> = schedule
            .pairs(Shard::WHOLE)
            .flat_map(|pair| pair.map(|slot| slot.index))
            .collect();
        assert_eq!(whole, (0..schedule.total_games()).collect::<Vec<_>>());
        for count in [1, 2, 4, 5, 84, 100] {
            let mut union = Vec::new();
            for index in 1..=count {
                let shard = Shard { index, count };
                let games: Vec<Slot> = schedule.pairs(shard).flatten().collect();
                assert_eq!(games.len() as u64, schedule.games_in(shard), "{shard}");
                union.extend(games.iter().map(|slot| slot.index));
            }
            union.sort_unstable();
            assert_eq!(union, whole, "{count} shards");
        }
    }

    #[test]
    fn shards_parse() {
        assert_eq!("3/8".parse(), Ok(Shard { index: 3, count: 8 }));
        assert_eq!("1/1".parse(), Ok(Shard::WHOLE));
        for bad in ["0/4", "5/4", "3", "a/b", "1/0", "-1/4"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(Shard { index: 2, count: 4 }.to_string(), "2/4");
    }

    #[test]
    fn a_thousand_players_are_counted_not_listed() {
        let schedule = Schedule::new(1000, Format::RoundRobin, 2);
        assert_eq!(schedule.total_games(), 999_000);
        let [last, _] = schedule.pair(schedule.pair_count() - 1);
        assert_ne!(last.seats[0], last.seats[1]);
    }
}
