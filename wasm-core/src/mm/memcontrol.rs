//! Memory cgroups: `struct mem_cgroup` with its page counter, limits and
//! statistics (mm/memcontrol.c), and charging with reclaim at the limit
//! (`try_charge_memcg`).
use super::vmstat::Counters;
use super::vmscan::ROOT_MEMCG;
use super::{MemcgId, Mm};

/// MEMCG_CHARGE_BATCH: the charge batch, and reclaim_high's unit.
pub const MEMCG_CHARGE_BATCH: u64 = 64;
/// The kernel's HZ, for memory.high's penalty in jiffies (CONFIG_HZ_1000).
const HZ: u64 = 1000;
/// MEMCG_MAX_HIGH_DELAY_JIFFIES: at most 2 s of throttling per return to user space.
const MEMCG_MAX_HIGH_DELAY_JIFFIES: u64 = 2 * HZ;
/// MEMCG_DELAY_PRECISION_SHIFT and MEMCG_DELAY_SCALING_SHIFT.
const MEMCG_DELAY_PRECISION_SHIFT: u32 = 20;
const MEMCG_DELAY_SCALING_SHIFT: u32 = 14;

/// effective_protection() without memory_recursiveprot: what a memcg
/// using `usage` protects of its `setting`, min(usage, setting), unless its
/// siblings together claim more (`siblings`) than their parent's own
/// effective protection, which is then shared out in proportion.
fn effective_protection(usage: u64, setting: u64, parent_effective: u64, siblings: u64) -> u64 {
    let protected = usage.min(setting);
    if siblings > parent_effective {
        // u128: pages times pages.
        (u128::from(protected) * u128::from(parent_effective) / u128::from(siblings)) as u64
    } else {
        protected
    }
}

/// calculate_high_delay(): overage² · HZ >> 20 >> 14 jiffies, times
/// `nr_pages` / MEMCG_CHARGE_BATCH (a task's own share of the overage).
fn calculate_high_delay(nr_pages: u64, max_overage: u64) -> u64 {
    if max_overage == 0 {
        return 0;
    }
    let penalty = (u128::from(max_overage) * u128::from(max_overage) * u128::from(HZ)) >> MEMCG_DELAY_PRECISION_SHIFT >> MEMCG_DELAY_SCALING_SHIFT;
    (penalty * u128::from(nr_pages) / u128::from(MEMCG_CHARGE_BATCH)).min(u128::from(u64::MAX)) as u64
}

/// "max" for a limit.
pub const PAGE_COUNTER_MAX: u64 = u64::MAX;

/// memory.events (hierarchical: a memcg's events and its descendants').
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemcgEvents {
    pub low: u64,
    pub high: u64,
    pub max: u64,
    pub oom: u64,
    pub oom_kill: u64,
}

/// An entry of memory.events (enum memcg_memory_event).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemcgEvent {
    Low,
    High,
    Max,
    Oom,
    OomKill,
}

impl MemcgEvents {
    fn count(&mut self, event: MemcgEvent) {
        match event {
            MemcgEvent::Low => self.low += 1,
            MemcgEvent::High => self.high += 1,
            MemcgEvent::Max => self.max += 1,
            MemcgEvent::Oom => self.oom += 1,
            MemcgEvent::OomKill => self.oom_kill += 1,
        }
    }
}

#[derive(Clone, Debug)]
pub struct MemCgroup {
    pub id: MemcgId,
    /// "/" for the root, "/a/b" below it.
    pub path: String,
    pub parent: Option<MemcgId>,
    pub children: Vec<MemcgId>,
    /// memory.max, memory.high, memory.low, memory.min in pages.
    pub memory_max: u64,
    pub memory_high: u64,
    pub memory_low: u64,
    pub memory_min: u64,
    /// memory.swap.max in pages.
    pub swap_max: u64,
    /// memory.swappiness override (cgroup v1 style); None = vm.swappiness.
    pub swappiness: Option<u32>,
    /// memory.current in pages (hierarchical: includes descendants).
    pub usage: u64,
    /// memory.swap.current in pages.
    pub swap_usage: u64,
    /// Dirty page-cache pages (NR_FILE_DIRTY) and pages under writeback,
    /// swap included (NR_WRITEBACK), charged here (own, not hierarchical).
    pub nr_dirty: u64,
    pub nr_writeback: u64,
    /// memory.stat event counters (hierarchical).
    pub stat: Counters,
    pub events: MemcgEvents,
    pub online: bool,
    /// Where the tasks charging here are in their current charge batch
    /// above memory.high (pages charged above it, modulo
    /// MEMCG_CHARGE_BATCH): the engine's stand-in for the kernel's per-task
    /// memcg_nr_pages_over_high and per-cpu charge stock (see note_over_high).
    pub nr_pages_over_high: u64,
}

