//! kswapd, one per node (mm/vmscan.c): wakeup_kswapd, the kswapd() loop,
//! kswapd_try_to_sleep with its 0.1 s nap, prepare_kswapd_sleep,
//! pgdat_balanced and balance_pgdat with its priorities.
//!
//! kswapd runs beside the tasks on the simulated clock. Each of its actions
//! is one step of the kernel loop (one balance_pgdat iteration, i.e. one
//! kswapd_shrink_node pass at a priority; or a sleep decision) and takes the
//! simulated time its scanning costs. The simulation calls [`Mm::kswapd_run`]
//! when [`PgData::kswapd_next`](super::pgdat::PgData) is due.
use serde::{Deserialize, Serialize};

use super::pgdat::WMARK_HIGH;
use crate::event::PrematureSleep;
use super::vmscan::ScanControl;
use super::vmstat::Item;
use super::{Mm, DEF_PRIORITY, MAX_NR_ZONES, MAX_RECLAIM_RETRIES, SWAP_CLUSTER_MAX};
use crate::cost;

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// HZ/10: kswapd's short nap before it decides to sleep for good.
pub const KSWAPD_NAP_NS: u64 = 100_000_000;

/// What kswapd is doing, as a timeline shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum KswapdMode {
    /// schedule(): asleep until wakeup_kswapd.
    Asleep,
    /// schedule_timeout(HZ/10) in kswapd_try_to_sleep.
    Napping,
    /// In balance_pgdat.
    Running,
    /// Asleep in reclaim_throttle() inside balance_pgdat (on writeback): a
    /// mode of the timeline and the view only; kswapd's state machine
    /// (`Kswapd::mode`) stays Running through it.
    Throttled,
}

/// balance_pgdat's loop state between actions.
#[derive(Clone, Debug)]
pub struct Balance {
    pub order: u32,
    pub highest_zoneidx: usize,
    pub sc: ScanControl,
}

#[derive(Clone, Debug)]
pub struct Kswapd {
    pub mode: KswapdMode,
    /// When its next action is due (None while asleep).
    pub next_ns: Option<u64>,
    /// The nap's end, and the order and zone index it napped for.
    pub nap: Option<(u64, u32, usize)>,
    pub balance: Option<Balance>,
    /// The zone index of the last balance (the `prev` of kswapd_highest_zoneidx()).
    pub prev_highest_zoneidx: usize,
    /// pgdat->kswapd_order, kswapd_highest_zoneidx (MAX_NR_ZONES = unset),
    /// kswapd_failures.
    pub order: u32,
    pub highest_zoneidx: usize,
    pub failures: u32,
    /// The highest_zoneidx of the last wakeup (for the premature-sleep count).
    pub last_wakeup_zoneidx: usize,
    /// Times kswapd went to sleep for good, and how many of those while the
    /// zones the last wakeup asked for were not balanced (premature).
    pub sleeps: u64,
    pub premature_sleeps: u64,
    /// Times kswapd slept in reclaim_throttle() (on writeback), and for how
    /// long in all: within balance_pgdat (`mode` stays Running); the
    /// timeline marks that time Throttled.
    pub throttles: u64,
    pub throttled_ns: u64,
    /// Mode changes: (time, mode), for the kswapd timeline.
    pub timeline: Vec<(u64, KswapdMode)>,
    /// The zones as kswapd saw them each time it went to sleep for good
    /// (the last 1024), so tests can recheck the decision independently.
    pub sleep_log: Vec<SleepRecord>,
}

/// What kswapd's last sleep decision looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SleepRecord {
    pub time_ns: u64,
    /// The zone index prepare_kswapd_sleep checked.
    pub highest_zoneidx: usize,
    /// The zone index the last wakeup asked for.
    pub wakeup_zoneidx: usize,
    pub managed: [u64; MAX_NR_ZONES],
    pub free: [u64; MAX_NR_ZONES],
    pub high: [u64; MAX_NR_ZONES],
    /// lowmem_reserve[highest_zoneidx] of each zone.
    pub reserve: [u64; MAX_NR_ZONES],
    pub failures: u32,
    /// Whether the zones the last wakeup asked for were still unbalanced (a
    /// premature sleep).
    pub premature: bool,
}

