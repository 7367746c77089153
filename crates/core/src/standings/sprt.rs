//! The sequential probability ratio test bot authors use to decide whether version 2 beats
//! version 1: games are played in pairs with the colours swapped, and after each pair the
//! generalized log-likelihood ratio (GSPRT) of "elo = elo1" against "elo = elo0" decides, or
//! asks for more.
//!
//! The model is fishtest's pentanomial one: a pair scores 0, ½, 1, 1½ or 2 points, and the five
//! frequencies are the sample (pairs, not games, are independent: a colour advantage cancels
//! within a pair). The LLR is exact: the maximum-likelihood pentanomial distributions whose
//! expected score is s0 and s1 are found by Newton's method (M. Van den Bergh, "Computing the
//! LLR", the method of fishtest and fastchess). `elo0` and `elo1` are logistic Elo, the usual
//! meaning of "5 Elo": an expected score of 1 / (1 + 10^(-elo/400)) per game.

use super::ratings::{estimate_elo, EloEstimate};
use std::fmt;
use std::str::FromStr;

/// What to test: H0 elo = elo0 against H1 elo = elo1, with error rates alpha (accepting H1
/// when H0 holds) and beta (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    /// What H0 takes the gain of the player under test to be, in logistic Elo.
    pub elo0: f64,
    /// What H1 takes it to be; more than `elo0`.
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds (0.05 unless given).
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds (0.05 unless given).
    pub beta: f64,
}

/// An `--sprt` specification that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad SPRT '{spec}': {reason} (expected elo0=N,elo1=N with optional alpha=P,beta=P, e.g. 'elo0=0,elo1=5' or 'elo0=0,elo1=5,alpha=0.05,beta=0.05'; Elo is logistic)")]
pub struct SprtSpecError {
    spec: String,
    reason: String,
}

impl FromStr for SprtSpec {
    type Err = SprtSpecError;

    fn from_str(spec: &str) -> Result<SprtSpec, SprtSpecError> {
        let error = |reason: String| SprtSpecError {
            spec: spec.to_string(),
            reason,
        };
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta) = (0.05, 0.05);
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| error(format!("'{part}' is not key=value")))?;
            let number: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|n: &f64| n.is_finite())
                .ok_or_else(|| error(format!("'{value}' is not a number")))?;
            match key.trim() {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                other => return Err(error(format!("unknown key '{other}'"))),
            }
        }
        let elo0 = elo0.ok_or_else(|| error("elo0 is missing".into()))?;
        let elo1 = elo1.ok_or_else(|| error("elo1 is missing".into()))?;
        if elo0 >= elo1 {
            return Err(error("elo0 must be less than elo1".into()));
        }
        if elo0.abs() >= 1000.0 || elo1.abs() >= 1000.0 {
            return Err(error(
                "elo0 and elo1 must lie between -1000 and 1000".into(),
            ));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(error(format!("{name} must lie strictly between 0 and 0.5")));
            }
        }
        Ok(SprtSpec {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for SprtSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// How many game pairs scored 0, ½, 1, 1½ and 2 points (for the player under test).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair from the points the player scored in its two games (0, 0.5 or 1 each).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let cell = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[cell] += 1;
    }

    /// Pairs counted in all.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

impl Pentanomial {
    /// The logistic Elo the pairs show, with its 95% interval and LOS (see
    /// [`estimate_elo`]): none before two pairs, or for a perfect or nil score.
    pub fn elo_estimate(&self) -> Option<EloEstimate> {
        let outcomes: [(f64, u64); 5] = std::array::from_fn(|i| (i as f64 / 4.0, self.0[i]));
        estimate_elo(&outcomes)
    }
}

/// The games of the player under test, paired as they come: the first and second game of each
/// pair (the same opening, the sides swapped) make one pentanomial count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairing {
    /// The pairs completed so far.
    pub pairs: Pentanomial,
    /// Points of the first game of the pair under way.
    pending: Option<f64>,
}

impl Pairing {
    /// Adds a game by the points the player scored in it; true when it completed a pair.
    pub fn add_game(&mut self, points: f64) -> bool {
        match self.pending.take() {
            None => {
                self.pending = Some(points);
                false
            }
            Some(first) => {
                self.pairs.add_pair(first, points);
                true
            }
        }
    }

    /// Whether the last game waits for its partner (it counts in no pair).
    pub fn has_unpaired_game(&self) -> bool {
        self.pending.is_some()
    }
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// LLR at or below the lower bound: not better by elo1 (H0 accepted).
    H0,
    /// LLR at or above the upper bound: better by elo1 rather than elo0 (H1 accepted).
    H1,
    /// The LLR lies between the bounds: play on.
    Continue,
}

