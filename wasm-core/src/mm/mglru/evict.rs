//! MGLRU eviction (mm/vmscan.c): sort_folio(), isolate_folio(),
//! scan_folios(), isolate_folios(), evict_folios(), and the per-lruvec
//! loop of try_to_shrink_lruvec().
use crate::mm::folio::{lru_tier_from_refs, pg, FolioId, LRU_REFS_WIDTH};
use crate::mm::lruvec::{lru_gen_from_seq, lru_hist_from_seq, MAX_LRU_BATCH, MIN_LRU_BATCH, MIN_NR_GENS};
use crate::mm::vmscan::ScanControl;
use crate::mm::vmstat::Item;
use crate::mm::{LruvecId, Mm, ANON_AND_FILE, LRU_GEN_ANON, LRU_GEN_FILE, MAX_NR_ZONES, MAX_SWAPPINESS};
use crate::cost;
use crate::event::EventKind;
use crate::mm::trace::FolioWhat;

impl Mm {
    // ------------------------------------------------------------- eviction

    /// sort_folio() (v6.12): true if the folio was moved instead of isolated:
    /// promoted by aging (its generation is no longer the oldest), protected
    /// (tier > tier_idx, or refs saturated since v6.7; before v6.5 counted as
    /// WORKINGSET_ACTIVATE), outside reclaim_idx, or waiting for writeback
    /// (locked, writeback, or a dirty file folio).
    fn sort_folio(&mut self, lv: LruvecId, f: FolioId, sc: &mut ScanControl, tier_idx: usize) -> bool {
        let gen = self.folios.lru_gen(f).expect("sort_folio on a listed folio");
        let type_ = self.folios.type_of(f);
        let zone = self.folios.zone(f);
        let refs = self.folios.lru_refs(f);
        let tier = lru_tier_from_refs(refs);
        let min_seq = self.lruvecs[lv as usize].lrugen.min_seq[type_];
        let old_gen = lru_gen_from_seq(min_seq);

        // promoted
        if gen != old_gen {
            self.move_folio(lv, f, gen, false);
            let seq = self.seq_of_gen(lv, type_, gen);
            self.trace(f, "sort_folio", FolioWhat::SortPromoted { seq });
            return true;
        }
        // protected
        let saturated = self.knobs.mglru_underprotection_fix && refs == 1 << LRU_REFS_WIDTH;
        if tier > tier_idx || saturated {
            let hist = lru_hist_from_seq(min_seq);
            let new_gen = self.folio_inc_gen(lv, f, false);
            self.move_folio(lv, f, new_gen, true);
            self.lruvecs[lv as usize].lrugen.protected[hist][type_][tier - 1] += 1;
            if !self.knobs.mglru_workingset_accounting_fix {
                // v6.1-v6.4 counted a protection as a workingset activation.
                let memcg = self.lruvec_memcg(lv);
                self.count(memcg, Item::WorkingsetActivateAnon.plus(type_), 1, true);
            }
            self.trace(f, "sort_folio", FolioWhat::SortProtected { tier, tier_idx, seq: min_seq + 1 });
            return true;
        }
        // ineligible
        if zone > sc.reclaim_idx {
            let new_gen = self.folio_inc_gen(lv, f, false);
            self.move_folio(lv, f, new_gen, true);
            return true;
        }
        let fl = self.folios.flags[f as usize];
        let dirty = fl & pg::DIRTY != 0;
        let writeback = fl & pg::WRITEBACK != 0;
        if type_ == LRU_GEN_FILE && dirty {
            sc.nr.file_taken += 1;
            if !writeback {
                sc.nr.unqueued_dirty += 1;
            }
        }
        // waiting for writeback
        if writeback || (type_ == LRU_GEN_FILE && dirty) {
            let new_gen = self.folio_inc_gen(lv, f, true);
            self.move_folio(lv, f, new_gen, false);
            self.trace(f, "sort_folio", FolioWhat::SortWriteback { seq: min_seq + 1 });
            return true;
        }
        false
    }

