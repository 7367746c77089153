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

use serde::Serialize;

/// Results between two players, as the fit needs them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meeting {
    pub a: usize,
    pub b: usize,
    /// Points `a` scored against `b` (a draw is half a point).
    pub points_a: f64,
    pub games: f64,
}

/// The prior BayesElo uses by default: two virtual draws per player.
pub const DEFAULT_PRIOR_DRAWS: f64 = 2.0;

/// Fitted ratings, in Elo relative to the average player.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    pub elo: Vec<f64>,
    /// Covariance of the (centred) ratings, in Elo².
    covariance: Vec<Vec<f64>>,
}

/// One Elo point in the fit's natural unit (the logit of the expected score).
const NATURAL_PER_ELO: f64 = std::f64::consts::LN_10 / 400.0;

impl Ratings {
    /// Fits `players` ratings to the meetings. With `prior_draws` 0 this is the plain maximum
    /// likelihood fit, which exists only if every player has both scored and conceded points in
    /// a connected field.
    pub fn fit(players: usize, meetings: &[Meeting], prior_draws: f64) -> Ratings {
        if players == 0 {
            return Ratings {
                elo: Vec::new(),
                covariance: Vec::new(),
            };
        }
        let mut gamma = vec![0.0; players];
        for _ in 0..100 {
            let (gradient, mut information) = derivatives(&gamma, meetings, prior_draws);
            regularize(&mut information, prior_draws);
            // Only a field the data cannot rate (no prior, disconnected) has no solution.
            let Some(step) = solve(&information, &gradient) else {
                break;
            };
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
        let mut covariance = centred_covariance(information, prior_draws);
        let elo_squared = 1.0 / (NATURAL_PER_ELO * NATURAL_PER_ELO);
        for value in covariance.iter_mut().flatten() {
            *value *= elo_squared;
        }
        Ratings {
            elo: gamma.iter().map(|g| (g - mean) / NATURAL_PER_ELO).collect(),
            covariance,
        }
    }

    /// Half the width of the 95% interval of a player's rating (NaN if the field cannot be
    /// rated).
    pub fn error95(&self, player: usize) -> f64 {
        let variance = self.covariance[player][player];
        // Rounding may leave a variance a hair below zero; NaN stays NaN.
        1.959_963_985 * if variance < 0.0 { 0.0 } else { variance }.sqrt()
    }

    /// The probability that `a` is stronger than `b` (likelihood of superiority).
    pub fn superiority(&self, a: usize, b: usize) -> f64 {
        let variance = self.covariance[a][a] + self.covariance[b][b] - 2.0 * self.covariance[a][b];
        let difference = self.elo[a] - self.elo[b];
        if variance <= 0.0 {
            return if difference > 0.0 { 1.0 } else { 0.5 };
        }
        normal_cdf(difference / variance.sqrt())
    }
}

/// The gradient of the log-likelihood (plus prior) in natural units, and the Fisher
/// information (minus its Hessian).
fn derivatives(gamma: &[f64], meetings: &[Meeting], prior_draws: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = gamma.len();
    let mut gradient = vec![0.0; n];
    let mut information = vec![vec![0.0; n]; n];
    for m in meetings {
        let expected = logistic(gamma[m.a] - gamma[m.b]);
        let surplus = m.points_a - m.games * expected;
        gradient[m.a] += surplus;
        gradient[m.b] -= surplus;
        let weight = m.games * expected * (1.0 - expected);
        information[m.a][m.a] += weight;
        information[m.b][m.b] += weight;
        information[m.a][m.b] -= weight;
        information[m.b][m.a] -= weight;
    }
    for i in 0..n {
        // Virtual draws against a player rated 0: half of them won.
        let expected = logistic(gamma[i]);
        gradient[i] += prior_draws * (0.5 - expected);
        information[i][i] += prior_draws * expected * (1.0 - expected);
    }
    (gradient, information)
}

/// Without a prior the information matrix is singular along "every rating up by the same
/// amount"; adding J/n (J all ones) makes it invertible without changing steps that keep the
/// average, which is all a gradient summing to zero asks for.
fn regularize(information: &mut [Vec<f64>], prior_draws: f64) {
    if prior_draws > 0.0 {
        return;
    }
    let shift = 1.0 / information.len() as f64;
    for value in information.iter_mut().flatten() {
        *value += shift;
    }
}

/// The covariance of the ratings measured from their average: (I - J/n) C (I - J/n) with C the
/// inverse information, or, without a prior, the pseudo-inverse (F + J/n)⁻¹ - J/n.
fn centred_covariance(mut information: Vec<Vec<f64>>, prior_draws: f64) -> Vec<Vec<f64>> {
    let n = information.len();
    regularize(&mut information, prior_draws);
    let Some(mut inverse) = invert(&information) else {
        return vec![vec![f64::NAN; n]; n];
    };
    drop(information);
    let nf = n as f64;
    if prior_draws <= 0.0 {
        for value in inverse.iter_mut().flatten() {
            *value -= 1.0 / nf;
        }
        return inverse;
    }
    let row_means: Vec<f64> = inverse.iter().map(|r| r.iter().sum::<f64>() / nf).collect();
    let total_mean = row_means.iter().sum::<f64>() / nf;
    let mut covariance = inverse;
    for (i, row) in covariance.iter_mut().enumerate() {
        for (j, value) in row.iter_mut().enumerate() {
            *value += total_mean - row_means[i] - row_means[j];
        }
    }
    covariance
}

/// The Elo difference one player's results against another show, as fastchess and cutechess
/// report it: the logistic Elo of the mean score, half the width of its 95% interval, and the
/// likelihood of superiority (the probability that the player is the stronger).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub error95: f64,
    pub los: f64,
}

