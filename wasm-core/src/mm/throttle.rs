//! Reclaim throttling on writeback (mm/vmscan.c, v6.12): the node and
//! lruvec flags shrink_node() sets from what shrink_folio_list() met
//! (PGDAT_WRITEBACK, LRUVEC_NODE_CONGESTED, LRUVEC_CGROUP_CONGESTED),
//! reclaim_throttle() with its wakeup by finished writes
//! (__acct_reclaim_writeback), consider_reclaim_throttle() and
//! clear_pgdat_congested().
//!
//! Simplified: one reclaimer waits at a time (the engine runs its actors
//! one after another), so `nr_throttled` is 1 and a writeback throttle ends
//! after SWAP_CLUSTER_MAX + 1 of the node's writes have finished, or at its
//! timeout; no VMSCAN_THROTTLE_ISOLATED (no reclaimer is ever isolating
//! while another runs); no PGDAT_DIRTY, as the filesystems of today's
//! kernel have no ->writepage for kswapd to call (pageout() returns
//! PAGE_ACTIVATE).
use super::folio::pg;
use super::vmscan::ScanControl;
use super::{MemcgId, Mm, MAX_RECLAIM_RETRIES, SWAP_CLUSTER_MAX};
use super::kswapd::KswapdMode;
use crate::event::EventKind;

/// The kernel's HZ (CONFIG_HZ_1000), for the throttles' timeouts.
const JIFFY_NS: u64 = 1_000_000;

/// enum vmscan_throttle_state (without VMSCAN_THROTTLE_ISOLATED).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThrottleReason {
    /// Folios marked for immediate reclaim came back to the tail still
    /// under writeback (kswapd).
    Writeback,
    /// Every dirty page-cache folio reclaim met was under writeback and
    /// marked for immediate reclaim (direct and memcg reclaim).
    Congested,
    /// Direct reclaim reclaimed nothing at priority 1.
    Noprogress,
}

impl ThrottleReason {
    pub fn name(self) -> &'static str {
        match self {
            ThrottleReason::Writeback => "VMSCAN_THROTTLE_WRITEBACK",
            ThrottleReason::Congested => "VMSCAN_THROTTLE_CONGESTED",
            ThrottleReason::Noprogress => "VMSCAN_THROTTLE_NOPROGRESS",
        }
    }

    /// The timeout: HZ/10 on writeback, one jiffy otherwise.
    fn timeout_ns(self) -> u64 {
        match self {
            ThrottleReason::Writeback => 100 * JIFFY_NS,
            ThrottleReason::Congested | ThrottleReason::Noprogress => JIFFY_NS,
        }
    }
}

impl Mm {
    /// shrink_node()'s throttling after shrink_node_memcgs() (v6.12):
    /// kswapd flags the node PGDAT_WRITEBACK when every folio it took was
    /// under writeback, and stalls when it met folios marked for immediate
    /// reclaim still under writeback (nr_immediate); a node or memcg is
    /// tagged congested when every dirty page-cache folio met was under
    /// writeback with PG_reclaim (nr_congested); direct and memcg reclaim of
    /// a congested target stalls. Only the classic LRU feeds sc->nr here:
    /// MGLRU's root reclaim returns before, and its evict_folios() keeps its
    /// reclaim_stat to itself.
    pub fn shrink_node_throttle(&mut self, node: usize, sc: &ScanControl) {
        let target = self.lruvec_id(sc.target_mem_cgroup.unwrap_or(super::vmscan::ROOT_MEMCG), node) as usize;
        if sc.kswapd {
            if sc.nr.writeback > 0 && sc.nr.writeback == sc.nr.taken {
                self.nodes[node].pgdat_writeback = true;
            }
            if sc.nr.immediate > 0 {
                self.reclaim_throttle(node, ThrottleReason::Writeback, true);
            }
        }
        if sc.nr.dirty > 0 && sc.nr.dirty == sc.nr.congested {
            // writeback_throttling_sane(): cgroup v2 always is.
            if sc.cgroup_reclaim() {
                self.lruvecs[target].cgroup_congested = true;
            }
            if sc.kswapd {
                self.lruvecs[target].node_congested = true;
            }
        }
        let lv = &self.lruvecs[target];
        if !sc.kswapd && (lv.cgroup_congested || lv.node_congested) {
            self.reclaim_throttle(node, ThrottleReason::Congested, false);
        }
    }

    /// consider_reclaim_throttle() (called by shrink_zones() for the first
    /// node): direct reclaim that reclaimed nothing by priority 1 waits a
    /// jiffy. kswapd and memcg reclaim throttle on writeback instead.
    pub(crate) fn consider_reclaim_throttle(&mut self, node: usize, sc: &ScanControl) {
        if sc.nr_reclaimed > sc.nr_scanned >> 3 || sc.kswapd || sc.cgroup_reclaim() {
            return;
        }
        if sc.priority == 1 && sc.nr_reclaimed == 0 {
            self.reclaim_throttle(node, ThrottleReason::Noprogress, false);
        }
    }