    /// isolate_folio(): take the folio off its list for shrink_folio_list.
    /// Without __GFP_IO, dirty folios and anon folios outside the swap cache
    /// are refused. An unreferenced folio loses its refs (see MAX_NR_TIERS);
    /// PG_reclaim and PG_referenced are cleared.
    fn isolate_folio(&mut self, f: FolioId, sc: &ScanControl) -> bool {
        let fl = self.folios.flags[f as usize];
        if !sc.gfp_io && (fl & pg::DIRTY != 0 || (fl & pg::ANON != 0 && fl & pg::SWAPCACHE == 0)) {
            return false;
        }
        if fl & pg::LRU == 0 {
            return false;
        }
        self.folios.clear(f, pg::LRU);
        if fl & pg::REFERENCED == 0 {
            self.folios.clear(f, pg::REFS_MASK | pg::REFS_FLAGS);
        }
        self.folios.clear(f, pg::RECLAIM | pg::REFERENCED);
        self.lru_gen_del_folio(f, true);
        self.trace(f, "isolate_folio", FolioWhat::Isolated);
        true
    }

    /// scan_folios(): pops folios from the tail of the oldest generation of
    /// `type_`, zone by zone from reclaim_idx down, sorting or isolating each;
    /// stops after MAX_LRU_BATCH folios or MIN_LRU_BATCH isolated or skipped.
    /// Returns the folios scanned, or 0 when nothing could be isolated and the
    /// budget was not used up.
    fn scan_folios(&mut self, lv: LruvecId, sc: &mut ScanControl, type_: usize, tier: usize, list: &mut Vec<FolioId>) -> u64 {
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        if lrugen.nr_gens(type_) == MIN_NR_GENS {
            return 0;
        }
        let gen = lru_gen_from_seq(lrugen.min_seq[type_]);
        let (mut sorted, mut scanned, mut isolated) = (0u64, 0u64, 0u64);
        let mut remaining = MAX_LRU_BATCH;
        let memcg = self.lruvec_memcg(lv);
        for i in (1..=MAX_NR_ZONES).rev() {
            let zone = (sc.reclaim_idx + i) % MAX_NR_ZONES;
            let mut moved: Vec<FolioId> = Vec::new();
            loop {
                let tail = self.lruvecs[lv as usize].lrugen.folios[gen][type_][zone].tail;
                if tail == crate::mm::folio::NIL {
                    break;
                }
                let f = tail;
                scanned += 1;
                if self.sort_folio(lv, f, sc, tier) {
                    sorted += 1;
                } else if self.isolate_folio(f, sc) {
                    list.push(f);
                    isolated += 1;
                } else {
                    self.gen_list_del(lv, f);
                    moved.push(f);
                }
                remaining -= 1;
                if remaining == 0 || isolated.max(moved.len() as u64) >= MIN_LRU_BATCH {
                    break;
                }
            }
            if !moved.is_empty() {
                // list_move() to `moved`, then list_splice(&moved, head):
                // skipped folios return to the head, the last skipped first.
                let n = moved.len() as u64;
                for &f in &moved {
                    self.gen_list_add(lv, f, gen, false);
                }
                self.count(memcg, Item::PgskipDma.plus(zone), n, true);
            }
            if remaining == 0 || isolated >= MIN_LRU_BATCH {
                break;
            }
        }
        let item = if sc.kswapd { Item::PgscanKswapd } else { Item::PgscanDirect };
        let global = !sc.cgroup_reclaim();
        self.count(memcg, item, isolated, global);
        self.count(memcg, Item::Pgrefill, sorted, global);
        // PGSCAN_ANON/FILE count globally, whoever reclaims.
        self.count(memcg, Item::PgscanAnon.plus(type_), isolated, true);
        if type_ == LRU_GEN_FILE {
            sc.nr.file_taken += isolated;
        }
        self.cost_ns += scanned * cost::SCAN_FOLIO_NS;
        if isolated > 0 || remaining == 0 {
            scanned
        } else {
            0
        }
    }