impl SprtSpec {
    /// The LLR bounds (lower, upper): ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of H1 against H0 for the pairs played so far.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let total = pairs.pairs();
        if total == 0 {
            return 0.0;
        }
        let counts = regularized(pairs);
        let n: f64 = counts.iter().sum();
        let sample: [(f64, f64); 5] = std::array::from_fn(|i| (i as f64 / 4.0, counts[i] / n));
        let s0 = logistic_score(self.elo0);
        let s1 = logistic_score(self.elo1);
        n * (log_likelihood(&sample, &constrained_mle(&sample, s1))
            - log_likelihood(&sample, &constrained_mle(&sample, s0)))
    }

    /// What an LLR of `llr` says against the bounds (see [`SprtSpec::bounds`]).
    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

/// The expected score per game of a player `elo` logistic Elo stronger.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The counts, with a tiny prior spread over every cell when one is empty, so that the
/// maximum-likelihood distributions exist (as fishtest does).
fn regularized(pairs: &Pentanomial) -> [f64; 5] {
    const EPSILON: f64 = 1e-3;
    let counts = pairs.0.map(|c| c as f64);
    let n: f64 = counts.iter().sum();
    if counts.contains(&0.0) {
        counts.map(|c| c * (1.0 - EPSILON / n) + EPSILON / 5.0)
    } else {
        counts
    }
}

