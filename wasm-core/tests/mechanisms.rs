//! Small hand-computed cases of the kernel rules, one mechanism at a time.
use reclaim_core::mm::filemap::{Op, Slot};
use reclaim_core::mm::folio::{lru_tier_from_refs, order_base_2, pg};
use reclaim_core::mm::lruvec::lru_gen_from_seq;
use reclaim_core::mm::mglru::{positive_ctrl_err, CtrlPos};
use reclaim_core::mm::vmscan::ScanControl;
use reclaim_core::mm::vmstat::Item;
use reclaim_core::mm::workingset::unpack_shadow;
use reclaim_core::mm::{LRU_GEN_ANON, LRU_GEN_FILE};
use reclaim_core::scenario::{MemcgSpec, NodeSpec, Scenario, ZoneSpec};
use reclaim_core::mm::pgdat::ZoneType;
use reclaim_core::sim::Simulation;
use reclaim_core::workload::{FileOp, Pattern, Target, WorkloadSpec};

#[path = "common/lab.rs"]
mod lab;
use lab::*;

#[test]
fn n_fd_accesses_put_a_folio_in_tier_order_base_2_of_n() {
    let mut s = machine(true, None);
    for n in 1..=8u32 {
        let idx = n;
        for _ in 0..n {
            s.mm.access(A, 0, FILE, idx, Op::Read).unwrap();
        }
        let f = folio_at(&s, FILE, idx);
        let tier = lru_tier_from_refs(s.mm.folios.lru_refs(f));
        assert_eq!(tier as u32, order_base_2(u64::from(n)).min(3), "{n} accesses");
    }
    // 1 access: PG_referenced only; 2: + PG_workingset; 5+: counter saturated.
    let f1 = folio_at(&s, FILE, 1);
    assert!(s.mm.folios.test(f1, pg::REFERENCED) && !s.mm.folios.test(f1, pg::WORKINGSET));
    let f2 = folio_at(&s, FILE, 2);
    assert!(s.mm.folios.test(f2, pg::WORKINGSET));
    assert_eq!(s.mm.folios.lru_refs(folio_at(&s, FILE, 8)), 4);
}

/// write() neither reads a whole page it fills nor marks it accessed (v4.7,
/// bbddabe2e436 "mm: filemap: only do access activations on reads"): it
/// only dirties it. A second read() activates (classic) or raises the tier
/// (MGLRU); a second write() does neither.
#[test]
fn writes_dirty_pages_without_reading_or_promoting_them() {
    for lru_gen in [false, true] {
        let mut s = machine(lru_gen, None);
        for _ in 0..4 {
            s.mm.access(A, 0, FILE, 1, Op::Read).unwrap();
            s.mm.access(A, 0, FILE, 2, Op::Write).unwrap();
        }
        let (read, written) = (folio_at(&s, FILE, 1), folio_at(&s, FILE, 2));
        assert_eq!(s.mm.vmstat.get(Item::Pgpgin), 1, "only the read page was read (lru_gen {lru_gen})");
        assert!(s.mm.folios.test(written, pg::DIRTY) && !s.mm.folios.test(written, pg::REFERENCED), "lru_gen {lru_gen}");
        if lru_gen {
            assert_eq!(s.mm.folios.lru_refs(written), 0);
            assert!(s.mm.folios.lru_refs(read) > 0);
        } else {
            assert!(s.mm.folios.test(read, pg::ACTIVE) && !s.mm.folios.test(written, pg::ACTIVE));
        }
    }
}

