//! The games between each two players who met, kept as counts by pair: a round robin of a
//! thousand players has half a million pairs, so each is three counts in a hash table (a
//! draw's half point follows from the counts), found in one probe per game.

use std::collections::HashMap;

/// Games between two players, from the side of the one entered first (the lower index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeetingTally {
    pub games: u32,
    /// Games won by the lower-indexed player, and drawn.
    pub wins_low: u32,
    pub draws: u32,
}

impl MeetingTally {
    /// Points of the lower-indexed player.
    pub fn points_low(&self) -> f64 {
        self.wins_low as f64 + self.draws as f64 / 2.0
    }

    /// Games lost by the lower-indexed player.
    pub fn losses_low(&self) -> u32 {
        self.games - self.wins_low - self.draws
    }
}

/// Every pair of players that met, by their indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meetings {
    by_pair: HashMap<(u32, u32), MeetingTally>,
}

/// The key of the pair `a`, `b`: lower index first.
fn key(a: usize, b: usize) -> (u32, u32) {
    let index = |i: usize| u32::try_from(i).expect("fewer than 2³² players");
    (index(a.min(b)), index(a.max(b)))
}

impl Meetings {
    /// Counts a game between `a` and `b`, which `a` won (`Some(true)`), lost, or drew (`None`).
    pub fn add(&mut self, a: usize, b: usize, a_won: Option<bool>) {
        let meeting = self.by_pair.entry(key(a, b)).or_default();
        meeting.games += 1;
        match a_won {
            None => meeting.draws += 1,
            Some(won) if won == (a < b) => meeting.wins_low += 1,
            Some(_) => {}
        }
    }

    /// The games between `a` and `b` (lower index first), if they met.
    pub fn between(&self, a: usize, b: usize) -> Option<MeetingTally> {
        self.by_pair.get(&key(a, b)).copied()
    }

    pub fn games(&self) -> u64 {
        self.by_pair.values().map(|m| u64::from(m.games)).sum()
    }

    /// Every pair that met, as (lower index, higher index, games), in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, MeetingTally)> + '_ {
        self.by_pair
            .iter()
            .map(|(&(low, high), &m)| (low as usize, high as usize, m))
    }
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
        assert_eq!(meetings.games(), 4);
        let mut pairs: Vec<(usize, usize)> = meetings.iter().map(|p| (p.0, p.1)).collect();
        pairs.sort();
        assert_eq!(pairs, [(0, 2), (1, 3)]);
    }
}
