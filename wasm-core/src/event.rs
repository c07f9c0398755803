//! Typed events: every reclaim decision the engine makes can be reported
//! with the kernel function that made it and the reason in words.
//!
//! Recording is cheap: events are small enum values rendered to text only
//! when a view asks ([`Event::describe`]). The log keeps at most
//! [`EVENTS_PER_STEP`] events per step and counts the rest as dropped.
use crate::mm::kswapd::KswapdMode;
use crate::mm::LruvecId;

const ZONE_NAMES: [&str; 4] = ["DMA", "DMA32", "Normal", "Movable"];

pub const EVENTS_PER_STEP: usize = 256;

const TYPE_NAMES: [&str; 2] = ["anon", "file"];

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
    /// A direct or memcg reclaim round.
    ReclaimRound { lruvec_memcg: String, function: &'static str, nr_to_reclaim: u64, reclaimed: u64, priority: u32 },
    /// The memcg OOM killer.
    Oom { memcg: String, victim: String, freed: u64 },
    /// lru_gen_rotate_memcg: a memcg moved in the memcg LRU.
    MemcgRotated { node: usize, memcg: String, op: u8, gen: usize, bin: usize, flipped: bool },
    /// kswapd changed state.
    Kswapd { node: usize, from: KswapdMode, to: KswapdMode, highest_zoneidx: usize, failures: u32 },
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
                        "{}: {} min_seq -> {min_seq}; {moved} folios of the full oldest generation moved into the next one (folio_inc_gen)",
                        lruvec_name(*lruvec),
                        TYPE_NAMES[*type_]
                    )
                } else {
                    format!("{}: {} min_seq -> {min_seq}: the oldest generation is empty", lruvec_name(*lruvec), TYPE_NAMES[*type_])
                },
            ),
            EventKind::Evicted { lruvec, type_, tier_idx, scanned, isolated, reclaimed, rejected } => (
                "eviction",
                "evict_folios",
                format!(
                    "{}: scanned {scanned} {} folios of the oldest generation (tiers above {tier_idx} protected), isolated {isolated}, reclaimed {reclaimed}, {rejected} rejected back to max_seq",
                    lruvec_name(*lruvec),
                    TYPE_NAMES[*type_]
                ),
            ),
            EventKind::Refault { lruvec, type_, recent, tier, restore, function } => (
                "refault",
                function,
                if *recent {
                    format!(
                        "{}: {} refault of a folio evicted from the generation that is still the oldest: counted in refaulted[tier {tier}]{}",
                        lruvec_name(*lruvec),
                        TYPE_NAMES[*type_],
                        if *restore { "; restored to tier 3 (workingset)" } else { "" }
                    )
                } else {
                    format!(
                        "{}: {} refault of a folio evicted from a generation that is gone: not recent, no feedback",
                        lruvec_name(*lruvec),
                        TYPE_NAMES[*type_]
                    )
                },
            ),
            EventKind::ReclaimRound { lruvec_memcg, function, nr_to_reclaim, reclaimed, priority } => (
                "reclaim",
                function,
                format!("{lruvec_memcg}: asked for {nr_to_reclaim} pages, reclaimed {reclaimed} (last priority {priority})"),
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
            EventKind::Kswapd { node, from, to, highest_zoneidx, failures } => (
                "kswapd",
                match to {
                    KswapdMode::Running => "balance_pgdat",
                    KswapdMode::Napping | KswapdMode::Asleep => "kswapd_try_to_sleep",
                },
                match (from, to) {
                    (_, KswapdMode::Running) => format!(
                        "kswapd{node} runs: reclaiming until a zone up to {} is above its high watermark (kswapd_highest_zoneidx)",
                        ZONE_NAMES[(*highest_zoneidx).min(3)]
                    ),
                    (_, KswapdMode::Napping) => format!(
                        "kswapd{node}: pgdat_balanced for zones up to {} (or {failures} failures): napping HZ/10 before sleeping",
                        ZONE_NAMES[(*highest_zoneidx).min(3)]
                    ),
                    (_, KswapdMode::Asleep) => format!("kswapd{node}: still balanced after the nap: asleep until wakeup_kswapd"),
                },
            ),
            EventKind::Oom { memcg, victim, freed } => (
                "oom",
                "mem_cgroup_out_of_memory",
                format!("{memcg}: reclaim made no progress after MAX_RECLAIM_RETRIES; killed {victim}, freeing {freed} pages"),
            ),
        }
    }
}

/// A per-step, bounded event log.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    pub enabled: bool,
    pub events: Vec<Event>,
    pub dropped: u64,
}

impl EventLog {
    #[inline]
    pub fn push(&mut self, time_ns: u64, kind: impl FnOnce() -> EventKind) {
        if !self.enabled {
            return;
        }
        if self.events.len() < EVENTS_PER_STEP {
            self.events.push(Event { time_ns, kind: kind() });
        } else {
            self.dropped += 1;
        }
    }

    pub fn clear(&mut self) {
        self.events.clear();
        self.dropped = 0;
    }
}
