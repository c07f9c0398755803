//! Small hand-computed cases of the kernel rules outside MGLRU: the classic LRU, direct reclaim, writeback, swap and memcg protection.
use reclaim_core::mm::filemap::{Op, Slot};
use reclaim_core::mm::folio::pg;
use reclaim_core::mm::lruvec::lru_gen_from_seq;
use reclaim_core::mm::vmscan::ScanControl;
use reclaim_core::mm::vmstat::Item;
use reclaim_core::mm::workingset::Shadow;
use reclaim_core::mm::LRU_GEN_FILE;
use reclaim_core::scenario::{NodeSpec, Scenario, ZoneSpec};
use reclaim_core::mm::pgdat::ZoneType;
use reclaim_core::sim::Simulation;
use reclaim_core::workload::{FileOp, Pattern, Target, WorkloadSpec};

#[path = "common/lab.rs"]
mod lab;
use lab::*;

/// Classic workingset_test_recent(): a refault distance within the
/// workingset size (active file, no swap for this case... plus anon with swap)
/// is recent; beyond it is not.
#[test]
fn classic_refault_within_workingset_is_activated_beyond_is_not() {
    let mut s = machine(false, None);
    // 100 file pages read twice: activated (active_file = 100).
    for _ in 0..2 {
        for i in 0..100 {
            s.mm.access(A, 0, FILE, i, Op::Read).unwrap();
        }
    }
    let lv = s.mm.lruvec_id(A, 0) as usize;
    assert_eq!(s.mm.lruvecs[lv].lru_size(reclaim_core::mm::lruvec::LRU_ACTIVE_FILE), 100);
    // With swap available the anon lists count too; there is no anon here.
    s.mm.lruvecs[lv].nonresident_age = 10_000;
    let shadow = |eviction| Shadow { memcg: A, node: 0, eviction, workingset: false };
    assert!(s.mm.workingset_test_recent(&shadow(10_000 - 100), true), "distance 100 <= 100");
    assert!(!s.mm.workingset_test_recent(&shadow(10_000 - 101), true), "distance 101 > 100");
    // End to end: evict a folio by memcg reclaim, refault it at once: activated.
    s.mm.memcgs[A as usize].memory_max = 150;
    for i in 100..400 {
        s.mm.access(A, 0, FILE, i, Op::Read).unwrap();
    }
    let evicted = (100..400).find(|&i| matches!(s.mm.slot(FILE, i), Slot::Shadow(_))).expect("something was evicted");
    let act = s.mm.vmstat.get(Item::WorkingsetActivateFile);
    s.mm.access(A, 0, FILE, 399, Op::Read).unwrap(); // resident: no refault
    let ws_size = s.mm.lruvecs[lv].lru_size(reclaim_core::mm::lruvec::LRU_ACTIVE_FILE);
    s.mm.access(A, 0, FILE, evicted, Op::Read).unwrap();
    let f = folio_at(&s, FILE, evicted);
    let recent = s.mm.vmstat.get(Item::WorkingsetActivateFile) > act;
    assert!(ws_size > 0);
    assert_eq!(recent, s.mm.folios.test(f, pg::ACTIVE), "activation follows the refault decision");
}

/// Classic folio_mark_accessed(): the second access activates.
#[test]
fn classic_mark_accessed_activates_on_the_second_access() {
    let mut s = machine(false, None);
    s.mm.access(A, 0, FILE, 5, Op::Read).unwrap();
    let f = folio_at(&s, FILE, 5);
    assert!(s.mm.folios.test(f, pg::REFERENCED) && !s.mm.folios.test(f, pg::ACTIVE));
    s.mm.access(A, 0, FILE, 5, Op::Read).unwrap();
    assert!(s.mm.folios.test(f, pg::ACTIVE) && !s.mm.folios.test(f, pg::REFERENCED));
    assert_eq!(s.mm.vmstat.get(Item::Pgactivate), 1);
}