impl Kswapd {
    /// Puts a change to `mode` on the timeline at `t`, or at the last
    /// change there if that is later (a throttle's end may lie past
    /// now_ns), keeping the latest 2048 to 4096 changes; returns the time
    /// it went in at.
    pub fn mark(&mut self, t: u64, mode: KswapdMode) -> u64 {
        let t = t.max(self.timeline.last().map_or(0, |e| e.0));
        if self.timeline.len() >= 4096 {
            self.timeline.drain(..2048);
        }
        self.timeline.push((t, mode));
        t
    }

    pub fn new(unset: usize) -> Self {
        Kswapd {
            mode: KswapdMode::Asleep,
            next_ns: None,
            nap: None,
            balance: None,
            prev_highest_zoneidx: MAX_NR_ZONES - 1,
            order: 0,
            highest_zoneidx: unset,
            failures: 0,
            last_wakeup_zoneidx: MAX_NR_ZONES - 1,
            sleeps: 0,
            premature_sleeps: 0,
            throttles: 0,
            throttled_ns: 0,
            timeline: vec![(0, KswapdMode::Asleep)],
            sleep_log: Vec::new(),
        }
    }
}

impl Mm {
    /// The "no recent wakeup" value of kswapd_highest_zoneidx: MAX_NR_ZONES
    /// since patch 002 (4.12); 0 before it (kswapd_classzone_idx).
    pub fn kswapd_zoneidx_unset(&self) -> usize {
        if self.knobs.kswapd_classzone_fix {
            MAX_NR_ZONES
        } else {
            0
        }
    }

    fn set_kswapd_mode(&mut self, node: usize, mode: KswapdMode) {
        let hz = self.nodes[node].kswapd.prev_highest_zoneidx;
        self.change_kswapd_mode(node, mode, hz, None);
    }

    /// A change of kswapd's mode, with the zone index it runs or checks for
    /// and, going to sleep, whether that is premature: on the timeline and
    /// as an event.
    fn change_kswapd_mode(&mut self, node: usize, mode: KswapdMode, hz: usize, premature: Option<PrematureSleep>) {
        let k = &mut self.nodes[node].kswapd;
        if k.mode != mode {
            let (from, failures) = (k.mode, k.failures);
            let at = k.mark(self.now_ns, mode);
            k.mode = mode;
            self.events.push_rare(at, || crate::event::EventKind::Kswapd { node, from, to: mode, highest_zoneidx: hz, failures, premature });
        }
    }

    /// kswapd_highest_zoneidx(pgdat, prev) (v5.3+; kswapd_classzone_idx()
    /// before v5.8): the pending zone index, or `prev` when unset. Patch 002
    /// as merged (v4.12-v5.2) returned max(pending, prev) when set. Before
    /// patch 002 there was no "unset": the field read 0.
    fn kswapd_highest_zoneidx(&self, node: usize, prev: usize) -> usize {
        let curr = self.nodes[node].kswapd.highest_zoneidx;
        if !self.knobs.kswapd_classzone_fix {
            curr.min(MAX_NR_ZONES - 1)
        } else if curr == MAX_NR_ZONES {
            prev
        } else if self.knobs.kswapd_useless_loops_fix {
            curr
        } else {
            curr.max(prev)
        }
    }

    /// pgdat_balanced(): true if ANY managed zone in 0..=highest_zoneidx has
    /// free pages above its high watermark plus lowmem_reserve[highest_zoneidx].
    /// A node with no managed zone in range needs no balancing.
    pub fn pgdat_balanced(&self, node: usize, order: u32, highest_zoneidx: usize) -> bool {
        let mut any = false;
        for z in 0..=highest_zoneidx.min(MAX_NR_ZONES - 1) {
            let zone = &self.nodes[node].zones[z];
            if zone.managed == 0 {
                continue;
            }
            any = true;
            if self.zone_watermark_ok(node, z, order, zone.watermark[WMARK_HIGH], highest_zoneidx) {
                return true;
            }
        }
        !any
    }

