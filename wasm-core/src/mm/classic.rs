//! The classic active/inactive LRU (mm/vmscan.c, mm/swap.c), used when
//! MGLRU is off: list placement, folio_mark_accessed, get_scan_count with its
//! balance modes and anon/file cost, shrink_lruvec, shrink_active_list,
//! shrink_inactive_list, inactive_is_low and lru_note_cost.
use super::folio::{pg, FolioId};
use super::lruvec::{LRU_ACTIVE_ANON, LRU_ACTIVE_FILE, LRU_INACTIVE_ANON, LRU_INACTIVE_FILE};
use super::pgdat::{int_sqrt, WMARK_HIGH};
use super::vmscan::{ScanControl, ROOT_MEMCG};
use super::vmstat::Item;
use super::{LruvecId, MemcgId, Mm, DEF_PRIORITY, MAX_SWAPPINESS, SWAP_CLUSTER_MAX};
use crate::cost;
use super::trace::FolioWhat;

/// sc->may_deactivate bits.
pub const DEACTIVATE_ANON: u8 = 1;
pub const DEACTIVATE_FILE: u8 = 2;

/// get_scan_count()'s balance between anon and file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanBalance {
    /// Scan both types by the same share (priority 0 with swap).
    Equal,
    /// Split by anon_cost / file_cost and swappiness.
    Fract,
    Anon,
    File,
}

/// get_scan_count()'s answer: how many folios to scan per list, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanCount {
    pub balance: ScanBalance,
    /// nr[lru] for inactive anon, active anon, inactive file, active file.
    pub nr: [u64; 4],
    /// fraction[anon], fraction[file] (SCAN_FRACT only).
    pub fraction: [u64; 2],
}

/// inactive_is_low() on sizes: gb = (inactive + active) in GiB;
/// ratio = gb ? int_sqrt(10 * gb) : 1; low iff inactive * ratio < active.
pub fn inactive_is_low_sizes(inactive: u64, active: u64) -> bool {
    let gb = (inactive + active) >> (30 - 12);
    let ratio = if gb > 0 { int_sqrt(10 * gb) } else { 1 };
    inactive * ratio < active
}

impl Mm {
    /// folio_lru_list(): which classic list a folio belongs on.
    pub fn folio_lru_list(&self, f: FolioId) -> usize {
        let base = if self.folios.test(f, pg::ANON) { LRU_INACTIVE_ANON } else { LRU_INACTIVE_FILE };
        base + usize::from(self.folios.test(f, pg::ACTIVE))
    }

    /// lruvec_add_folio() for the classic LRU: the head of its list.
    pub fn classic_add_folio(&mut self, f: FolioId) {
        let lv = self.folios.lruvec[f as usize];
        let lru = self.folio_lru_list(f);
        let zone = self.folios.zone(f);
        let l = &mut self.lruvecs[lv as usize];
        l.lists[lru].add_head(&mut self.folios, f);
        l.lru_zone_size[lru][zone] += 1;
    }

    /// lruvec_del_folio() for the classic LRU.
    pub fn classic_del_folio(&mut self, f: FolioId) {
        let lv = self.folios.lruvec[f as usize];
        let lru = self.folio_lru_list(f);
        let zone = self.folios.zone(f);
        let l = &mut self.lruvecs[lv as usize];
        l.lists[lru].del(&mut self.folios, f);
        l.lru_zone_size[lru][zone] -= 1;
    }

    /// folio_mark_accessed() (classic): inactive unreferenced -> referenced;
    /// inactive referenced -> active (PGACTIVATE, workingset_activation),
    /// referenced cleared; active -> referenced.
    pub fn classic_mark_accessed(&mut self, f: FolioId) {
        if !self.folios.test(f, pg::REFERENCED) {
            self.folios.set(f, pg::REFERENCED);
        } else if !self.folios.test(f, pg::ACTIVE) && !self.folios.test(f, pg::UNEVICTABLE) {
            if self.folios.test(f, pg::LRU) {
                // folio_activate()
                self.classic_del_folio(f);
                self.folios.set(f, pg::ACTIVE);
                self.classic_add_folio(f);
                let memcg = self.lruvec_memcg(self.folios.lruvec[f as usize]);
                self.count(memcg, Item::Pgactivate, 1, true);
                self.trace(f, "folio_mark_accessed", FolioWhat::ClassicActivated);
            } else {
                self.folios.set(f, pg::ACTIVE);
            }
            self.folios.clear(f, pg::REFERENCED);
            self.workingset_activation(f);
        }
    }

