//! The sequential probability ratio test of a match between two engines (`--sprt`).
//!
//! The model: the games are grouped into blocks, one block per opening, holding every seat
//! assignment of that opening (a game pair with colours swapped for two players; 6 games for two
//! engines in three seats, 14 in four). A block's sample is the first engine's head-to-head score
//! over the block: the share of comparisons of its seats' places with the second engine's seats
//! that it won (ties ½). For two players that is the pair score of a pentanomial model. The
//! samples' mean and variance give the generalised SPRT's log-likelihood ratio (the normal
//! approximation fishtest uses) for H0: Elo = elo0 against H1: Elo = elo1, Elo being the logistic
//! Elo of the expected score. Only complete blocks count. The variance is floored at
//! [`MIN_VARIANCE`] so that a few identical samples cannot decide alone.

use super::MatchError;
use super::stats::elo_from_score;

/// The least variance of a block's score the ratio is computed with.
pub const MIN_VARIANCE: f64 = 0.01;

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1 (Elo ≥ elo1) accepted.
    H1,
    /// H0 (Elo ≤ elo0) accepted.
    H0,
}

/// Expected score of an Elo difference (logistic).
fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// `elo0=<e0>,elo1=<e1>,alpha=<a>,beta=<b>` (alpha and beta default to 0.05).
    pub fn parse(spec: &str) -> Result<Self, MatchError> {
        let mut t = Sprt { elo0: f64::NAN, elo1: f64::NAN, alpha: 0.05, beta: 0.05 };
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| format!("sprt: '{part}' is not key=value"))?;
            let v = value.trim().parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| format!("sprt: '{key}' needs a number"))?;
            match key.trim() {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                other => return Err(format!("sprt: unknown parameter '{other}' (elo0, elo1, alpha, beta)").into()),
            }
        }
        if t.elo0.is_nan() || t.elo1.is_nan() {
            return Err("sprt needs elo0=<elo> and elo1=<elo>".into());
        }
        if t.elo1 <= t.elo0 {
            return Err("sprt: elo1 must be greater than elo0".into());
        }
        if !(0.0 < t.alpha && t.alpha < 0.5 && 0.0 < t.beta && t.beta < 0.5) {
            return Err("sprt: alpha and beta must lie between 0 and 0.5".into());
        }
        Ok(t)
    }

    /// The log-likelihood ratio's bounds: accept H0 at or below the first, H1 at or above the
    /// second.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the block scores (0 without samples).
    pub fn llr(&self, samples: &[f64]) -> f64 {
        let (sum, squares) = samples.iter().fold((0.0, 0.0), |(s, q), x| (s + x, q + x * x));
        self.llr_of_sums(samples.len(), sum, squares)
    }

    /// The ratio of `n` samples from their sum and their sum of squares.
    fn llr_of_sums(&self, n: usize, sum: f64, squares: f64) -> f64 {
        if n == 0 {
            return 0.0;
        }
        let n = n as f64;
        let mean = sum / n;
        let variance = (squares / n - mean * mean).max(MIN_VARIANCE);
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The decision with the number of samples and the ratio at which it came: the first of the
    /// samples' prefixes (in block order) whose ratio reaches a bound. The test is sequential, so
    /// a decision stands once reached: games that were still being played when it came (with
    /// several at a time) complete later blocks and cannot undo it.
    fn first_crossing(&self, samples: &[f64]) -> Option<(Decision, usize, f64)> {
        let (lower, upper) = self.bounds();
        let (mut sum, mut squares) = (0.0, 0.0);
        samples.iter().enumerate().find_map(|(i, x)| {
            sum += x;
            squares += x * x;
            let llr = self.llr_of_sums(i + 1, sum, squares);
            if llr >= upper {
                Some((Decision::H1, i + 1, llr))
            } else if llr <= lower {
                Some((Decision::H0, i + 1, llr))
            } else {
                None
            }
        })
    }

    pub fn decision(&self, samples: &[f64]) -> Option<Decision> {
        self.first_crossing(samples).map(|(d, _, _)| d)
    }

    /// One line on where the test stands: once decided, the ratio and the blocks at the decision
    /// (and how many blocks there are in all, where more came after it).
    pub fn report(&self, samples: &[f64]) -> String {
        let (lower, upper) = self.bounds();
        let (state, llr, blocks) = match self.first_crossing(samples) {
            Some((d, n, llr)) => {
                let name = if d == Decision::H1 { "H1" } else { "H0" };
                let more = if n < samples.len() { format!(" ({} in all)", samples.len()) } else { String::new() };
                (format!("{name} accepted"), llr, format!("{n} blocks{more}"))
            }
            None => ("undecided".to_string(), self.llr(samples), format!("{} blocks", samples.len())),
        };
        let mean = if samples.is_empty() { 0.5 } else { samples.iter().sum::<f64>() / samples.len() as f64 };
        format!(
            "sprt elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lower:.2}, {upper:.2}) {state} after {blocks}, Elo {:+.1}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            elo_from_score(mean)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters() {
        let t = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.1").expect("valid");
        assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (0.0, 5.0, 0.05, 0.1));
        let (lower, upper) = t.bounds();
        assert!((lower - (0.1f64 / 0.95).ln()).abs() < 1e-12 && (upper - 18f64.ln()).abs() < 1e-12);
        assert_eq!(Sprt::parse("elo0=-5,elo1=0").expect("valid").alpha, 0.05);
        for bad in ["elo0=5,elo1=0", "elo1=5", "elo0=0,elo1=5,alpha=0.7", "elo0=0,elo1=5,gamma=1", "elo0=x,elo1=1"] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn likelihood_ratio() {
        let t = Sprt::parse("elo0=0,elo1=10").expect("valid");
        assert_eq!(t.llr(&[]), 0.0);
        // Pair scores 1, 0.5, 0.5, 0: mean 0.5, variance 0.125.
        let s1 = score_of_elo(10.0);
        let expected = 4.0 * (s1 - 0.5) * (1.0 - 0.5 - s1) / (2.0 * 0.125);
        assert!((t.llr(&[1.0, 0.5, 0.5, 0.0]) - expected).abs() < 1e-12);
        // A lopsided run decides for H0 after a handful of blocks, not after one.
        let losses = [0.0; 12];
        assert_eq!(t.decision(&losses[..1]), None);
        assert_eq!(t.decision(&losses), Some(Decision::H0));
        assert_eq!(t.decision(&[1.0; 12]), Some(Decision::H1));
        assert_eq!(t.decision(&losses[..4]), None);
        assert!(t.report(&losses).contains("H0 accepted after 5 blocks (12 in all)"), "{}", t.report(&losses));
        // Once a bound is reached the decision stands: the blocks of games that were still being
        // played then do not undo it.
        let mut late = vec![0.0; 5];
        late.extend([1.0; 4]);
        assert!(t.llr(&late) > t.bounds().0);
        assert_eq!(t.decision(&late), Some(Decision::H0));
        assert!(t.report(&late).contains("H0 accepted after 5 blocks (9 in all)"), "{}", t.report(&late));
    }
}
