//! A synthetic trace generator (seeded): zipf-popular page ids, written in
//! either trace format, for benchmarks and tests. Generated ids are
//! popularity ranks (0 = the most popular page) unless scrambled into
//! 64-bit ids, as libCacheSim's traces hash theirs.
use std::io::{self, Write};

use super::oracle;
use crate::rng::Rng;
use crate::workload::Zipf;

/// `requests` page ids over `pages` pages with zipf exponent `s`.
pub fn zipf_ids(requests: u64, pages: u32, s: f64, seed: u64) -> Vec<u32> {
    let zipf = Zipf::new(pages, s);
    let mut rng = Rng::new(seed, 0x74_7261_6365);
    (0..requests).map(|_| zipf.sample(&mut rng)).collect()
}

/// A bijection of u64 (splitmix64's finaliser): rank -> a 64-bit id.
pub fn scramble(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// next_access_vtime of each request: the index of the next request for
/// the same page, or -1.
pub fn next_access(ids: &[u32]) -> Vec<i64> {
    let max = ids.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut last = vec![-1i64; max];
    let mut next = vec![-1i64; ids.len()];
    for (i, &id) in ids.iter().enumerate().rev() {
        next[i] = last[id as usize];
        last[id as usize] = i as i64;
    }
    next
}

/// Writes an oracleGeneral trace: one request per simulated millisecond
/// (time in whole seconds), 4096-byte objects, exact next-access times.
pub fn write_oracle_general(w: &mut impl Write, ids: &[u32], scrambled: bool) -> io::Result<()> {
    let next = next_access(ids);
    for (i, (&id, &nx)) in ids.iter().zip(&next).enumerate() {
        let obj = if scrambled { scramble(u64::from(id)) } else { u64::from(id) };
        w.write_all(&oracle::encode((i / 1000) as u32, obj, 4096, nx))?;
    }
    Ok(())
}

/// Writes a CSV trace with a header: time,obj_id,size.
pub fn write_csv(w: &mut impl Write, ids: &[u32], scrambled: bool) -> io::Result<()> {
    writeln!(w, "time,obj_id,size")?;
    for (i, &id) in ids.iter().enumerate() {
        let obj = if scrambled { scramble(u64::from(id)) } else { u64::from(id) };
        writeln!(w, "{},{obj},4096", i / 1000)?;
    }
    Ok(())
}