    /// lruvec_page_state() of a classic list: hierarchical (the memcg and its
    /// descendants on the lruvec's node).
    pub fn lruvec_lru_pages(&self, lv: LruvecId, lru: usize) -> u64 {
        self.lruvec_page_state(self.lruvec_memcg(lv), self.lruvec_node(lv), lru)
    }

    /// inactive_is_low(lruvec, inactive_lru).
    pub fn inactive_is_low(&self, lv: LruvecId, inactive_lru: usize) -> bool {
        inactive_is_low_sizes(self.lruvec_lru_pages(lv, inactive_lru), self.lruvec_lru_pages(lv, inactive_lru + 1))
    }

    /// The WORKINGSET_ACTIVATE counts of lruvec `lv` (hierarchical, on its
    /// node) that snapshot_refaults() records.
    fn workingset_activations(&self, lv: LruvecId) -> [u64; 2] {
        self.lruvecs[lv as usize].workingset_activate
    }

    /// snapshot_refaults(): remember the activations seen, so the next
    /// reclaim can tell whether refaults happened since.
    pub fn snapshot_refaults(&mut self, target: Option<MemcgId>, node: usize) {
        let memcg = target.unwrap_or(ROOT_MEMCG);
        let lv = self.lruvec_id(memcg, node);
        self.lruvecs[lv as usize].refaults = self.workingset_activations(lv);
    }

    /// prepare_scan_control(): per node pass, copy the target's costs; allow
    /// deactivation of a type whose refaults moved or whose inactive list is
    /// low; cache_trim_mode when inactive file is plentiful and not
    /// thrashing; file_is_tiny (global reclaim) when file plus free pages do
    /// not reach the high watermarks.
    pub fn prepare_scan_control(&mut self, node: usize, sc: &mut ScanControl) {
        let memcg = sc.target_mem_cgroup.unwrap_or(ROOT_MEMCG);
        let tlv = self.lruvec_id(memcg, node);
        let l = &self.lruvecs[tlv as usize];
        sc.anon_cost = l.anon_cost;
        sc.file_cost = l.file_cost;
        let refaults = self.workingset_activations(tlv);
        let snap = l.refaults;
        if sc.force_deactivate {
            sc.may_deactivate = DEACTIVATE_ANON | DEACTIVATE_FILE;
        } else {
            sc.may_deactivate = 0;
            if refaults[0] != snap[0] || self.inactive_is_low(tlv, LRU_INACTIVE_ANON) {
                sc.may_deactivate |= DEACTIVATE_ANON;
            }
            if refaults[1] != snap[1] || self.inactive_is_low(tlv, LRU_INACTIVE_FILE) {
                sc.may_deactivate |= DEACTIVATE_FILE;
            }
        }
        let inactive_file = self.lruvec_lru_pages(tlv, LRU_INACTIVE_FILE);
        sc.cache_trim_mode = (inactive_file >> sc.priority) > 0 && sc.may_deactivate & DEACTIVATE_FILE == 0 && !sc.no_cache_trim_mode;
        sc.file_is_tiny = false;
        if !sc.cgroup_reclaim() {
            let pgdat = &self.nodes[node];
            let free = pgdat.free_pages();
            let total_high: u64 = pgdat.zones.iter().map(|z| z.watermark[WMARK_HIGH]).sum();
            let file = self.lruvec_lru_pages(tlv, LRU_ACTIVE_FILE) + inactive_file;
            let anon = self.lruvec_lru_pages(tlv, LRU_INACTIVE_ANON);
            sc.file_is_tiny = file + free <= total_high && sc.may_deactivate & DEACTIVATE_ANON == 0 && (anon >> sc.priority) > 0;
        }
    }