/// filemap_add_folio(): `if (!(gfp & __GFP_WRITE) && shadow)
/// workingset_refault()`: write() into an evicted page (FGP_WRITE, so
/// __GFP_WRITE) drops its shadow without counting a refault or activating
/// anything, on both LRUs; a read of another evicted page is a refault.
#[test]
fn rewriting_an_evicted_page_is_no_refault() {
    for lru_gen in [false, true] {
        let mut s = machine(lru_gen, Some(512));
        for i in 0..2000 {
            s.mm.access(A, 0, FILE, i, Op::Read).unwrap();
        }
        let shadows: Vec<u32> = (0..2000).filter(|&i| matches!(s.mm.slot(FILE, i), Slot::Shadow(_))).take(2).collect();
        assert_eq!(shadows.len(), 2, "lru_gen {lru_gen}: evicted pages left shadows");
        let counts = |s: &Simulation| (s.mm.vmstat.get(Item::WorkingsetRefaultFile), s.mm.vmstat.get(Item::WorkingsetActivateFile), s.mm.vmstat.get(Item::WorkingsetRestoreFile));
        let before = counts(&s);
        s.mm.access(A, 0, FILE, shadows[0], Op::Write).unwrap();
        assert!(matches!(s.mm.slot(FILE, shadows[0]), Slot::Folio(_)), "lru_gen {lru_gen}: the written page is cached again");
        assert_eq!(counts(&s), before, "lru_gen {lru_gen}: a rewrite is no refault");
        s.mm.access(A, 0, FILE, shadows[1], Op::Read).unwrap();
        assert_eq!(counts(&s).0, before.0 + 1, "lru_gen {lru_gen}: a read of an evicted page is");
    }
}

/// lru_gen_look_around() (v6.12) on a young neighbour already in max_seq:
/// with an mm walk, folio_update_gen() rewrites its generation and clears
/// its refs (PG_referenced, PG_workingset); without one, the kernel only
/// acts on a folio outside max_seq (folio_activate), so the neighbour keeps
/// its refs. Either way its accessed bit is cleared.
#[test]
fn look_around_without_a_walk_leaves_a_max_seq_neighbour_alone() {
    for walk in [false, true] {
        let mut s = machine(true, None);
        for idx in 0..3 {
            s.mm.access(A, 0, ANON, idx, Op::Store).unwrap();
        }
        let (f, neighbour) = (folio_at(&s, ANON, 0), folio_at(&s, ANON, 1));
        let gen = s.mm.folios.lru_gen(neighbour);
        assert!(s.mm.folios.test(neighbour, pg::YOUNG | pg::MAPPED), "a store leaves the PTE young");
        s.mm.folios.set(neighbour, pg::REFERENCED | pg::WORKINGSET);
        let activations = s.mm.vmstat.get(Item::Pgactivate);
        s.mm.lru_gen_look_around(f, walk);
        assert!(!s.mm.folios.test(neighbour, pg::YOUNG), "walk {walk}: the accessed bit is harvested");
        assert_eq!(s.mm.folios.lru_gen(neighbour), gen, "walk {walk}: still in max_seq");
        let refs_kept = s.mm.folios.test(neighbour, pg::REFERENCED) && s.mm.folios.test(neighbour, pg::WORKINGSET);
        assert_eq!(refs_kept, !walk, "walk {walk}: refs kept only without a walk");
        assert_eq!(s.mm.vmstat.get(Item::Pgactivate), activations, "walk {walk}: nothing activated");
    }
}

/// set_mm_walk(NULL, true) in try_to_inc_max_seq(): a reclaimer without a
/// walk of its own (direct or memcg-limit reclaim) gets one when it ages,
/// and keeps it for the rest of the call, so later look-arounds promote in
/// place; lru_gen_shrink_lruvec() starts a call with kswapd's or proactive
/// reclaim's walk only (clear_mm_walk at the end of the last).
#[test]
fn aging_leaves_a_reclaimer_its_mm_walk_for_the_rest_of_the_call() {
    use reclaim_core::mm::DEF_PRIORITY;
    let mut s = machine(true, None);
    let lv = s.mm.lruvec_id(A, 0);
    // An empty lruvec with two generations left: out of cold folios, so it must age.
    s.mm.lruvecs[lv as usize].lrugen.min_seq = [2, 2];
    let mut sc = ScanControl::new(32, Some(A));
    sc.priority = DEF_PRIORITY - 1;
    assert!(!sc.mm_walk, "direct and limit reclaim start without a walk");
    assert_eq!(s.mm.get_nr_to_scan(lv, &mut sc, true), -1, "it aged");
    assert_eq!(s.mm.lruvecs[lv as usize].lrugen.max_seq, 4);
    assert!(sc.mm_walk, "aging left its walk");
    // The next call starts again without one (this one has nothing to age: no pages at all).
    s.mm.lruvecs[lv as usize].lrugen.min_seq = [4, 4];
    s.mm.lruvecs[lv as usize].lrugen.max_seq = 7;
    s.mm.lru_gen_shrink_lruvec(lv, &mut sc);
    assert!(!sc.mm_walk, "clear_mm_walk() at the end of the last call; no aging in this one");
}

