//! The write counters of /proc/vmstat add up: nr_dirtied (folio_account_dirtied),
//! nr_written (__folio_end_writeback, page cache and swap, a ramdisk's
//! synchronous writes included), nr_vmscan_write (pageout()'s PAGE_SUCCESS),
//! nr_vmscan_immediate_reclaim (dirty page cache reclaim met and left to the
//! flusher with PG_reclaim) and nr_throttled_written (writes that ended while
//! kswapd slept in reclaim_throttle on writeback).
use reclaim_core::event::EventKind;
use reclaim_core::mm::machine::Storage;
use reclaim_core::mm::vmstat::Item;
use reclaim_core::mm::SWAP_CLUSTER_MAX;
use reclaim_core::scenario::{build, Scenario};
use reclaim_core::sim::Simulation;
use reclaim_core::view::ScenarioRequest;

fn scenario(name: &str, variant: Option<&str>, params: &[(&str, f64)]) -> Scenario {
    let mut req: ScenarioRequest = serde_json::from_value(serde_json::json!({ "name": name, "seed": 1, "params": {}, "variant": variant })).unwrap();
    for (k, v) in params {
        req.params.insert(k.to_string(), *v);
    }
    build(&req).unwrap()
}

/// A gauge of /proc/vmstat as the views compute it.
fn gauge(s: &Simulation, name: &str) -> u64 {
    s.vmstat().into_iter().find(|(n, _)| n == name).map_or(0, |(_, v)| v)
}

/// Every write submitted (pgpgout, in pages here) has ended or is in flight;
/// reclaim's writes are its swap-outs; every page dirtied has been submitted
/// or is dirty still.
fn assert_writes_add_up(s: &Simulation, what: &str) {
    let v = &s.mm.vmstat;
    let submitted = v.get(Item::Pgpgout);
    assert_eq!(v.get(Item::NrWritten) + gauge(s, "nr_writeback"), submitted, "{what}: written + under writeback = submitted");
    assert_eq!(v.get(Item::NrVmscanWrite), v.get(Item::Pswpout), "{what}: reclaim writes only to swap");
    let file_submitted = submitted - v.get(Item::Pswpout);
    assert_eq!(v.get(Item::NrDirtied), file_submitted + gauge(s, "nr_dirty"), "{what}: dirtied = submitted + dirty");
}

fn run(scenario: Scenario, steps: u64) -> Simulation {
    let mut s = Simulation::new(scenario).unwrap();
    for _ in 0..steps {
        s.step();
    }
    s
}

#[test]
fn page_cache_writes_add_up_on_the_disk_and_the_ssd() {
    for storage in [0.0, 1.0, 2.0] {
        let s = run(scenario("slow-disk", None, &[("storage", storage)]), 800);
        assert!(s.mm.vmstat.get(Item::NrDirtied) > 1000, "storage {storage}: the writer dirties pages");
        assert!(s.mm.vmstat.get(Item::NrWritten) > 0, "storage {storage}");
        assert_writes_add_up(&s, &format!("slow-disk, storage {storage}"));
    }
}

#[test]
fn swap_writes_add_up_on_the_ssd_and_on_a_ramdisk() {
    for storage in [Storage::Ssd, Storage::Ramdisk] {
        let mut sc = scenario("memcg-lru-fairness", Some("before"), &[]);
        sc.machine.storage = storage;
        let s = run(sc, 300);
        assert!(s.mm.vmstat.get(Item::Pswpout) > 1000, "{storage:?}: the experiment swaps");
        assert_writes_add_up(&s, &format!("memcg-lru-fairness on {storage:?}"));
        if storage == Storage::Ramdisk {
            assert_eq!(gauge(&s, "nr_writeback"), 0, "a ramdisk's writes end as they are made");
        }
    }
}

/// Pages written through a mapping are dirtied again while old: reclaim meets
/// them dirty at the tail and leaves them to the flusher.
#[test]
fn reclaim_counts_the_dirty_page_cache_it_leaves_to_the_flusher() {
    let mut sc = scenario("classic-basic", None, &[]);
    sc.workloads.retain(|w| w.name == "reader");
    let w = &mut sc.workloads[0];
    w.pattern = serde_json::from_str(r#"{"kind": "uniform"}"#).unwrap();
    w.target = serde_json::from_str(r#"{"kind": "file", "pages": 4096, "op": "mmapWrite", "writePercent": 50}"#).unwrap();
    w.rate = 20_000;
    let s = run(sc, 300);
    assert!(s.mm.vmstat.get(Item::NrVmscanImmediate) > 0, "{:?}", s.mm.vmstat);
    assert_writes_add_up(&s, "mmap writes");
    // Nothing dirty, nothing immediate.
    let clean = run(scenario("classic-basic", None, &[]), 300);
    assert_eq!((clean.mm.vmstat.get(Item::NrDirtied), clean.mm.vmstat.get(Item::NrVmscanImmediate)), (0, 0));
}

/// kswapd's writeback throttle ends after SWAP_CLUSTER_MAX + 1 writes, or
/// at its timeout with fewer: nr_throttled_written lies between the two.
#[test]
fn writes_during_writeback_throttles_are_counted() {
    let mut s = Simulation::new(scenario("slow-disk", None, &[])).unwrap();
    s.mm.events.enabled = true;
    let (mut early, mut timed_out) = (0u64, 0u64);
    for _ in 0..800 {
        s.step();
        for e in &s.mm.events.events {
            if let EventKind::Throttled { reason: "VMSCAN_THROTTLE_WRITEBACK", slept_ns, timeout_ns, .. } = e.kind {
                if slept_ns < timeout_ns {
                    early += 1;
                } else {
                    timed_out += 1;
                }
            }
        }
    }
    let written = s.mm.vmstat.get(Item::NrThrottledWritten);
    assert!(early + timed_out >= 10, "kswapd sleeps on writeback: {early} + {timed_out}");
    let wake = SWAP_CLUSTER_MAX + 1;
    assert!(written >= wake * early && written <= wake * early + (wake - 1) * timed_out, "{written} for {early} early, {timed_out} timed out");
    assert!(written > 0);
    // Without throttles, none.
    let ssd = run(scenario("slow-disk", None, &[("storage", 0.0)]), 800);
    assert_eq!(ssd.mm.vmstat.get(Item::NrThrottledWritten), 0);
}

/// Below the background limit nothing wakes the flusher but its period:
/// every dirty_writeback_centisecs (5 s) it writes what has been dirty for
/// dirty_expire_centisecs (30 s) — here, at 35 s, the pages dirtied in the
/// first 5 s.
#[test]
fn the_periodic_flush_writes_old_dirty_pages() {
    let mut s = Simulation::new(scenario("slow-disk", None, &[("write_rate", 10.0)])).unwrap();
    let mut dirtied_by_5s = 0;
    for step in 1..=3501u64 {
        s.step();
        if step == 500 {
            dirtied_by_5s = s.mm.vmstat.get(Item::NrDirtied);
        }
        if step == 3000 {
            assert_eq!(s.mm.vmstat.get(Item::Pgpgout), 0, "nothing is old enough at 30 s (the first page was dirtied after 0 s)");
        }
    }
    assert!(dirtied_by_5s >= 40, "{dirtied_by_5s}");
    assert_eq!(s.mm.vmstat.get(Item::Pgpgout), dirtied_by_5s, "at 35 s, the pages dirty since 5 s or before");
    assert_writes_add_up(&s, "periodic flush");
}
