//! The 7,200-rpm disk (machine.storage = "hdd") and the slow-disk scenario:
//! the disk's service time, hand-computed, and reclaim throttling on
//! writeback that the scenario shows with the disk and not with the SSD.
use std::collections::{BTreeMap, BTreeSet};

use reclaim_core::cost::{HDD_SERVICE_NS, MAJOR_FAULT_READ_NS};
use reclaim_core::event::{EventKind, Reclaimer};
use reclaim_core::mm::kswapd::KswapdMode;
use reclaim_core::mm::machine::Storage;
use reclaim_core::scenario::build;
use reclaim_core::sim::Simulation;
use reclaim_core::view::ScenarioRequest;

fn slow_disk(params: &[(&str, f64)]) -> Simulation {
    let mut req: ScenarioRequest = serde_json::from_str(r#"{"name":"slow-disk","seed":1,"params":{}}"#).unwrap();
    for (k, v) in params {
        req.params.insert(k.to_string(), *v);
    }
    Simulation::new(build(&req).unwrap()).unwrap()
}

/// Throttle events by (reason, kswapd).
type ByReason = BTreeMap<(&'static str, bool), u64>;

/// reclaim_throttle() calls in `steps` steps, by (reason, kswapd), and the
/// step of the first. kswapd's own count and time (the System tab's
/// "throttled in all") agree with its events, which are logged with the
/// rare kinds, past a step's crowd of direct reclaimers' sleeps.
fn throttles(s: &mut Simulation, steps: u64) -> (ByReason, Option<u64>) {
    let (seen, first, _) = throttles_by(s, steps);
    (seen, first)
}

/// [`throttles`], and the tasks whose direct reclaim slept (each event names
/// its task, kswapd's none).
fn throttles_by(s: &mut Simulation, steps: u64) -> (ByReason, Option<u64>, BTreeSet<String>) {
    s.mm.events.enabled = true;
    let mut seen = BTreeMap::new();
    let mut sleepers = BTreeSet::new();
    let mut first = None;
    let mut kswapd_ns = 0;
    for step in 0..steps {
        s.step();
        for e in &s.mm.events.events {
            if let EventKind::Throttled { reason, kswapd, slept_ns, ref task, .. } = e.kind {
                *seen.entry((reason, kswapd)).or_insert(0) += 1;
                assert_eq!(task.is_none(), kswapd, "a direct reclaimer's sleep names its task: {:?}", e.kind);
                if let Some(Reclaimer::Task(task)) = task {
                    let (_, function, text) = e.describe(&|_| String::new());
                    assert_eq!(function, "reclaim_throttle");
                    assert!(text.starts_with(&format!("{task}, in direct reclaim, on node 0 sleeps ")), "{text}");
                    sleepers.insert(task.clone());
                }
                first.get_or_insert(step);
                if kswapd {
                    kswapd_ns += slept_ns;
                }
            }
        }
    }
    let k = &s.mm.nodes[0].kswapd;
    let kswapd_events: u64 = seen.iter().filter(|((_, k), _)| *k).map(|(_, n)| n).sum();
    assert_eq!((k.throttles, k.throttled_ns), (kswapd_events, kswapd_ns));
    // The timeline paints each sleep as its own mode, in time order, with kswapd running again after it.
    assert!(k.timeline.windows(2).all(|w| w[0].0 <= w[1].0), "the timeline is in time order");
    let marks: Vec<_> = k.timeline.windows(2).filter(|w| w[0].1 == KswapdMode::Throttled).collect();
    assert_eq!(marks.len() as u64, k.throttles);
    assert!(marks.iter().all(|w| w[1].1 == KswapdMode::Running));
    assert_eq!(marks.iter().map(|w| w[1].0 - w[0].0).sum::<u64>(), k.throttled_ns);
    (seen, first, sleepers)
}

/// A synchronous read waits for the disk's queue and then its own service
/// time, whatever the SSD's latency for that kind of I/O would be; the
/// SSD's read is its latency on an idle device.
#[test]
fn a_read_on_the_disk_waits_its_service_time_behind_the_queue() {
    let mut s = slow_disk(&[]);
    assert_eq!(s.mm.machine.storage, Storage::Hdd);
    let t = s.mm.now_ns.max(s.mm.io_busy_until);
    (s.mm.now_ns, s.mm.cost_ns, s.mm.io_wait_ns) = (t, 0, 0);
    s.mm.storage_read(MAJOR_FAULT_READ_NS);
    assert_eq!(s.mm.cost_ns, HDD_SERVICE_NS, "an idle disk: the service time alone");
    s.mm.storage_read(MAJOR_FAULT_READ_NS);
    // Issued when the first ended (cost_ns later): the device is free again.
    assert_eq!(s.mm.cost_ns, 2 * HDD_SERVICE_NS);
    let queued_at = s.mm.now_ns + s.mm.cost_ns;
    let done = s.mm.storage_write_async(0);
    assert_eq!(done, queued_at + HDD_SERVICE_NS, "the flusher's write, queued behind nothing");
    s.mm.storage_read(MAJOR_FAULT_READ_NS);
    assert_eq!(s.mm.cost_ns, 4 * HDD_SERVICE_NS, "a read behind the write: its turn, then its service");
    assert_eq!(s.mm.io_wait_ns, s.mm.cost_ns, "all of it waiting, none on a CPU");

    let mut ssd = slow_disk(&[("storage", 0.0)]);
    let t = ssd.mm.now_ns.max(ssd.mm.io_busy_until);
    (ssd.mm.now_ns, ssd.mm.cost_ns) = (t, 0);
    ssd.mm.storage_read(MAJOR_FAULT_READ_NS);
    assert_eq!(ssd.mm.cost_ns, MAJOR_FAULT_READ_NS);
}

/// The scenario's point: with the disk and the classic LRU, reclaim meets
/// page cache under writeback once /app's second task needs memory (from
/// 3 s on): kswapd flags the node and sleeps on writeback, and the
/// allocating tasks sleep on the congested node. With the SSD the writes
/// end before reclaim comes back to them; with MGLRU nothing throttles on
/// writeback (only, in direct reclaim, on no progress); without the growing
/// task nothing is reclaimed at all.
#[test]
fn the_slow_disk_throttles_reclaim_on_writeback_and_the_ssd_does_not() {
    const STEPS: u64 = 800; // 8 s
    let (hdd, first, sleepers) = throttles_by(&mut slow_disk(&[]), STEPS);
    assert!(sleepers.contains("grower"), "the growing task's direct reclaim sleeps: {sleepers:?}");
    assert!(sleepers.iter().all(|t| ["grower", "heap", "writer"].contains(&t.as_str())), "{sleepers:?}");
    let writeback = hdd.get(&("VMSCAN_THROTTLE_WRITEBACK", true)).copied().unwrap_or(0);
    let congested = hdd.get(&("VMSCAN_THROTTLE_CONGESTED", false)).copied().unwrap_or(0);
    assert!(writeback >= 10, "kswapd sleeps on writeback: {hdd:?}");
    assert!(congested >= 100, "direct reclaim sleeps on the congested node: {hdd:?}");
    assert!(!hdd.contains_key(&("VMSCAN_THROTTLE_WRITEBACK", false)), "direct reclaim is never case 1: {hdd:?}");
    assert!(first.unwrap() >= 300, "not before the growing task starts at 3 s: step {first:?}");

    let (ssd, _) = throttles(&mut slow_disk(&[("storage", 0.0)]), STEPS);
    assert_eq!(ssd, BTreeMap::new(), "the SSD's writes end before reclaim meets them again");

    let (mglru, _) = throttles(&mut slow_disk(&[("lru_gen", 1.0)]), STEPS);
    assert!(mglru.keys().all(|&(reason, _)| reason == "VMSCAN_THROTTLE_NOPROGRESS"), "MGLRU: {mglru:?}");

    // A writer slower than the disk (about 200 writes a second) leaves nothing under writeback to meet.
    let (slow_writer, _) = throttles(&mut slow_disk(&[("write_rate", 100.0)]), STEPS);
    assert_eq!(slow_writer, BTreeMap::new(), "a writer within the disk's pace");

    let mut idle = slow_disk(&[("grow_pages", 0.0)]);
    let (none, _) = throttles(&mut idle, STEPS);
    assert_eq!(none, BTreeMap::new());
    assert_eq!(idle.mm.vmstat.get(reclaim_core::mm::vmstat::Item::PgstealKswapd), 0, "the dirty limits alone keep memory free");
}