/// The page-table walk's queue is MGLRU's: the classic LRU reads the
/// accessed bit in folio_referenced(), so nothing would ever drain it.
#[test]
fn only_mglru_queues_young_folios_for_a_walk() {
    for lru_gen in [false, true] {
        let mut s = machine(lru_gen, None);
        for idx in 0..64 {
            s.mm.access(A, 0, ANON, idx, Op::Store).unwrap();
            s.mm.access(A, 0, ANON, idx, Op::Load).unwrap();
        }
        let lv = s.mm.lruvec_id(A, 0);
        let queued = s.mm.lruvecs[lv as usize].mm_walk.len();
        assert_eq!(queued > 0, lru_gen, "lru_gen {lru_gen}: {queued} queued");
    }
}

#[test]
fn page_cache_reads_land_in_an_old_generation_faults_in_the_youngest() {
    let mut s = machine(true, None);
    s.mm.access(A, 0, FILE, 0, Op::Read).unwrap();
    s.mm.access(A, 0, ANON, 0, Op::Store).unwrap();
    let lv = s.mm.lruvec_id(A, 0);
    let g = &s.mm.lruvecs[lv as usize].lrugen;
    // A fresh lruvec has max_seq 3, min_seq 0: read() -> min_seq + 1, a fault -> max_seq.
    assert_eq!(s.mm.folios.lru_gen(folio_at(&s, FILE, 0)), Some(lru_gen_from_seq(g.min_seq[LRU_GEN_FILE] + 1)));
    assert_eq!(s.mm.folios.lru_gen(folio_at(&s, ANON, 0)), Some(lru_gen_from_seq(g.max_seq)));
}

/// MGLRU: 100 anon pages of /a faulted in (max_seq = 3), then aged three
/// times so that they sit in the oldest generation (min_seq 3 after
/// inc_min_seq moves them), without harvesting their accessed bits.
fn hundred_anon_pages_in_the_oldest_generation() -> (Simulation, reclaim_core::mm::LruvecId) {
    let mut s = machine(true, None);
    let lv = s.mm.lruvec_id(A, 0);
    for i in 0..100 {
        s.mm.access(A, 0, ANON, i, Op::Load).unwrap();
    }
    for _ in 0..3 {
        let max_seq = s.mm.lruvecs[lv as usize].lrugen.max_seq;
        // Age without harvesting accessed bits: clear the walk queue first.
        s.mm.lruvecs[lv as usize].mm_walk.clear();
        assert!(s.mm.inc_max_seq(lv, max_seq, true, true));
    }
    (s, lv)
}

