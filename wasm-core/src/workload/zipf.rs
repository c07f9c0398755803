//! A Zipf sampler over ranks 0..n with exponent s: P(rank k) ~ 1/(k+1)^s.
//!
//! The cumulative table is built once with `libm::pow` (the same software
//! implementation natively and in wasm, so tables are bit-identical) and
//! sampled by searching it for a 53-bit uniform. rand_distr's Zipf calls the
//! platform's powf on every draw, which could differ between targets.
//!
//! The search starts from a guide table (Chen and Asau's indexed search): for
//! each of `n` equal slices of [0, 1), the first rank whose cumulative
//! probability exceeds the slice's start. A draw then searches only the few
//! ranks between its slice's guide and the next, two cache lines instead of a
//! binary search's ~log2(n) misses over a table of up to 8 MiB; the rank it
//! finds is exactly the one the binary search over the whole table finds.
use crate::rng::Rng;

/// The tables are shared between clones (a simulation checkpoint copies the
/// generator's state, not its immutable tables).
#[derive(Clone, Debug)]
pub struct Zipf {
    cdf: std::sync::Arc<[f64]>,
    /// guide[k]: the first rank whose cdf exceeds k / (guide.len() - 1).
    guide: std::sync::Arc<[u32]>,
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
        let slices = cdf.len().max(1);
        let mut guide = Vec::with_capacity(slices + 1);
        let mut i = 0;
        for k in 0..=slices {
            let start = k as f64 / slices as f64;
            while i < cdf.len() && cdf[i] <= start {
                i += 1;
            }
            guide.push(i as u32);
        }
        Zipf { cdf: cdf.into(), guide: guide.into() }
    }

    pub fn sample(&self, rng: &mut Rng) -> u32 {
        let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let i = self.rank_of(u);
        i.min(self.cdf.len() - 1) as u32
    }

    /// The first rank whose cdf exceeds `u` (`cdf.len()` if none does): the
    /// binary search's answer, found from the guide table. The slice of `u`
    /// is checked to bracket the answer (rounding in `u * slices` could put
    /// it one slice off); where it does not, the whole table is searched.
    fn rank_of(&self, u: f64) -> usize {
        let slices = self.guide.len() - 1;
        let k = ((u * slices as f64) as usize).min(slices - 1);
        let (lo, hi) = (self.guide[k] as usize, self.guide[k + 1] as usize);
        let below = lo == 0 || self.cdf[lo - 1] <= u;
        let above = hi == self.cdf.len() || self.cdf[hi] > u;
        if below && above {
            lo + self.cdf[lo..hi].partition_point(|&c| c <= u)
        } else {
            self.cdf.partition_point(|&c| c <= u)
        }
    }
}

/// Zipf tables already built, by ranks and exponent: workloads with the same
/// popularity (a scenario's readers of one file, say) share one, so a
/// simulation with many of them keeps one table in cache rather than many.
#[derive(Default)]
pub struct ZipfTables(Vec<((u32, u64), Zipf)>);

impl ZipfTables {
    /// The sampler over `n` ranks with exponent `s`, built on first use.
    pub fn get(&mut self, n: u32, s: f64) -> Zipf {
        let key = (n, s.to_bits());
        if let Some((_, z)) = self.0.iter().find(|(k, _)| *k == key) {
            return z.clone();
        }
        let z = Zipf::new(n, s);
        self.0.push((key, z.clone()));
        z
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The guided search gives the binary search's rank for every draw.
    fn agrees(n: u32, s: f64, draws: usize) {
        let z = Zipf::new(n, s);
        let mut rng = Rng::new(u64::from(n) ^ s.to_bits(), 7);
        let mut us: Vec<f64> = (0..draws).map(|_| (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)).collect();
        // The edges: 0, the cdf's own values and their neighbours, and just below 1.
        us.extend([0.0, 1.0 - f64::EPSILON / 2.0]);
        for &c in z.cdf.iter().take(64).chain(z.cdf.iter().rev().take(64)) {
            us.extend([c, f64::from_bits(c.to_bits() - 1), f64::from_bits(c.to_bits() + 1).min(1.0 - f64::EPSILON / 2.0)]);
        }
        for u in us {
            assert_eq!(z.rank_of(u), z.cdf.partition_point(|&c| c <= u), "n={n} s={s} u={u}");
        }
    }

    #[test]
    fn guided_search_finds_the_binary_search_rank() {
        for (n, s) in [(1, 0.6), (2, 0.0), (7, 2.0), (1000, 0.6), (24_576, 0.6), (24_576, 0.0), (24_576, 2.0), (100_003, 1.1)] {
            agrees(n, s, 20_000);
        }
    }

    #[test]
    fn tables_are_shared_by_size_and_exponent() {
        let mut tables = ZipfTables::default();
        let a = tables.get(1000, 0.6);
        let b = tables.get(1000, 0.6);
        let c = tables.get(1000, 0.7);
        let d = tables.get(999, 0.6);
        assert!(std::sync::Arc::ptr_eq(&a.cdf, &b.cdf));
        assert!(!std::sync::Arc::ptr_eq(&a.cdf, &c.cdf) && !std::sync::Arc::ptr_eq(&a.cdf, &d.cdf));
        assert_eq!(tables.0.len(), 3);
    }

    #[test]
    fn guide_starts_each_slice_at_its_first_rank() {
        let z = Zipf::new(1000, 0.9);
        let slices = z.guide.len() - 1;
        assert_eq!(slices, 1000);
        for (k, &g) in z.guide.iter().enumerate() {
            let start = k as f64 / slices as f64;
            assert_eq!(g as usize, z.cdf.partition_point(|&c| c <= start), "slice {k}");
        }
    }
}
