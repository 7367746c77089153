//! A ladder's arithmetic, pure: ratings (Weng-Lin, the Bayesian rating of OpenSkill, from the
//! `skillratings` crate) as a fold over the stored results, and matchmaking (who plays next).
//!
//! Weng-Lin rather than Elo or Glicko-2: it carries an uncertainty per player that shrinks
//! with every game, so a new version moves fast and a settled one slowly, and it updates
//! game by game (Glicko-2 wants rating periods, which a continuous ladder does not have), so
//! the ratings are a plain fold over the games in their order: recomputing them from the
//! stored results gives the same numbers, bit for bit, as the updates made as games came in.

use skillratings::weng_lin::{weng_lin, WengLinConfig, WengLinRating};
use skillratings::Outcomes;
use std::collections::BTreeMap;

/// A rating: mu and its uncertainty sigma.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The estimate of skill.
    pub mu: f64,
    /// How uncertain it is.
    pub sigma: f64,
}

impl Rating {
    /// A version's rating before its first game.
    pub const INITIAL: Rating = Rating {
        mu: 25.0,
        sigma: 25.0 / 3.0,
    };

    /// The conservative rating the leaderboard ranks by: mu - 3 sigma.
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// A version's standing: its rating and its games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// Its rating.
    pub rating: Rating,
    /// Games played.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

impl Default for Standing {
    fn default() -> Self {
        Standing {
            rating: Rating::INITIAL,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        }
    }
}

/// A finished game as the ratings see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    /// The version that moved first.
    pub first: i64,
    /// The version that moved second.
    pub second: i64,
    /// 0 or 1 for the side that won, none for a draw.
    pub winner: Option<u8>,
}

/// The two standings after `game` between them.
pub fn rate(first: Standing, second: Standing, winner: Option<u8>) -> (Standing, Standing) {
    let outcome = match winner {
        Some(0) => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let to = |r: Rating| WengLinRating {
        rating: r.mu,
        uncertainty: r.sigma,
    };
    let (a, b) = weng_lin(
        &to(first.rating),
        &to(second.rating),
        &outcome,
        &WengLinConfig::new(),
    );
    let count = |mut s: Standing, r: WengLinRating, side: u8| {
        s.rating = Rating {
            mu: r.rating,
            sigma: r.uncertainty,
        };
        s.games += 1;
        match winner {
            None => s.draws += 1,
            Some(w) if w == side => s.wins += 1,
            Some(_) => s.losses += 1,
        }
        s
    };
    (count(first, a, 0), count(second, b, 1))
}

/// Every version's standing from the results in order: the ratings' one definition.
pub fn recompute(results: impl IntoIterator<Item = Result>) -> BTreeMap<i64, Standing> {
    let mut standings = BTreeMap::new();
    for game in results {
        apply(&mut standings, game);
    }
    standings
}

/// Counts one more result into `standings`.
pub fn apply(standings: &mut BTreeMap<i64, Standing>, game: Result) {
    let first = standings.get(&game.first).copied().unwrap_or_default();
    let second = standings.get(&game.second).copied().unwrap_or_default();
    let (first, second) = rate(first, second, game.winner);
    standings.insert(game.first, first);
    standings.insert(game.second, second);
}

/// A version that may be paired.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The version.
    pub version: i64,
    /// Its bot (a bot never plays itself).
    pub bot: i64,
    /// A boss: a pair needs at least one version that is not.
    pub boss: bool,
    /// Its standing.
    pub standing: Standing,
}