/// A young mapped folio that eviction isolates is rejected and re-enters at
/// max_seq (folio_check_references -> KEEP with PG_referenced, then
/// evict_folios: "don't add rejected folios to the oldest generation").
#[test]
fn rejected_young_mapped_folio_reenters_at_max_seq() {
    let (mut s, lv) = hundred_anon_pages_in_the_oldest_generation();
    let young = folio_at(&s, ANON, 7);
    let g = &s.mm.lruvecs[lv as usize].lrugen;
    assert_eq!(s.mm.folios.lru_gen(young), Some(lru_gen_from_seq(g.min_seq[LRU_GEN_ANON])));
    // Only page 7 is young again; the rest are cold.
    for i in 0..100 {
        let f = folio_at(&s, ANON, i);
        s.mm.folios.clear(f, pg::YOUNG);
    }
    s.mm.folios.set(young, pg::YOUNG);
    let mut sc = ScanControl::new(32, Some(A));
    let before = s.mm.vmstat.get(Item::Pgactivate);
    s.mm.evict_folios(lv, &mut sc, 200);
    let g = &s.mm.lruvecs[lv as usize].lrugen;
    assert_eq!(s.mm.folios.lru_gen(young), Some(lru_gen_from_seq(g.max_seq)), "the young folio re-entered at max_seq");
    // folio_check_references() (v6.12) KEEPs a folio with one young mapping:
    // no PGACTIVATE, the rejection is evict_folios' (PG_referenced).
    assert_eq!(s.mm.vmstat.get(Item::Pgactivate), before);
    assert!(sc.nr_pageout > 0, "cold neighbours were written to swap");
}

/// shrink_folio_list() (v6.1+): "folio_update_gen() tried to promote this
/// page?" When the first of two adjacent young pages in one batch is
/// checked, lru_gen_look_around() finds the second young but off the LRU
/// (isolated in the same batch): it clears the accessed bit and sets
/// PG_referenced. The second is then kept for that, though its PTE is no
/// longer young, and both re-enter at max_seq; none is swapped out.
#[test]
fn a_young_neighbour_isolated_in_the_same_batch_is_kept() {
    let (mut s, lv) = hundred_anon_pages_in_the_oldest_generation();
    for i in 0..100 {
        let f = folio_at(&s, ANON, i);
        s.mm.folios.clear(f, pg::YOUNG);
    }
    let pair = [folio_at(&s, ANON, 7), folio_at(&s, ANON, 8)];
    for f in pair {
        s.mm.folios.set(f, pg::YOUNG);
    }
    let mut sc = ScanControl::new(32, Some(A));
    s.mm.evict_folios(lv, &mut sc, 200);
    assert!(sc.nr_pageout > 0, "cold pages of the batch were written to swap");
    let max_seq = s.mm.lruvecs[lv as usize].lrugen.max_seq;
    for (i, f) in pair.into_iter().enumerate() {
        assert!(!s.mm.folios.test(f, pg::SWAPCACHE), "page {} was swapped out", 7 + i);
        assert_eq!(s.mm.folios.lru_gen(f), Some(lru_gen_from_seq(max_seq)), "page {} re-entered at max_seq", 7 + i);
    }
}

#[test]
fn positive_ctrl_err_hand_computed() {
    // pv.refaulted < MIN_LRU_BATCH (64): always positive.
    let sp = CtrlPos { refaulted: 1000, total: 1000, gain: 1 };
    assert!(positive_ctrl_err(&sp, &CtrlPos { refaulted: 63, total: 64, gain: 1 }));
    // pv rate 100/1000 vs sp rate 200/1000, equal gains: 100*(1000+64)*1 <= 201*1000*1 -> true.
    let sp = CtrlPos { refaulted: 200, total: 1000, gain: 1 };
    assert!(positive_ctrl_err(&sp, &CtrlPos { refaulted: 100, total: 1000, gain: 1 }));
    // pv rate 300/1000 > sp 200/1000 -> false; but a pv gain of 2 tolerates it.
    assert!(!positive_ctrl_err(&sp, &CtrlPos { refaulted: 300, total: 1000, gain: 1 }));
    assert!(positive_ctrl_err(&sp, &CtrlPos { refaulted: 300, total: 1000, gain: 2 }));
}