    /// get_scan_count(): the balance mode (first match: no swap -> FILE;
    /// memcg reclaim with swappiness 0 -> FILE; priority 0 -> EQUAL;
    /// file_is_tiny -> ANON; cache_trim_mode -> FILE; else FRACT by cost and
    /// swappiness), then per list: size in eligible zones, reduced by
    /// memory.min/low protection (the effective emin/elow,
    /// mem_cgroup_protection), shifted by priority, split by the balance.
    /// Simplified: an offline memcg is not scraped (none goes offline).
    pub fn get_scan_count(&self, lv: LruvecId, sc: &mut ScanControl) -> ScanCount {
        let memcg = self.lruvec_memcg(lv);
        let swappiness = self.mem_cgroup_swappiness(memcg);
        let can_reclaim_anon = self.nr_swap_pages_for(memcg) > 0;
        let mut fraction = [0u64; 2];
        // No swap, or memcg reclaim with swappiness 0: file only.
        let balance = if !sc.may_swap || !can_reclaim_anon || (sc.cgroup_reclaim() && swappiness == 0) {
            ScanBalance::File
        } else if sc.priority == 0 && swappiness > 0 {
            ScanBalance::Equal
        } else if sc.file_is_tiny {
            ScanBalance::Anon
        } else if sc.cache_trim_mode {
            ScanBalance::File
        } else {
            let total = sc.anon_cost + sc.file_cost;
            let anon_cost = total + sc.anon_cost;
            let file_cost = total + sc.file_cost;
            let total = anon_cost + file_cost;
            fraction[0] = u64::from(swappiness) * (total + 1) / (anon_cost + 1);
            fraction[1] = u64::from(MAX_SWAPPINESS - swappiness) * (total + 1) / (file_cost + 1);
            ScanBalance::Fract
        };
        let denominator = fraction[0] + fraction[1];
        let cg = &self.memcgs[memcg as usize];
        let (min, low) = self.mem_cgroup_protection(sc.target_mem_cgroup, memcg);
        let mut nr = [0u64; 4];
        for (lru, n) in nr.iter_mut().enumerate() {
            let file = lru >= LRU_INACTIVE_FILE;
            let size = self.lruvecs[lv as usize].lru_size_upto(lru, sc.reclaim_idx);
            let mut scan = if min > 0 || low > 0 {
                let protection = if !sc.memcg_low_reclaim && low > min {
                    sc.memcg_low_skipped = true;
                    low
                } else {
                    min
                };
                let cgroup_size = cg.usage.max(protection);
                (size - size * protection / (cgroup_size + 1)).max(SWAP_CLUSTER_MAX)
            } else {
                size
            };
            scan >>= sc.priority;
            *n = match balance {
                ScanBalance::Equal => scan,
                ScanBalance::Fract => (scan * fraction[usize::from(file)]).checked_div(denominator).unwrap_or(0),
                ScanBalance::File => {
                    if file {
                        scan
                    } else {
                        0
                    }
                }
                ScanBalance::Anon => {
                    if file {
                        0
                    } else {
                        scan
                    }
                }
            };
        }
        ScanCount { balance, nr, fraction }
    }

    /// lru_note_cost(): reclaim cost of a type (nr_io * SWAP_CLUSTER_MAX +
    /// nr_rotated) added to the lruvec and its ancestors; both costs halve
    /// when their sum exceeds a quarter of the LRU size.
    pub fn lru_note_cost(&mut self, lv: LruvecId, file: bool, nr_io: u64, nr_rotated: u64) {
        let cost = nr_io * SWAP_CLUSTER_MAX + nr_rotated;
        let node = self.lruvec_node(lv);
        let mut m = Some(self.lruvec_memcg(lv));
        while let Some(id) = m {
            let l = self.lruvec_id(id, node);
            let lrusize: u64 = (0..4).map(|lru| self.lruvec_lru_pages(l, lru)).sum();
            let v = &mut self.lruvecs[l as usize];
            if file {
                v.file_cost += cost;
            } else {
                v.anon_cost += cost;
            }
            if v.file_cost + v.anon_cost > lrusize / 4 {
                v.file_cost /= 2;
                v.anon_cost /= 2;
            }
            m = self.memcgs[id as usize].parent;
        }
    }

    /// isolate_lru_folios(): take up to `nr_to_scan` folios from the tail of
    /// `lru`; folios of zones above reclaim_idx are skipped (PGSKIP) and go
    /// back to the head, the last skipped first. Returns (isolated folios,
    /// folios scanned including skipped).
    fn isolate_lru_folios(&mut self, nr_to_scan: u64, lv: LruvecId, sc: &ScanControl, lru: usize) -> (Vec<FolioId>, u64) {
        let mut taken = Vec::new();
        let mut skipped = Vec::new();
        let (mut scan, mut total_scan) = (0u64, 0u64);
        let memcg = self.lruvec_memcg(lv);
        while scan < nr_to_scan {
            let tail = self.lruvecs[lv as usize].lists[lru].tail;
            if tail == super::folio::NIL {
                break;
            }
            let f = tail;
            total_scan += 1;
            let zone = self.folios.zone(f);
            self.classic_del_folio(f);
            if zone > sc.reclaim_idx {
                skipped.push(f);
                continue;
            }
            scan += 1;
            if !sc.may_unmap && self.folios.test(f, pg::MAPPED) {
                // rotate: back to the head
                self.classic_add_folio(f);
                continue;
            }
            self.folios.clear(f, pg::LRU);
            taken.push(f);
        }
        // list_move() to folios_skipped, then list_splice() to the head of
        // the list: the folio skipped last ends at the head.
        for &f in &skipped {
            self.classic_add_folio(f);
            let z = self.folios.zone(f);
            self.count(memcg, Item::PgskipDma.plus(z), 1, true);
        }
        self.cost_ns += total_scan * cost::SCAN_FOLIO_NS;
        (taken, total_scan)
    }

