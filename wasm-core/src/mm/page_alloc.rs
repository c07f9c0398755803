//! The page allocator (mm/page_alloc.c), order 0 only.
//!
//! This file holds the free lists and the zonelist walk. Simplified for now:
//! allocation takes the first zone of the node's zonelist (highest usable
//! zone downwards) that has a free page above its min watermark; the
//! watermark-driven slow path with kswapd wake-ups is part of the kswapd
//! model.
use super::folio::{pg, FolioId, NIL};
use super::memcontrol::ChargeFailed;
use super::vmscan::ROOT_MEMCG;
use super::{Mm, MAX_NR_ZONES, MAX_RECLAIM_RETRIES};

impl Mm {
    /// zone_watermark_ok() for order 0: free pages must stay above
    /// `mark + lowmem_reserve[highest_zoneidx]`.
    pub fn zone_watermark_ok(&self, node: usize, z: usize, _order: u32, mark: u64, highest_zoneidx: usize) -> bool {
        let zone = &self.nodes[node].zones[z];
        zone.free_pages() > mark + zone.lowmem_reserve[highest_zoneidx]
    }

    /// Allocates one page for a task (GFP_HIGHUSER_MOVABLE: any zone),
    /// preferring `node`, then the other nodes; with nothing free, direct
    /// reclaim (try_to_free_pages) and retry, up to MAX_RECLAIM_RETRIES
    /// rounds without progress; then the caller sees the root memcg fail
    /// (a global OOM).
    pub fn alloc_folio(&mut self, node: usize, memcg: super::MemcgId) -> Result<FolioId, ChargeFailed> {
        let mut retries = MAX_RECLAIM_RETRIES;
        loop {
            for i in 0..self.nodes.len() {
                let n = (node + i) % self.nodes.len();
                if let Some(f) = self.rmqueue(n, MAX_NR_ZONES - 1) {
                    return Ok(f);
                }
            }
            if self.try_to_free_pages(memcg, MAX_NR_ZONES - 1) == 0 {
                if retries == 0 {
                    return Err(ChargeFailed { memcg: ROOT_MEMCG });
                }
                retries -= 1;
            }
        }
    }

    /// Takes a free page from `node`, zones `highest_zoneidx` down to 0
    /// (the zonelist order of get_page_from_freelist), or None.
    pub fn rmqueue(&mut self, node: usize, highest_zoneidx: usize) -> Option<FolioId> {
        for z in (0..=highest_zoneidx).rev() {
            let zone = &mut self.nodes[node].zones[z];
            if zone.managed == 0 {
                continue;
            }
            if let Some(f) = zone.free_list.pop_head(&mut self.folios) {
                let zone_bits = self.folios.flags[f as usize] & pg::ZONE_MASK;
                self.folios.flags[f as usize] = zone_bits;
                return Some(f);
            }
        }
        None
    }

    /// free_unref_folios(): the folio goes back to its zone's free list.
    pub fn free_folio(&mut self, f: FolioId, node: usize) {
        let zone_bits = self.folios.flags[f as usize] & pg::ZONE_MASK;
        let z = self.folios.zone(f);
        self.folios.flags[f as usize] = zone_bits | pg::FREE;
        self.folios.mapping[f as usize] = NIL;
        self.nodes[node].zones[z].free_list.add_head(&mut self.folios, f);
        self.vmstat.add(super::vmstat::Item::Pgfree, 1);
    }
}