/// The PID controller turns to file when anon refaults more, and back to
/// anon when file refaults more (get_type_to_scan, swappiness 100: equal gains).
#[test]
fn pid_controller_turns_to_file_when_anon_refaults_more() {
    let mut s = machine(true, None);
    let lv = s.mm.lruvec_id(A, 0);
    let g = &mut s.mm.lruvecs[lv as usize].lrugen;
    g.avg_total[LRU_GEN_ANON][0] = 10_000;
    g.avg_refaulted[LRU_GEN_ANON][0] = 5_000;
    g.avg_total[LRU_GEN_FILE][0] = 10_000;
    g.avg_refaulted[LRU_GEN_FILE][0] = 500;
    assert_eq!(s.mm.get_type_to_scan(lv, 100).0, LRU_GEN_FILE);
    let g = &mut s.mm.lruvecs[lv as usize].lrugen;
    g.avg_refaulted[LRU_GEN_ANON][0] = 500;
    g.avg_refaulted[LRU_GEN_FILE][0] = 5_000;
    assert_eq!(s.mm.get_type_to_scan(lv, 100).0, LRU_GEN_ANON);
    // Swappiness moves the balance: at 10, anon's gain is 10 and file's 190,
    // so anon must refault 19x less than file before it is chosen.
    assert_eq!(s.mm.get_type_to_scan(lv, 10).0, LRU_GEN_FILE);
}

/// get_tier_idx(): tiers whose refault rate is at most about twice tier 0's
/// are evicted with it; a tier refaulting more is protected.
#[test]
fn tier_idx_protects_tiers_that_refault_more() {
    let mut s = machine(true, None);
    let lv = s.mm.lruvec_id(A, 0);
    let g = &mut s.mm.lruvecs[lv as usize].lrugen;
    for t in 0..4 {
        g.avg_total[LRU_GEN_FILE][t] = 10_000;
        g.avg_refaulted[LRU_GEN_FILE][t] = 1_000;
    }
    assert_eq!(s.mm.get_tier_idx(lv, LRU_GEN_FILE), 3, "equal rates: no tier protected");
    s.mm.lruvecs[lv as usize].lrugen.avg_refaulted[LRU_GEN_FILE][2] = 2_500;
    assert_eq!(s.mm.get_tier_idx(lv, LRU_GEN_FILE), 1, "tier 2 refaults 2.5x tier 0: tiers >= 2 protected");
}

/// The Tiers view marks the tiers sort_folio protects: those above the
/// tier_idx their type was last scanned with (here get_tier_idx's: at
/// swappiness 0 isolate_folios scans file without asking get_type_to_scan).
#[test]
fn the_tiers_view_marks_the_tiers_above_the_last_scans_tier_idx() {
    let mut s = machine(true, None);
    for i in 0..600 {
        s.mm.access(A, 0, FILE, i, Op::Read).unwrap();
    }
    let lv = s.mm.lruvec_id(A, 0);
    let marked = |s: &Simulation, kind: reclaim_core::view::FolioType| -> Vec<bool> {
        let path = &s.mm.memcgs[A as usize].path;
        let frame = s.frame();
        let view = frame.lruvecs.iter().find(|l| &l.memcg == path && l.node == 0).unwrap();
        view.tiers.iter().filter(|t| t.kind == kind).map(|t| t.above_tier_idx).collect()
    };
    assert_eq!(marked(&s, reclaim_core::view::FolioType::File), [false; 4], "no tier is marked before the first scan");
    let g = &mut s.mm.lruvecs[lv as usize].lrugen;
    for t in 0..4 {
        g.avg_total[LRU_GEN_FILE][t] = 10_000;
        g.avg_refaulted[LRU_GEN_FILE][t] = 1_000;
    }
    g.avg_refaulted[LRU_GEN_FILE][2] = 2_500;
    let mut sc = ScanControl::new(32, Some(A));
    assert!(s.mm.evict_folios(lv, &mut sc, 0) > 0, "a batch was scanned");
    assert_eq!(s.mm.lruvecs[lv as usize].lrugen.tier_idx[LRU_GEN_FILE], Some(1), "tier 2 refaults 2.5x tier 0");
    assert_eq!(marked(&s, reclaim_core::view::FolioType::File), [false, false, true, true]);
    assert_eq!(marked(&s, reclaim_core::view::FolioType::Anon), [false; 4], "anon was not scanned");
}