/// do_try_to_free_pages() (v6.12): direct reclaim that frees nothing with
/// partial memcg walks retries once with full walks (sc->memcg_full_walk),
/// and the retry counts ALLOCSTALL again; kernels without partial walks
/// (the `memcg_full_walk` knob, v6.10 and older) try once.
#[test]
fn failed_direct_reclaim_retries_with_full_memcg_walks_and_counts_each_try() {
    for (full_walk_kernel, tries) in [(false, 2), (true, 1)] {
        for lru_gen in [true, false] {
            let mut s = machine(lru_gen, None);
            s.mm.knobs.memcg_full_walk = full_walk_kernel;
            // Nothing is on any LRU yet: every pass reclaims nothing.
            let normal = ZoneType::Normal as usize;
            assert_eq!(s.mm.try_to_free_pages(A, normal), 0);
            assert_eq!(
                s.mm.vmstat.get(Item::AllocstallNormal),
                tries,
                "lru_gen {lru_gen}, full-walk kernel {full_walk_kernel}"
            );
        }
    }
}

/// mem_cgroup_below_min()/below_low() compare the protection with the usage
/// (`emin >= usage`): an empty memcg counts as protected, so shrink_one
/// rotates it young instead of shrinking it; one page of usage ends that.
#[test]
fn an_empty_memcg_is_below_min_and_low_until_it_is_charged() {
    let mut s = machine(true, None);
    assert!(s.mm.mem_cgroup_below_min(None, A) && s.mm.mem_cgroup_below_low(None, A));
    // The reclaim target itself and the root are never protected.
    assert!(!s.mm.mem_cgroup_below_min(Some(A), A) && !s.mm.mem_cgroup_below_min(None, 0));
    s.mm.access(A, 0, FILE, 0, Op::Read).unwrap();
    assert!(!s.mm.mem_cgroup_below_min(None, A) && !s.mm.mem_cgroup_below_low(None, A));
}

/// shrink_folio_list() (v6.12) looks at dirty and writeback state before
/// folio_check_references(): page cache under writeback is activated with
/// PG_reclaim and its PG_referenced left alone; a dirty folio counts as
/// unqueued dirty whatever its references, and is activated (PGACTIVATE)
/// with PG_reclaim for the flusher.
#[test]
fn writeback_and_dirty_page_cache_are_checked_before_references() {
    let mut s = machine(false, None);
    let lv = s.mm.lruvec_id(A, 0);
    s.mm.access(A, 0, FILE, 0, Op::Read).unwrap();
    s.mm.access(A, 0, FILE, 1, Op::Write).unwrap();
    let (wb, dirty) = (folio_at(&s, FILE, 0), folio_at(&s, FILE, 1));
    s.mm.folios.set(wb, pg::WRITEBACK | pg::REFERENCED);
    s.mm.folios.set(dirty, pg::REFERENCED);
    assert!(s.mm.folios.test(dirty, pg::DIRTY));
    let mut sc = ScanControl::new(32, Some(A));
    let before = s.mm.vmstat.get(Item::Pgactivate);
    let mut list = vec![wb, dirty];
    assert_eq!(s.mm.shrink_folio_list(&mut list, lv, &mut sc), 0);
    assert_eq!(list, vec![wb, dirty], "both kept for the caller to put back");
    for f in [wb, dirty] {
        assert!(s.mm.folios.test(f, pg::RECLAIM | pg::ACTIVE), "PG_reclaim and PG_active on {f}");
    }
    assert!(s.mm.folios.test(wb, pg::REFERENCED), "writeback is checked before folio_referenced clears anything");
    assert_eq!(s.mm.vmstat.get(Item::Pgactivate) - before, 2, "activate_locked counts both");
    assert_eq!(sc.nr.unqueued_dirty, 1, "the dirty folio, not the one under writeback");
}

