//! The shadow LRU as the UI draws it: the tracked pages that are out of
//! memory, each with the refault distance (or generation) its shadow has
//! now, against the thresholds a refault would meet now; and the refault
//! decisions of the last step with the rule that made each.
//!
//! Built only with the frame (`Simulation::frame`), from the same checks the
//! engine decides with (mm/refault.rs), so nothing here changes the
//! simulation: it only reads. The kernel has no such list (shadows sit in
//! the page cache's xarray and in swap slots); the tracked sample plays it.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

use crate::mm::filemap::Slot;
use crate::mm::refault::{DistanceCheck, GenCheck, RefaultRecord};
use crate::mm::workingset::{unpack_shadow, Shadow, LRU_GEN_EVICTION_BITS};
use crate::mm::{LruvecId, MappingKind, Mm, LRU_GEN_ANON, LRU_GEN_FILE};
use crate::sim::Simulation;
use crate::view::FolioType;

/// With at most this many lruvecs in the frame, each has a shadow view;
/// with more, only those with a tracked shadow or a refault in the last step.
pub const ALL_LRUVECS_UP_TO: usize = 16;

/// Shadows listed per lruvec; a larger tracked sample is thinned evenly.
pub const SHADOWS_PER_LRUVEC: usize = 1000;

mod describe;

pub use describe::describe;
use describe::threshold_view;

const TYPE_NAMES: [&str; 2] = ["anon", "file"];

/// The shadow LRU of the current step (see the module doc).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ShadowFrame {
    /// The kernel function that decides whether a refault counts:
    /// "workingset_test_recent" (classic LRU), "lru_gen_test_recent" (MGLRU
    /// v6.12) or "lru_test_refault" (MGLRU with patch 004, which also asks
    /// lru_gen_test_recent where the feedback goes).
    pub model: String,
    /// The lruvecs the frame lists (when there are at most
    /// [`ALL_LRUVECS_UP_TO`]), and every lruvec a tracked shadow or a
    /// refault of the last step names (classic global reclaim stamps
    /// shadows with the root's clock), in lruvec order.
    pub lruvecs: Vec<ShadowLruvecView>,
    /// The last step's refaults, all of them (not only tracked pages), at
    /// most [`crate::mm::refault::REFAULTS_PER_STEP`].
    pub refaults: Vec<RefaultView>,
    /// Refaults of the last step that did not fit.
    pub refaults_dropped: u64,
}

/// One lruvec's shadows and the thresholds that apply to them now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ShadowLruvecView {
    pub memcg: String,
    pub node: u32,
    /// The clock shadows are stamped with: evictions (and, on the classic
    /// LRU, activations) so far (workingset_age_nonresident).
    pub nonresident_age: u64,
    /// Classic: low bits of nonresident_age a timestamp drops (0 below 4 PiB).
    pub bucket_order: u32,
    /// Whether the memcg can swap (anon lists count in the workingset only then).
    pub swap: bool,
    /// Pages on [inactive_anon, active_anon, inactive_file, active_file] of
    /// the memcg's subtree on this node (MGLRU: the two youngest generations
    /// count as active).
    pub lists: [u64; 4],
    /// The workingset a refault distance is compared with now, for an anon
    /// and a file refault (empty for MGLRU v6.12, which has no distance).
    pub thresholds: Vec<ThresholdView>,
    /// MGLRU: min_seq[anon], min_seq[file] and max_seq now.
    pub min_seq: Option<[u64; 2]>,
    pub max_seq: Option<u64>,
    /// The tracked pages whose shadow names this lruvec.
    pub shadows: Vec<ShadowEntryView>,
    /// How many there are (more than `shadows` lists when thinned).
    pub shadows_total: u64,
}

/// The workingset size a refault distance is compared with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ThresholdView {
    /// The refaults it applies to.
    pub kind: FolioType,
    pub pages: u64,
    /// "<=" (workingset_test_recent) or "<" (lru_test_refault): a distance
    /// that compares so with `pages` counts.
    pub comparison: String,
    /// The lists it sums.
    pub terms: Vec<TermView>,
    /// The rule in words, naming the kernel function.
    pub rule: String,
}

