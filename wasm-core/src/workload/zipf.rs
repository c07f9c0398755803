//! A Zipf sampler over ranks 0..n with exponent s: P(rank k) ~ 1/(k+1)^s.
//!
//! The cumulative table is built once with `libm::pow` (the same software
//! implementation natively and in wasm, so tables are bit-identical) and
//! sampled by binary search on a 53-bit uniform. rand_distr's Zipf calls the
//! platform's powf on every draw, which could differ between targets.
use crate::rng::Rng;

/// The table is shared between clones (a simulation checkpoint copies the
/// generator's state, not its immutable table).
#[derive(Clone, Debug)]
pub struct Zipf {
    cdf: std::sync::Arc<[f64]>,
}

impl Zipf {
    pub fn new(n: u32, s: f64) -> Self {
        let mut cdf = Vec::with_capacity(n as usize);
        let mut sum = 0.0;
        for k in 1..=n {
            sum += 1.0 / libm::pow(f64::from(k), s);
            cdf.push(sum);
        }
        for c in cdf.iter_mut() {
            *c /= sum;
        }
        Zipf { cdf: cdf.into() }
    }

    pub fn sample(&self, rng: &mut Rng) -> u32 {
        let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let i = self.cdf.partition_point(|&c| c <= u);
        i.min(self.cdf.len() - 1) as u32
    }
}