/// MGLRU refault: recent only while the eviction generation is still the oldest.
#[test]
fn lru_gen_refault_is_recent_only_within_the_oldest_generation() {
    let mut s = machine(true, Some(512));
    // Stream the file: memory.max 512 forces eviction.
    for i in 0..2000 {
        s.mm.access(A, 0, FILE, i, Op::Read).unwrap();
    }
    let lv = s.mm.lruvec_id(A, 0);
    let activate0 = s.mm.vmstat.get(Item::WorkingsetActivateFile);
    let refault0 = s.mm.vmstat.get(Item::WorkingsetRefaultFile);
    // The most recently evicted page left a shadow with the current min_seq.
    let min_seq = s.mm.lruvecs[lv as usize].lrugen.min_seq[LRU_GEN_FILE];
    let recent_idx = (0..2000).rev().find(|&i| matches!(s.mm.slot(FILE, i), Slot::Shadow(_))).unwrap();
    s.mm.access(A, 0, FILE, recent_idx, Op::Read).unwrap();
    assert_eq!(s.mm.vmstat.get(Item::WorkingsetRefaultFile), refault0 + 1);
    assert_eq!(s.mm.lruvecs[lv as usize].lrugen.min_seq[LRU_GEN_FILE], min_seq);
    assert_eq!(s.mm.vmstat.get(Item::WorkingsetActivateFile), activate0 + 1, "evicted from the current oldest generation: recent");
    // Another page evicted from that same generation: once aging retires the
    // generation (min_seq advances), its refault is no longer recent.
    let old_idx = (0..recent_idx).rev().find(|&i| matches!(s.mm.slot(FILE, i), Slot::Shadow(_))).unwrap();
    while s.mm.lruvecs[lv as usize].lrugen.min_seq[LRU_GEN_FILE] == min_seq {
        let max_seq = s.mm.lruvecs[lv as usize].lrugen.max_seq;
        assert!(s.mm.inc_max_seq(lv, max_seq, true, true));
    }
    s.mm.access(A, 0, FILE, old_idx, Op::Read).unwrap();
    assert_eq!(s.mm.vmstat.get(Item::WorkingsetRefaultFile), refault0 + 2);
    assert_eq!(s.mm.vmstat.get(Item::WorkingsetActivateFile), activate0 + 1, "its generation is gone: not recent");
}

/// try_to_inc_max_seq() without swap skips anon memory (should_skip_vma,
/// get_pfn_folio): a young anon folio keeps its accessed bit and its
/// generation, and is promoted by the first walk that may swap.
#[test]
fn the_aging_walk_skips_anon_when_it_cannot_swap() {
    let mut s = machine(true, None);
    let lv = s.mm.lruvec_id(A, 0);
    s.mm.access(A, 0, ANON, 0, Op::Load).unwrap();
    let f = folio_at(&s, ANON, 0);
    let seq = s.mm.lruvecs[lv as usize].lrugen.max_seq;
    // Age once without walking (the fault's young bit cleared), then touch it again.
    s.mm.lruvecs[lv as usize].mm_walk.clear();
    s.mm.folios.clear(f, pg::WALK_QUEUED | pg::YOUNG);
    assert!(s.mm.inc_max_seq(lv, seq, true, true));
    s.mm.access(A, 0, ANON, 0, Op::Load).unwrap();
    assert!(s.mm.folios.test(f, pg::YOUNG));
    let gen_before = s.mm.folios.lru_gen(f);
    let max_seq = s.mm.lruvecs[lv as usize].lrugen.max_seq;
    assert!(s.mm.try_to_inc_max_seq(lv, max_seq, false, true));
    assert_eq!(s.mm.folios.lru_gen(f), gen_before, "not promoted without swap");
    assert!(s.mm.folios.test(f, pg::YOUNG), "its accessed bit is left set");
    let max_seq = s.mm.lruvecs[lv as usize].lrugen.max_seq;
    assert!(s.mm.try_to_inc_max_seq(lv, max_seq, true, true));
    assert_eq!(s.mm.folios.lru_gen(f), Some(lru_gen_from_seq(max_seq)), "promoted by the walk that may swap");
    assert!(!s.mm.folios.test(f, pg::YOUNG));
}