/// The next pair to play, as large platforms choose: the version with the fewest games
/// first, against an opponent whose rating is within `window + widen * sigma` (the larger
/// sigma of the two, so the window widens with uncertainty), the fewest games first among
/// those, then the nearest rating; when none is within the window, the nearest. Never the
/// pair `last` again, never two bosses. Each pair is then played with both colours.
pub fn choose_pair(
    candidates: &[Candidate],
    last: Option<(i64, i64)>,
    window: f64,
    widen: f64,
) -> Option<(i64, i64)> {
    let mut order: Vec<&Candidate> = candidates.iter().filter(|c| !c.boss).collect();
    order.sort_by_key(|c| (c.standing.games, c.version));
    let same = |a: i64, b: i64| last.is_some_and(|(x, y)| (x, y) == (a, b) || (y, x) == (a, b));
    for player in order {
        let distance = |c: &Candidate| (c.standing.rating.mu - player.standing.rating.mu).abs();
        let mut opponents: Vec<&Candidate> = candidates
            .iter()
            .filter(|c| c.bot != player.bot && !same(player.version, c.version))
            .collect();
        if opponents.is_empty() {
            continue;
        }
        let within = |c: &&Candidate| {
            let sigma = c.standing.rating.sigma.max(player.standing.rating.sigma);
            distance(c) <= window + widen * sigma
        };
        let near: Vec<&Candidate> = opponents.iter().copied().filter(within).collect();
        let chosen = if near.is_empty() {
            opponents.sort_by(|a, b| distance(a).total_cmp(&distance(b)));
            opponents[0]
        } else {
            *near
                .iter()
                .min_by(|a, b| {
                    (a.standing.games, distance(a), a.version)
                        .partial_cmp(&(b.standing.games, distance(b), b.version))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .expect("not empty")
        };
        return Some((player.version, chosen.version));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn results() -> impl Strategy<Value = Vec<Result>> {
        prop::collection::vec((0i64..6, 0i64..6, prop::option::of(0u8..2)), 0..200).prop_map(
            |games| {
                games
                    .into_iter()
                    .filter(|(a, b, _)| a != b)
                    .map(|(first, second, winner)| Result {
                        first,
                        second,
                        winner,
                    })
                    .collect()
            },
        )
    }

    proptest! {
        #[test]
        fn recomputed_ratings_equal_the_incremental_ones(games in results()) {
            let mut incremental = BTreeMap::new();
            for game in &games {
                apply(&mut incremental, *game);
            }
            prop_assert_eq!(recompute(games.iter().copied()), incremental);
        }

        #[test]
        fn a_pair_is_two_bots_never_the_last_pair(
            ratings in prop::collection::vec((0.0f64..50.0, 0.5f64..9.0, 0u32..50, any::<bool>()), 0..12),
            last in prop::option::of((0i64..12, 0i64..12)),
        ) {
            let candidates: Vec<Candidate> = ratings.iter().enumerate().map(|(at, &(mu, sigma, games, boss))| Candidate {
                version: at as i64,
                bot: at as i64 / 2,
                boss,
                standing: Standing { rating: Rating { mu, sigma }, games, ..Standing::default() },
            }).collect();
            if let Some((a, b)) = choose_pair(&candidates, last, 5.0, 2.0) {
                let find = |v: i64| candidates.iter().find(|c| c.version == v).unwrap();
                prop_assert_ne!(find(a).bot, find(b).bot);
                prop_assert!(!find(a).boss || !find(b).boss);
                prop_assert!(last != Some((a, b)) && last != Some((b, a)));
                // The first is one of the versions with the fewest games that can be paired.
                let fewest = candidates.iter().filter(|c| !c.boss).map(|c| c.standing.games).min().unwrap();
                prop_assert!(find(a).standing.games >= fewest);
            }
        }
    }

    #[test]
    fn the_fewest_games_play_first_within_the_window() {
        let candidate = |version, mu, games| Candidate {
            version,
            bot: version,
            boss: false,
            standing: Standing {
                rating: Rating { mu, sigma: 1.0 },
                games,
                ..Standing::default()
            },
        };
        let field = [
            candidate(1, 25.0, 10),
            candidate(2, 26.0, 3),
            candidate(3, 40.0, 0),
            candidate(4, 39.0, 8),
            candidate(5, 10.0, 0),
        ];
        assert_eq!(choose_pair(&field, None, 5.0, 2.0), Some((3, 4)));
        // Never the same pair twice in a row: the next nearest instead.
        assert_eq!(choose_pair(&field, Some((4, 3)), 5.0, 2.0), Some((3, 2)));
        // A win moves the winner up and the loser down, the uncertainty of both down.
        let (a, b) = rate(Standing::default(), Standing::default(), Some(0));
        assert!(a.rating.mu > 25.0 && b.rating.mu < 25.0);
        assert!(a.rating.sigma < 25.0 / 3.0 && (a.wins, b.losses) == (1, 1));
    }
}
