//! Formats paired round by round from results (Swiss, knock-out): the games of a round are
//! known only once the round before is finished, so the runner asks for the next batch, plays
//! it, journals it, and asks again.
//!
//! Every game still has a fixed index, so the journal, `--resume` and `referee standings` work
//! as for a round robin: round r owns the indices from `r * per_round`, a pairing (board) of it
//! `games_per_pairing` (plus, in a knock-out, two per tie-break pair) of them. A batch is
//! recomputed from the journal alone: the pairings of round r follow from the results of the
//! rounds before and the seed, so a resumed run pairs exactly as the first one did.

use super::knockout;
use super::slot::Slot;
use super::swiss::{self, History};
use std::collections::HashMap;

/// A finished game as pairing needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    /// First seat, second seat.
    pub seats: [usize; 2],
    /// Points of the first seat: 1, ½ or 0.
    pub points_first: f64,
}

/// Finished games by schedule index.
pub type Results = HashMap<u64, Played>;

/// The games of a batch, grouped by pairing (a worker plays a pairing's games in turn).
pub type Batch = Vec<Vec<Slot>>;

/// A format paired by results, with its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounds {
    /// Rounds of boards paired by score, players meeting at most once where the field allows.
    Swiss(SwissLayout),
    /// A bracket: each match's winner goes on to the next round.
    Knockout(KnockoutLayout),
}

impl Rounds {
    /// The games to play next (see [`SwissLayout::next_batch`] and
    /// [`KnockoutLayout::next_batch`]); None when the tournament is over.
    pub fn next_batch(&self, results: &Results, seed: u64) -> Option<Batch> {
        match self {
            Rounds::Swiss(layout) => layout.next_batch(results, seed),
            Rounds::Knockout(layout) => layout.next_batch(results),
        }
    }
}

/// A Swiss tournament's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwissLayout {
    /// Players in the field; with an odd number, one sits out each round.
    pub players: usize,
    /// Rounds to play.
    pub rounds: u32,
    /// Games on each board of a round.
    pub games_per_pairing: u32,
}

impl SwissLayout {
    fn boards(&self) -> u64 {
        (self.players / 2) as u64
    }

    /// Games in the whole schedule: every round, every board.
    pub fn total_games(&self) -> u64 {
        u64::from(self.rounds) * self.boards() * u64::from(self.games_per_pairing)
    }

    /// The games of round `round`, board by board; `cycle` numbers the openings on from round
    /// to round, each opening played with both colours.
    fn slots(&self, round: u32, pairing: &swiss::Round) -> Batch {
        let games = u64::from(self.games_per_pairing);
        let base = u64::from(round) * self.boards() * games;
        let cycles_per_round = games.div_ceil(2);
        pairing
            .boards
            .iter()
            .enumerate()
            .map(|(board, &players)| {
                pairing_slots(base + board as u64 * games, players, 0..games, |g| {
                    u64::from(round) * cycles_per_round + g / 2
                })
            })
            .collect()
    }

    /// The games still to play in the first unfinished round, or None when every round is
    /// finished.
    pub fn next_batch(&self, results: &Results, seed: u64) -> Option<Batch> {
        let mut history = vec![History::default(); self.players];
        for round in 0..self.rounds {
            let pairing = swiss::pair_round(&history, round, seed);
            let slots = self.slots(round, &pairing);
            let missing = unplayed(&slots, results);
            if !missing.is_empty() {
                return Some(missing);
            }
            for slot in slots.iter().flatten() {
                swiss::record_game(&mut history, slot.seats, results[&slot.index].points_first);
            }
            swiss::record_round(&mut history, &pairing, self.games_per_pairing);
        }
        None
    }
}

/// A knock-out's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnockoutLayout {
    /// Players in the field; the bracket gives byes to fill it up to a power of two.
    pub players: usize,
    /// Regular games of each match, before any tie-break.
    pub games_per_pairing: u32,
    /// Pairs of tie-break games a drawn match may need.
    pub tiebreaks: u32,
}

/// One match of a knock-out as decided so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// The round it belongs to, from 0 (the final is the last).
    pub round: u32,
    /// Higher seed first.
    pub players: [usize; 2],
    /// Points of each player, in the same order.
    pub points: [f64; 2],
    /// Games played so far, tie-breaks included.
    pub games: u32,
    /// None while undecided.
    pub winner: Option<usize>,
}

impl KnockoutLayout {
    fn games_per_match(&self) -> u64 {
        u64::from(self.games_per_pairing) + 2 * u64::from(self.tiebreaks)
    }

    fn matches_per_round(&self) -> u64 {
        (knockout::size(self.players) / 2) as u64
    }

    /// The most games the bracket may take (every match to its last tie-break).
    pub fn total_games(&self) -> u64 {
        u64::from(knockout::rounds(self.players))
            * self.matches_per_round()
            * self.games_per_match()
    }

    /// The games still to play in the first undecided round (the regular games of its
    /// matches, or the next tie-break pair of those level after them), or None when the
    /// bracket has its champion.
    pub fn next_batch(&self, results: &Results) -> Option<Batch> {
        let (batch, _) = self.walk(results);
        batch
    }