/// The [`EloEstimate`] of a sample of independent scores, each between 0 and 1, given as
/// `(score, how many times it occurred)`: per game (0, ½, 1) or per game pair (0, ¼, ..., 1,
/// the pentanomial model). The interval comes from the sample's own variance, so draws, and
/// pairs that cancel a colour's advantage, narrow it. None from fewer than two samples, or for
/// a perfect or nil score, whose Elo is infinite.
pub fn estimate_elo(outcomes: &[(f64, u64)]) -> Option<EloEstimate> {
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
    let elo = |score: f64| {
        let score = score.clamp(1e-6, 1.0 - 1e-6);
        // Adding 0 turns an even score's -0 into 0, which prints as "+0", not "-0".
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    };
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
        error95: (elo(mean + error) - elo(mean - error)) / 2.0,
        los,
    })
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The standard normal distribution function, from the complementary error function
/// (W. J. Cody's rational approximation as in Numerical Recipes' erfc, error below 1.2e-7).
pub fn normal_cdf(x: f64) -> f64 {
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

/// The lower triangular L with L Lᵀ = m, for a symmetric positive definite m.
fn cholesky(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = m[i][i] - dot;
                if d <= 0.0 || !d.is_finite() {
                    return None;
                }
                l[i][i] = d.sqrt();
            } else {
                l[i][j] = (m[i][j] - dot) / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves L Lᵀ x = b.
fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = l.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        let dot: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - dot) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let dot: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - dot) / l[i][i];
    }
    x
}

fn solve(m: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    Some(cholesky_solve(&cholesky(m)?, b))
}

/// The inverse of a symmetric positive definite matrix (itself symmetric, so its columns are
/// its rows).
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let l = cholesky(m)?;
    let n = m.len();
    let mut unit = vec![0.0; n];
    Some(
        (0..n)
            .map(|j| {
                unit[j] = 1.0;
                let column = cholesky_solve(&l, &unit);
                unit[j] = 0.0;
                column
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meeting(a: usize, b: usize, points_a: f64, games: f64) -> Meeting {
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

    #[test]
    fn the_normal_distribution_function() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_985) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_254).abs() < 1e-6);
        assert!((normal_cdf(3.0) - 0.998_650_102).abs() < 1e-6);
    }

    /// 76% of the points is 400 log10(0.76 / 0.24) = 200.2 Elo; the interval follows the
    /// sample's spread, and LOS the normal approximation of the mean score.
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
        let half_width = (elo(0.76 + 1.959_963_985 * standard_error)
            - elo(0.76 - 1.959_963_985 * standard_error))
            / 2.0;
        assert!((estimate.error95 - half_width).abs() < 1e-9);
        assert!((estimate.los - normal_cdf(0.26 / standard_error)).abs() < 1e-12);
        // All draws: even, and certain of it; a perfect score or one game: no estimate.
        let even = estimate_elo(&[(0.5, 10)]).unwrap();
        assert_eq!((even.elo, even.error95, even.los), (0.0, 0.0, 0.5));
        assert_eq!(format!("{:+.0}", even.elo), "+0");
        assert_eq!(estimate_elo(&[(1.0, 4)]), None);
        assert_eq!(estimate_elo(&[(0.0, 3), (1.0, 0)]), None);
        assert_eq!(estimate_elo(&[(1.0, 1)]), None);
        let behind = estimate_elo(&[(0.0, 1), (0.5, 3)]).unwrap();
        assert!(behind.elo < 0.0 && behind.los < 0.5, "{behind:?}");
        assert_eq!(estimate_elo(&[(0.75, 3)]).unwrap().los, 1.0);
    }

    #[test]
    fn linear_algebra() {
        let m = vec![
            vec![4.0, 2.0, 0.6],
            vec![2.0, 5.0, 1.0],
            vec![0.6, 1.0, 3.0],
        ];
        let inverse = invert(&m).unwrap();
        for (i, row) in m.iter().enumerate() {
            for j in 0..3 {
                let product: f64 = row.iter().zip(&inverse).map(|(a, r)| a * r[j]).sum();
                assert!((product - f64::from(u8::from(i == j))).abs() < 1e-12);
            }
        }
        assert!(cholesky(&[vec![1.0, 2.0], vec![2.0, 1.0]]).is_none());
    }
}