    /// reclaim_throttle(): the current reclaimer sleeps up to the reason's
    /// timeout. On writeback it is woken early once more than
    /// SWAP_CLUSTER_MAX * nr_throttled of the node's writes have finished
    /// since it went to sleep (__acct_reclaim_writeback, called from
    /// folio_end_writeback for page cache and swap alike); with fewer writes
    /// in flight it sleeps the whole HZ/10. Congested and no-progress
    /// throttles are skipped when the node is hopeless or its pages waiting
    /// for writeback are at most half its reclaimable pages
    /// (skip_throttle_noprogress). Logged as a reclaim event.
    pub fn reclaim_throttle(&mut self, node: usize, reason: ThrottleReason, kswapd: bool) {
        let timeout = reason.timeout_ns();
        let t = self.now_ns + self.cost_ns;
        let slept = match reason {
            ThrottleReason::Writeback => {
                // One pass over the writes in flight, in completion order: the node's writes that end
                // while it sleeps (__acct_reclaim_writeback counts them in NR_THROTTLED_WRITTEN), the
                // SWAP_CLUSTER_MAX + 1st of them waking it.
                let wake = SWAP_CLUSTER_MAX + 1;
                let (mut slept, mut written) = (timeout, 0);
                for &(when, f) in self.writeback.iter().skip_while(|&&(when, _)| when <= t) {
                    if when - t > slept {
                        break;
                    }
                    if self.folio_node(f) == node {
                        written += 1;
                        if written == wake {
                            slept = when - t;
                        }
                    }
                }
                self.vmstat.add(super::vmstat::Item::NrThrottledWritten, written);
                slept
            }
            ThrottleReason::Congested | ThrottleReason::Noprogress => {
                if self.skip_throttle_noprogress(node) {
                    return;
                }
                timeout
            }
        };
        self.wait_ns(slept);
        if kswapd {
            let k = &mut self.nodes[node].kswapd;
            k.throttles += 1;
            k.throttled_ns += slept;
            // On the timeline: throttled from t, running again when it wakes (possibly past this step).
            let start = k.mark(t, KswapdMode::Throttled);
            k.mark(start + slept, KswapdMode::Running);
        }
        // Logged with the rare kinds, past a step's crowd of evictions and refaults.
        let task = if kswapd { None } else { self.current_comm() };
        self.events.push_rare(t, || EventKind::Throttled { node, reason: reason.name(), kswapd, slept_ns: slept, timeout_ns: timeout, task });
    }

    /// skip_throttle_noprogress(): no point throttling on a hopeless node
    /// (kswapd has failed MAX_RECLAIM_RETRIES times), or where at most half
    /// the reclaimable pages wait for writeback (NR_ZONE_WRITE_PENDING:
    /// dirty page cache, and folios under writeback, swap included).
    fn skip_throttle_noprogress(&self, node: usize) -> bool {
        if self.nodes[node].kswapd.failures >= MAX_RECLAIM_RETRIES {
            return true;
        }
        let reclaimable: u64 = (0..self.nodes[node].zones.len()).map(|z| self.zone_reclaimable_pages(node, z)).sum();
        2 * self.write_pending_pages(node) <= reclaimable
    }

    /// NR_ZONE_WRITE_PENDING summed over a node's zones: dirty page cache
    /// not yet under writeback, and every folio under writeback.
    fn write_pending_pages(&self, node: usize) -> u64 {
        let dirty = self
            .dirty_list
            .iter()
            .filter(|&&(_, f)| {
                let fl = self.folios.flags[f as usize];
                fl & pg::DIRTY != 0 && fl & (pg::WRITEBACK | pg::FREE | pg::ANON) == 0 && self.folio_node(f) == node
            })
            .count();
        let writeback = self.writeback.iter().filter(|&&(_, f)| self.folio_node(f) == node).count();
        (dirty + writeback) as u64
    }

    /// clear_pgdat_congested(): kswapd found the node balanced; the node's
    /// root lruvec is no longer congested and PGDAT_WRITEBACK is cleared.
    pub fn clear_pgdat_congested(&mut self, node: usize) {
        let lv = self.lruvec_id(super::vmscan::ROOT_MEMCG, node) as usize;
        self.lruvecs[lv].node_congested = false;
        self.lruvecs[lv].cgroup_congested = false;
        self.nodes[node].pgdat_writeback = false;
    }

    /// The end of do_try_to_free_pages() for memcg reclaim: the target's
    /// lruvecs are no longer cgroup-congested (the next reclaim finds out
    /// again).
    pub fn clear_cgroup_congested(&mut self, target: MemcgId, nodes: &[usize]) {
        for &node in nodes {
            let lv = self.lruvec_id(target, node) as usize;
            self.lruvecs[lv].cgroup_congested = false;
        }
    }
}
