//! The structural invariants of a simulation's whole state, checked by tests
//! after every step.
use crate::mm::filemap::Slot;
use crate::mm::folio::pg;
use crate::mm::MAX_NR_ZONES;

use super::Simulation;

impl Simulation {
    /// Checks the structural invariants of the whole state; returns the first
    /// violation. Used by tests after every step.
    // The checks index generations, types and zones together, as the
    // kernel's arrays do; index loops read closer to it than iterators.
    #[allow(clippy::needless_range_loop)]
    pub fn check_invariants(&self) -> Result<(), String> {
        let mm = &self.mm;
        let n = mm.folios.len();
        // Every folio on exactly one list (a free list or an LRU list).
        let mut seen = vec![0u8; n];
        let mut mark = |f: u32, what: &str| -> Result<(), String> {
            let s = &mut seen[f as usize];
            *s += 1;
            if *s > 1 {
                return Err(format!("folio {f} is on more than one list (again on {what})"));
            }
            Ok(())
        };
        for node in &mm.nodes {
            for z in &node.zones {
                for f in z.free_list.iter(&mm.folios) {
                    if !mm.folios.test(f, pg::FREE) {
                        return Err(format!("folio {f} on a free list without the free flag"));
                    }
                    mark(f, "a free list")?;
                }
            }
        }
        for (i, lv) in mm.lruvecs.iter().enumerate() {
            let g = &lv.lrugen;
            if g.min_seq[1] < g.min_seq[0] {
                return Err(format!("lruvec {i}: min_seq[anon] {} > min_seq[file] {}", g.min_seq[0], g.min_seq[1]));
            }
            for t in 0..2 {
                let nr = g.nr_gens(t);
                if !(2..=4).contains(&nr) {
                    return Err(format!("lruvec {i}: nr_gens[{t}] = {nr} outside 2..=4"));
                }
            }
            let mut by_bits = [[0i64; 2]; 4];
            for gen in 0..4 {
                for t in 0..2 {
                    for z in 0..MAX_NR_ZONES {
                        for f in g.folios[gen][t][z].iter(&mm.folios) {
                            mark(f, "an LRU list")?;
                            if mm.folios.lruvec[f as usize] as usize != i {
                                return Err(format!("folio {f} on lruvec {i}'s list but charged to lruvec {}", mm.folios.lruvec[f as usize]));
                            }
                            if mm.folios.type_of(f) != t || mm.folios.zone(f) != z || mm.folios.list_slot(f) != gen {
                                return Err(format!("folio {f} on the wrong list (gen {gen} type {t} zone {z})"));
                            }
                            let bits = mm.folios.lru_gen(f).ok_or_else(|| format!("folio {f} on a generation list without generation bits"))?;
                            by_bits[bits][t] += 1;
                        }
                    }
                }
            }
            for gen in 0..4 {
                for t in 0..2 {
                    let counted: i64 = g.nr_pages[gen][t].iter().sum();
                    if counted != by_bits[gen][t] {
                        return Err(format!("lruvec {i}: nr_pages[{gen}][{t}] = {counted} but {} folios carry that generation", by_bits[gen][t]));
                    }
                }
            }
        }
        for (i, lv) in mm.lruvecs.iter().enumerate() {
            for (lru, list) in lv.lists.iter().enumerate() {
                let mut per_zone = [0u64; MAX_NR_ZONES];
                for f in list.iter(&mm.folios) {
                    mark(f, "a classic LRU list")?;
                    if mm.folio_lru_list(f) != lru || mm.folios.lruvec[f as usize] as usize != i {
                        return Err(format!("folio {f} on classic list {lru} of lruvec {i} does not belong there"));
                    }
                    per_zone[mm.folios.zone(f)] += 1;
                }
                if per_zone != lv.lru_zone_size[lru] {
                    return Err(format!("lruvec {i}: zone sizes of classic list {lru} are {:?}, counted {per_zone:?}", lv.lru_zone_size[lru]));
                }
            }
        }
        if mm.knobs.lru_gen_enabled && mm.knobs.memcg_lru {
            for (n, node) in mm.nodes.iter().enumerate() {
                let lru = &node.memcg_lru;
                let mut members = vec![0u32; mm.memcgs.len()];
                for (gen, bins) in lru.fifo.iter().enumerate() {
                    let mut count = 0;
                    for list in bins {
                        for &lv in list {
                            count += 1;
                            members[mm.lruvec_memcg(lv) as usize] += 1;
                            if mm.lruvecs[lv as usize].lrugen.gen as usize != gen || mm.lruvec_node(lv) != n {
                                return Err(format!("node {n}: lruvec {lv} on memcg LRU generation {gen} but its gen says {}", mm.lruvecs[lv as usize].lrugen.gen));
                            }
                        }
                    }
                    if count != lru.nr_memcgs[gen] {
                        return Err(format!("node {n}: memcg LRU nr_memcgs[{gen}] = {} but {count} listed", lru.nr_memcgs[gen]));
                    }
                }
                if let Some(m) = members.iter().position(|&c| c != 1) {
                    return Err(format!("node {n}: memcg {m} is on the memcg LRU {} times", members[m]));
                }
            }
        }
        for (f, &c) in seen.iter().enumerate() {
            if c == 0 && mm.folios.flags[f] & (pg::FREE | pg::LRU) != 0 {
                return Err(format!("folio {f} is flagged free or LRU but on no list"));
            }
        }
        // Pages are conserved: free + on lists + isolated(= 0 between steps) == total.
        let listed = seen.iter().filter(|&&c| c == 1).count();
        if listed != n {
            return Err(format!("{} of {n} folios are on no list", n - listed));
        }
        // memcg usage equals the folios charged to its subtree; its own
        // NR_WRITEBACK, its folios under writeback (page cache and swap).
        let mut charged = vec![0u64; mm.memcgs.len()];
        let mut writeback = vec![0u64; mm.memcgs.len()];
        for f in 0..n as u32 {
            if !mm.folios.test(f, pg::FREE) {
                let memcg = mm.lruvec_memcg(mm.folios.lruvec[f as usize]);
                if mm.folios.test(f, pg::WRITEBACK) {
                    writeback[memcg as usize] += 1;
                }
                for id in mm.memcg_ancestors(memcg) {
                    charged[id as usize] += 1;
                }
            }
        }
        for ((cg, &c), &w) in mm.memcgs.iter().zip(&charged).zip(&writeback) {
            if cg.usage != c {
                return Err(format!("memcg {}: memory.current {} but {c} folios charged", cg.path, cg.usage));
            }
            if cg.nr_writeback != w {
                return Err(format!("memcg {}: nr_writeback {} but {w} of its folios under writeback", cg.path, cg.nr_writeback));
            }
        }
        if mm.writeback.len() != mm.folios.flags.iter().filter(|&&fl| fl & pg::WRITEBACK != 0 && fl & pg::FREE == 0).count() {
            return Err(format!("{} writes in flight but a different number of folios under writeback", mm.writeback.len()));
        }
        // Address spaces and folios agree.
        for (m, a) in mm.mappings.iter().enumerate() {
            for (idx, &v) in a.slots.iter().enumerate() {
                if let Slot::Folio(f) = Slot::decode(v) {
                    if mm.folios.mapping[f as usize] != m as u32 || mm.folios.index[f as usize] != idx as u32 {
                        return Err(format!("mapping {m} slot {idx} points at folio {f}, which caches something else"));
                    }
                }
            }
        }
        Ok(())
    }
}
