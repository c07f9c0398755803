//! Reclaim throttling on writeback (throttle.rs), hand-computed on the
//! small machine of the mechanism tests (classic LRU, SSD): kswapd's
//! PGDAT_WRITEBACK and nr_immediate stall, the congested tags of memcg and
//! node reclaim, and reclaim_throttle()'s timeouts and early wakeup.
use reclaim_core::event::EventKind;
use reclaim_core::mm::filemap::Op;
use reclaim_core::mm::folio::pg;
use reclaim_core::mm::throttle::ThrottleReason;
use reclaim_core::mm::vmscan::ScanControl;
use reclaim_core::sim::Simulation;

#[path = "common/lab.rs"]
mod lab;
use lab::*;

const MS: u64 = 1_000_000;

/// Faults in anon pages 0..n of /a and takes their folios off the LRU, as
/// isolate_lru_folios would, cold (no accessed bits).
fn isolated_anon(s: &mut Simulation, n: u32) -> Vec<u32> {
    (0..n)
        .map(|i| {
            s.mm.access(A, 0, ANON, i, Op::Load).unwrap();
            let f = folio_at(s, ANON, i);
            s.mm.folios.clear(f, pg::YOUNG | pg::REFERENCED);
            s.mm.lruvec_del_folio(f);
            f
        })
        .collect()
}

fn kswapd_sc(n: u64) -> ScanControl {
    let mut sc = ScanControl::new(n, None);
    sc.kswapd = true;
    sc
}

/// One shrink_folio_list pass over `list` as shrink_inactive_list makes it
/// (sc.nr.taken counted), at the clock's current time (the time the tests'
/// set-up and earlier passes cost is dropped, so no write has ended yet);
/// the folios it activates are put back inactive, as a later deactivation
/// would, so that the next pass meets them again.
fn pass(s: &mut Simulation, list: &[u32], sc: &mut ScanControl) {
    let lv = s.mm.lruvec_id(A, 0);
    (s.mm.cost_ns, s.mm.io_wait_ns) = (0, 0);
    let mut l = list.to_vec();
    sc.nr.taken += l.len() as u64;
    s.mm.shrink_folio_list(&mut l, lv, sc);
    assert_eq!(l.len(), list.len(), "nothing is freed while its write is in flight");
    for &f in list {
        s.mm.folios.clear(f, pg::ACTIVE);
    }
}

/// The folios' writes in flight, by completion time.
fn write_ends(s: &Simulation) -> Vec<u64> {
    s.mm.writeback.iter().map(|&(t, _)| t).collect()
}

/// kswapd swaps 40 pages out; it meets them again under writeback: every
/// folio it took was under writeback, so the node is flagged
/// PGDAT_WRITEBACK, without a stall (case 2, nr_writeback). The third
/// meeting counts them as nr_immediate (case 1), and kswapd sleeps until
/// the 33rd write after it went to sleep has finished (more than
/// SWAP_CLUSTER_MAX * 1 throttled), not the whole HZ/10. Direct reclaim
/// meeting the same folios is never case 1.
#[test]
fn kswapd_stalls_on_folios_back_under_writeback_until_33_writes_end() {
    let mut s = machine(false, None);
    let list = isolated_anon(&mut s, 40);
    let mut sc = kswapd_sc(40);
    pass(&mut s, &list, &mut sc);
    assert_eq!((sc.nr.writeback, sc.nr.immediate), (0, 0), "first meeting: the writes are submitted here");
    assert_eq!(s.mm.writeback.len(), 40);

    let mut sc = kswapd_sc(40);
    pass(&mut s, &list, &mut sc);
    assert_eq!((sc.nr.taken, sc.nr.writeback, sc.nr.immediate), (40, 40, 0), "case 2: all 40 under writeback");
    let cost = s.mm.cost_ns;
    s.mm.shrink_node_throttle(0, &sc);
    assert!(s.mm.nodes[0].pgdat_writeback, "nr.writeback == nr.taken flags the node");
    assert_eq!(s.mm.cost_ns, cost, "no stall without nr_immediate");

    // A direct reclaimer on the flagged node: case 2 again.
    let mut direct = ScanControl::new(40, None);
    pass(&mut s, &list, &mut direct);
    assert_eq!((direct.nr.writeback, direct.nr.immediate), (40, 0), "case 1 is kswapd's");

    let mut sc = kswapd_sc(40);
    pass(&mut s, &list, &mut sc);
    assert_eq!((sc.nr.writeback, sc.nr.immediate), (0, 40), "case 1: marked, still under writeback, node flagged");
    let t = s.mm.now_ns + s.mm.cost_ns;
    let ends: Vec<u64> = write_ends(&s).into_iter().filter(|&e| e > t).collect();
    assert_eq!(ends.len(), 40, "no write has ended yet");
    s.mm.events.enabled = true;
    let cost = s.mm.cost_ns;
    s.mm.shrink_node_throttle(0, &sc);
    let slept = s.mm.cost_ns - cost;
    assert_eq!(slept, ends[32] - t, "woken at the 33rd write's end");
    assert!(slept < 100 * MS);
    assert_eq!(s.mm.io_wait_ns, slept, "asleep, not on a CPU");
    let ev = s.mm.events.events.last().expect("the throttle is logged");
    assert_eq!(
        ev.kind,
        EventKind::Throttled { node: 0, reason: "VMSCAN_THROTTLE_WRITEBACK", kswapd: true, slept_ns: slept, timeout_ns: 100 * MS, task: None }
    );
}