/// lru_gen_look_around(): young neighbours go to max_seq either way; without
/// an mm walk (direct and memcg-limit reclaim) through folio_activate(),
/// which counts PGACTIVATE, with one (kswapd, proactive) in place, uncounted.
#[test]
fn look_around_counts_pgactivate_only_without_an_mm_walk() {
    for walk in [false, true] {
        let mut s = machine(true, None);
        let lv = s.mm.lruvec_id(A, 0);
        for i in 0..20 {
            s.mm.access(A, 0, ANON, i, Op::Load).unwrap();
        }
        let seq = s.mm.lruvecs[lv as usize].lrugen.max_seq;
        s.mm.lruvecs[lv as usize].mm_walk.clear();
        assert!(s.mm.inc_max_seq(lv, seq, true, true));
        // Pages 3 and 5 are young again; the rest are not.
        for i in 0..20 {
            let f = folio_at(&s, ANON, i);
            s.mm.folios.clear(f, pg::YOUNG | pg::WALK_QUEUED);
        }
        for i in [3, 5] {
            let f = folio_at(&s, ANON, i);
            s.mm.folios.set(f, pg::YOUNG);
        }
        let before = s.mm.vmstat.get(Item::Pgactivate);
        s.mm.lru_gen_look_around(folio_at(&s, ANON, 4), walk);
        let max_seq = s.mm.lruvecs[lv as usize].lrugen.max_seq;
        for i in [3, 5] {
            assert_eq!(s.mm.folios.lru_gen(folio_at(&s, ANON, i)), Some(lru_gen_from_seq(max_seq)), "walk {walk}: page {i}");
        }
        assert_eq!(s.mm.vmstat.get(Item::Pgactivate) - before, if walk { 0 } else { 2 }, "walk {walk}");
    }
}

/// isolate_lru_folios(): folios of zones above reclaim_idx are skipped
/// (PGSKIP) onto folios_skipped with list_move() and spliced back to the
/// head of the list with list_splice(), so the folio skipped last ends at
/// the head: the skipped run comes back in reverse, ahead of the folios
/// that were already at the head.
#[test]
fn skipped_folios_go_back_to_the_head_the_last_skipped_first() {
    use reclaim_core::mm::lruvec::LRU_INACTIVE_FILE;
    let mut s = Simulation::new(Scenario {
        nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Dma32, pages: 4096 }, ZoneSpec { zone: ZoneType::Normal, pages: 4096 }] }],
        swap_pages: 0,
        workloads: vec![WorkloadSpec::new("file", "/a", Pattern::Uniform {}, Target::File { pages: 8192, op: FileOp::Read, file: None, write_percent: 0 })],
        ..scenario(false, None)
    })
    .unwrap();
    for i in 0..6000 {
        s.mm.access(A, 0, FILE, i, Op::Read).unwrap();
    }
    let lv = s.mm.lruvec_id(A, 0);
    let list = |s: &Simulation| s.mm.lruvecs[lv as usize].lists[LRU_INACTIVE_FILE].iter(&s.mm.folios).collect::<Vec<_>>();
    let normal = ZoneType::Normal as usize;
    let before = list(&s);
    // From the tail: the ZONE_NORMAL folios a 32-folio scan of ZONE_DMA32 passes over.
    let mut skipped = Vec::new();
    let mut eligible = 0;
    for &f in before.iter().rev() {
        if s.mm.folios.zone(f) == normal {
            skipped.push(f);
        } else {
            eligible += 1;
            if eligible == 32 {
                break;
            }
        }
    }
    assert!(skipped.len() > 32, "the tail holds ZONE_NORMAL folios ({} of them)", skipped.len());
    let pgskip = s.mm.vmstat.get(Item::PgskipNormal);
    let mut sc = ScanControl::new(32, Some(A));
    sc.reclaim_idx = ZoneType::Dma32 as usize;
    s.mm.shrink_inactive_list(32, lv, &mut sc, LRU_INACTIVE_FILE);
    assert_eq!(s.mm.vmstat.get(Item::PgskipNormal) - pgskip, skipped.len() as u64);
    let after = list(&s);
    let expected: Vec<u32> = skipped.iter().rev().copied().collect();
    assert_eq!((after[0], after[skipped.len() - 1]), (expected[0], expected[skipped.len() - 1]), "the last skipped at the head, the first skipped last");
    assert!(after[..skipped.len()] == expected[..], "the skipped run comes back in reverse");
    assert_eq!(after[skipped.len()], before[0], "ahead of the old head");
}

