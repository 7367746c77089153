//! Elo ratings with uncertainty from game results: a Bradley-Terry fit (as Ordo and BayesElo
//! do), where a player rated `d` Elo above another is expected to score 1 / (1 + 10^(-d/400))
//! against it, and a draw counts as half a win and half a loss.
//!
//! The ratings maximise the likelihood of every game's result, plus a weak prior in the spirit
//! of BayesElo: each player is credited with `prior_draws` virtual draws against an average
//! player, so that a perfect score or a player who met only one side of the field still gets a
//! finite rating (with 2 virtual draws, a player 10-0 up is rated about +455, not infinity).
//! Their covariance is the inverse of the Fisher information at the optimum, which gives the
//! 95% intervals and the likelihood of superiority (the probability that a player is truly
//! stronger than another). Ratings are shown relative to the field's average, 0.

use super::cholesky::{Cholesky, InverseFactor, Matrix};
use serde::Serialize;

/// Results between two players, as the fit needs them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Meeting {
    pub a: u32,
    pub b: u32,
    /// Points `a` scored against `b` (a draw is half a point).
    pub points_a: f64,
    pub games: f64,
}

/// The prior BayesElo uses by default: two virtual draws per player.
pub(crate) const DEFAULT_PRIOR_DRAWS: f64 = 2.0;

/// Fitted ratings, in Elo relative to the average player.
#[derive(Clone, Debug)]
pub(crate) struct Ratings {
    pub elo: Vec<f64>,
    /// Variance of each (centred) rating, in Elo².
    variance: Vec<f64>,
    /// The inverse Cholesky factor of the information at the optimum (in natural units), whose
    /// columns give the variance of any difference of ratings; none if the field cannot be
    /// rated.
    inverse: Option<InverseFactor>,
}

/// One Elo point in the fit's natural unit (the logit of the expected score).
const NATURAL_PER_ELO: f64 = std::f64::consts::LN_10 / 400.0;

/// The square of an Elo in natural units.
const ELO_SQUARED: f64 = 1.0 / (NATURAL_PER_ELO * NATURAL_PER_ELO);

impl Ratings {
    /// Fits `players` ratings to the meetings. With `prior_draws` 0 this is the plain maximum
    /// likelihood fit, which exists only if every player has both scored and conceded points in
    /// a connected field.
    pub(crate) fn fit(players: usize, meetings: &[Meeting], prior_draws: f64) -> Ratings {
        let mut gamma = vec![0.0; players];
        for _ in 0..100 {
            let (gradient, information) = derivatives(&gamma, meetings, prior_draws);
            // Only a field the data cannot rate (no prior, disconnected) has no solution.
            let Some(factor) = Cholesky::new(information) else {
                break;
            };
            let step = factor.solve(&gradient);
            let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            // Long steps from a poor start are damped so the iteration cannot overshoot wildly.
            let scale = if largest > 2.0 { 2.0 / largest } else { 1.0 };
            for (g, s) in gamma.iter_mut().zip(&step) {
                *g += s * scale;
            }
            if largest * scale < 1e-10 {
                break;
            }
        }
        let mean = gamma.iter().sum::<f64>() / players as f64;
        let (_, information) = derivatives(&gamma, meetings, prior_draws);
        let inverse = Cholesky::new(information).map(Cholesky::into_inverse);
        Ratings {
            elo: gamma.iter().map(|g| (g - mean) / NATURAL_PER_ELO).collect(),
            variance: centred_variances(inverse.as_ref(), players, prior_draws),
            inverse,
        }
    }

    /// Half the width of the 95% interval of a player's rating (NaN if the field cannot be
    /// rated).
    pub(crate) fn error95(&self, player: usize) -> f64 {
        let variance = self.variance[player];
        // Rounding may leave a variance a hair below zero; NaN stays NaN.
        1.959_963_985 * if variance < 0.0 { 0.0 } else { variance }.sqrt()
    }

    /// The probability that `a` is stronger than `b` (likelihood of superiority).
    pub(crate) fn superiority(&self, a: usize, b: usize) -> f64 {
        // Centring moves both ratings alike: their difference varies as the fitted ones do.
        let variance = self
            .inverse
            .as_ref()
            .map_or(f64::NAN, |inverse| inverse.difference_variance(a, b))
            * ELO_SQUARED;
        let difference = self.elo[a] - self.elo[b];
        if variance <= 0.0 {
            return if difference > 0.0 { 1.0 } else { 0.5 };
        }
        normal_cdf(difference / variance.sqrt())
    }
}