/// folio_end_writeback() -> folio_rotate_reclaimable() -> lru_move_tail():
/// a folio reclaim marked PG_reclaim goes, once written, to the tail of the
/// inactive list (the oldest generation with MGLRU) and PGROTATED counts it;
/// a folio written back without PG_reclaim stays put.
#[test]
fn written_back_folios_marked_for_reclaim_rotate_to_the_tail() {
    use reclaim_core::mm::lruvec::LRU_INACTIVE_FILE;
    for lru_gen in [false, true] {
        let mut s = machine(lru_gen, None);
        for idx in 0..3 {
            s.mm.access(A, 0, FILE, idx, Op::Write).unwrap();
        }
        // Page 2 went on the list last, at its head, page 0 at its tail.
        let (marked, plain) = (folio_at(&s, FILE, 2), folio_at(&s, FILE, 0));
        s.mm.folios.set(marked, pg::RECLAIM);
        let lv = s.mm.lruvec_id(A, 0) as usize;
        let zone = ZoneType::Normal as usize;
        let tail = |s: &Simulation| {
            let l = &s.mm.lruvecs[lv];
            if lru_gen {
                let seq = l.lrugen.min_seq[LRU_GEN_FILE];
                l.lrugen.folios[lru_gen_from_seq(seq)][LRU_GEN_FILE][zone].tail
            } else {
                l.lists[LRU_INACTIVE_FILE].tail
            }
        };
        assert_ne!(tail(&s), marked, "lru_gen {lru_gen}: not at the tail before");
        let before = s.mm.vmstat.get(Item::Pgrotated);
        s.mm.wakeup_flusher_threads();
        s.mm.writeback_complete_until(u64::MAX);
        assert!(!s.mm.folios.test(marked, pg::WRITEBACK | pg::DIRTY | pg::RECLAIM), "lru_gen {lru_gen}");
        assert_eq!(tail(&s), marked, "lru_gen {lru_gen}: rotated to the tail to be reclaimed next");
        assert_ne!(tail(&s), plain);
        assert_eq!(s.mm.vmstat.get(Item::Pgrotated) - before, 1, "lru_gen {lru_gen}: the marked folio alone");
        assert_eq!(s.mm.memcgs[A as usize].stat.get(Item::Pgrotated), 0, "memory.stat has no pgrotated");
        if let Err(e) = s.check_invariants() {
            panic!("lru_gen {lru_gen}: {e}");
        }
    }
}

/// Swaps out anon pages 0..n of /a with the classic LRU: mapped once, their
/// accessed bits cleared, then shrink_folio_list (add_to_swap, pageout).
fn swap_out_anon(s: &mut Simulation, n: u32) {
    let lv = s.mm.lruvec_id(A, 0);
    let mut list: Vec<u32> = (0..n)
        .map(|i| {
            s.mm.access(A, 0, ANON, i, Op::Load).unwrap();
            let f = folio_at(s, ANON, i);
            s.mm.folios.clear(f, pg::YOUNG | pg::REFERENCED);
            f
        })
        .collect();
    let mut sc = ScanControl::new(u64::from(n), Some(A));
    // On the SSD the writes are submitted and the folios kept under
    // writeback; once the writes have ended, the next pass frees them.
    assert_eq!(s.mm.shrink_folio_list(&mut list, lv, &mut sc), 0);
    assert_eq!(list.len() as u32, n);
    s.mm.writeback_complete_until(u64::MAX);
    assert_eq!(s.mm.shrink_folio_list(&mut list, lv, &mut sc), u64::from(n));
    assert_eq!(s.mm.memcgs[A as usize].swap_usage, u64::from(n));
}