    /// move_folios_to_lru() (classic): back onto their lists; folios put back
    /// active age nonresident_age (workingset_age_nonresident).
    fn classic_putback(&mut self, lv: LruvecId, list: &[FolioId]) -> u64 {
        let mut active = 0;
        for &f in list {
            self.folios.set(f, pg::LRU);
            self.classic_add_folio(f);
            if self.folios.test(f, pg::ACTIVE) {
                active += 1;
            }
        }
        if active > 0 {
            self.workingset_age_nonresident(lv, active);
        }
        list.len() as u64
    }

    /// shrink_inactive_list(): isolate from the inactive list, count PGSCAN,
    /// reclaim with shrink_folio_list, put the rest back, wake the flusher
    /// when every folio taken was dirty and unqueued, note the cost (pages
    /// written and folios rotated), count PGSTEAL.
    pub fn shrink_inactive_list(&mut self, nr_to_scan: u64, lv: LruvecId, sc: &mut ScanControl, lru: usize) -> u64 {
        let file = lru >= LRU_INACTIVE_FILE;
        let memcg = self.lruvec_memcg(lv);
        let (mut list, nr_scanned) = self.isolate_lru_folios(nr_to_scan, lv, sc, lru);
        let item = if sc.kswapd { Item::PgscanKswapd } else { Item::PgscanDirect };
        self.count(memcg, item, nr_scanned, !sc.cgroup_reclaim());
        self.count(memcg, Item::PgscanAnon.plus(usize::from(file)), nr_scanned, true);
        if list.is_empty() {
            return 0;
        }
        let pageout_before = sc.nr_pageout;
        let (nr_taken, unqueued_dirty_before) = (list.len() as u64, sc.nr.unqueued_dirty);
        sc.nr.taken += nr_taken;
        if file {
            sc.nr.file_taken += nr_taken;
        }
        let reclaimed = self.shrink_folio_list(&mut list, lv, sc);
        self.classic_putback(lv, &list);
        self.wakeup_flushers_if_all_unqueued(sc, unqueued_dirty_before, nr_taken);
        let nr_pageout = sc.nr_pageout - pageout_before;
        self.lru_note_cost(lv, file, nr_pageout, nr_scanned - reclaimed);
        let item = if sc.kswapd { Item::PgstealKswapd } else { Item::PgstealDirect };
        self.count(memcg, item, reclaimed, !sc.cgroup_reclaim());
        self.count(memcg, Item::PgstealAnon.plus(usize::from(file)), reclaimed, true);
        reclaimed
    }

    /// shrink_active_list(): isolate from the active list and deactivate
    /// everything (PG_workingset set, PGDEACTIVATE); the accessed bits are
    /// cleared on the way (folio_referenced). Simplified: no VM_EXEC
    /// mappings, so no referenced folio keeps its active place.
    pub fn shrink_active_list(&mut self, nr_to_scan: u64, lv: LruvecId, sc: &mut ScanControl, lru: usize) {
        let memcg = self.lruvec_memcg(lv);
        let (list, nr_scanned) = self.isolate_lru_folios(nr_to_scan, lv, sc, lru);
        self.count(memcg, Item::Pgrefill, nr_scanned, !sc.cgroup_reclaim());
        for &f in &list {
            self.folios.clear(f, pg::YOUNG | pg::ACTIVE);
            self.folios.set(f, pg::WORKINGSET);
            self.trace(f, "shrink_active_list", FolioWhat::ClassicDeactivated);
        }
        let n = self.classic_putback(lv, &list);
        self.count(memcg, Item::Pgdeactivate, n, true);
        // lru_note_cost() only `if (nr_rotated)`: without VM_EXEC nothing
        // rotates, so the costs are not touched (nor decayed) here.
    }