/// One list in a workingset size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct TermView {
    /// The kernel's name: "NR_ACTIVE_FILE".
    pub name: String,
    pub pages: u64,
}

/// A tracked page that is out of memory, and its shadow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ShadowEntryView {
    /// "file:reader#120".
    pub page: String,
    pub kind: FolioType,
    /// "evicted" (a shadow in the page cache) or "swapped" (in its swap slot).
    pub state: String,
    /// The shadow's workingset bit (PG_workingset at eviction; MGLRU: refs != 0).
    pub workingset: bool,
    /// Classic and patch 004: nonresident_age at eviction (the bits kept).
    pub eviction: Option<u64>,
    /// Classic and patch 004: the refault distance now (nonresident_age now
    /// minus at eviction).
    pub distance: Option<u64>,
    /// MGLRU: the generation it was evicted from (its token) and the refs
    /// the token kept (max(refs - 1, 0)).
    pub token_seq: Option<u64>,
    pub token_refs: Option<u32>,
    /// MGLRU: its generation is still min_seq (lru_gen_test_recent).
    pub recent: Option<bool>,
    /// Whether a refault now, into this lruvec, would count WORKINGSET_ACTIVATE:
    /// be activated (classic, patch 004), or be recent (MGLRU v6.12, which
    /// counts a recent refault as an activation without activating it).
    pub activate: bool,
}

/// One refault of the last step and what decided it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct RefaultView {
    pub step: u64,
    pub time_ns: u64,
    /// "file:reader#120"; `tracked` says whether the views know the page.
    pub page: String,
    pub tracked: bool,
    pub kind: FolioType,
    /// The lruvec the shadow names.
    pub memcg: String,
    pub node: u32,
    /// "workingset_refault" or "lru_gen_refault".
    pub function: String,
    /// Classic and patch 004: the refault distance and the workingset it met.
    pub distance: Option<u64>,
    pub threshold: Option<u64>,
    pub comparison: Option<String>,
    /// MGLRU: the token's generation against min_seq of its type and max_seq.
    pub token_seq: Option<u64>,
    pub min_seq: Option<u64>,
    pub max_seq: Option<u64>,
    pub recent: Option<bool>,
    /// "activate" (the folio starts active: classic, or patch 004's
    /// distance check), "recent" (MGLRU: its generation is still min_seq,
    /// so it feeds the PID controller; not activated), "not recent", or
    /// "ignored" (MGLRU: the shadow is from another lruvec; not even
    /// WORKINGSET_REFAULT counts).
    pub decision: String,
    /// WORKINGSET_REFAULT counted: every decision but "ignored", except with
    /// MGLRU before v6.5, which counted only a recent refault.
    pub refault_counted: bool,
    /// WORKINGSET_ACTIVATE counted: every "activate", and with MGLRU v6.5+
    /// every "recent" too (lru_gen_refault counts it for a recent refault
    /// that it does not activate; before v6.5 it did not).
    pub activate_counted: bool,
    /// WORKINGSET_RESTORE counted (PG_workingset set again).
    pub restore: bool,
    /// MGLRU: the tier the refault was counted in, and before patch 004
    /// raised it.
    pub tier: Option<u32>,
    pub tier_before: Option<u32>,
    /// The rule as a sentence naming the kernel functions.
    pub rule: String,
}

/// What a refault of a shadow would be compared with now (into the
/// shadow's own lruvec): the checks workingset_refault() runs, per LRU. The
/// workingset sizes are the same for every shadow of a lruvec and type, so
/// they are read once per frame.
pub struct RefaultChecker<'a> {
    mm: &'a Mm,
    sizes: BTreeMap<(LruvecId, usize), DistanceCheck>,
}

impl<'a> RefaultChecker<'a> {
    pub fn new(mm: &'a Mm) -> Self {
        RefaultChecker { mm, sizes: BTreeMap::new() }
    }