/// The gradient of the log-likelihood (plus prior) in natural units, and the Fisher
/// information (minus its Hessian; its lower triangle, as the Cholesky factor reads it),
/// regularised (see [`regularize`]).
fn derivatives(gamma: &[f64], meetings: &[Meeting], prior_draws: f64) -> (Vec<f64>, Matrix) {
    let n = gamma.len();
    let mut gradient = vec![0.0; n];
    let mut information = Matrix::zeros(n);
    for m in meetings {
        let (a, b) = (m.a as usize, m.b as usize);
        let expected = logistic(gamma[a] - gamma[b]);
        let surplus = m.points_a - m.games * expected;
        gradient[a] += surplus;
        gradient[b] -= surplus;
        let weight = m.games * expected * (1.0 - expected);
        information[(a, a)] += weight;
        information[(b, b)] += weight;
        information[(a.max(b), a.min(b))] -= weight;
    }
    for i in 0..n {
        // Virtual draws against a player rated 0: half of them won.
        let expected = logistic(gamma[i]);
        gradient[i] += prior_draws * (0.5 - expected);
        information[(i, i)] += prior_draws * expected * (1.0 - expected);
    }
    regularize(&mut information, prior_draws);
    (gradient, information)
}

/// Without a prior the information matrix is singular along "every rating up by the same
/// amount"; adding J/n (J all ones) makes it invertible without changing steps that keep the
/// average, which is all a gradient summing to zero asks for.
fn regularize(information: &mut Matrix, prior_draws: f64) {
    if prior_draws > 0.0 {
        return;
    }
    information.add_to_all(1.0 / information.size() as f64);
}

/// The variances, in Elo², of the ratings measured from their average: the diagonal of
/// (I − J/n) C (I − J/n) with C the inverse information, Cᵢᵢ − 2 mᵢ + m̄ with m the row means of
/// C; or, without a prior, of the pseudo-inverse (F + J/n)⁻¹ − J/n.
fn centred_variances(
    inverse: Option<&InverseFactor>,
    players: usize,
    prior_draws: f64,
) -> Vec<f64> {
    let Some(inverse) = inverse else {
        return vec![f64::NAN; players];
    };
    let nf = players as f64;
    let diagonal = inverse.diagonal();
    let centred: Vec<f64> = if prior_draws <= 0.0 {
        diagonal.iter().map(|d| d - 1.0 / nf).collect()
    } else {
        let row_means = inverse.times(&vec![1.0 / nf; players]);
        let total_mean = row_means.iter().sum::<f64>() / nf;
        diagonal
            .iter()
            .zip(&row_means)
            .map(|(d, m)| d + total_mean - 2.0 * m)
            .collect()
    };
    centred.into_iter().map(|v| v * ELO_SQUARED).collect()
}

/// The Elo difference one player's results against another show: the logistic Elo of the mean
/// score, the ends of its 95% interval, and the likelihood of superiority (the probability that
/// the player is the stronger).
///
/// The interval is the one of the mean score, each end turned into Elo, so it is not centred on
/// the estimate: 95.7% of the points with an interval of 89.9% to 101.4% is +537 Elo, from +380 up,
/// without an upper end. (Half its width, as fastchess prints it, was 1010 there: a number made
/// by clamping the score short of 100%, which made the estimate look no better than a coin toss.)
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    /// The interval's lower end; `None` when the scores are compatible with a nil score.
    pub low: Option<f64>,
    /// The interval's upper end; `None` when the scores are compatible with a perfect score.
    pub high: Option<f64>,
    pub los: f64,
}

impl EloEstimate {
    /// The 95% interval as people read it, with `decimals` decimals: `-30.1 to +262.0`, an end
    /// the scores do not bound shown as `-inf` or `+inf` (`+380.4 to +inf`).
    pub fn interval(&self, decimals: usize) -> String {
        let end = |end: Option<f64>, unbounded: &str| {
            end.map_or(unbounded.to_string(), |elo| format!("{elo:+.decimals$}"))
        };
        format!("{} to {}", end(self.low, "-inf"), end(self.high, "+inf"))
    }

    /// Whether the interval is a single point: every sample scored the same, a spread of zero
    /// that so few samples cannot vouch for.
    pub fn is_exact(&self) -> bool {
        self.low == Some(self.elo) && self.high == Some(self.elo)
    }
}