/// The distribution on the sample's values closest to it (maximum likelihood) among those with
/// expected value `s`: p_i / (1 + x (a_i - s)) where x solves Σ p_i (a_i - s) / (1 + x (a_i - s))
/// = 0. The solution lies in (-1 / (max - s), 1 / (s - min)); Newton steps that leave it are
/// pulled back inside.
fn constrained_mle(sample: &[(f64, f64); 5], s: f64) -> [f64; 5] {
    let lowest = sample[0].0;
    let highest = sample[4].0;
    let (low, high) = (-1.0 / (highest - s), 1.0 / (s - lowest));
    let f = |x: f64| -> f64 {
        sample
            .iter()
            .map(|&(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    let slope = |x: f64| -> f64 {
        sample
            .iter()
            .map(|&(a, p)| -p * (a - s).powi(2) / (1.0 + x * (a - s)).powi(2))
            .sum()
    };
    let mut x = 0.0;
    for _ in 0..200 {
        let fx = f(x);
        if fx == 0.0 {
            break;
        }
        let previous = x;
        x -= fx / slope(x);
        if x <= low {
            x = (10.0 * low + previous) / 11.0;
        } else if x >= high {
            x = (10.0 * high + previous) / 11.0;
        }
        if (x - previous).abs() < 1e-12 {
            break;
        }
    }
    std::array::from_fn(|i| {
        let (a, p) = sample[i];
        p / (1.0 + x * (a - s))
    })
}

/// Σ p_i ln q_i: the log-likelihood per pair of the sample `p` under the distribution `q`.
fn log_likelihood(sample: &[(f64, f64); 5], model: &[f64; 5]) -> f64 {
    sample
        .iter()
        .zip(model)
        .map(|(&(_, p), &q)| p * q.ln())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(elo0: f64, elo1: f64) -> SprtSpec {
        SprtSpec {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn bounds_follow_wald() {
        let (lower, upper) = spec(0.0, 5.0).bounds();
        assert!((lower - (-2.944_438_979)).abs() < 1e-9, "{lower}");
        assert!((upper - 2.944_438_979).abs() < 1e-9, "{upper}");
        let uneven = SprtSpec {
            alpha: 0.05,
            beta: 0.1,
            ..spec(0.0, 5.0)
        };
        let (lower, upper) = uneven.bounds();
        assert!((lower - (0.1f64 / 0.95).ln()).abs() < 1e-12);
        assert!((upper - (0.9f64 / 0.05).ln()).abs() < 1e-12);
    }

    /// The logistic pentanomial cases of fastchess's test suite (tests/sprt_test.cpp there),
    /// which prints the LLR to two decimals; the counts are pairs scoring 0, ½, 1, 1½, 2.
    #[test]
    fn llr_matches_fastchess_published_values() {
        let cases = [
            ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.07),
            ([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0, -4.98),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = spec(elo0, elo1).llr(&Pentanomial(counts));
            assert!((llr - expected).abs() < 0.01, "{counts:?}: {llr}");
        }
    }

    /// Close to H0 and H1 the exact LLR agrees with the variance approximation
    /// N/2 ln(σ0² / σ1²) (Van den Bergh), computed here independently.
    #[test]
    fn llr_agrees_with_the_variance_approximation_on_a_large_sample() {
        let counts = [1100u64, 5000, 9800, 5400, 1350];
        let n: f64 = counts.iter().sum::<u64>() as f64;
        let variance_around = |s: f64| -> f64 {
            counts
                .iter()
                .enumerate()
                .map(|(i, &c)| c as f64 / n * (i as f64 / 4.0 - s).powi(2))
                .sum()
        };
        let approximation = n / 2.0
            * (variance_around(logistic_score(0.0)) / variance_around(logistic_score(5.0))).ln();
        let exact = spec(0.0, 5.0).llr(&Pentanomial(counts));
        assert!(
            (exact - approximation).abs() < 0.02,
            "{exact} {approximation}"
        );
        assert!(exact > 0.5, "this sample favours elo1: {exact}");
    }

    #[test]
    fn a_winner_of_every_pair_is_accepted_and_a_loser_rejected() {
        // Even total domination is evidence for 5 Elo over 0 only at about ln(s1 / s0) per
        // pair, so the test needs about 2.94 / 0.0144 = 204 pairs.
        let test = spec(0.0, 5.0);
        let mut pairs = Pentanomial::default();
        let mut decided_at = None;
        for pair in 1..=1000 {
            pairs.add_pair(1.0, 1.0);
            if test.decide(test.llr(&pairs)) != Decision::Continue {
                decided_at = Some(pair);
                break;
            }
        }
        assert_eq!(test.decide(test.llr(&pairs)), Decision::H1);
        assert!((190..220).contains(&decided_at.unwrap()), "{decided_at:?}");

        let mut pairs = Pentanomial::default();
        for _ in 0..300 {
            pairs.add_pair(0.0, 0.5);
        }
        assert_eq!(test.decide(test.llr(&pairs)), Decision::H0);
    }

    #[test]
    fn even_results_stay_undecided_early_and_the_llr_is_zero_without_pairs() {
        let test = spec(0.0, 5.0);
        assert_eq!(test.llr(&Pentanomial::default()), 0.0);
        let pairs = Pentanomial([2, 5, 10, 5, 2]);
        let llr = test.llr(&pairs);
        assert!(llr < 0.0 && llr > -1.0, "{llr}");
        assert_eq!(test.decide(llr), Decision::Continue);
    }

    #[test]
    fn games_are_paired_as_they_come() {
        let mut pairing = Pairing::default();
        assert!(!pairing.add_game(1.0));
        assert!(pairing.has_unpaired_game());
        assert!(pairing.add_game(0.5));
        assert_eq!(pairing.pairs, Pentanomial([0, 0, 0, 1, 0]));
        assert!(!pairing.has_unpaired_game());
        assert!(!pairing.add_game(0.0));
    }

    #[test]
    fn elo_estimate_from_pairs() {
        // 76% of the points: 400 log10(0.76 / 0.24) = 200.2 Elo.
        let pairs = Pentanomial([0, 0, 48, 0, 52]);
        let estimate = pairs.elo_estimate().unwrap();
        assert!((estimate.elo - 200.24).abs() < 0.01, "{estimate:?}");
        let (low, high) = (estimate.low.unwrap(), estimate.high.unwrap());
        assert!(
            low < estimate.elo && high > estimate.elo && high - low > 40.0 && high - low < 120.0
        );
        assert!(estimate.los > 0.999);
        assert_eq!(Pentanomial([0, 0, 1, 0, 0]).elo_estimate(), None);
        assert_eq!(Pentanomial([0, 0, 0, 0, 9]).elo_estimate(), None);
    }

    #[test]
    fn pairs_land_in_their_cells() {
        let mut pairs = Pentanomial::default();
        pairs.add_pair(1.0, 1.0);
        pairs.add_pair(1.0, 0.0);
        pairs.add_pair(0.5, 0.5);
        pairs.add_pair(0.5, 0.0);
        pairs.add_pair(1.0, 0.5);
        assert_eq!(pairs, Pentanomial([0, 1, 2, 1, 1]));
        assert_eq!(pairs.to_string(), "[0, 1, 2, 1, 1]");
    }

    #[test]
    fn specs_parse_with_defaults_and_refuse_nonsense() {
        let spec: SprtSpec = "elo0=0,elo1=5".parse().unwrap();
        assert_eq!(
            spec,
            SprtSpec {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05
            }
        );
        let spec: SprtSpec = "elo0=-1.5, elo1=2.5, alpha=0.01, beta=0.1".parse().unwrap();
        assert_eq!((spec.elo0, spec.alpha, spec.beta), (-1.5, 0.01, 0.1));
        for (bad, says) in [
            ("elo1=5", "elo0 is missing"),
            ("elo0=5,elo1=0", "less than"),
            ("elo0=0,elo1=5,alpha=0", "alpha must"),
            ("elo0=0,elo1=x", "'x' is not a number"),
            ("elo0=0,elo1=5,gamma=1", "unknown key 'gamma'"),
            ("elo0=0,elo1=nan", "not a number"),
        ] {
            let error = bad.parse::<SprtSpec>().unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }
}