/// lru_gen_online_memcg(): one bin is drawn per memcg
/// (get_random_u32_below before for_each_node), so a memcg's lruvecs join
/// the same bin of the memcg LRU on every node.
#[test]
fn a_new_memcg_joins_the_same_bin_on_every_node() {
    let node = || NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 4096 }] };
    // /a (the workloads' memcg) and 15 more.
    let memcgs = (0..16).map(|i| MemcgSpec { path: if i == 0 { "/a".into() } else { format!("/m{i}") }, ..Default::default() }).collect();
    let s = Simulation::new(Scenario { nodes: vec![node(), node(), node()], memcgs, ..scenario(true, None) }).unwrap();
    let bins = |memcg: u16| -> Vec<usize> {
        (0..3)
            .map(|n| {
                let lv = s.mm.lruvec_id(memcg, n);
                let lru = &s.mm.nodes[n].memcg_lru;
                let found = lru.fifo.iter().flat_map(|gen| gen.iter().enumerate()).find(|(_, fifo)| fifo.contains(&lv));
                found.expect("every lruvec is on its node's memcg LRU").0
            })
            .collect()
    };
    let mut distinct = std::collections::BTreeSet::new();
    for memcg in 1..=16u16 {
        let b = bins(memcg);
        assert!(b.iter().all(|&x| x == b[0]), "memcg {memcg}: bins {b:?} on nodes 0-2");
        distinct.insert(b[0]);
    }
    assert!(distinct.len() > 1, "the bins are drawn at random: {distinct:?}");
}

/// With more memory than a shadow's timestamp can count page by page,
/// workingset_eviction() keeps nonresident_age >> bucket_order and
/// workingset_test_recent() shifts it back (`eviction <<= bucket_order`), so
/// the refault distance is in pages, as the workingset size it is compared
/// with: here 1,000 pages of aging read as 1,000 (to within one 16-page
/// bucket), not as 1,000 / 16 buckets.
#[test]
fn the_refault_distance_is_in_pages_whatever_the_bucket_order() {
    for (totalram, order) in [(8192u64, 0u32), (1 << 44, 4)] {
        let mut s = machine(false, None);
        s.mm.totalram_pages = totalram;
        assert_eq!(s.mm.bucket_order(), order);
        let lv = s.mm.lruvec_id(A, 0);
        s.mm.workingset_age_nonresident(lv, 12_345);
        s.mm.access(A, 0, FILE, 0, Op::Read).unwrap();
        let shadow = unpack_shadow(s.mm.workingset_eviction(folio_at(&s, FILE, 0), A));
        s.mm.workingset_age_nonresident(lv, 999);
        let d = s.mm.workingset_distance(&shadow);
        assert!((1000..1000 + (1 << order)).contains(&d), "bucket_order {order}: distance {d}");
    }
}
