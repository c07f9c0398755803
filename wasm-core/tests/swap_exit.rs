//! A task that exits while its swap writes are in flight (exit_mmap with
//! folios under writeback in the swap cache): free_swap_and_cache() cannot
//! take them, so they stay on the LRU, charged and holding their slots,
//! until reclaim finds them after their writes have ended.
use reclaim_core::mm::folio::pg;
use reclaim_core::mm::Knobs;
use reclaim_core::sim::Simulation;
use reclaim_core::workload::{Pattern, Target, WorkloadSpec};

#[path = "common/lab.rs"]
mod lab;
use lab::*;

const MS: u64 = 1_000_000;

fn orphans(s: &Simulation) -> Vec<u32> {
    (0..s.mm.folios.len() as u32).filter(|&f| s.mm.folios.test(f, pg::ORPHAN)).collect()
}

/// /a (memory.max 512) writes 1,024 anon pages as fast as it can, so its
/// limit reclaim swaps out, and exits (free_on_exit, stop at 1 ms). Its
/// folios under writeback at that moment are left in the swap cache: still
/// on the LRU and charged, no longer reachable from the task's address
/// space, and still there once their writes have ended (30 of them with the
/// classic LRU, 34 with MGLRU): the next reclaim frees them, with their swap
/// slots. Everything else of the task is freed at exit.
#[test]
fn an_exit_leaves_folios_under_swap_writeback_to_reclaim() {
    for lru_gen in [false, true] {
        let mut sc = scenario(lru_gen, Some(512));
        let mut w = WorkloadSpec::new("heap", "/a", Pattern::Sequential {}, Target::Anon { pages: 1024, write_percent: 100 });
        w.stop_ns = MS;
        w.free_on_exit = true;
        sc.workloads = vec![w];
        sc.knobs = Knobs { lru_gen_enabled: lru_gen, ..Knobs::default() };
        sc.step_ns = MS / 10;
        sc.duration_ns = 4 * MS;
        let mut s = Simulation::new(sc).unwrap();
        let what = format!("lru_gen {lru_gen}");
        // To 2 ms: the task has exited (at its first access from 1 ms on).
        while s.time() < 2 * MS {
            s.step();
            s.check_invariants().unwrap_or_else(|e| panic!("{what}: {e}"));
        }
        assert!(s.mm.vmstat.get(reclaim_core::mm::vmstat::Item::Pswpout) > 0, "{what}: the heap was swapping");
        let left = orphans(&s);
        assert!(!left.is_empty(), "{what}: some writes were in flight at the exit");
        let cg = &s.mm.memcgs[A as usize];
        assert_eq!(cg.usage, left.len() as u64, "{what}: only the folios under writeback stay charged");
        assert_eq!(cg.swap_usage, left.len() as u64, "{what}: and hold their swap slots");
        for &f in &left {
            assert!(s.mm.folios.test(f, pg::LRU | pg::SWAPCACHE), "{what}: on the LRU, in the swap cache");
            assert!(!s.mm.folios.test(f, pg::MAPPED), "{what}");
        }
        let m = s.mm.mappings.iter().position(|a| a.name == "anon:heap").unwrap() as u32;
        for idx in 0..1024 {
            assert_eq!(s.mm.resident_slot(m, idx), reclaim_core::mm::filemap::Slot::Empty, "{what}: the address space is gone");
        }
        // The writes end; a memory.reclaim of /a finds the orphans clean at the tail.
        s.mm.writeback_complete_until(u64::MAX);
        assert!(left.iter().all(|&f| !s.mm.folios.test(f, pg::WRITEBACK)), "{what}");
        s.mm.try_to_free_mem_cgroup_pages(A, 512, true, true);
        assert!(orphans(&s).is_empty(), "{what}: reclaim freed them");
        let cg = &s.mm.memcgs[A as usize];
        assert_eq!((cg.usage, cg.swap_usage), (0, 0), "{what}: uncharged, slots freed");
        s.check_invariants().unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}
