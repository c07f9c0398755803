//! Per-folio decision traces for a sample of tracked pages: every rule the
//! engine applies to a tracked folio is recorded with the kernel function
//! that applied it, so the UI can animate the folio and show its history.
//!
//! A page is tracked by its identity (address space, offset), not by folio
//! id: a refaulted page is a new folio but the same tracked page. Recording
//! costs one flag test when the page is not tracked.
use super::folio::{pg, FolioId};
use super::{MappingId, Mm};

/// Why lru_gen_add_folio chose a generation (its v6.12 rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddRule {
    Active,
    AnonNotInSwapCache,
    ReclaimDirty,
    Reclaiming,
    FewGenerations,
    SecondOldest,
    /// Before v6.7: not active, not busy: the oldest generation.
    Oldest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FolioWhat {
    /// lru_gen_add_folio: placed in generation `seq`.
    Added { seq: u64, rule: AddRule },
    /// folio_inc_refs: an fd access raised refs.
    Refs { refs: u32, tier: usize },
    /// try_to_inc_max_seq: the page-table walk found the PTE young.
    PromotedByWalk { seq: u64 },
    /// lru_gen_look_around: a neighbour's young PTE.
    LookAround { seq: u64 },
    /// inc_min_seq: its generation retired; moved to the next one.
    Aged { seq: u64 },
    /// sort_folio outcomes.
    SortPromoted { seq: u64 },
    SortProtected { tier: usize, tier_idx: usize, seq: u64 },
    SortWriteback { seq: u64 },
    /// isolate_folio.
    Isolated,
    /// folio_check_references (MGLRU): young PTE, PG_referenced set, kept.
    ActivatedYoung,
    /// shrink_folio_list (MGLRU): mapped and PG_referenced, which aging or
    /// look-around set while it was isolated: kept.
    KeptPromoted,
    /// evict_folios: rejected, back to max_seq.
    Rejected,
    /// shrink_folio_list: written to swap (a synchronous device).
    SwappedOut,
    /// shrink_folio_list: swap write submitted; kept under writeback.
    SwapWriteStarted,
    /// __remove_mapping: freed, shadow left.
    Evicted { tier: usize },
    /// workingset_refault / lru_gen_refault on the new folio.
    /// A refault: `tier` is MGLRU's (None: the classic LRU's workingset_refault).
    Refault { recent: bool, tier: Option<usize>, restore: bool },
    /// MGLRU with patch 004: its generation gone, its refault distance within
    /// the workingset: into the PID controller's averages (`tier`).
    RefaultByDistance { tier: usize, activated: bool, restore: bool },
    /// Classic LRU moves.
    ClassicActivated,
    ClassicDeactivated,
    ClassicKept,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FolioTrace {
    pub time_ns: u64,
    pub mapping: MappingId,
    pub index: u32,
    pub function: &'static str,
    pub what: FolioWhat,
}

impl FolioTrace {
    /// (kind for filtering, reason in words).
    pub fn describe(&self) -> (&'static str, String) {
        use FolioWhat::*;
        match self.what {
            Added { seq, rule } => (
                "insertion",
                match rule {
                    AddRule::Active => format!("PG_active (added in a fault, or rejected by reclaim): youngest generation, seq {seq}"),
                    AddRule::AnonNotInSwapCache => format!("anon folio not in the swap cache: second youngest generation, seq {seq}"),
                    AddRule::ReclaimDirty => format!("PG_reclaim while dirty or under writeback: second youngest generation, seq {seq}"),
                    AddRule::Reclaiming => format!("put back by reclaim: tail of the oldest generation, seq {seq}"),
                    AddRule::FewGenerations => format!("min_seq + 2 >= max_seq: oldest generation, seq {seq}"),
                    AddRule::SecondOldest => format!("read outside a fault: second oldest generation, seq {seq}"),
                    AddRule::Oldest => format!("cold and clean (before v6.7): oldest generation, seq {seq}"),
                },
            ),
            Refs { refs, tier } => ("access", format!("fd access: refs {refs}, tier {tier} (N accesses -> tier order_base_2(N))")),
            PromotedByWalk { seq } => ("aging", format!("young PTE found by the page-table walk: promoted in place to seq {seq} (moved when sorted)")),
            LookAround { seq } => ("aging", format!("young PTE next to an evicted folio: promoted in place to seq {seq}")),
            Aged { seq } => ("aging", format!("its generation was retired by inc_max_seq: moved into seq {seq}, refs cleared")),
            SortPromoted { seq } => ("eviction", format!("promoted earlier by aging: moved to its generation, seq {seq}")),
            SortProtected { tier, tier_idx, seq } => ("eviction", format!("tier {tier} > tier_idx {tier_idx}, protected: moved to seq {seq}")),
            SortWriteback { seq } => ("eviction", format!("dirty or under writeback: moved to seq {seq} with PG_reclaim")),
            Isolated => ("eviction", "isolated from the oldest generation for shrink_folio_list".into()),
            ActivatedYoung => ("eviction", "PTE young when checked: marked referenced and kept; evict_folios puts it back at max_seq".into()),
            KeptPromoted => ("eviction", "found young by aging or look-around while isolated (PG_referenced): kept; evict_folios puts it back at max_seq".into()),
            Rejected => ("eviction", "rejected (mapped, dirty, referenced or retried): re-enters at max_seq".into()),
            SwappedOut => ("eviction", "anon: added to the swap cache and written to swap (a synchronous device: the write has ended)".into()),
            SwapWriteStarted => (
                "eviction",
                "anon: added to the swap cache, swap write submitted: back on the LRU under writeback with PG_reclaim, to be freed once the write ends".into(),
            ),
            Evicted { tier } => ("eviction", format!("reclaimed from tier {tier}; a shadow entry stays behind")),
            Refault { recent, tier, restore } => (
                "refault",
                match (tier, recent) {
                    (None, true) => format!("refault distance within the workingset: activated{}", if restore { ", PG_workingset restored" } else { "" }),
                    (None, false) => "refault distance beyond the workingset: starts inactive".into(),
                    (Some(tier), true) => format!("recent refault: counted in refaulted[tier {tier}] for the PID controller{}", if restore { ", PG_workingset restored" } else { "" }),
                    (Some(_), false) => "refault not recent: no feedback".into(),
                },
            ),
            RefaultByDistance { tier, activated, restore } => (
                "refault",
                format!(
                    "generation gone, refault distance within the workingset: counted in the PID controller's averages (tier {tier}){}{}",
                    if activated { ", activated" } else { "" },
                    if restore { ", PG_workingset restored" } else { "" }
                ),
            ),
            ClassicActivated => ("access", "second access on the inactive list: moved to the active list".into()),
            ClassicDeactivated => ("eviction", "shrink_active_list: moved to the inactive list with PG_workingset".into()),
            ClassicKept => ("eviction", "referenced PTE on the inactive list: another trip around".into()),
        }
    }
}

impl Mm {
    /// Records a decision about `f` if its page is tracked.
    #[inline]
    pub fn trace(&mut self, f: FolioId, function: &'static str, what: FolioWhat) {
        if self.folios.flags[f as usize] & pg::TRACKED == 0 || !self.events.enabled {
            return;
        }
        self.traces.push(FolioTrace {
            time_ns: self.now_ns,
            mapping: self.folios.mapping[f as usize],
            index: self.folios.index[f as usize],
            function,
            what,
        });
    }

    /// Whether page `index` of mapping `m` is in the tracked sample.
    pub fn is_tracked_page(&self, m: MappingId, index: u32) -> bool {
        let a = &self.mappings[m as usize];
        a.tracked_stride > 0 && index.is_multiple_of(a.tracked_stride) && index / a.tracked_stride < a.tracked_count
    }

    /// Gives a new folio its identity: it caches page `index` of `m`.
    pub fn install_folio(&mut self, f: FolioId, m: MappingId, index: u32) {
        self.folios.mapping[f as usize] = m;
        self.folios.index[f as usize] = index;
        if self.is_tracked_page(m, index) {
            self.folios.set(f, pg::TRACKED);
        }
    }
}