impl MemCgroup {
    pub fn new(id: MemcgId, path: String, parent: Option<MemcgId>) -> Self {
        MemCgroup {
            id,
            path,
            parent,
            children: Vec::new(),
            memory_max: PAGE_COUNTER_MAX,
            memory_high: PAGE_COUNTER_MAX,
            memory_low: 0,
            memory_min: 0,
            swap_max: PAGE_COUNTER_MAX,
            swappiness: None,
            usage: 0,
            swap_usage: 0,
            nr_dirty: 0,
            nr_writeback: 0,
            stat: Counters::default(),
            events: MemcgEvents::default(),
            online: true,
            nr_pages_over_high: 0,
        }
    }
}

/// How memory.reclaim sizes each try_to_free_mem_cgroup_pages() call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ProactiveBatch {
    /// The whole remaining request each round (v5.19 to v6.5).
    Whole,
    /// At most SWAP_CLUSTER_MAX (32) pages a round (0388536ac291, v6.6 to v6.8).
    SwapClusterMax,
    /// (request - reclaimed) / 4 a round, at least SWAP_CLUSTER_MAX by the
    /// reclaim side (patch 003, 287d5fedb377, v6.9 and later).
    #[default]
    Decaying,
}

/// One round of memory.reclaim: the batch asked for and what came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReclaimBatch {
    /// The round's nr_to_reclaim: the batch, at least SWAP_CLUSTER_MAX.
    pub batch: u64,
    pub reclaimed: u64,
}

/// The outcome of one write to memory.reclaim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryReclaim {
    pub memcg: MemcgId,
    pub requested: u64,
    pub reclaimed: u64,
    pub rounds: Vec<ReclaimBatch>,
    /// false: -EAGAIN (MAX_RECLAIM_RETRIES rounds reclaimed nothing).
    pub ok: bool,
    pub start_ns: u64,
    pub duration_ns: u64,
}

/// What a failed charge leaves the caller to handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChargeFailed {
    /// The memcg whose limit could not be met (mem_over_limit).
    pub memcg: MemcgId,
    /// Whether the OOM killer runs for it: not for an allocation that may
    /// not use ZONE_NORMAL ("does not needlessly kill tasks for lowmem").
    pub oom: bool,
}