/// pageout() of anon folios: on the SSD swap_writepage_bdev_async submits
/// the write and shrink_folio_list keeps the folio (PAGE_SUCCESS, still
/// under writeback) with PG_reclaim, counted in pswpout but not reclaimed;
/// folio_end_writeback rotates it to the tail (the oldest generation with
/// MGLRU) and the next pass frees it without another write. On brd
/// (BLK_FEAT_SYNCHRONOUS) the write has ended when pageout returns and the
/// folio is freed in the same pass.
#[test]
fn swap_writes_end_later_on_the_ssd_and_at_once_on_a_ramdisk() {
    use reclaim_core::mm::machine::Storage;
    for lru_gen in [false, true] {
        for storage in [Storage::Ssd, Storage::Ramdisk] {
            let mut sc_ = scenario(lru_gen, None);
            sc_.machine.storage = storage;
            let mut s = Simulation::new(sc_).unwrap();
            let lv = s.mm.lruvec_id(A, 0);
            let mut list: Vec<u32> = (0..4)
                .map(|i| {
                    s.mm.access(A, 0, ANON, i, Op::Load).unwrap();
                    let f = folio_at(&s, ANON, i);
                    s.mm.folios.clear(f, pg::YOUNG | pg::REFERENCED);
                    s.mm.lruvec_del_folio(f);
                    f
                })
                .collect();
            let folios = list.clone();
            let what = format!("lru_gen {lru_gen}, {storage:?}");
            let mut sc = ScanControl::new(4, Some(A));
            let freed = s.mm.shrink_folio_list(&mut list, lv, &mut sc);
            assert_eq!(s.mm.vmstat.get(Item::Pswpout), 4, "{what}: four writes");
            assert_eq!(sc.nr_pageout, 4, "{what}");
            if storage == Storage::Ramdisk {
                assert_eq!(freed, 4, "{what}: freed in the same pass");
                assert!(s.mm.writeback.is_empty(), "{what}");
                continue;
            }
            assert_eq!(freed, 0, "{what}: nothing freed while the writes are in flight");
            assert_eq!(list, folios, "{what}: all four kept");
            for &f in &folios {
                assert!(s.mm.folios.test(f, pg::WRITEBACK | pg::RECLAIM | pg::SWAPCACHE), "{what}: under writeback with PG_reclaim");
                assert!(!s.mm.folios.test(f, pg::DIRTY), "{what}: cleaned for the write");
            }
            assert_eq!(s.mm.writeback.len(), 4, "{what}");
            assert_eq!(s.mm.memcgs[A as usize].nr_writeback, 4, "{what}: NR_WRITEBACK counts swap writes (dirty limits read it)");
            // The writes took their turns on the device, IO_SERVICE_NS apart.
            let ends: Vec<u64> = s.mm.writeback.iter().map(|&(t, _)| t).collect();
            assert!(ends.windows(2).all(|w| w[1] - w[0] == reclaim_core::cost::IO_SERVICE_NS), "{what}: {ends:?}");
            // Back on the LRU (evict_folios or putback), then the writes end.
            for &f in &folios {
                s.mm.lruvec_add_folio(f);
            }
            let rotated = s.mm.vmstat.get(Item::Pgrotated);
            s.mm.writeback_complete_until(u64::MAX);
            assert_eq!(s.mm.vmstat.get(Item::Pgrotated) - rotated, 4, "{what}: rotated to the tail");
            assert_eq!(s.mm.memcgs[A as usize].nr_writeback, 0, "{what}");
            let mut list = folios.clone();
            for &f in &list {
                assert!(!s.mm.folios.test(f, pg::WRITEBACK | pg::RECLAIM), "{what}");
                s.mm.lruvec_del_folio(f);
            }
            assert_eq!(s.mm.shrink_folio_list(&mut list, lv, &mut sc), 4, "{what}: freed by the next pass");
            assert_eq!(s.mm.vmstat.get(Item::Pswpout), 4, "{what}: without another write");
            assert_eq!(s.mm.memcgs[A as usize].swap_usage, 4, "{what}");
            if let Err(e) = s.check_invariants() {
                panic!("{what}: {e}");
            }
        }
    }
}