    /// prepare_kswapd_sleep(): sleep if the node is hopeless (16 failed
    /// runs: leave it to direct reclaim) or balanced. Simplified: the
    /// hopeless-node check (kswapd_failures, c73322d098e4 "mm: fix 100% CPU
    /// kswapd busyloop on unreclaimable nodes") came in v4.12, with patch
    /// 002, yet applies in every variant here, also in kswapd-classzone's
    /// v4.11 `before`, whose kswapd would have kept running on a node it
    /// cannot reclaim. It only acts after 16 runs in a row that reclaimed
    /// nothing.
    ///
    /// A balanced node's congestion and writeback flags are cleared
    /// (clear_pgdat_congested).
    fn prepare_kswapd_sleep(&mut self, node: usize, order: u32, highest_zoneidx: usize) -> bool {
        if self.nodes[node].kswapd.failures >= MAX_RECLAIM_RETRIES {
            return true;
        }
        if self.pgdat_balanced(node, order, highest_zoneidx) {
            self.clear_pgdat_congested(node);
            return true;
        }
        false
    }

    /// wakeup_kswapd(): record the order and zone index wanted; wake kswapd
    /// if it waits (asleep or napping), unless the node is hopeless or
    /// already balanced for this request.
    pub fn wakeup_kswapd(&mut self, node: usize, order: u32, highest_zoneidx: usize) {
        let unset = self.kswapd_zoneidx_unset();
        let k = &mut self.nodes[node].kswapd;
        if (self.knobs.kswapd_classzone_fix && k.highest_zoneidx == unset) || k.highest_zoneidx < highest_zoneidx {
            k.highest_zoneidx = highest_zoneidx;
        }
        k.order = k.order.max(order);
        k.last_wakeup_zoneidx = highest_zoneidx;
        if k.mode == KswapdMode::Running {
            return;
        }
        if k.failures >= MAX_RECLAIM_RETRIES || self.pgdat_balanced(node, order, highest_zoneidx) {
            return;
        }
        // wake_up_interruptible(): run at once (ending a nap early).
        self.nodes[node].kswapd.next_ns = Some(self.now_ns);
    }

    /// One kswapd action at `self.now_ns`. Returns nothing; schedules the
    /// next action in `kswapd.next_ns` (None = asleep until woken).
    pub fn kswapd_run(&mut self, node: usize) {
        self.cost_ns = 0;
        self.io_wait_ns = 0;
        match self.nodes[node].kswapd.mode {
            KswapdMode::Asleep => {
                // Woken from schedule(): read the request and balance.
                self.kswapd_start_balance(node);
            }
            KswapdMode::Napping => {
                let (until, order, highest) = self.nodes[node].kswapd.nap.take().expect("napping has a nap");
                let remaining = until.saturating_sub(self.now_ns);
                if remaining > 0 {
                    // Woken during the nap: keep the pending request, or
                    // the napped-for zone if higher. Before patch 002
                    // (v4.8-v4.11) kswapd_try_to_sleep() took
                    // max(pgdat->kswapd_classzone_idx, classzone_idx) here;
                    // since, kswapd_classzone_idx(pgdat, classzone_idx).
                    let pending = self.kswapd_highest_zoneidx(node, highest);
                    let hz = if self.knobs.kswapd_classzone_fix { pending } else { pending.max(highest) };
                    let k = &mut self.nodes[node].kswapd;
                    k.highest_zoneidx = hz;
                    k.order = k.order.max(order);
                    self.count_global(Item::KswapdLowWmarkHitQuickly);
                    self.kswapd_start_balance(node);
                } else if self.prepare_kswapd_sleep(node, order, highest) {
                    self.kswapd_sleep(node, highest);
                } else {
                    self.count_global(Item::KswapdHighWmarkHitQuickly);
                    self.kswapd_start_balance(node);
                }
            }
            KswapdMode::Running | KswapdMode::Throttled if self.nodes[node].kswapd.balance.is_some() => self.balance_pgdat_step(node),
            KswapdMode::Running | KswapdMode::Throttled => self.kswapd_start_balance(node),
        }
    }