    /// shrink_list(): active lists are only deactivated when allowed.
    fn shrink_list(&mut self, lru: usize, nr_to_scan: u64, lv: LruvecId, sc: &mut ScanControl) -> u64 {
        let file = lru >= LRU_INACTIVE_FILE;
        if lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE {
            let bit = if file { DEACTIVATE_FILE } else { DEACTIVATE_ANON };
            if sc.may_deactivate & bit != 0 {
                self.shrink_active_list(nr_to_scan, lv, sc, lru);
            } else {
                sc.skipped_deactivate = true;
            }
            return 0;
        }
        self.shrink_inactive_list(nr_to_scan, lv, sc, lru)
    }

    /// shrink_lruvec() for the classic LRU: scan the lists in
    /// SWAP_CLUSTER_MAX chunks in proportion to get_scan_count(); once this
    /// lruvec reclaimed nr_to_reclaim (outside proportional reclaim), stop the
    /// smaller type and cut the other to the share already done; finally
    /// deactivate anon if its inactive list is low.
    pub fn classic_shrink_lruvec(&mut self, lv: LruvecId, sc: &mut ScanControl) {
        let count = self.get_scan_count(lv, sc);
        let mut nr = count.nr;
        let targets = count.nr;
        let proportional = !sc.cgroup_reclaim() && !sc.kswapd && sc.priority == DEF_PRIORITY;
        let mut reclaimed = 0u64;
        let order = [LRU_INACTIVE_ANON, LRU_ACTIVE_ANON, LRU_INACTIVE_FILE, LRU_ACTIVE_FILE];
        while nr[LRU_INACTIVE_ANON] > 0 || nr[LRU_ACTIVE_FILE] > 0 || nr[LRU_INACTIVE_FILE] > 0 {
            for lru in order {
                if nr[lru] > 0 {
                    let n = nr[lru].min(SWAP_CLUSTER_MAX);
                    nr[lru] -= n;
                    reclaimed += self.shrink_list(lru, n, lv, sc);
                }
            }
            if reclaimed < sc.nr_to_reclaim || proportional {
                continue;
            }
            let nr_file = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
            let nr_anon = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
            if nr_file == 0 || nr_anon == 0 {
                break;
            }
            let (stop, other, percentage) = if nr_file > nr_anon {
                (LRU_INACTIVE_ANON, LRU_INACTIVE_FILE, nr_anon * 100 / (targets[LRU_INACTIVE_ANON] + targets[LRU_ACTIVE_ANON] + 1))
            } else {
                (LRU_INACTIVE_FILE, LRU_INACTIVE_ANON, nr_file * 100 / (targets[LRU_INACTIVE_FILE] + targets[LRU_ACTIVE_FILE] + 1))
            };
            nr[stop] = 0;
            nr[stop + 1] = 0;
            for lru in [other, other + 1] {
                let scanned = targets[lru] - nr[lru];
                nr[lru] = targets[lru] * (100 - percentage) / 100;
                nr[lru] -= nr[lru].min(scanned);
            }
        }
        sc.nr_reclaimed += reclaimed;
        if self.can_age_anon_pages() && self.inactive_is_low(lv, LRU_INACTIVE_ANON) {
            self.shrink_active_list(SWAP_CLUSTER_MAX, lv, sc, LRU_ACTIVE_ANON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 18; // pages

    #[test]
    fn inactive_ratio_at_1_and_10_gib() {
        // 1 GiB: ratio int_sqrt(10) = 3 -> low iff inactive * 3 < active.
        assert!(inactive_is_low_sizes(GIB / 4 - 1, GIB - (GIB / 4 - 1)));
        assert!(!inactive_is_low_sizes(GIB / 4 + 1, GIB - (GIB / 4 + 1)));
        // 10 GiB: ratio int_sqrt(100) = 10 -> low iff inactive * 10 < active.
        let total = 10 * GIB;
        let edge = total / 11; // inactive * 10 == active at total / 11
        assert!(inactive_is_low_sizes(edge - 1000, total - (edge - 1000)));
        assert!(!inactive_is_low_sizes(edge + 1000, total - (edge + 1000)));
        // Below 1 GiB the ratio is 1.
        assert!(inactive_is_low_sizes(99, 100));
        assert!(!inactive_is_low_sizes(100, 100));
    }
}