    /// Every match decided so far and those under way, round by round.
    pub fn matches(&self, results: &Results) -> Vec<Match> {
        self.walk(results).1
    }

    /// Match `[a, b]` of `round`, whose first game has index `first`, as far as `results` go:
    /// its points so far, and the games it needs next (the regular ones, then a tie-break pair
    /// while it is level), if any.
    fn settle(
        &self,
        round: u32,
        first: u64,
        [a, b]: [usize; 2],
        results: &Results,
    ) -> (Match, Option<Vec<Slot>>) {
        let mut found = Match {
            round,
            players: [a, b],
            points: [0.0; 2],
            games: 0,
            winner: None,
        };
        let games = u64::from(self.games_per_pairing);
        let blocks = std::iter::once(0..games)
            .chain((0..u64::from(self.tiebreaks)).map(|k| games + 2 * k..games + 2 * k + 2));
        for (number, block) in blocks.enumerate() {
            if number > 0 && found.points[0] != found.points[1] {
                break;
            }
            let slots = pairing_slots(first, [a, b], block, |g| (first + g) / 2);
            let mut missing = Vec::new();
            for slot in slots {
                match results.get(&slot.index) {
                    Some(played) => {
                        let points_a = if slot.seats[0] == a {
                            played.points_first
                        } else {
                            1.0 - played.points_first
                        };
                        found.points[0] += points_a;
                        found.points[1] += 1.0 - points_a;
                        found.games += 1;
                    }
                    None => missing.push(slot),
                }
            }
            if !missing.is_empty() {
                return (found, Some(missing));
            }
        }
        (found, None)
    }

    /// Goes through the bracket round by round over `results`, up to the first round with
    /// games to play: those games (None when the bracket has its champion) and every match met.
    fn walk(&self, results: &Results) -> (Option<Batch>, Vec<Match>) {
        let places = knockout::bracket(knockout::size(self.players));
        // Who stands at each place of the current round; None for a bye.
        let mut standing: Vec<Option<usize>> = places
            .iter()
            .map(|&seed| (seed < self.players).then_some(seed))
            .collect();
        let mut matches = Vec::new();
        for round in 0..knockout::rounds(self.players) {
            let base = u64::from(round) * self.matches_per_round() * self.games_per_match();
            let mut batch = Batch::new();
            let mut next = Vec::with_capacity(standing.len() / 2);
            for (at, pair) in standing.chunks(2).enumerate() {
                let (a, b) = match (pair[0], pair[1]) {
                    (Some(a), Some(b)) => (a.min(b), a.max(b)),
                    (one, other) => {
                        next.push(one.or(other));
                        continue;
                    }
                };
                let first = base + at as u64 * self.games_per_match();
                let (mut found, needed) = self.settle(round, first, [a, b], results);
                match needed {
                    Some(missing) => {
                        batch.push(missing);
                        next.push(None);
                    }
                    None => {
                        let winner = knockout::winner([a, b], found.points);
                        found.winner = Some(winner);
                        next.push(Some(winner));
                    }
                }
                matches.push(found);
            }
            if !batch.is_empty() {
                return (Some(batch), matches);
            }
            standing = next;
        }
        (None, matches)
    }

    /// The matches round by round and the champion, as printed after the standings: players
    /// by their `names`, by index.
    pub fn report(&self, names: &[&str], results: &Results) -> String {
        let matches = self.matches(results);
        let mut out = String::from("knock-out, seeds in the order of the configuration:\n");
        for found in &matches {
            let [a, b] = found.players;
            let score = format!(
                "{}-{}",
                crate::report::format_points(found.points[0]),
                crate::report::format_points(found.points[1])
            );
            let outcome = match found.winner {
                Some(winner) if found.points[0] == found.points[1] => {
                    format!("{} goes through as the higher seed", names[winner])
                }
                Some(winner) => format!("{} goes through", names[winner]),
                None => "undecided".into(),
            };
            out.push_str(&format!(
                "  round {}: {} (seed {}) - {} (seed {})  {score} in {}: {outcome}\n",
                found.round + 1,
                names[a],
                a + 1,
                names[b],
                b + 1,
                crate::report::counted(u64::from(found.games), "game"),
            ));
        }
        let champion = matches
            .last()
            .filter(|last| last.round + 1 == knockout::rounds(self.players))
            .and_then(|last| last.winner);
        match champion {
            Some(champion) => out.push_str(&format!("champion: {}\n", names[champion])),
            None => out.push_str("no champion yet: the bracket is unfinished\n"),
        }
        out
    }
}

/// The games `games` (numbers within the pairing) of a pairing whose first game has index
/// `first`: `home` takes the first seat in the even-numbered ones.
fn pairing_slots(
    first: u64,
    [home, away]: [usize; 2],
    games: std::ops::Range<u64>,
    cycle: impl Fn(u64) -> u64,
) -> Vec<Slot> {
    games
        .map(|g| Slot {
            index: first + g,
            seats: if g % 2 == 0 {
                [home, away]
            } else {
                [away, home]
            },
            cycle: cycle(g),
        })
        .collect()
}