    /// schedule(): asleep until woken. Counts a premature sleep when the
    /// zones the last wakeup needed are still below their high watermarks.
    fn kswapd_sleep(&mut self, node: usize, checked_zoneidx: usize) {
        let hz = self.nodes[node].kswapd.last_wakeup_zoneidx;
        let premature = !self.pgdat_balanced(node, 0, hz);
        let zones = &self.nodes[node].zones;
        let rec = SleepRecord {
            time_ns: self.now_ns,
            highest_zoneidx: checked_zoneidx,
            wakeup_zoneidx: hz,
            managed: std::array::from_fn(|z| zones[z].managed),
            free: std::array::from_fn(|z| zones[z].free_pages()),
            high: std::array::from_fn(|z| zones[z].watermark[WMARK_HIGH]),
            reserve: std::array::from_fn(|z| zones[z].lowmem_reserve[checked_zoneidx.min(MAX_NR_ZONES - 1)]),
            failures: self.nodes[node].kswapd.failures,
            premature,
        };
        let k = &mut self.nodes[node].kswapd;
        if k.sleep_log.len() >= 1024 {
            k.sleep_log.drain(..512);
        }
        k.sleep_log.push(rec);
        k.sleeps += 1;
        if premature {
            k.premature_sleeps += 1;
        }
        k.next_ns = None;
        // What the last wakeup wanted and did not get: its highest managed zone, against its mark.
        let short = premature
            .then(|| {
                let zones = &self.nodes[node].zones;
                (0..=hz.min(MAX_NR_ZONES - 1)).rev().find(|&z| zones[z].managed > 0).map(|z| PrematureSleep {
                    zone: z,
                    free: zones[z].free_pages(),
                    mark: zones[z].watermark[WMARK_HIGH] + zones[z].lowmem_reserve[hz.min(MAX_NR_ZONES - 1)],
                })
            })
            .flatten();
        self.change_kswapd_mode(node, KswapdMode::Asleep, checked_zoneidx, short);
    }

    /// kswapd() after kswapd_try_to_sleep() returns ("Read the new order and
    /// classzone_idx"): take the pending order and zone index, reset them to
    /// "unset", and start balance_pgdat. With no pending wakeup the zone
    /// index is the last run's (v5.3+), or 0 with patch 002 as merged
    /// (kswapd_classzone_idx(pgdat, 0), v4.12-v5.2): balance_pgdat() then
    /// finds ZONE_DMA balanced and returns at once, and kswapd naps and
    /// sleeps on ZONE_DMA's check.
    fn kswapd_start_balance(&mut self, node: usize) {
        let k = &self.nodes[node].kswapd;
        let prev = if self.knobs.kswapd_useless_loops_fix { k.prev_highest_zoneidx } else { 0 };
        let highest = self.kswapd_highest_zoneidx(node, prev);
        let unset = self.kswapd_zoneidx_unset();
        let k = &mut self.nodes[node].kswapd;
        let order = k.order;
        k.order = 0;
        k.highest_zoneidx = unset;
        k.prev_highest_zoneidx = highest;
        // balance_pgdat() set-up.
        let mut sc = ScanControl::new(0, None);
        sc.kswapd = true;
        sc.order = order;
        sc.reclaim_idx = highest;
        sc.may_writepage = true;
        sc.may_swap = true;
        k.balance = Some(Balance { order, highest_zoneidx: highest, sc });
        self.count_global(Item::Pageoutrun);
        self.set_kswapd_mode(node, KswapdMode::Running);
        self.balance_pgdat_step(node);
    }

