//! The engine's only source of randomness: a seeded PCG generator (rand_pcg).
//!
//! Determinism rules (native == wasm, bit for bit):
//! - every draw goes through [`Rng`], seeded from the scenario seed;
//! - bounded draws use 64-bit arithmetic only (never `usize`, which is 32 bits
//!   on wasm32 and would change the sequence);
//! - floating point is used only for precomputed tables built with `libm`
//!   (the same software implementation on both targets), never as state.
use rand_core::RngCore;
use rand_pcg::Pcg64Mcg;

#[derive(Clone, Debug)]
pub struct Rng(Pcg64Mcg);

impl Rng {
    /// A generator for one stream of a scenario (`stream` separates the tasks
    /// so that adding a workload does not perturb the others' draws).
    pub fn new(seed: u64, stream: u64) -> Self {
        let s = (u128::from(seed) << 64) | u128::from(stream.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03);
        Rng(Pcg64Mcg::new(s | 1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n > 0), by Lemire's multiply-shift with rejection.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}

impl Default for Rng {
    fn default() -> Self {
        Rng::new(0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(7, 1);
        let mut b = Rng::new(7, 1);
        let xs: Vec<u64> = (0..16).map(|_| a.below(1000)).collect();
        let ys: Vec<u64> = (0..16).map(|_| b.below(1000)).collect();
        assert_eq!(xs, ys);
        let mut c = Rng::new(7, 2);
        let zs: Vec<u64> = (0..16).map(|_| c.below(1000)).collect();
        assert_ne!(xs, zs, "streams must differ");
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(1, 0);
        for n in [1u64, 2, 3, 7, 1000, u64::MAX] {
            for _ in 0..1000 {
                assert!(r.below(n) < n);
            }
        }
    }
}