/// The [`EloEstimate`] of a sample of independent scores, each between 0 and 1, given as
/// `(score, how many times it occurred)`: per game (0, ½, 1) or per game pair (0, ¼, ..., 1,
/// the pentanomial model). The interval comes from the sample's own variance, so draws, and
/// pairs that cancel a colour's advantage, narrow it. None from fewer than two samples, or for
/// a perfect or nil score, whose Elo is infinite.
pub(crate) fn estimate_elo(outcomes: &[(f64, u64)]) -> Option<EloEstimate> {
    let n = outcomes.iter().map(|&(_, count)| count).sum::<u64>() as f64;
    if n < 2.0 {
        return None;
    }
    let mean = outcomes
        .iter()
        .map(|&(score, count)| score * count as f64)
        .sum::<f64>()
        / n;
    if mean <= 0.0 || mean >= 1.0 {
        return None;
    }
    let variance = outcomes
        .iter()
        .map(|&(score, count)| count as f64 * (score - mean).powi(2))
        .sum::<f64>()
        / n;
    let standard_error = (variance / n).sqrt();
    let error = 1.959_963_985 * standard_error;
    // Adding 0 turns an even score's -0 into 0, which prints as "+0", not "-0".
    let elo = |score: f64| -400.0 * (1.0 / score - 1.0).log10() + 0.0;
    // An end of the interval at or past a nil or perfect score has no Elo: it is unbounded.
    let end = |score: f64| (score > 0.0 && score < 1.0).then(|| elo(score));
    let los = if standard_error > 0.0 {
        normal_cdf((mean - 0.5) / standard_error)
    } else {
        // Every sample the same score: certain, one way or the other, or even.
        match mean.total_cmp(&0.5) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        }
    };
    Some(EloEstimate {
        elo: elo(mean),
        low: end(mean - error),
        high: end(mean + error),
        los,
    })
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The standard normal distribution function, from the complementary error function
/// (W. J. Cody's rational approximation as in Numerical Recipes' erfc, error below 1.2e-7).
pub(crate) fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

#[cfg(test)]
mod tests {
    use super::super::cholesky::tests::plain_inverse;
    use super::*;
    use rand::{Rng, SeedableRng};

    fn meeting(a: u32, b: u32, points_a: f64, games: f64) -> Meeting {
        Meeting {
            a,
            b,
            points_a,
            games,
        }
    }

    /// Two players: the maximum-likelihood difference is the Elo of the score,
    /// 400 log10(s / (1 - s)), and its standard error 1 / sqrt(n s (1 - s)) in natural units.
    #[test]
    fn two_players_get_the_elo_of_their_score() {
        let ratings = Ratings::fit(2, &[meeting(0, 1, 76.0, 100.0)], 0.0);
        let expected = 400.0 * (0.76f64 / 0.24).log10();
        assert!((expected - 200.24).abs() < 0.01);
        let difference = ratings.elo[0] - ratings.elo[1];
        assert!((difference - expected).abs() < 1e-6, "{difference}");
        assert!((ratings.elo[0] + ratings.elo[1]).abs() < 1e-9, "centred");
        let standard_error = 1.0 / (100.0f64 * 0.76 * 0.24).sqrt() / NATURAL_PER_ELO;
        // Each rating is half the difference from the average, so half its error.
        assert!((ratings.error95(0) - 1.959_963_985 * standard_error / 2.0).abs() < 1e-6);
        let los = ratings.superiority(0, 1);
        assert!((los - normal_cdf(difference / standard_error)).abs() < 1e-9);
        assert!(los > 0.999_999);
    }

    /// A, B and C in a chain of known scores: with expected scores from the Elo differences
    /// exactly matching the observed ones, the fit recovers the differences.
    #[test]
    fn consistent_scores_are_reproduced() {
        let score = |d: f64| 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let meetings = [
            meeting(0, 1, 1000.0 * score(100.0), 1000.0),
            meeting(1, 2, 1000.0 * score(50.0), 1000.0),
            meeting(0, 2, 1000.0 * score(150.0), 1000.0),
        ];
        let ratings = Ratings::fit(3, &meetings, 0.0);
        assert!((ratings.elo[0] - ratings.elo[1] - 100.0).abs() < 1e-6);
        assert!((ratings.elo[1] - ratings.elo[2] - 50.0).abs() < 1e-6);
        assert!((ratings.elo.iter().sum::<f64>()).abs() < 1e-9);
    }