/// The slots of `batch` not in `results`, pairing by pairing.
fn unplayed(batch: &Batch, results: &Results) -> Batch {
    batch
        .iter()
        .map(|games| {
            games
                .iter()
                .filter(|slot| !results.contains_key(&slot.index))
                .copied()
                .collect::<Vec<_>>()
        })
        .filter(|games| !games.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Plays batches until none is left, the lower index always winning (or every game
    /// drawn); returns every game played.
    fn play_out(next: impl Fn(&Results) -> Option<Batch>, draws: bool) -> Results {
        play_with(next, |slot, _| {
            if draws {
                0.5
            } else if slot.seats[0] < slot.seats[1] {
                1.0
            } else {
                0.0
            }
        })
    }

    /// Plays batches until none is left, each game's points for the first seat from `points`
    /// (given the slot and the games played before it); returns every game played.
    fn play_with(
        next: impl Fn(&Results) -> Option<Batch>,
        points: impl Fn(&Slot, usize) -> f64,
    ) -> Results {
        let mut results = Results::new();
        while let Some(batch) = next(&results) {
            assert!(!batch.is_empty());
            for slot in batch.into_iter().flatten() {
                let points_first = points(&slot, results.len());
                let previous = results.insert(
                    slot.index,
                    Played {
                        seats: slot.seats,
                        points_first,
                    },
                );
                assert!(previous.is_none(), "game {} handed out twice", slot.index);
            }
        }
        results
    }

    #[test]
    fn a_swiss_plays_every_round_within_its_indices() {
        let layout = SwissLayout {
            players: 7,
            rounds: 3,
            games_per_pairing: 2,
        };
        let results = play_out(|r| layout.next_batch(r, 11), false);
        assert_eq!(results.len() as u64, layout.total_games());
        let indices: BTreeSet<u64> = results.keys().copied().collect();
        assert_eq!(indices, (0..layout.total_games()).collect());
        // Resuming from any prefix of rounds pairs the same way.
        assert_eq!(play_out(|r| layout.next_batch(r, 11), false), results);
    }

    #[test]
    fn a_knockout_goes_to_the_top_seed_when_the_higher_seed_always_wins() {
        let layout = KnockoutLayout {
            players: 6,
            games_per_pairing: 2,
            tiebreaks: 1,
        };
        let results = play_out(|r| layout.next_batch(r), false);
        let matches = layout.matches(&results);
        // 8 places: two byes for seeds 0 and 1; round 1 has 2 matches, then 2, then the final.
        assert_eq!(matches.len(), 5);
        let last = matches.last().unwrap();
        assert_eq!(
            (last.round, last.players, last.winner),
            (2, [0, 1], Some(0))
        );
        // Decisive matches need no tie-break: 2 games each.
        assert_eq!(results.len(), 10);
        assert!(results.keys().all(|&i| i < layout.total_games()));
    }

    proptest::proptest! {
        /// Whatever the results: one champion after n - 1 matches, nobody in two matches of a
        /// round or after losing, every game within the schedule, a match's tie-breaks only
        /// while it is level.
        #[test]
        fn a_knockout_always_ends_with_one_champion(
            players in 2usize..70,
            games in 1u32..4,
            tiebreaks in 0u32..3,
            outcomes in proptest::collection::vec(0u8..3, 1..40),
        ) {
            let layout = KnockoutLayout { players, games_per_pairing: games, tiebreaks };
            let results = play_with(|r| layout.next_batch(r), |_, played| {
                f64::from(outcomes[played % outcomes.len()]) / 2.0
            });
            proptest::prop_assert!(results.keys().all(|&i| i < layout.total_games()));
            let matches = layout.matches(&results);
            proptest::prop_assert_eq!(matches.len(), players - 1);
            let mut out = std::collections::BTreeSet::new();
            for round in 0..knockout::rounds(players) {
                let mut seated = std::collections::BTreeSet::new();
                for found in matches.iter().filter(|m| m.round == round) {
                    for player in found.players {
                        proptest::prop_assert!(seated.insert(player), "{} twice in round {}", player, round);
                        proptest::prop_assert!(!out.contains(&player), "{} played after losing", player);
                    }
                    let winner = found.winner.unwrap();
                    let [a, b] = found.players;
                    out.insert(if winner == a { b } else { a });
                    let extra = found.games - games;
                    proptest::prop_assert!(extra % 2 == 0 && extra <= 2 * tiebreaks);
                }
            }
            proptest::prop_assert_eq!(out.len(), players - 1);
        }
    }

    #[test]
    fn a_drawn_match_plays_its_tie_breaks_then_the_higher_seed_goes_through() {
        let layout = KnockoutLayout {
            players: 4,
            games_per_pairing: 2,
            tiebreaks: 2,
        };
        let results = play_out(|r| layout.next_batch(r), true);
        let matches = layout.matches(&results);
        assert_eq!(matches.len(), 3);
        assert!(matches.iter().all(|m| m.games == 6), "{matches:?}");
        assert_eq!(matches[2].winner, Some(0));
        assert_eq!(results.len(), 18);
    }
}