    /// The workingset size a distance of a `type_` refault into `lv` meets
    /// now (workingset_size or lru_workingset_size, distance 0); None for
    /// MGLRU v6.12.
    pub fn size(&mut self, lv: LruvecId, type_: usize) -> Option<DistanceCheck> {
        let mm = self.mm;
        if mm.knobs.lru_gen_enabled && !mm.knobs.refault_distance_mglru {
            return None;
        }
        let file = type_ == LRU_GEN_FILE;
        let c = self.sizes.entry((lv, type_)).or_insert_with(|| {
            if mm.knobs.lru_gen_enabled {
                mm.lru_workingset_size(lv, file)
            } else {
                mm.workingset_size(mm.lruvec_memcg(lv), mm.lruvec_node(lv), file)
            }
        });
        Some(*c)
    }

    /// (the shadow's lruvec, its distance check, its generation check,
    /// whether WORKINGSET_ACTIVATE would count): workingset_check,
    /// lru_gen_check and lru_refault_check as the refault paths use them.
    pub fn check(&mut self, s: &Shadow, type_: usize) -> (LruvecId, Option<DistanceCheck>, Option<GenCheck>, bool) {
        let mm = self.mm;
        let lv = mm.lruvec_id(s.memcg, s.node);
        let gen = mm.knobs.lru_gen_enabled.then(|| mm.lru_gen_check(s, type_).1);
        let distance = self.size(lv, type_).map(|size| {
            let distance = if mm.knobs.lru_gen_enabled {
                mm.lru_refault_distance(lv, mm.lru_gen_timestamp(s), LRU_GEN_EVICTION_BITS)
            } else {
                mm.workingset_distance(s)
            };
            DistanceCheck { distance, ..size }
        });
        let activate = match (distance, gen) {
            (Some(c), _) => c.passes(),
            (None, Some(g)) => g.recent,
            (None, None) => false,
        };
        (lv, distance, gen, activate)
    }
}

fn model_name(mm: &Mm) -> &'static str {
    match (mm.knobs.lru_gen_enabled, mm.knobs.refault_distance_mglru) {
        (false, _) => "workingset_test_recent",
        (true, false) => "lru_gen_test_recent",
        (true, true) => "lru_test_refault",
    }
}

impl Simulation {
    /// The shadow LRU now and the last step's refault decisions.
    pub fn shadow_frame(&self) -> ShadowFrame {
        let mm = &self.mm;
        let mut checker = RefaultChecker::new(mm);
        let mut by_lruvec: BTreeMap<LruvecId, Vec<ShadowEntryView>> = BTreeMap::new();
        // The same lruvecs Simulation::frame lists, when they are few.
        let listed: Vec<LruvecId> = (0..mm.lruvecs.len() as LruvecId)
            .filter(|&i| {
                let lv = &mm.lruvecs[i as usize];
                mm.lruvec_memcg(i) != 0 || lv.lrugen.max_seq > 3 || lv.lru_sizes(mm.knobs.lru_gen_enabled).iter().sum::<u64>() > 0
            })
            .collect();
        if listed.len() <= ALL_LRUVECS_UP_TO {
            by_lruvec.extend(listed.into_iter().map(|lv| (lv, Vec::new())));
        }
        by_lruvec.extend(mm.events.refaults.iter().map(|r| (r.lruvec, Vec::new())));
        for (m, a) in mm.mappings.iter().enumerate() {
            let type_ = if a.kind == MappingKind::Anon { LRU_GEN_ANON } else { LRU_GEN_FILE };
            for i in 0..a.tracked_count {
                let idx = i * a.tracked_stride;
                let (state, shadow) = match mm.slot(m as u32, idx) {
                    Slot::Shadow(v) => ("evicted", v),
                    Slot::Swap(slot) => ("swapped", mm.swap.shadows[slot as usize]),
                    _ => continue,
                };
                if shadow == 0 {
                    continue; // a swap entry whose folio is still in the swap cache
                }
                let s = unpack_shadow(shadow);
                let (lv, distance, gen, activate) = checker.check(&s, type_);
                let eviction = distance.map(|_| if mm.knobs.lru_gen_enabled { mm.lru_gen_timestamp(&s) } else { s.eviction });
                by_lruvec.entry(lv).or_default().push(ShadowEntryView {
                    page: format!("{}#{idx}", a.name),
                    kind: FolioType::of(type_),
                    state: state.into(),
                    workingset: s.workingset,
                    eviction,
                    distance: distance.map(|c| c.distance),
                    token_seq: gen.map(|g| g.token_seq),
                    token_refs: gen.map(|g| g.token_refs),
                    recent: gen.map(|g| g.recent),
                    activate,
                });
            }
        }
        let lruvecs = by_lruvec.into_iter().map(|(lv, shadows)| self.shadow_lruvec_view(&mut checker, lv, shadows)).collect();
        let refaults = mm.events.refaults.iter().map(|r| self.refault_view(r)).collect();
        ShadowFrame { model: model_name(mm).into(), lruvecs, refaults, refaults_dropped: mm.events.refaults_dropped }
    }