/// With 32 or fewer writes in flight nothing wakes a writeback throttle
/// early: the sleep is the whole HZ/10.
#[test]
fn a_writeback_throttle_with_few_writes_in_flight_sleeps_hz_over_10() {
    for n in [1, 32, 33] {
        let mut s = machine(false, None);
        let list = isolated_anon(&mut s, n);
        pass(&mut s, &list, &mut kswapd_sc(n as u64));
        let cost = s.mm.cost_ns;
        s.mm.reclaim_throttle(0, ThrottleReason::Writeback, true);
        let slept = s.mm.cost_ns - cost;
        if n <= 32 {
            assert_eq!(slept, 100 * MS, "{n} writes in flight");
        } else {
            assert!(slept < 100 * MS, "{n} writes: the 33rd ends first");
        }
    }
}

/// Writes `n` pages of /a's file (dirty page cache), starts their writeback
/// (the flusher) and takes the folios off the LRU.
fn isolated_file_under_writeback(s: &mut Simulation, n: u32) -> Vec<u32> {
    for i in 0..n {
        s.mm.access(A, 0, FILE, i, Op::Write).unwrap();
    }
    s.mm.wakeup_flusher_threads();
    (0..n)
        .map(|i| {
            let f = folio_at(s, FILE, i);
            assert!(s.mm.folios.test(f, pg::WRITEBACK));
            s.mm.folios.clear(f, pg::REFERENCED);
            s.mm.lruvec_del_folio(f);
            f
        })
        .collect()
}

/// Memcg reclaim meets page cache under writeback: the first time it marks
/// it PG_reclaim (nr_dirty, not congested); the second time every dirty
/// folio is congested, so the target's lruvec is tagged
/// LRUVEC_CGROUP_CONGESTED and the reclaimer sleeps a jiffy
/// (VMSCAN_THROTTLE_CONGESTED). kswapd tags the node's root lruvec instead
/// and does not sleep on it; kswapd's clear_pgdat_congested() and the end
/// of the memcg's reclaim clear the tags.
#[test]
fn reclaim_of_congested_page_cache_sleeps_a_jiffy() {
    let mut s = machine(false, None);
    let list = isolated_file_under_writeback(&mut s, 100);
    let lv = s.mm.lruvec_id(A, 0) as usize;
    let root = s.mm.lruvec_id(0, 0) as usize;

    let mut sc = ScanControl::new(32, Some(A));
    pass(&mut s, &list, &mut sc);
    assert_eq!((sc.nr.dirty, sc.nr.congested, sc.nr.writeback), (100, 0, 100));
    let cost = s.mm.cost_ns;
    s.mm.shrink_node_throttle(0, &sc);
    assert!(!s.mm.lruvecs[lv].cgroup_congested);
    assert_eq!(s.mm.cost_ns, cost, "not congested the first time");

    let mut sc = ScanControl::new(32, Some(A));
    pass(&mut s, &list, &mut sc);
    assert_eq!((sc.nr.dirty, sc.nr.congested), (100, 100), "all marked and still under writeback");
    let cost = s.mm.cost_ns;
    s.mm.shrink_node_throttle(0, &sc);
    assert!(s.mm.lruvecs[lv].cgroup_congested && !s.mm.lruvecs[root].node_congested);
    assert_eq!(s.mm.cost_ns - cost, MS, "one jiffy (HZ = 1000)");

    let mut sc = kswapd_sc(32);
    pass(&mut s, &list, &mut sc);
    let cost = s.mm.cost_ns;
    s.mm.shrink_node_throttle(0, &sc);
    assert!(s.mm.lruvecs[root].node_congested, "kswapd tags the root lruvec");
    assert_eq!(s.mm.cost_ns, cost, "kswapd does not sleep on congestion");

    s.mm.clear_cgroup_congested(A, &[0]);
    s.mm.clear_pgdat_congested(0);
    assert!(!s.mm.lruvecs[lv].cgroup_congested && !s.mm.lruvecs[root].node_congested && !s.mm.nodes[0].pgdat_writeback);
}

/// skip_throttle_noprogress(): a congested throttle is skipped where at
/// most half the node's reclaimable pages wait for writeback (here 100
/// under writeback against 1,100 on the LRU once 1,000 clean pages are
/// read), and taken where more do.
#[test]
fn a_congested_throttle_is_skipped_when_little_waits_for_writeback() {
    for clean in [0, 1000] {
        let mut s = machine(false, None);
        let list = isolated_file_under_writeback(&mut s, 100);
        for i in 100..100 + clean {
            s.mm.access(A, 0, FILE, i, Op::Read).unwrap();
        }
        for &f in &list {
            s.mm.lruvec_add_folio(f);
        }
        let cost = s.mm.cost_ns;
        s.mm.reclaim_throttle(0, ThrottleReason::Congested, false);
        let expect = if clean == 0 { MS } else { 0 };
        assert_eq!(s.mm.cost_ns - cost, expect, "{clean} clean pages next to 100 under writeback");
    }
}