    #[test]
    fn the_prior_keeps_perfect_scores_finite_and_shrinks_a_little() {
        let ratings = Ratings::fit(2, &[meeting(0, 1, 10.0, 10.0)], DEFAULT_PRIOR_DRAWS);
        let difference = ratings.elo[0] - ratings.elo[1];
        assert!(difference.is_finite() && difference > 300.0 && difference < 1000.0);
        let plain = Ratings::fit(2, &[meeting(0, 1, 76.0, 100.0)], 0.0);
        let prior = Ratings::fit(2, &[meeting(0, 1, 76.0, 100.0)], DEFAULT_PRIOR_DRAWS);
        let (plain, prior) = (plain.elo[0] - plain.elo[1], prior.elo[0] - prior.elo[1]);
        assert!(prior < plain && prior > plain - 15.0, "{prior} vs {plain}");
    }

    #[test]
    fn a_player_who_never_played_is_average_with_a_wide_interval() {
        let ratings = Ratings::fit(3, &[meeting(0, 1, 6.0, 10.0)], DEFAULT_PRIOR_DRAWS);
        assert!(ratings.elo[2].abs() < 1e-6, "{:?}", ratings.elo);
        assert!(ratings.error95(2) > ratings.error95(0));
    }

    /// The straightforward computation: Newton steps through the full inverse of the
    /// information, and the whole covariance matrix centred (as the ratings were first
    /// computed). Returns the Elo ratings and the centred covariance in Elo².
    fn plain_fit(
        players: usize,
        meetings: &[Meeting],
        prior_draws: f64,
    ) -> (Vec<f64>, Vec<Vec<f64>>) {
        let full = |m: &Matrix| -> Vec<Vec<f64>> {
            (0..players)
                .map(|i| (0..players).map(|j| m[(i.max(j), i.min(j))]).collect())
                .collect()
        };
        let mut gamma = vec![0.0; players];
        for _ in 0..100 {
            let (gradient, information) = derivatives(&gamma, meetings, prior_draws);
            let inverse = plain_inverse(&full(&information));
            let step: Vec<f64> = inverse
                .iter()
                .map(|row| row.iter().zip(&gradient).map(|(c, g)| c * g).sum())
                .collect();
            let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            let scale = if largest > 2.0 { 2.0 / largest } else { 1.0 };
            for (g, s) in gamma.iter_mut().zip(&step) {
                *g += s * scale;
            }
            if largest * scale < 1e-10 {
                break;
            }
        }
        let n = players as f64;
        let mean = gamma.iter().sum::<f64>() / n;
        let (_, information) = derivatives(&gamma, meetings, prior_draws);
        let inverse = plain_inverse(&full(&information));
        let row_means: Vec<f64> = inverse.iter().map(|r| r.iter().sum::<f64>() / n).collect();
        let total_mean = row_means.iter().sum::<f64>() / n;
        let covariance = (0..players)
            .map(|i| {
                (0..players)
                    .map(|j| {
                        let centred = if prior_draws > 0.0 {
                            inverse[i][j] + total_mean - row_means[i] - row_means[j]
                        } else {
                            inverse[i][j] - 1.0 / n
                        };
                        centred * ELO_SQUARED
                    })
                    .collect()
            })
            .collect();
        let elo = gamma.iter().map(|g| (g - mean) / NATURAL_PER_ELO).collect();
        (elo, covariance)
    }