    /// isolate_folios() (<= 6.13): choose the type (swappiness 0 -> file; the
    /// type with the older min_seq; swappiness 1 -> file, 200 -> anon; no
    /// __GFP_IO -> file; else the PID controller), then scan it, falling back
    /// to the other type if nothing was isolated. Returns (scanned, type, tier_idx).
    fn isolate_folios(&mut self, lv: LruvecId, sc: &mut ScanControl, swappiness: u32, list: &mut Vec<FolioId>) -> (u64, usize, usize) {
        let min_seq = self.lruvecs[lv as usize].lrugen.min_seq;
        let mut tier: Option<usize> = None;
        let mut type_ = if swappiness == 0 {
            LRU_GEN_FILE
        } else if min_seq[LRU_GEN_ANON] < min_seq[LRU_GEN_FILE] {
            LRU_GEN_ANON
        } else if swappiness == 1 {
            LRU_GEN_FILE
        } else if swappiness == MAX_SWAPPINESS {
            LRU_GEN_ANON
        } else if !sc.gfp_io {
            LRU_GEN_FILE
        } else {
            let (t, idx) = self.get_type_to_scan(lv, swappiness);
            tier = Some(idx);
            t
        };
        let mut scanned = 0;
        let mut used_tier = 0;
        for _ in usize::from(swappiness == 0)..ANON_AND_FILE {
            let t = tier.unwrap_or_else(|| self.get_tier_idx(lv, type_));
            used_tier = t;
            self.lruvecs[lv as usize].lrugen.tier_idx[type_] = Some(t as u8);
            scanned = self.scan_folios(lv, sc, type_, t, list);
            if scanned > 0 {
                break;
            }
            type_ = 1 - type_;
            tier = None;
        }
        (scanned, type_, used_tier)
    }

    /// evict_folios(): isolate a batch from the oldest generation, reclaim it
    /// with shrink_folio_list(), and put the rest back: a folio marked
    /// PG_reclaim that is dirty or under writeback goes back as it is
    /// (lru_gen_add_folio puts it in max_seq - 1 to wait for its write); any
    /// other rejected folio (active, referenced, mapped, dirty, under
    /// writeback, or on the retry pass) gets PG_active and re-enters at
    /// max_seq; clean unmapped ones are retried once. Returns the folios
    /// scanned.
    pub fn evict_folios(&mut self, lv: LruvecId, sc: &mut ScanControl, swappiness: u32) -> u64 {
        let mut list = Vec::new();
        let (mut scanned, type_, tier_idx) = self.isolate_folios(lv, sc, swappiness, &mut list);
        if self.try_to_inc_min_seq(lv, swappiness != 0) {
            scanned += 1;
        }
        if self.lruvecs[lv as usize].lrugen.nr_gens(usize::from(swappiness == 0)) == MIN_NR_GENS {
            scanned = 0;
        }
        if list.is_empty() {
            return scanned;
        }
        let isolated = list.len() as u64;
        let memcg = self.lruvec_memcg(lv);
        let mut skip_retry = false;
        let mut total_reclaimed = 0;
        let mut rejected = 0;
        loop {
            let reclaimed = self.shrink_folio_list(&mut list, lv, sc);
            sc.nr_reclaimed += reclaimed;
            total_reclaimed += reclaimed;
            let mut clean = Vec::new();
            for &f in list.iter().rev() {
                let fl = self.folios.flags[f as usize];
                if fl & pg::RECLAIM != 0 && fl & (pg::DIRTY | pg::WRITEBACK) != 0 {
                    if fl & pg::WORKINGSET != 0 {
                        self.folios.set(f, pg::REFERENCED);
                    }
                    self.putback(f);
                    continue;
                }
                if skip_retry || fl & (pg::ACTIVE | pg::REFERENCED | pg::MAPPED | pg::DIRTY | pg::WRITEBACK) != 0 {
                    // don't add rejected folios to the oldest generation
                    self.folios.clear(f, pg::REFS_MASK | pg::REFS_FLAGS);
                    self.folios.set(f, pg::ACTIVE);
                    rejected += 1;
                    self.trace(f, "evict_folios", FolioWhat::Rejected);
                    self.putback(f);
                    continue;
                }
                clean.push(f);
            }
            if type_ == super::LRU_GEN_ANON {
                sc.last_evicted_anon = true;
            }
            let item = if sc.kswapd { Item::PgstealKswapd } else { Item::PgstealDirect };
            self.count(memcg, item, reclaimed, !sc.cgroup_reclaim());
            self.count(memcg, Item::PgstealAnon.plus(type_), reclaimed, true);
            if clean.is_empty() {
                break;
            }
            list = clean;
            skip_retry = true;
        }
        let now = self.now_ns;
        self.events.push(now, || EventKind::Evicted {
            lruvec: lv,
            type_,
            tier_idx,
            scanned,
            isolated,
            reclaimed: total_reclaimed,
            rejected,
        });
        scanned
    }