    /// One iteration of balance_pgdat's priority loop: stop if balanced;
    /// age (kswapd_age_node); kswapd_shrink_node with nr_to_reclaim = the sum
    /// of max(high watermark, 32) over eligible zones; lower the priority if
    /// nothing was reclaimed or the scan fell short. When the loop ends, a run
    /// that reclaimed nothing runs again once without cache_trim_mode if
    /// that mode found nothing (v6.10+), else counts a kswapd_failure; then
    /// kswapd tries to sleep.
    fn balance_pgdat_step(&mut self, node: usize) {
        let mut b = self.nodes[node].kswapd.balance.take().expect("running kswapd has a balance");
        let balanced = self.pgdat_balanced(node, b.order, b.highest_zoneidx);
        let done = if balanced {
            true
        } else {
            b.sc.reclaim_idx = b.highest_zoneidx;
            self.kswapd_age_node(node, &mut b.sc);
            if b.sc.priority < DEF_PRIORITY - 2 {
                b.sc.may_writepage = true;
            }
            let before = b.sc.nr_reclaimed;
            let raise_priority = !self.kswapd_shrink_node(node, &mut b.sc);
            let reclaimed = b.sc.nr_reclaimed - before;
            if raise_priority || reclaimed == 0 {
                b.sc.priority -= 1;
            }
            b.sc.priority < 1
        };
        let cost = self.action_duration(self.cost_ns.max(cost::KSWAPD_MIN_ACTION_NS));
        if !done {
            self.nodes[node].kswapd.balance = Some(b);
            self.nodes[node].kswapd.next_ns = Some(self.now_ns + cost);
            return;
        }
        // A loop that ran out of priorities without reclaiming a page, where
        // cache_trim_mode found nothing, runs again from DEF_PRIORITY without
        // it (v6.10+): the anon the file-only scans never looked at.
        if !balanced && b.sc.nr_reclaimed == 0 && !b.sc.no_cache_trim_mode && b.sc.cache_trim_mode_failed {
            b.sc.no_cache_trim_mode = true;
            b.sc.priority = DEF_PRIORITY;
            self.nodes[node].kswapd.balance = Some(b);
            self.nodes[node].kswapd.next_ns = Some(self.now_ns + cost);
            return;
        }
        // A loop that ran out of priorities without reclaiming a page
        // counts a failure; a balanced node went straight to out.
        if !balanced && b.sc.nr_reclaimed == 0 {
            self.nodes[node].kswapd.failures += 1;
        }
        // out: balance_pgdat returns.
        self.snapshot_refaults(None, node);
        // kswapd(): back to the top of the loop, kswapd_try_to_sleep().
        let order = self.nodes[node].kswapd.order;
        let highest = self.kswapd_highest_zoneidx(node, b.highest_zoneidx);
        if self.prepare_kswapd_sleep(node, order, highest) {
            self.nodes[node].kswapd.nap = Some((self.now_ns + cost + KSWAPD_NAP_NS, order, highest));
            self.nodes[node].kswapd.next_ns = Some(self.now_ns + cost + KSWAPD_NAP_NS);
            self.set_kswapd_mode(node, KswapdMode::Napping);
        } else {
            self.count_global(Item::KswapdHighWmarkHitQuickly);
            // Not balanced: balance again, right after this action's time.
            self.nodes[node].kswapd.next_ns = Some(self.now_ns + cost);
        }
    }

    /// kswapd_shrink_node(): reclaim about the sum of the eligible zones'
    /// high watermarks; true if enough was scanned (or, v6.11+, reclaimed:
    /// "account for progress from mm_account_reclaimed_pages()") that no
    /// priority raise is needed. The model has no slab shrinkers, so what it
    /// reclaims it has also scanned and the reclaimed term never decides.
    fn kswapd_shrink_node(&mut self, node: usize, sc: &mut ScanControl) -> bool {
        let nr_reclaimed = sc.nr_reclaimed;
        sc.nr_to_reclaim = 0;
        for z in 0..=sc.reclaim_idx {
            let zone = &self.nodes[node].zones[z];
            if zone.managed > 0 {
                sc.nr_to_reclaim += zone.watermark[WMARK_HIGH].max(SWAP_CLUSTER_MAX);
            }
        }
        sc.nr_scanned = 0;
        // shrink_node() resets kswapd_failures on progress.
        self.shrink_node(node, sc);
        sc.nr_scanned.max(sc.nr_reclaimed - nr_reclaimed) >= sc.nr_to_reclaim
    }

    /// kswapd_age_node(): with MGLRU (v6.12) lru_gen_age_node checks min_ttl
    /// (0: nothing to do) and otherwise only prepares the walk that follows
    /// (set_initial_priority, mem_cgroup_calculate_protection), which the
    /// model does where that walk starts (lru_gen_shrink_node) and where it
    /// reads memory.min and memory.low; without the memcg LRU (v6.1) it ages the
    /// memcgs (lru_gen_age_node_61); with the classic LRU, deactivate anon
    /// pages of every memcg when the node's inactive anon list is low.
    fn kswapd_age_node(&mut self, node: usize, sc: &mut ScanControl) {
        if self.knobs.lru_gen_enabled && !self.knobs.memcg_lru {
            self.lru_gen_age_node_61(node, sc);
            return;
        }
        if self.knobs.lru_gen_enabled || self.knobs.baseline.is_some() || !self.can_age_anon_pages() {
            return;
        }
        let root = self.lruvec_id(0, node);
        if !self.inactive_is_low(root, super::lruvec::LRU_INACTIVE_ANON) {
            return;
        }
        for m in self.memcg_subtree(0) {
            let lv = self.lruvec_id(m, node);
            self.shrink_active_list(SWAP_CLUSTER_MAX, lv, sc, super::lruvec::LRU_ACTIVE_ANON);
        }
    }
}