    /// A random field (players of spread strength, some pairs never met, across more than one
    /// block of the factors) rated as the straightforward computation rates it, to 1e-9.
    #[test]
    fn ratings_equal_the_straightforward_computation() {
        let mut rng = referee_rules::seeded::SeededRng::seed_from_u64(15);
        let players = 75;
        let strength: Vec<f64> = (0..players).map(|_| rng.gen_range(-2.0..2.0)).collect();
        let mut meetings = Vec::new();
        for a in 0..players {
            for b in a + 1..players {
                if rng.gen_bool(0.3) {
                    continue;
                }
                let games = rng.gen_range(1..12);
                let expected = logistic(strength[a] - strength[b]);
                let points: f64 = (0..games)
                    .map(|_| match rng.gen_range(0.0..1.0) {
                        x if x < 0.1 => 0.5,
                        x if x < 0.1 + 0.9 * expected => 1.0,
                        _ => 0.0,
                    })
                    .sum();
                meetings.push(meeting(a as u32, b as u32, points, games as f64));
            }
        }
        for prior_draws in [DEFAULT_PRIOR_DRAWS, 0.0] {
            let ratings = Ratings::fit(players, &meetings, prior_draws);
            let (elo, covariance) = plain_fit(players, &meetings, prior_draws);
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()));
            for i in 0..players {
                assert!(
                    close(ratings.elo[i], elo[i]),
                    "elo {i}: {} {}",
                    ratings.elo[i],
                    elo[i]
                );
                let error95 = 1.959_963_985 * covariance[i][i].sqrt();
                assert!(close(ratings.error95(i), error95), "error95 {i}");
                let j = (i + 1) % players;
                let variance = covariance[i][i] + covariance[j][j] - 2.0 * covariance[i][j];
                let superiority = normal_cdf((elo[i] - elo[j]) / variance.sqrt());
                assert!(
                    close(ratings.superiority(i, j), superiority),
                    "superiority {i}"
                );
            }
        }
    }

    #[test]
    fn the_normal_distribution_function() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_985) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_254).abs() < 1e-6);
        assert!((normal_cdf(3.0) - 0.998_650_102).abs() < 1e-6);
    }

    /// 76% of the points is 400 log10(0.76 / 0.24) = 200.2 Elo; the interval follows the
    /// sample's spread, and LOS the normal approximation of the mean score.
    /// 21 game pairs won and 2 drawn (44 of 46 points): the interval of the mean score reaches
    /// past 100%, so the Elo interval has a lower end and no upper one. It used to be printed
    /// as +537 +/- 1010, half the distance to an Elo made by clamping the score at 1 - 1e-6,
    /// which put its lower end at -473 while LOS said 100%.
    #[test]
    fn an_interval_reaching_a_perfect_score_has_no_upper_end() {
        let estimate = estimate_elo(&[(1.0, 21), (0.5, 2)]).unwrap();
        assert!((estimate.elo - 537.0).abs() < 0.1, "{estimate:?}");
        assert_eq!(estimate.high, None);
        let low = estimate.low.unwrap();
        assert!(low > 370.0 && low < 390.0, "{estimate:?}");
        assert_eq!(estimate.interval(1), format!("{low:+.1} to +inf"));
        assert!(estimate.los > 0.999);
        // And the other way round: no lower end.
        let estimate = estimate_elo(&[(0.0, 21), (0.5, 2)]).unwrap();
        assert_eq!(
            (estimate.low, estimate.high.map(f64::round)),
            (None, Some(-low.round()))
        );
        assert!(
            estimate.interval(0).starts_with("-inf to -"),
            "{estimate:?}"
        );
    }

    #[test]
    fn elo_of_a_sample_of_scores() {
        // 100 games: 70 won, 12 drawn, 18 lost: 76% of the points.
        let games = [(1.0, 70), (0.5, 12), (0.0, 18)];
        let estimate = estimate_elo(&games).unwrap();
        assert!((estimate.elo - 200.24).abs() < 0.01, "{estimate:?}");
        let variance: f64 =
            (70.0 * 0.24f64.powi(2) + 12.0 * 0.26f64.powi(2) + 18.0 * 0.76f64.powi(2)) / 100.0;
        let standard_error = (variance / 100.0).sqrt();
        let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
        let low = elo(0.76 - 1.959_963_985 * standard_error);
        let high = elo(0.76 + 1.959_963_985 * standard_error);
        assert!((estimate.low.unwrap() - low).abs() < 1e-9, "{estimate:?}");
        assert!((estimate.high.unwrap() - high).abs() < 1e-9, "{estimate:?}");
        assert_eq!(estimate.interval(1), format!("{low:+.1} to {high:+.1}"));
        assert!((estimate.los - normal_cdf(0.26 / standard_error)).abs() < 1e-12);
        // All draws: even, and certain of it; a perfect score or one game: no estimate.
        let even = estimate_elo(&[(0.5, 10)]).unwrap();
        assert_eq!(
            (even.elo, even.low, even.high, even.los),
            (0.0, Some(0.0), Some(0.0), 0.5)
        );
        assert!(even.is_exact() && !estimate.is_exact());
        assert_eq!(format!("{:+.0}", even.elo), "+0");
        assert_eq!(estimate_elo(&[(1.0, 4)]), None);
        assert_eq!(estimate_elo(&[(0.0, 3), (1.0, 0)]), None);
        assert_eq!(estimate_elo(&[(1.0, 1)]), None);
        let behind = estimate_elo(&[(0.0, 1), (0.5, 3)]).unwrap();
        assert!(behind.elo < 0.0 && behind.los < 0.5, "{behind:?}");
        assert_eq!(estimate_elo(&[(0.75, 3)]).unwrap().los, 1.0);
    }
}
