//! Typed events: every reclaim decision the engine makes can be reported
//! with the kernel function that made it and the reason in words.
//!
//! Recording is cheap: events are small enum values rendered to text only
//! when a view asks ([`Event::describe`]). The log keeps at most
//! [`EVENTS_PER_STEP`] events per step and counts the rest as dropped; the
//! rare kinds (a new generation, kswapd changing state, a reclaim round, a
//! throttle, the OOM killer) have [`RARE_EVENTS_RESERVE`] more places, so a
//! step whose log is full of evictions, refaults or a hundred memcgs'
//! min_seq moves still shows them; the first event a run to the next event
//! waits for is always kept.
use crate::mm::kswapd::KswapdMode;
use crate::mm::LruvecId;

const ZONE_NAMES: [&str; 4] = ["DMA", "DMA32", "Normal", "Movable"];

pub const EVENTS_PER_STEP: usize = 256;
/// Places beyond EVENTS_PER_STEP for the rare kinds ([`EventLog::push_rare`]).
pub const RARE_EVENTS_RESERVE: usize = 64;

const TYPE_NAMES: [&str; 2] = ["anon", "file"];

/// Who reclaimed or slept, when not kswapd (the kernel's `current`): a
/// workload's task by its name (current->comm), or a write to a memcg's
/// memory.reclaim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reclaimer {
    Task(String),
    MemoryReclaim(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// inc_max_seq: a new youngest generation; `promoted` young mapped folios
    /// were harvested by the page-table walk.
    Aged { lruvec: LruvecId, max_seq: u64, promoted: u64 },
    /// inc_min_seq / try_to_inc_min_seq: the oldest generation of a type retired.
    MinSeq { lruvec: LruvecId, type_: usize, min_seq: u64, function: &'static str, moved: u64 },
    /// evict_folios: one batch.
    Evicted { lruvec: LruvecId, type_: usize, tier_idx: usize, scanned: u64, isolated: u64, reclaimed: u64, rejected: u64 },
    /// lru_gen_refault / workingset_refault.
    Refault { lruvec: LruvecId, type_: usize, recent: bool, tier: usize, restore: bool, function: &'static str },
    /// lru_gen_refault with patch 004: a refault whose generation is gone
    /// but whose refault distance fits the workingset (lru_test_refault):
    /// fed into the PID controller's averages, activated if it had refs.
    RefaultByDistance { lruvec: LruvecId, type_: usize, tier: usize, activated: bool, restore: bool },
    /// A direct or memcg reclaim round.
    /// `task`: who reclaimed (current->comm), when a task did.
    ReclaimRound { lruvec_memcg: String, function: &'static str, nr_to_reclaim: u64, reclaimed: u64, priority: u32, task: Option<Reclaimer> },
    /// The memcg OOM killer.
    Oom { memcg: String, victim: String, freed: u64 },
    /// lru_gen_rotate_memcg: a memcg moved in the memcg LRU.
    MemcgRotated { node: usize, memcg: String, op: u8, gen: usize, bin: usize, flipped: bool },
    /// reclaim_throttle(): a reclaimer slept on writeback, congestion or no
    /// progress (`reason` is the VMSCAN_THROTTLE_* name).
    /// `task`: the task that slept, when not kswapd (current->comm).
    Throttled { node: usize, reason: &'static str, kswapd: bool, slept_ns: u64, timeout_ns: u64, task: Option<Reclaimer> },
    /// kswapd changed state. `highest_zoneidx`: the zone index it runs or
    /// checks for; `premature`: going to sleep while the last wakeup's zones
    /// are not balanced.
    Kswapd { node: usize, from: KswapdMode, to: KswapdMode, highest_zoneidx: usize, failures: u32, premature: Option<PrematureSleep> },
}

/// A sleep for good while the zones the last wakeup asked for are below
/// their high watermarks: the highest of them, its free pages and its mark
/// (high watermark plus lowmem_reserve for the wakeup's zone index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrematureSleep {
    pub zone: usize,
    pub free: u64,
    pub mark: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub time_ns: u64,
    pub kind: EventKind,
}

impl Event {
    /// (kind for filtering, kernel function, reason in words).
    pub fn describe(&self, lruvec_name: &dyn Fn(LruvecId) -> String) -> (&'static str, &'static str, String) {
        match &self.kind {
            EventKind::Aged { lruvec, max_seq, promoted } => (
                "aging",
                "inc_max_seq",
                format!(
                    "{}: created generation {max_seq}; the page-table walk promoted {promoted} young mapped folios into generation {}",
                    lruvec_name(*lruvec),
                    max_seq - 1
                ),
            ),
            EventKind::MinSeq { lruvec, type_, min_seq, function, moved } => (
                "aging",
                function,
                if *moved > 0 {
                    format!(
                        "{}: {} min_seq → {min_seq}; {moved} folios of the full oldest generation moved into the next one (folio_inc_gen)",
                        lruvec_name(*lruvec),
                        TYPE_NAMES[*type_]
                    )
                } else {
                    format!("{}: {} min_seq → {min_seq}: the oldest generation is empty", lruvec_name(*lruvec), TYPE_NAMES[*type_])
                },
            ),
            EventKind::Evicted { lruvec, type_, tier_idx, scanned, isolated, reclaimed, rejected } => (
                "eviction",
                "evict_folios",
                format!(
                    "{}: scanned {scanned} {} folios of the oldest generation ({}), isolated {isolated}, reclaimed {reclaimed}, {rejected} rejected back to max_seq",
                    lruvec_name(*lruvec),
                    TYPE_NAMES[*type_],
                    // sort_folio protects the tiers above tier_idx: none above the last.
                    if *tier_idx + 1 >= crate::mm::lruvec::MAX_NR_TIERS { "no tier protected".to_string() } else { format!("tiers above {tier_idx} protected") }
                ),
            ),
            EventKind::Refault { lruvec, type_, recent, restore, function: "workingset_refault", .. } => (
                "refault",
                "workingset_refault",
                // The classic LRU: workingset_test_recent compared the refault distance with the workingset.
                if *recent {
                    format!(
                        "{}: {} refault within the workingset (refault distance <= workingset size): starts on the active list{}",
                        lruvec_name(*lruvec),
                        TYPE_NAMES[*type_],
                        if *restore { "; PG_workingset restored" } else { "" }
                    )
                } else {
                    format!("{}: {} refault beyond the workingset (refault distance > workingset size): starts on the inactive list", lruvec_name(*lruvec), TYPE_NAMES[*type_])
                },
            ),
            EventKind::Refault { lruvec, type_, recent, tier, restore, function } => (
                "refault",
                function,
                if *recent {
                    format!(
                        "{}: {} refault of a folio evicted from the generation that is still the oldest: counted in refaulted[tier {tier}]{}",
                        lruvec_name(*lruvec),
                        TYPE_NAMES[*type_],
                        if *restore { "; PG_workingset restored (workingset_restore)" } else { "" }
                    )
                } else {
                    format!(
                        "{}: {} refault of a folio evicted from a generation that is gone: not recent, no feedback",
                        lruvec_name(*lruvec),
                        TYPE_NAMES[*type_]
                    )
                },
            ),
            EventKind::RefaultByDistance { lruvec, type_, tier, activated, restore } => (
                "refault",
                "lru_gen_refault",
                format!(
                    "{}: {} refault of a folio evicted from a generation that is gone, but within the workingset by refault distance (lru_test_refault): counted in the PID controller's averages (avg_refaulted[tier {tier}]){}{}",
                    lruvec_name(*lruvec),
                    TYPE_NAMES[*type_],
                    if *activated { "; activated: youngest generation" } else { "" },
                    if *restore { "; PG_workingset restored (workingset_restore)" } else { "" }
                ),
            ),
            EventKind::ReclaimRound { lruvec_memcg, function, nr_to_reclaim, reclaimed, priority, task } => (
                "reclaim",
                function,
                {
                    let who = match (task, *function) {
                        (Some(Reclaimer::Task(t)), "try_to_free_pages") => format!("{t}, in direct reclaim"),
                        (Some(Reclaimer::Task(t)), _) => format!("{t} reclaims from {lruvec_memcg}"),
                        (Some(Reclaimer::MemoryReclaim(m)), _) if m == lruvec_memcg => format!("memory.reclaim of {m}"),
                        (Some(Reclaimer::MemoryReclaim(m)), _) => format!("memory.reclaim of {m}, from {lruvec_memcg}"),
                        (None, _) => lruvec_memcg.clone(),
                    };
                    format!("{who}: asked for {nr_to_reclaim} pages, reclaimed {reclaimed} (last priority {priority})")
                },
            ),
            EventKind::MemcgRotated { node, memcg, op, gen, bin, flipped } => (
                "memcg-lru",
                "lru_gen_rotate_memcg",
                format!(
                    "node {node}: {memcg} rotated {} into generation {gen}, bin {bin}{}",
                    crate::mm::memcg_lru::op_name(*op),
                    if *flipped { "; the old generation emptied, so seq advanced and the young generation became the old one" } else { "" }
                ),
            ),
            EventKind::Kswapd { node, from, to, highest_zoneidx, failures, premature } => (
                "kswapd",
                match to {
                    KswapdMode::Running => "balance_pgdat",
                    KswapdMode::Napping | KswapdMode::Asleep => "kswapd_try_to_sleep",
                    // Never a state change of its own (Throttled events say it).
                    KswapdMode::Throttled => "reclaim_throttle",
                },
                match (from, to) {
                    (_, KswapdMode::Running) => format!(
                        "kswapd{node} runs: reclaiming until a zone up to {} is above its high watermark (kswapd_highest_zoneidx)",
                        ZONE_NAMES[(*highest_zoneidx).min(3)]
                    ),
                    // prepare_kswapd_sleep: balanced, or kswapd gave up (kswapd_failures >= MAX_RECLAIM_RETRIES).
                    (_, KswapdMode::Napping) if *failures >= crate::mm::MAX_RECLAIM_RETRIES => format!(
                        "kswapd{node}: gave up after {failures} runs that reclaimed nothing (kswapd_failures >= MAX_RECLAIM_RETRIES): napping HZ/10 before sleeping"
                    ),
                    (_, KswapdMode::Napping) => format!(
                        "kswapd{node}: pgdat_balanced for zones up to {}: napping HZ/10 before sleeping",
                        ZONE_NAMES[(*highest_zoneidx).min(3)]
                    ),
                    (_, KswapdMode::Asleep) => {
                        let checked = ZONE_NAMES[(*highest_zoneidx).min(3)];
                        match premature {
                            None => format!("kswapd{node}: pgdat_balanced for zones up to {checked} after the nap: asleep until wakeup_kswapd"),
                            Some(p) => format!(
                                "kswapd{node}: pgdat_balanced for zones up to {checked} after the nap: asleep until wakeup_kswapd. Premature: no zone the last wakeup asked for is balanced ({zone} has {free} free pages, under its high watermark plus lowmem_reserve, {mark})",
                                zone = ZONE_NAMES[p.zone.min(3)],
                                free = p.free,
                                mark = p.mark
                            ),
                        }
                    }
                    (_, KswapdMode::Throttled) => format!("kswapd{node}: asleep in reclaim_throttle"),
                },
            ),
            EventKind::Throttled { node, reason, kswapd, slept_ns, timeout_ns, task } => (
                "reclaim",
                "reclaim_throttle",
                format!(
                    "{} on node {node} sleeps {:.2} ms of its {:.0} ms timeout ({reason}){}",
                    match (kswapd, task) {
                        (true, _) => format!("kswapd{node}"),
                        (false, Some(Reclaimer::Task(t))) => format!("{t}, in direct reclaim,"),
                        (false, Some(Reclaimer::MemoryReclaim(m))) => format!("memory.reclaim of {m},"),
                        (false, None) => "a reclaiming task".to_string(),
                    },
                    *slept_ns as f64 / 1e6,
                    *timeout_ns as f64 / 1e6,
                    match *reason {
                        "VMSCAN_THROTTLE_WRITEBACK" if slept_ns < timeout_ns => ": woken when more than SWAP_CLUSTER_MAX of the node's writes have finished",
                        "VMSCAN_THROTTLE_WRITEBACK" => ": fewer than SWAP_CLUSTER_MAX + 1 writes finish in time",
                        "VMSCAN_THROTTLE_CONGESTED" => ": every dirty page-cache folio it met was under writeback and marked for immediate reclaim",
                        _ => ": direct reclaim reclaimed nothing by priority 1",
                    }
                ),
            ),
            EventKind::Oom { memcg, victim, freed } => (
                "oom",
                "mem_cgroup_out_of_memory",
                format!("{memcg}: reclaim made no progress after MAX_RECLAIM_RETRIES; killed {victim}, freeing {freed} pages"),
            ),
        }
    }
}

/// What "run to the next event" waits for: a kind of event, by the name the
/// UI and the wasm API use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventMatch {
    /// inc_max_seq created a generation ([`EventKind::Aged`]).
    Aging,
    /// kswapd started running (balance_pgdat).
    KswapdWake,
    /// kswapd went to sleep for good after its nap (to = Asleep).
    KswapdSleep,
    /// lru_gen_refault / workingset_refault.
    Refault,
    /// An evict_folios batch.
    Eviction,
    /// A direct or memcg reclaim round.
    Reclaim,
    /// The OOM killer.
    Oom,
    /// reclaim_throttle(): a reclaimer slept on writeback, congestion or
    /// no progress.
    Throttle,
}

impl EventMatch {
    /// Whether the engine logs this kind with the rare kinds (EventLog::push_rare):
    /// past the step's EVENTS_PER_STEP, within their reserve.
    pub fn is_rare(self) -> bool {
        !matches!(self, EventMatch::Refault | EventMatch::Eviction)
    }

    pub const ALL: [EventMatch; 8] = [
        EventMatch::Aging,
        EventMatch::KswapdWake,
        EventMatch::KswapdSleep,
        EventMatch::Refault,
        EventMatch::Eviction,
        EventMatch::Reclaim,
        EventMatch::Oom,
        EventMatch::Throttle,
    ];

    /// The name used by the wasm API ("aging", "kswapd-sleep", ...).
    pub fn name(self) -> &'static str {
        match self {
            EventMatch::Aging => "aging",
            EventMatch::KswapdWake => "kswapd-wake",
            EventMatch::KswapdSleep => "kswapd-sleep",
            EventMatch::Refault => "refault",
            EventMatch::Eviction => "eviction",
            EventMatch::Reclaim => "reclaim",
            EventMatch::Oom => "oom",
            EventMatch::Throttle => "throttle",
        }
    }

    /// The kind named `name`, if there is one.
    pub fn parse(name: &str) -> Option<EventMatch> {
        EventMatch::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Whether `kind` is an event of this kind.
    pub fn matches(self, kind: &EventKind) -> bool {
        match (self, kind) {
            (EventMatch::Aging, EventKind::Aged { .. }) => true,
            (EventMatch::KswapdWake, EventKind::Kswapd { to, .. }) => *to == KswapdMode::Running,
            (EventMatch::KswapdSleep, EventKind::Kswapd { to, .. }) => *to == KswapdMode::Asleep,
            (EventMatch::Refault, EventKind::Refault { .. } | EventKind::RefaultByDistance { .. }) => true,
            (EventMatch::Eviction, EventKind::Evicted { .. }) => true,
            (EventMatch::Reclaim, EventKind::ReclaimRound { .. }) => true,
            (EventMatch::Oom, EventKind::Oom { .. }) => true,
            (EventMatch::Throttle, EventKind::Throttled { .. }) => true,
            _ => false,
        }
    }
}

/// A per-step, bounded event log.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    pub enabled: bool,
    pub events: Vec<Event>,
    pub dropped: u64,
    /// Of `dropped`, events of the rare kinds (past their reserve too).
    pub dropped_rare: u64,
    /// While set, events of this kind are counted in `watched`, those that
    /// did not fit in the log too (run to the next event).
    pub watch: Option<EventMatch>,
    /// Events of the watched kind in this step.
    pub watched: u64,
    /// This step's refault decisions in detail, for the shadow-LRU view (at
    /// most [`crate::mm::refault::REFAULTS_PER_STEP`]; see `Mm::record_refault`).
    pub refaults: Vec<crate::mm::refault::RefaultRecord>,
    /// Refault decisions of this step that did not fit.
    pub refaults_dropped: u64,
}

impl EventLog {
    /// Records an event (built only when the log is on and it fits, or when
    /// a watch needs to see it).
    #[inline]
    pub fn push(&mut self, time_ns: u64, kind: impl FnOnce() -> EventKind) {
        self.push_within(EVENTS_PER_STEP, time_ns, kind);
    }

    /// Records an event of a rare kind (a new generation, kswapd, OOM, a
    /// reclaim round, a throttle): it also gets in
    /// when the step's EVENTS_PER_STEP places are taken, while the
    /// RARE_EVENTS_RESERVE more last.
    #[inline]
    pub fn push_rare(&mut self, time_ns: u64, kind: impl FnOnce() -> EventKind) {
        self.push_within(EVENTS_PER_STEP + RARE_EVENTS_RESERVE, time_ns, kind);
    }

    /// Records an event if fewer than `limit` are logged (counts it as
    /// dropped otherwise), and counts it for the watch.
    #[inline]
    fn push_within(&mut self, limit: usize, time_ns: u64, kind: impl FnOnce() -> EventKind) {
        if !self.enabled {
            return;
        }
        let room = self.events.len() < limit;
        let rare = limit > EVENTS_PER_STEP;
        if !room && self.watch.is_none() {
            self.dropped += 1;
            self.dropped_rare += u64::from(rare);
            return;
        }
        let kind = kind();
        let watched = self.watch.is_some_and(|w| w.matches(&kind));
        if watched {
            self.watched += 1;
        }
        // The step a run to the next event stops at shows that event, however crowded it is.
        if room || (watched && self.watched == 1) {
            self.events.push(Event { time_ns, kind });
        } else {
            self.dropped += 1;
            self.dropped_rare += u64::from(rare);
        }
    }

    /// Empties the log for a new step.
    pub fn clear(&mut self) {
        self.events.clear();
        self.dropped = 0;
        self.dropped_rare = 0;
        self.watched = 0;
        self.refaults.clear();
        self.refaults_dropped = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refault() -> EventKind {
        EventKind::Refault { lruvec: 0, type_: 1, recent: true, tier: 0, restore: false, function: "lru_gen_refault" }
    }

    /// kswapd naps before sleeping when the node is balanced, or when it has
    /// given up (prepare_kswapd_sleep): the event says which.
    #[test]
    fn kswapd_says_why_it_naps() {
        let nap = |failures| {
            let e = Event { time_ns: 0, kind: EventKind::Kswapd { node: 0, from: KswapdMode::Running, to: KswapdMode::Napping, highest_zoneidx: 2, failures, premature: None } };
            e.describe(&|_| String::new()).2
        };
        assert_eq!(nap(0), "kswapd0: pgdat_balanced for zones up to Normal: napping HZ/10 before sleeping");
        assert_eq!(nap(3), nap(0), "a few failures are no reason to sleep");
        assert!(nap(16).starts_with("kswapd0: gave up after 16 runs that reclaimed nothing (kswapd_failures >= MAX_RECLAIM_RETRIES)"), "{}", nap(16));
    }

    /// sort_folio() protects the tiers above tier_idx: with tier_idx at the
    /// last tier (MAX_NR_TIERS - 1) none is.
    #[test]
    fn an_eviction_says_which_tiers_were_protected() {
        let text = |tier_idx| {
            let e = Event { time_ns: 0, kind: EventKind::Evicted { lruvec: 0, type_: 1, tier_idx, scanned: 64, isolated: 60, reclaimed: 58, rejected: 2 } };
            e.describe(&|_| "/job".into()).2
        };
        assert_eq!(text(0), "/job: scanned 64 file folios of the oldest generation (tiers above 0 protected), isolated 60, reclaimed 58, 2 rejected back to max_seq");
        assert!(text(2).contains("(tiers above 2 protected)"));
        assert!(text(3).contains("(no tier protected)"), "{}", text(3));
    }

    /// A reclaim round and a throttle say who reclaimed: a task in direct
    /// reclaim, a task at a memcg's limit, or a memory.reclaim write.
    #[test]
    fn rounds_and_throttles_name_who_reclaimed() {
        let text = |kind| Event { time_ns: 0, kind }.describe(&|_| String::new()).2;
        let round = |memcg: &str, function, task| EventKind::ReclaimRound { lruvec_memcg: memcg.into(), function, nr_to_reclaim: 32, reclaimed: 30, priority: 12, task };
        let task = |t: &str| Some(Reclaimer::Task(t.into()));
        let write = |m: &str| Some(Reclaimer::MemoryReclaim(m.into()));
        assert_eq!(text(round("/", "try_to_free_pages", task("grower"))), "grower, in direct reclaim: asked for 32 pages, reclaimed 30 (last priority 12)");
        assert_eq!(text(round("/app", "try_to_free_mem_cgroup_pages", task("grower"))), "grower reclaims from /app: asked for 32 pages, reclaimed 30 (last priority 12)");
        assert_eq!(text(round("/uid_0", "try_to_free_mem_cgroup_pages", write("/uid_0"))), "memory.reclaim of /uid_0: asked for 32 pages, reclaimed 30 (last priority 12)");
        assert_eq!(text(round("/", "try_to_free_pages", None)), "/: asked for 32 pages, reclaimed 30 (last priority 12)");
        let throttle = |task| EventKind::Throttled { node: 0, reason: "VMSCAN_THROTTLE_NOPROGRESS", kswapd: false, slept_ns: 1_000_000, timeout_ns: 1_000_000, task };
        assert!(text(throttle(task("grower"))).starts_with("grower, in direct reclaim, on node 0 sleeps 1.00 ms"));
        assert!(text(throttle(write("/"))).starts_with("memory.reclaim of /, on node 0 sleeps 1.00 ms"));
    }

    #[test]
    fn a_watch_sees_events_that_do_not_fit() {
        let mut log = EventLog { enabled: true, watch: Some(EventMatch::Refault), ..Default::default() };
        for _ in 0..EVENTS_PER_STEP + 10 {
            log.push(1, || EventKind::Evicted { lruvec: 0, type_: 1, tier_idx: 0, scanned: 1, isolated: 1, reclaimed: 1, rejected: 0 });
        }
        log.push(2, refault);
        log.push(3, refault);
        // The first watched event is kept, past the full log (the step a run stops at shows it); the second is not.
        assert_eq!(log.events.len(), EVENTS_PER_STEP + 1);
        assert_eq!(log.events.last().map(|e| e.time_ns), Some(2));
        assert_eq!(log.dropped, 11);
        assert_eq!(log.watched, 2);
        log.clear();
        assert_eq!((log.events.len(), log.dropped, log.watched), (0, 0, 0));
    }

    #[test]
    fn rare_events_get_in_when_the_log_is_full() {
        let mut log = EventLog { enabled: true, ..Default::default() };
        let aged = || EventKind::Aged { lruvec: 0, max_seq: 5, promoted: 0 };
        for _ in 0..EVENTS_PER_STEP + 3 {
            log.push(1, refault);
        }
        log.push_rare(2, aged);
        assert_eq!(log.events.len(), EVENTS_PER_STEP + 1);
        assert_eq!(log.events.last().map(|e| &e.kind), Some(&aged()));
        // The common kinds stay out, and the reserve has an end.
        log.push(3, refault);
        for _ in 0..RARE_EVENTS_RESERVE + 5 {
            log.push_rare(4, aged);
        }
        assert_eq!(log.events.len(), EVENTS_PER_STEP + RARE_EVENTS_RESERVE);
        assert_eq!(log.dropped, 3 + 1 + 6);
        // Of those, the rare ones past their reserve (what a filter of rare kinds missed).
        assert_eq!(log.dropped_rare, 6);
        assert!(EventMatch::ALL.iter().filter(|m| !m.is_rare()).eq([EventMatch::Refault, EventMatch::Eviction].iter()));
    }

    #[test]
    fn classic_refaults_are_described_by_their_distance() {
        let name = |_| "/job node 0".to_string();
        let classic = |recent| Event { time_ns: 0, kind: EventKind::Refault { lruvec: 0, type_: 1, recent, tier: 0, restore: recent, function: "workingset_refault" } };
        let (_, function, reason) = classic(true).describe(&name);
        assert_eq!(function, "workingset_refault");
        assert!(reason.contains("within the workingset") && reason.contains("PG_workingset restored"), "{reason}");
        let (_, _, reason) = classic(false).describe(&name);
        assert!(reason.contains("beyond the workingset") && !reason.contains("generation"), "{reason}");
        let (_, _, reason) = Event { time_ns: 0, kind: refault() }.describe(&name);
        assert!(reason.contains("generation that is still the oldest"), "{reason}");
    }

    #[test]
    fn names_round_trip_and_match_their_kinds() {
        for m in EventMatch::ALL {
            assert_eq!(EventMatch::parse(m.name()), Some(m));
        }
        assert_eq!(EventMatch::parse("no-such-kind"), None);
        let sleep = EventKind::Kswapd { node: 0, from: KswapdMode::Napping, to: KswapdMode::Asleep, highest_zoneidx: 2, failures: 0, premature: None };
        assert!(EventMatch::KswapdSleep.matches(&sleep));
        assert!(!EventMatch::KswapdWake.matches(&sleep));
        assert!(EventMatch::Refault.matches(&refault()));
        assert!(!EventMatch::Aging.matches(&refault()));
        let by_distance = EventKind::RefaultByDistance { lruvec: 0, type_: 1, tier: 2, activated: true, restore: true };
        assert!(EventMatch::Refault.matches(&by_distance), "Run to next refault stops at it too");
    }

    /// Patch 004: a refault whose generation is gone but whose distance fits
    /// goes to the PID controller's averages, not refaulted[] (which only a
    /// recent one feeds), and the event says so.
    #[test]
    fn refaults_by_distance_say_where_their_feedback_goes() {
        let e = Event { time_ns: 0, kind: EventKind::RefaultByDistance { lruvec: 0, type_: 1, tier: 2, activated: true, restore: false } };
        let (kind, function, reason) = e.describe(&|_| "/job node 0".to_string());
        assert_eq!((kind, function), ("refault", "lru_gen_refault"));
        assert!(reason.contains("generation that is gone") && reason.contains("lru_test_refault") && reason.contains("avg_refaulted[tier 2]"), "{reason}");
        assert!(reason.contains("activated") && !reason.contains("refaulted[tier 2]:") && !reason.contains("restored"), "{reason}");
    }
}