    /// move_folios_to_lru() for one folio: back onto the lruvec it came from.
    fn putback(&mut self, f: FolioId) {
        self.folios.set(f, pg::LRU);
        self.lru_gen_add_folio(f, false);
    }

    /// get_swappiness() (MGLRU): 0 when swapping is not allowed or fewer than
    /// MIN_LRU_BATCH swap slots are free, else the memcg's swappiness.
    pub fn get_swappiness(&self, lv: LruvecId, sc: &ScanControl) -> u32 {
        if !sc.may_swap || self.nr_swap_pages_for(self.lruvec_memcg(lv)) < MIN_LRU_BATCH {
            return 0;
        }
        self.mem_cgroup_swappiness(self.lruvec_memcg(lv))
    }

    /// should_abort_scan() (v6.7+): memcg (non-root) reclaim never aborts, for
    /// fairness; root reclaim stops once nr_to_reclaim is met; kswapd at
    /// order 0 also stops when every eligible zone is above high + 64.
    pub fn should_abort_scan(&self, lv: LruvecId, sc: &ScanControl) -> bool {
        if !sc.root_reclaim() {
            return false;
        }
        if sc.nr_reclaimed >= sc.nr_to_reclaim.max(2 << sc.order) {
            return true;
        }
        if !sc.kswapd || sc.order > 0 {
            return false;
        }
        let node = self.lruvec_node(lv);
        for z in 0..=sc.reclaim_idx {
            let zone = &self.nodes[node].zones[z];
            let mark = zone.watermark[crate::mm::pgdat::WMARK_HIGH] + MIN_LRU_BATCH;
            if zone.managed > 0 && !self.zone_watermark_ok(node, z, 0, mark, sc.reclaim_idx) {
                return false;
            }
        }
        true
    }

    /// try_to_shrink_lruvec(): evict in batches until the lruvec's share at
    /// this priority is scanned, nothing more can be evicted, or reclaim may
    /// stop. Returns true when this memcg should be rotated young (it aged or
    /// is protected).
    pub fn try_to_shrink_lruvec(&mut self, lv: LruvecId, sc: &mut ScanControl) -> bool {
        let swappiness = self.get_swappiness(lv, sc);
        let mut scanned = 0u64;
        let nr_to_scan;
        loop {
            let n = self.get_nr_to_scan(lv, sc, swappiness != 0);
            if n <= 0 {
                nr_to_scan = n;
                break;
            }
            let delta = self.evict_folios(lv, sc, swappiness);
            if delta == 0 {
                nr_to_scan = n;
                break;
            }
            scanned += delta;
            if scanned >= n as u64 || self.should_abort_scan(lv, sc) {
                nr_to_scan = n;
                break;
            }
        }
        // If too many file folios in the oldest generation can't be evicted
        // for being dirty, wake up the flusher ("mm/vmscan: wake up flushers
        // conditionally to avoid cgroup OOM", v6.13, in 6.12.y from 6.12.104;
        // v6.12.0's MGLRU left dirty folios to the flusher's own timers).
        if sc.nr.unqueued_dirty > 0 && sc.nr.unqueued_dirty == sc.nr.file_taken {
            self.wakeup_flusher_threads();
        }
        nr_to_scan < 0
    }

    /// lru_gen_shrink_lruvec(): reclaim of one lruvec outside the memcg LRU
    /// walk (memcg reclaim); an aged lruvec rotates to the young generation
    /// of the memcg LRU.
    pub fn lru_gen_shrink_lruvec(&mut self, lv: LruvecId, sc: &mut ScanControl) {
        // set_mm_walk(NULL, sc->proactive) ... clear_mm_walk().
        sc.mm_walk = sc.kswapd || sc.proactive;
        if self.try_to_shrink_lruvec(lv, sc) && self.knobs.memcg_lru {
            self.lru_gen_rotate_memcg(lv, crate::mm::memcg_lru::MEMCG_LRU_YOUNG);
        }
    }
}
