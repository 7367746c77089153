//! The games between each two players who met, kept as counts by pair (a draw's half point
//! follows from them). A round robin of a thousand players has half a million pairs, met in a
//! random order: the counts of every pair in one table, one memory access a game, while the
//! field is small enough; a hash table of the pairs that met beyond that.

use std::collections::HashMap;

/// Games between two players, from the side of the one entered first (the lower index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct MeetingTally {
    pub games: u32,
    /// Games won by the lower-indexed player, and drawn.
    pub wins_low: u32,
    pub draws: u32,
}

impl MeetingTally {
    /// Points of the lower-indexed player.
    pub(super) fn points_low(&self) -> f64 {
        self.wins_low as f64 + self.draws as f64 / 2.0
    }

    /// Games lost by the lower-indexed player.
    pub(super) fn losses_low(&self) -> u32 {
        self.games - self.wins_low - self.draws
    }
}

/// Every pair of players that met, by their indices.
#[derive(Clone, Debug)]
pub(super) struct Meetings {
    table: Table,
}

/// How far a field's pairs may be kept as a dense table: 12 bytes a pair, 8 MiB at most (a
/// field of about 1,200 players).
const DENSE_PAIRS: usize = (8 << 20) / std::mem::size_of::<MeetingTally>();

#[derive(Clone, Debug)]
enum Table {
    /// Every pair of the players so far, met or not, the pair (low, high) at
    /// high·(high − 1)/2 + low: one memory access a game, as a field whose players all meet
    /// makes its pairs the most of its memory anyway.
    Dense(Vec<MeetingTally>),
    /// Only the pairs that met: a field too large for the dense table, whose players cannot all
    /// have met.
    Sparse(HashMap<(u32, u32), MeetingTally>),
}

impl Default for Meetings {
    fn default() -> Meetings {
        Meetings {
            table: Table::Dense(Vec::new()),
        }
    }
}

/// The pair `a`, `b`: lower index first.
fn pair(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// The place of the pair (low, high) in the dense table.
fn dense_index(low: usize, high: usize) -> usize {
    high * high.saturating_sub(1) / 2 + low
}

impl Meetings {
    /// Counts a game between `a` and `b`, which `a` won (`Some(true)`), lost, or drew (`None`).
    /// A player meets only others (a journal refuses a game of a player against itself).
    pub(super) fn add(&mut self, a: usize, b: usize, a_won: Option<bool>) {
        let (low, high) = pair(a, b);
        if low == high {
            return;
        }
        let meeting = self.entry(low, high);
        meeting.games += 1;
        match a_won {
            None => meeting.draws += 1,
            Some(won) if won == (a == low) => meeting.wins_low += 1,
            Some(_) => {}
        }
    }

    /// The counts of the pair, made room for.
    fn entry(&mut self, low: usize, high: usize) -> &mut MeetingTally {
        if let Table::Dense(pairs) = &mut self.table {
            // Every pair of the players up to `high`.
            let needed = dense_index(0, high + 1);
            if needed > DENSE_PAIRS {
                self.table = Table::Sparse(self.iter().map(|(l, h, m)| (key(l, h), m)).collect());
            } else if pairs.len() < needed {
                pairs.resize(needed, MeetingTally::default());
            }
        }
        match &mut self.table {
            Table::Dense(pairs) => &mut pairs[dense_index(low, high)],
            Table::Sparse(pairs) => pairs.entry(key(low, high)).or_default(),
        }
    }

    /// The games between `a` and `b` (lower index first), if they met.
    pub(super) fn between(&self, a: usize, b: usize) -> Option<MeetingTally> {
        let (low, high) = pair(a, b);
        if low == high {
            return None;
        }
        match &self.table {
            Table::Dense(pairs) => pairs.get(dense_index(low, high)).copied(),
            Table::Sparse(pairs) => pairs.get(&key(low, high)).copied(),
        }
        .filter(|m| m.games > 0)
    }

    pub(super) fn games(&self) -> u64 {
        self.iter().map(|(_, _, m)| u64::from(m.games)).sum()
    }

    /// Every pair that met, as (lower index, higher index, games), in no particular order.
    pub(super) fn iter(&self) -> Box<dyn Iterator<Item = (usize, usize, MeetingTally)> + '_> {
        match &self.table {
            Table::Dense(pairs) => Box::new(
                (0..)
                    .flat_map(|high| (0..high).map(move |low| (low, high)))
                    .zip(pairs)
                    .filter(|(_, m)| m.games > 0)
                    .map(|((low, high), &m)| (low, high, m)),
            ),
            Table::Sparse(pairs) => Box::new(
                pairs
                    .iter()
                    .map(|(&(low, high), &m)| (low as usize, high as usize, m)),
            ),
        }
    }
}

/// The same pairs met with the same results, however they are kept.
impl PartialEq for Meetings {
    fn eq(&self, other: &Meetings) -> bool {
        self.iter().count() == other.iter().count()
            && self
                .iter()
                .all(|(low, high, m)| other.between(low, high) == Some(m))
    }
}

/// The key of the pair (low, high) in the sparse table.
fn key(low: usize, high: usize) -> (u32, u32) {
    let index = |i: usize| u32::try_from(i).expect("fewer than 2³² players");
    (index(low), index(high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pair_is_counted_from_its_lower_index() {
        let mut meetings = Meetings::default();
        meetings.add(3, 1, Some(true));
        meetings.add(1, 3, None);
        meetings.add(1, 3, Some(true));
        meetings.add(0, 2, Some(false));
        let pair = meetings.between(3, 1).unwrap();
        assert_eq!(pair, meetings.between(1, 3).unwrap());
        assert_eq!((pair.games, pair.wins_low, pair.draws), (3, 1, 1));
        assert_eq!((pair.points_low(), pair.losses_low()), (1.5, 1));
        assert_eq!(meetings.between(0, 1), None);
        meetings.add(2, 2, None);
        assert_eq!(
            (meetings.between(2, 2), meetings.between(1, 1)),
            (None, None)
        );
        assert_eq!(meetings.games(), 4);
        let mut pairs: Vec<(usize, usize)> = meetings.iter().map(|p| (p.0, p.1)).collect();
        pairs.sort();
        assert_eq!(pairs, [(0, 2), (1, 3)]);
    }

    /// A field too large for the dense table moves to the sparse one, keeping every count.
    #[test]
    fn a_large_field_is_kept_sparse() {
        let mut meetings = Meetings::default();
        meetings.add(0, 1, Some(true));
        meetings.add(2, 1, None);
        let dense = meetings.clone();
        assert!(matches!(meetings.table, Table::Dense(_)));
        let far = 2 * (DENSE_PAIRS as f64).sqrt() as usize;
        meetings.add(far, 1, Some(false));
        assert!(matches!(meetings.table, Table::Sparse(_)));
        assert_eq!(meetings.games(), 3);
        assert_eq!(meetings.between(0, 1), dense.between(0, 1));
        assert_eq!(meetings.between(1, 2), dense.between(1, 2));
        assert_eq!(meetings.between(1, far).unwrap().wins_low, 1);
        assert_ne!(meetings, dense);
        meetings.add(far, 1, None);
        assert_eq!(meetings.between(1, far).unwrap().games, 2);
        let mut sparse = dense.clone();
        sparse.table = Table::Sparse(dense.iter().map(|(l, h, m)| (key(l, h), m)).collect());
        assert_eq!(sparse, dense, "equal however kept");
    }
}