impl Mm {
    /// `memcg` and its ancestors up to the root (parent_mem_cgroup), the
    /// path a page counter charges. For walks that only read; those that
    /// change the memcgs on the way follow `parent` themselves.
    pub fn memcg_ancestors(&self, memcg: MemcgId) -> impl Iterator<Item = MemcgId> + '_ {
        std::iter::successors(Some(memcg), move |&id| self.memcgs[id as usize].parent)
    }

    /// memcg_memory_event(): counts `event` in memory.events of `memcg` and
    /// of each ancestor below the root (which has no memory.events file).
    /// Simplified: no memory.events.local (memory_localevents off).
    pub fn memcg_memory_event(&mut self, memcg: MemcgId, event: MemcgEvent) {
        let mut m = Some(memcg);
        while let Some(id) = m.filter(|&id| id != super::vmscan::ROOT_MEMCG) {
            self.memcgs[id as usize].events.count(event);
            m = self.memcgs[id as usize].parent;
        }
    }

    /// The first memcg from `memcg` up to the root that has no room for
    /// `nr` more pages (page_counter_try_charge's failure point).
    pub fn mem_over_limit(&self, memcg: MemcgId, nr: u64) -> Option<MemcgId> {
        self.memcg_ancestors(memcg).find(|&id| {
            let cg = &self.memcgs[id as usize];
            cg.usage + nr > cg.memory_max
        })
    }

    /// page_counter_charge() on memcg->memory: adds `nr` pages to the usage
    /// of the memcg and each ancestor. Simplified: no per-CPU charge stock
    /// (consume_stock, MEMCG_CHARGE_BATCH) and no watermark or failcnt.
    fn page_counter_charge(&mut self, memcg: MemcgId, nr: u64) {
        let mut m = Some(memcg);
        while let Some(id) = m {
            let cg = &mut self.memcgs[id as usize];
            cg.usage += nr;
            m = cg.parent;
        }
    }

    /// page_counter_uncharge() up the hierarchy.
    pub fn uncharge(&mut self, memcg: MemcgId, nr: u64) {
        let mut m = Some(memcg);
        while let Some(id) = m {
            let cg = &mut self.memcgs[id as usize];
            cg.usage -= nr;
            m = cg.parent;
        }
    }

    /// try_charge_memcg(): charge `nr` pages to `memcg`; at a limit, reclaim
    /// from the memcg over its limit (try_to_free_mem_cgroup_pages) and retry,
    /// up to MAX_RECLAIM_RETRIES times without progress, then fail (the caller
    /// invokes the OOM killer).
    ///
    /// A charge while above memory.high is noted for
    /// mem_cgroup_handle_over_high ([`Mm::note_over_high`]). Simplified: no
    /// per-cpu charge stock (MEMCG_CHARGE_BATCH), no waiting on an OOM in
    /// progress.
    pub fn try_charge(&mut self, memcg: MemcgId, nr: u64) -> Result<(), ChargeFailed> {
        let mut nr_retries = super::MAX_RECLAIM_RETRIES;
        loop {
            let Some(over) = self.mem_over_limit(memcg, nr) else {
                self.page_counter_charge(memcg, nr);
                self.note_over_high(memcg);
                return Ok(());
            };
            self.memcg_memory_event(over, MemcgEvent::Max);
            let reclaimed = self.try_to_free_mem_cgroup_pages(over, nr, true, false);
            if self.mem_over_limit(memcg, nr).is_none() {
                continue;
            }
            if reclaimed > 0 {
                continue;
            }
            if nr_retries == 0 {
                self.memcg_memory_event(over, MemcgEvent::Oom);
                return Err(ChargeFailed { memcg: over, oom: true });
            }
            nr_retries -= 1;
        }
    }

    /// memory_reclaim(): a write of `nr_to_reclaim` pages to the memcg's
    /// memory.reclaim. Rounds of try_to_free_mem_cgroup_pages() (may swap,
    /// proactive) until the request is met, sized by the batch policy; a round
    /// that reclaims nothing uses up one of MAX_RECLAIM_RETRIES retries, and
    /// when none are left the write fails with -EAGAIN. Each round costs a
    /// reclaim restart (RECLAIM_ROUND_NS) plus its scanning.
    /// Simplified: no signals (-EINTR), no swappiness= option.
    pub fn memory_reclaim(&mut self, memcg: MemcgId, nr_to_reclaim: u64) -> MemoryReclaim {
        let start_cost = self.cost_ns;
        let mut nr_reclaimed = 0;
        let mut nr_retries = super::MAX_RECLAIM_RETRIES;
        let mut rounds = Vec::new();
        let mut ok = true;
        while nr_reclaimed < nr_to_reclaim {
            let remaining = nr_to_reclaim - nr_reclaimed;
            let batch = match self.knobs.proactive_batch {
                ProactiveBatch::Whole => remaining,
                ProactiveBatch::SwapClusterMax => remaining.min(super::SWAP_CLUSTER_MAX),
                ProactiveBatch::Decaying => remaining / 4,
            };
            let reclaimed = self.try_to_free_mem_cgroup_pages(memcg, batch, true, true);
            // The round asks for what try_to_free_mem_cgroup_pages makes of the batch: at least SWAP_CLUSTER_MAX.
            rounds.push(ReclaimBatch { batch: batch.max(super::SWAP_CLUSTER_MAX), reclaimed });
            if reclaimed == 0 {
                if nr_retries == 0 {
                    ok = false;
                    break;
                }
                nr_retries -= 1;
            }
            nr_reclaimed += reclaimed;
        }
        MemoryReclaim {
            memcg,
            requested: nr_to_reclaim,
            reclaimed: nr_reclaimed,
            rounds,
            ok,
            start_ns: self.now_ns,
            duration_ns: self.cost_ns - start_cost,
        }
    }

    /// try_charge()'s memory.high check: a charge while `memcg` or an
    /// ancestor is above memory.high is dealt with by
    /// mem_cgroup_handle_over_high, a batch at a time. The kernel charges the
    /// page counters MEMCG_CHARGE_BATCH pages at a time (consume_stock), so
    /// its first charge above high already stands for a batch; the engine
    /// charges page by page, so it acts on the first page charged above high
    /// and then on every MEMCG_CHARGE_BATCH-th, each time for a batch: as
    /// often as the kernel. Simplified: done at once, inside try_charge
    /// (before the new folio is mapped), where the kernel does it on the way
    /// back to user space (or in try_charge once more than a batch has piled up).
    fn note_over_high(&mut self, memcg: MemcgId) {
        let over = self.memcg_ancestors(memcg).any(|id| {
            let cg = &self.memcgs[id as usize];
            cg.usage > cg.memory_high
        });
        if !over {
            return;
        }
        let cg = &mut self.memcgs[memcg as usize];
        let first_of_batch = cg.nr_pages_over_high == 0;
        cg.nr_pages_over_high = (cg.nr_pages_over_high + 1) % MEMCG_CHARGE_BATCH;
        if first_of_batch {
            self.mem_cgroup_handle_over_high(memcg, MEMCG_CHARGE_BATCH);
        }
    }

    /// reclaim_high(): each memcg from `memcg` up that is above memory.high
    /// counts a MEMCG_HIGH event and is reclaimed by `nr_pages` (may swap).
    fn reclaim_high(&mut self, memcg: MemcgId, nr_pages: u64) -> u64 {
        let mut nr_reclaimed = 0;
        let mut m = Some(memcg);
        while let Some(id) = m {
            let cg = &self.memcgs[id as usize];
            if cg.usage > cg.memory_high {
                self.memcg_memory_event(id, MemcgEvent::High);
                nr_reclaimed += self.try_to_free_mem_cgroup_pages(id, nr_pages, true, false);
            }
            m = self.memcgs[id as usize].parent;
        }
        nr_reclaimed
    }

    /// mem_find_max_overage(): the largest (usage - high) / high of `memcg`
    /// and its ancestors, in 1 / 2^MEMCG_DELAY_PRECISION_SHIFT
    /// (calculate_overage; a high of 0 acts as 1 page).
    fn mem_find_max_overage(&self, memcg: MemcgId) -> u64 {
        self.memcg_ancestors(memcg)
            .map(|id| {
                let cg = &self.memcgs[id as usize];
                if cg.usage <= cg.memory_high {
                    0
                } else {
                    let high = cg.memory_high.max(1);
                    ((u128::from(cg.usage - high) << MEMCG_DELAY_PRECISION_SHIFT) / u128::from(high)).min(u128::from(u64::MAX)) as u64
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// mem_cgroup_handle_over_high() (v6.12; called from
    /// [`Mm::note_over_high`]): reclaim_high() by `nr_pages`, then work out
    /// the penalty that grows with the square of the overage (calculate_high_delay), scaled by
    /// `nr_pages` / MEMCG_CHARGE_BATCH and capped at 2 s
    /// (MEMCG_MAX_HIGH_DELAY_JIFFIES). No sleep at HZ / 100 or less; while
    /// reclaim makes progress (or MAX_RECLAIM_RETRIES allow) reclaim again,
    /// SWAP_CLUSTER_MAX at a time; else sleep the penalty. Simplified: no
    /// swap.high (its overage is 0); HZ is 1000.
    fn mem_cgroup_handle_over_high(&mut self, memcg: MemcgId, nr_pages: u64) {
        let mut nr_retries = super::MAX_RECLAIM_RETRIES;
        let mut in_retry = false;
        loop {
            let nr_reclaimed = self.reclaim_high(memcg, if in_retry { super::SWAP_CLUSTER_MAX } else { nr_pages });
            let penalty_jiffies = calculate_high_delay(nr_pages, self.mem_find_max_overage(memcg)).min(MEMCG_MAX_HIGH_DELAY_JIFFIES);
            if penalty_jiffies <= HZ / 100 {
                return;
            }
            if nr_reclaimed > 0 {
                in_retry = true;
                continue;
            }
            if nr_retries > 0 {
                nr_retries -= 1;
                in_retry = true;
                continue;
            }
            self.wait_ns(penalty_jiffies * (1_000_000_000 / HZ));
            return;
        }
    }

    /// mem_cgroup_swap_full() (v6.12): swap is more than half used, either
    /// on the device (vm_swap_full: free slots * 2 < total) or in `memcg` or
    /// an ancestor below the root against its swap.max. Then a swap-in and
    /// an activation give their slot back (folio_free_swap). Simplified: no
    /// swap.high (it is `max`), cgroup v2 only.
    pub fn mem_cgroup_swap_full(&self, memcg: MemcgId) -> bool {
        self.swap.nr_free() * 2 < self.swap.pages
            || self.memcg_ancestors(memcg).any(|id| {
                let cg = &self.memcgs[id as usize];
                cg.parent.is_some() && cg.swap_usage.saturating_mul(2) >= cg.swap_max
            })
    }

    /// mem_cgroup_swappiness(): the memcg's own value where the scenario
    /// gives one, as cgroup v1's memory.swappiness; else vm.swappiness, which
    /// is what cgroup v2 always uses ("Cgroup2 doesn't have per-cgroup
    /// swappiness"). The root is never listed in a scenario, so it uses
    /// vm.swappiness, as the kernel's root does.
    pub fn mem_cgroup_swappiness(&self, memcg: MemcgId) -> u32 {
        self.memcgs[memcg as usize].swappiness.unwrap_or(self.knobs.swappiness)
    }

    /// Is `memcg` (or `ancestor` itself) inside `ancestor`'s subtree?
    pub fn mem_cgroup_is_descendant(&self, memcg: MemcgId, ancestor: MemcgId) -> bool {
        self.memcg_ancestors(memcg).any(|id| id == ancestor)
    }

    /// Calls `f` on every memcg of the subtree of `root`, in pre-order,
    /// without building the subtree's list (for hierarchical statistics, as
    /// rstat keeps memcg counters; summed on demand here).
    pub fn memcg_subtree_for_each(&self, root: MemcgId, f: &mut impl FnMut(MemcgId)) {
        f(root);
        for &c in &self.memcgs[root as usize].children {
            self.memcg_subtree_for_each(c, f);
        }
    }

    /// [inactive_anon, active_anon, inactive_file, active_file] of `memcg`
    /// and its descendants on `node` (lruvec_page_state of each list, which
    /// is hierarchical; with MGLRU as Lruvec::lru_sizes counts).
    pub fn memcg_lru_sizes(&self, memcg: MemcgId, node: usize) -> [u64; 4] {
        let mut sizes = [0u64; 4];
        self.memcg_subtree_for_each(memcg, &mut |m| {
            let l = self.lruvecs[self.lruvec_id(m, node) as usize].lru_sizes(self.knobs.lru_gen_enabled);
            for (a, b) in sizes.iter_mut().zip(l) {
                *a += b;
            }
        });
        sizes
    }

    /// The sum of `f` over the subtree of `root` (a hierarchical statistic).
    pub fn memcg_subtree_sum(&self, root: MemcgId, f: impl Fn(MemcgId) -> u64) -> u64 {
        let mut sum = 0;
        self.memcg_subtree_for_each(root, &mut |m| sum += f(m));
        sum
    }

    /// The subtree of `root` in pre-order (mem_cgroup_iter's order).
    pub fn memcg_subtree(&self, root: MemcgId) -> Vec<MemcgId> {
        let mut out = Vec::new();
        self.memcg_subtree_for_each(root, &mut |m| out.push(m));
        out
    }

    /// mem_cgroup_calculate_protection() and mem_cgroup_protection(): the
    /// effective memory.min and memory.low (emin, elow) of `memcg` in a
    /// reclaim of `target` (None: the root), as page_counter_calculate_protection()
    /// works them out without memory_recursiveprot. A child of the target
    /// has its own settings; deeper down, a memcg protects
    /// min(usage, setting), unless its siblings together claim more than
    /// their parent's own effective protection, which is then shared out
    /// in proportion (effective_protection()). So a memcg under an
    /// unprotected parent is unprotected, whatever it says. The target and
    /// the root have none. Simplified: worked out afresh on every call
    /// (the kernel caches them per walk, stale for a memcg with no usage;
    /// such a memcg counts as protected either way, emin >= 0).
    pub fn mem_cgroup_protection(&self, target: Option<MemcgId>, memcg: MemcgId) -> (u64, u64) {
        let root = target.unwrap_or(ROOT_MEMCG);
        if memcg == root || memcg == ROOT_MEMCG {
            return (0, 0);
        }
        // min(usage, 0) is 0 at every level: nothing to work out.
        let own = &self.memcgs[memcg as usize];
        if own.memory_min == 0 && own.memory_low == 0 {
            return (0, 0);
        }
        // The path below the target (a memcg outside the target's subtree,
        // which reclaim never visits, is worked out below the root).
        let mut path: Vec<MemcgId> = self.memcg_ancestors(memcg).take_while(|&m| m != root && m != ROOT_MEMCG).collect();
        path.reverse();
        // Top-down, as mem_cgroup_iter's pre-order calculates them.
        let mut effective = (0u64, 0u64);
        for (depth, &m) in path.iter().enumerate() {
            let cg = &self.memcgs[m as usize];
            if depth == 0 {
                effective = (cg.memory_min, cg.memory_low);
            } else {
                // A parent with no effective protection leaves none below it.
                if effective == (0, 0) {
                    return (0, 0);
                }
                // children_min_usage / children_low_usage of the parent (propagate_protected_usage).
                let parent = path[depth - 1];
                let (mut siblings_min, mut siblings_low) = (0u64, 0u64);
                for c in self.memcgs[parent as usize].children.iter().map(|&c| &self.memcgs[c as usize]) {
                    siblings_min += c.usage.min(c.memory_min);
                    siblings_low += c.usage.min(c.memory_low);
                }
                effective = (effective_protection(cg.usage, cg.memory_min, effective.0, siblings_min), effective_protection(cg.usage, cg.memory_low, effective.1, siblings_low));
            }
        }
        effective
    }

    /// mem_cgroup_below_min(): `emin >= usage`, so an empty memcg counts as
    /// protected too (shrink_one rotates it young without shrinking it);
    /// the reclaim target and the root are never protected
    /// (mem_cgroup_unprotected). emin as [`Mm::mem_cgroup_protection`].
    pub fn mem_cgroup_below_min(&self, target: Option<MemcgId>, memcg: MemcgId) -> bool {
        Some(memcg) != target && memcg != ROOT_MEMCG && self.memcgs[memcg as usize].usage <= self.mem_cgroup_protection(target, memcg).0
    }

    /// mem_cgroup_below_low(): `elow >= usage`, as [`Mm::mem_cgroup_below_min`].
    pub fn mem_cgroup_below_low(&self, target: Option<MemcgId>, memcg: MemcgId) -> bool {
        Some(memcg) != target && memcg != ROOT_MEMCG && self.memcgs[memcg as usize].usage <= self.mem_cgroup_protection(target, memcg).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// calculate_overage() and calculate_high_delay(), by hand: usage 1,025
    /// over a high of 1,000 is an overage of (25 << 20) / 1000 = 26,214;
    /// 26,214² · 1000 >> 34 = 39 jiffies. 1,012 pages (1.2 %): 9 jiffies, not
    /// over HZ / 100, so no sleep. Half over, for half a batch: 16,000
    /// jiffies scaled by 32 / 64 (the caller caps it at 2 s).
    #[test]
    fn high_delay_grows_with_the_square_of_the_overage() {
        let overage = |usage: u64, high: u64| ((usage - high) << MEMCG_DELAY_PRECISION_SHIFT) / high;
        assert_eq!(overage(1025, 1000), 26_214);
        assert_eq!(calculate_high_delay(MEMCG_CHARGE_BATCH, overage(1025, 1000)), 39);
        assert_eq!(calculate_high_delay(MEMCG_CHARGE_BATCH, overage(1012, 1000)), 9);
        assert!(calculate_high_delay(MEMCG_CHARGE_BATCH, overage(1012, 1000)) <= HZ / 100);
        assert_eq!(calculate_high_delay(32, overage(1500, 1000)), 8000);
        assert_eq!(calculate_high_delay(MEMCG_CHARGE_BATCH, 0), 0);
    }
}