/// mem_cgroup_swap_full() and folio_free_swap(): once a memcg uses half its
/// swap.max, a swap-in gives its slot back at once (should_try_to_free_swap
/// in do_swap_page) and so does a swap-cache folio that shrink_folio_list
/// activates; the folio is dirty again, to be written to a new slot. Below
/// half, both keep the slot, so a clean swap-cache folio can be dropped
/// again without a write.
#[test]
fn swap_slots_are_given_back_when_swap_is_more_than_half_full() {
    for swap_max in [8, 100] {
        let full = swap_max == 8;
        let mut s = machine(false, None);
        swap_out_anon(&mut s, 4);
        s.mm.memcgs[A as usize].swap_max = swap_max;
        assert_eq!(s.mm.mem_cgroup_swap_full(A), full, "4 of {swap_max} slots");
        // A read fault on a swapped-out page.
        s.mm.access(A, 0, ANON, 0, Op::Load).unwrap();
        let f = folio_at(&s, ANON, 0);
        assert_eq!(s.mm.folios.test(f, pg::SWAPCACHE), !full, "swap.max {swap_max}: swap-in");
        assert_eq!(s.mm.folios.test(f, pg::DIRTY), full, "swap.max {swap_max}: a freed slot leaves the folio dirty");
        assert_eq!(s.mm.memcgs[A as usize].swap_usage, if full { 3 } else { 4 });
    }
    // Activation: swapped in while swap had room, activated once it is half full.
    let mut s = machine(false, None);
    swap_out_anon(&mut s, 4);
    s.mm.access(A, 0, ANON, 1, Op::Load).unwrap();
    let f = folio_at(&s, ANON, 1);
    assert!(s.mm.folios.test(f, pg::SWAPCACHE));
    let lv = s.mm.lruvec_id(A, 0);
    for swap_max in [100, 8] {
        s.mm.memcgs[A as usize].swap_max = swap_max;
        s.mm.folios.set(f, pg::YOUNG | pg::REFERENCED);
        s.mm.folios.clear(f, pg::ACTIVE);
        let mut list = vec![f];
        let mut sc = ScanControl::new(32, Some(A));
        assert_eq!(s.mm.shrink_folio_list(&mut list, lv, &mut sc), 0);
        assert!(s.mm.folios.test(f, pg::ACTIVE), "referenced twice: activate_locked");
        assert_eq!(s.mm.folios.test(f, pg::SWAPCACHE), swap_max == 100, "swap.max {swap_max}: activation");
    }
    assert_eq!(s.mm.memcgs[A as usize].swap_usage, 3);
    assert!(s.mm.folios.test(f, pg::DIRTY));
}

/// shrink_zones() visits only the nodes with a zone the allocation may use:
/// direct reclaim for a ZONE_DMA32 allocation leaves node 0, which has only
/// ZONE_NORMAL, alone (with MGLRU it does not even sort that node's folios
/// into younger generations, as scan_folios does with folios above
/// reclaim_idx), while memcg reclaim (reclaim_idx = the highest zone)
/// shrinks both nodes.
#[test]
fn direct_reclaim_skips_nodes_without_an_eligible_zone() {
    for (lru_gen, memcg_reclaim) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut s = Simulation::new(Scenario {
            nodes: vec![
                NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 8192 }] },
                NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Dma32, pages: 4096 }, ZoneSpec { zone: ZoneType::Normal, pages: 4096 }] },
            ],
            swap_pages: 0,
            workloads: vec![WorkloadSpec::new("file", "/a", Pattern::Uniform {}, Target::File { pages: 16_384, op: FileOp::Read, file: None, write_percent: 0 })],
            ..scenario(lru_gen, None)
        })
        .unwrap();
        for i in 0..6000 {
            s.mm.access(A, 0, FILE, i, Op::Read).unwrap();
        }
        for i in 6000..14_000 {
            s.mm.access(A, 1, FILE, i, Op::Read).unwrap();
        }
        let case = format!("lru_gen {lru_gen}, memcg reclaim {memcg_reclaim}");
        // Each node-0 page: Some(its generation) while resident (None with the classic LRU).
        let node0 = |s: &Simulation| (0..6000).map(|i| matches!(s.mm.slot(FILE, i), Slot::Folio(_)).then(|| s.mm.folios.lru_gen(folio_at(s, FILE, i)))).collect::<Vec<_>>();
        let resident1 = |s: &Simulation| (6000..14_000).filter(|&i| matches!(s.mm.slot(FILE, i), Slot::Folio(_))).count();
        let before = node0(&s);
        assert!(before.iter().all(Option::is_some), "{case}: node 0 holds its 6,000 pages");
        let before1 = resident1(&s);
        let reclaimed = if memcg_reclaim { s.mm.try_to_free_mem_cgroup_pages(A, 4096, true, false) } else { s.mm.try_to_free_pages(A, ZoneType::Dma32 as usize) };
        assert!(reclaimed >= 32, "{case}: reclaimed {reclaimed}");
        assert!(resident1(&s) < before1, "{case}: node 1 was shrunk");
        assert_eq!(node0(&s) != before, memcg_reclaim, "{case}: node 0 (ZONE_NORMAL only) touched");
    }
}