    fn lruvec_name(&self, lv: LruvecId) -> (String, u32) {
        let mm = &self.mm;
        (mm.memcgs[mm.lruvec_memcg(lv) as usize].path.clone(), mm.lruvec_node(lv) as u32)
    }

    fn shadow_lruvec_view(&self, checker: &mut RefaultChecker, lv: LruvecId, mut shadows: Vec<ShadowEntryView>) -> ShadowLruvecView {
        let mm = &self.mm;
        let (memcg, node) = self.lruvec_name(lv);
        let memcg_id = mm.lruvec_memcg(lv);
        let lists = mm.memcg_lru_sizes(memcg_id, node as usize);
        let age = mm.lruvecs[lv as usize].nonresident_age;
        let g = &mm.lruvecs[lv as usize].lrugen;
        let lru_gen = mm.knobs.lru_gen_enabled;
        let thresholds = [LRU_GEN_ANON, LRU_GEN_FILE].into_iter().filter_map(|t| checker.size(lv, t).map(|c| threshold_view(t, &c))).collect();
        let total = shadows.len();
        if total > SHADOWS_PER_LRUVEC {
            shadows = (0..SHADOWS_PER_LRUVEC).map(|i| shadows[i * total / SHADOWS_PER_LRUVEC].clone()).collect();
        }
        ShadowLruvecView {
            memcg,
            node,
            nonresident_age: age,
            bucket_order: if lru_gen { 0 } else { mm.bucket_order() },
            swap: mm.nr_swap_pages_for(memcg_id) > 0,
            lists,
            thresholds,
            min_seq: lru_gen.then_some(g.min_seq),
            max_seq: lru_gen.then_some(g.max_seq),
            shadows,
            shadows_total: total as u64,
        }
    }

    fn refault_view(&self, r: &RefaultRecord) -> RefaultView {
        let (memcg, node) = self.lruvec_name(r.lruvec);
        let mglru = r.gen.is_some();
        let (decision, rule) = describe(r, &format!("{memcg} node {node}"));
        RefaultView {
            step: self.step_count(),
            time_ns: r.time_ns,
            page: format!("{}#{}", self.mm.mappings[r.mapping as usize].name, r.index),
            tracked: r.tracked,
            kind: FolioType::of(r.type_),
            memcg,
            node,
            function: r.function.into(),
            distance: r.distance.map(|c| c.distance),
            threshold: r.distance.map(|c| c.threshold),
            comparison: r.distance.map(|c| (if c.inclusive { "<=" } else { "<" }).into()),
            token_seq: r.gen.map(|g| g.token_seq),
            min_seq: r.gen.map(|g| g.min_seq),
            max_seq: r.gen.map(|g| g.max_seq),
            recent: r.gen.map(|g| g.recent),
            decision: decision.into(),
            refault_counted: r.refault_counted,
            activate_counted: r.activate,
            restore: r.restore,
            tier: (mglru && r.counted).then_some(r.tier as u32),
            tier_before: (mglru && r.counted).then_some(r.tier_before as u32),
            rule,
        }
    }
}
