//! What the UI and the CLI read from a simulation: frames (view models),
//! /proc/vmstat and memory.stat, folio histories and the tracked sample.
use crate::mm::filemap::Slot;
use crate::mm::folio::pg;
use crate::mm::lruvec::{lru_gen_from_seq, Lruvec};
use crate::mm::kswapd::KswapdMode;
use crate::mm::memcg_lru::get_memcg_gen;
use crate::mm::memcontrol::{MemoryReclaim, PAGE_COUNTER_MAX};
use crate::mm::pgdat::PgData;
use crate::mm::trace::FolioTrace;
use crate::mm::vmstat::Item;
use crate::mm::{MappingId, MemcgId};
use crate::view::{Counter, EventView, FolioType, Frame, GenView, KswapdView, LruvecView, MemcgLruView, MemcgView, NodeView, ReclaimRoundView, ReclaimView, TierView, TrackedCell, TrackedFolioView, TrackedFolios, TrackedSpaceView, ZoneView};

use super::{Simulation, FOLIO_EVENTS_PER_FRAME, FULL_FOLIO_RECORDS};

impl Simulation {
    fn page_key(&self, m: MappingId, index: u32) -> String {
        format!("{}#{index}", self.mm.mappings[m as usize].name)
    }

    /// A decision about a tracked folio, made in `step`, as the UI shows it.
    fn trace_view(&self, step: u64, t: &FolioTrace) -> EventView {
        let (kind, reason) = t.describe();
        EventView {
            step,
            time_ns: t.time_ns,
            kind: kind.into(),
            function: t.function.into(),
            reason,
            page: Some(self.page_key(t.mapping, t.index)),
            run_kinds: Vec::new(),
        }
    }

    /// The recorded decisions about a tracked page ("file:reader#120"), oldest first.
    pub fn history(&self, page: &str) -> Vec<EventView> {
        let Some((name, idx)) = page.rsplit_once('#') else {
            return Vec::new();
        };
        let Ok(idx) = idx.parse::<u32>() else {
            return Vec::new();
        };
        let Some(m) = self.mm.mappings.iter().position(|a| a.name == name) else {
            return Vec::new();
        };
        self.history.get(&(m as MappingId, idx)).map(|h| h.iter().map(|(step, t)| self.trace_view(*step, t)).collect()).unwrap_or_default()
    }

    /// Where each tracked page's folio is now, in compact form (see
    /// [`TrackedFolios`]); `shown` lists the lruvec ids of Frame::lruvecs in
    /// order (a resident page's lruvec is always among them).
    pub fn tracked_compact(&self, shown: &[usize]) -> TrackedFolios {
        let mm = &self.mm;
        let mut position = vec![u16::MAX; mm.lruvecs.len()];
        for (p, &lv) in shown.iter().enumerate() {
            position[lv] = p as u16;
        }
        let mut spaces = Vec::new();
        let mut cells = Vec::new();
        for (m, a) in mm.mappings.iter().enumerate() {
            if a.tracked_count == 0 {
                continue;
            }
            spaces.push(TrackedSpaceView {
                name: a.name.clone(),
                kind: FolioType::of_mapping(a.kind),
                memcg: mm.memcgs[a.memcg as usize].path.clone(),
                stride: a.tracked_stride,
                count: a.tracked_count,
            });
            cells.reserve(a.tracked_count as usize * 4);
            for i in 0..a.tracked_count {
                let mut cell = TrackedCell::default();
                match mm.resident_slot(m as MappingId, i * a.tracked_stride) {
                    Slot::Folio(f) => {
                        let lv = mm.folios.lruvec[f as usize];
                        cell.state = TrackedCell::RESIDENT;
                        cell.lruvec = position[lv as usize];
                        if let Some(gen) = mm.folios.lru_gen(f) {
                            let g = &mm.lruvecs[lv as usize].lrugen;
                            let seq = mm.seq_of_gen(lv, mm.folios.type_of(f), gen);
                            cell.gen = (seq.saturating_sub(g.min_seq[0].min(g.min_seq[1])) + 1).min(255) as u8;
                        }
                        cell.tier = crate::mm::folio::lru_tier_from_refs(mm.folios.lru_refs(f)) as u8;
                        cell.active = mm.folios.test(f, pg::ACTIVE);
                    }
                    Slot::Shadow(_) => cell.state = TrackedCell::EVICTED,
                    Slot::Swap(_) => cell.state = TrackedCell::SWAPPED,
                    Slot::Empty => {}
                }
                cells.extend_from_slice(&cell.encode());
            }
        }
        TrackedFolios { spaces, cells }
    }

    /// Where each tracked page's folio is now.
    pub fn tracked_folios(&self) -> Vec<TrackedFolioView> {
        let mm = &self.mm;
        let mut out = Vec::new();
        for (m, a) in mm.mappings.iter().enumerate() {
            for i in 0..a.tracked_count {
                let idx = i * a.tracked_stride;
                let mut v = TrackedFolioView {
                    page: self.page_key(m as MappingId, idx),
                    kind: FolioType::of_mapping(a.kind),
                    memcg: mm.memcgs[a.memcg as usize].path.clone(),
                    state: "absent".into(),
                    seq: None,
                    tier: 0,
                    active: false,
                    node: None,
                };
                match mm.resident_slot(m as MappingId, idx) {
                    Slot::Folio(f) => {
                        v.state = "resident".into();
                        let lv = mm.folios.lruvec[f as usize];
                        v.memcg = mm.memcgs[mm.lruvec_memcg(lv) as usize].path.clone();
                        v.node = Some(mm.lruvec_node(lv) as u32);
                        if let Some(gen) = mm.folios.lru_gen(f) {
                            v.seq = Some(mm.seq_of_gen(lv, mm.folios.type_of(f), gen));
                        }
                        v.tier = crate::mm::folio::lru_tier_from_refs(mm.folios.lru_refs(f)) as u32;
                        v.active = mm.folios.test(f, pg::ACTIVE);
                    }
                    Slot::Shadow(_) => v.state = "evicted".into(),
                    Slot::Swap(_) => v.state = "swapped".into(),
                    Slot::Empty => {}
                }
                out.push(v);
            }
        }
        out
    }

    /// /proc/vmstat: gauges computed from the state, then the event counters.
    pub fn vmstat(&self) -> Vec<(String, u64)> {
        let mm = &self.mm;
        let mut out: Vec<(String, u64)> = Vec::new();
        let free: u64 = mm.nodes.iter().map(PgData::free_pages).sum();
        out.push(("nr_free_pages".into(), free));
        let mut lru = [0u64; 4];
        for lv in &mm.lruvecs {
            let sizes = lv.lru_sizes(mm.knobs.lru_gen_enabled);
            for (a, b) in lru.iter_mut().zip(sizes) {
                *a += b;
            }
        }
        for (name, v) in ["nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file"].iter().zip(lru) {
            out.push((name.to_string(), v));
        }
        let (mut anon, mut file, mut mapped, mut dirty, mut swapcached) = (0, 0, 0, 0, 0);
        for &fl in &mm.folios.flags {
            if fl & pg::FREE != 0 {
                continue;
            }
            if fl & pg::ANON != 0 {
                anon += 1;
            } else {
                file += 1;
            }
            // NR_FILE_MAPPED: page-cache pages mapped into page tables.
            mapped += u64::from(fl & pg::MAPPED != 0 && fl & pg::ANON == 0);
            dirty += u64::from(fl & pg::DIRTY != 0 && fl & pg::ANON == 0);
            swapcached += u64::from(fl & pg::SWAPCACHE != 0);
        }
        out.push(("nr_anon_pages".into(), anon));
        out.push(("nr_mapped".into(), mapped));
        out.push(("nr_file_pages".into(), file + swapcached));
        out.push(("nr_dirty".into(), dirty));
        out.push(("nr_writeback".into(), mm.writeback.len() as u64));
        out.push(("nr_swapcached".into(), swapcached));
        // pgpgin/pgpgout in KiB, as /proc/vmstat shows them.
        out.extend(mm.vmstat.iter_proc().map(|(n, v)| (n.to_string(), v)));
        out
    }

    /// memory.stat of a memcg: sizes (hierarchical) and its event counters,
    /// only those v6.12's memory.stat prints (memory_stats[] and
    /// memcg_vm_event_stat[]), in its order. The engine also counts some
    /// /proc/vmstat-only events per memcg (pswpout, pgscan_anon, ...); they
    /// are left out here as the kernel has no memcg copy of them.
    pub fn memory_stat(&self, memcg: MemcgId) -> Vec<(String, u64)> {
        let mm = &self.mm;
        let mut lru = [0u64; 4];
        for n in 0..mm.nr_nodes() {
            for (a, b) in lru.iter_mut().zip(mm.memcg_lru_sizes(memcg, n)) {
                *a += b;
            }
        }
        let cg = &mm.memcgs[memcg as usize];
        let mut out = vec![
            ("anon".to_string(), (lru[0] + lru[1]) * 4096),
            ("file".to_string(), (lru[2] + lru[3]) * 4096),
            ("inactive_anon".to_string(), lru[0] * 4096),
            ("active_anon".to_string(), lru[1] * 4096),
            ("inactive_file".to_string(), lru[2] * 4096),
            ("active_file".to_string(), lru[3] * 4096),
        ];
        let steal = cg.stat.get(Item::PgstealKswapd) + cg.stat.get(Item::PgstealDirect);
        let scan = cg.stat.get(Item::PgscanKswapd) + cg.stat.get(Item::PgscanDirect);
        let item = |i: Item| (i.name().to_string(), cg.stat.get(i));
        out.extend(MEMORY_STAT_WORKINGSET.iter().map(|&i| item(i)));
        out.push(("pgscan".into(), scan));
        out.push(("pgsteal".into(), steal));
        out.extend(MEMORY_STAT_EVENTS.iter().map(|&i| item(i)));
        out
    }

    /// An lruvec as events name it: its memcg's path and its node ("/job node 0").
    pub fn lruvec_label(&self, lv: u16) -> String {
        let m = self.mm.lruvec_memcg(lv);
        format!("{} node {}", self.mm.memcgs[m as usize].path, self.mm.lruvec_node(lv))
    }

    /// The view model of the current state.
    pub fn frame(&self) -> Frame {
        let mm = &self.mm;
        let name = |lv: u16| self.lruvec_label(lv);
        let events = mm
            .events
            .events
            .iter()
            .map(|e| {
                let (kind, function, reason) = e.describe(&name);
                let run_kinds = crate::event::EventMatch::ALL.iter().filter(|m| m.matches(&e.kind)).map(|m| m.name().to_string()).collect();
                EventView { step: self.step, time_ns: e.time_ns, kind: kind.into(), function: function.into(), reason, page: None, run_kinds }
            })
            .collect();
        // Show lruvecs of non-root memcgs that have ever held pages (the root
        // lruvec too when it is used).
        let shown: Vec<usize> = mm
            .lruvecs
            .iter()
            .enumerate()
            .filter(|(i, lv)| {
                let m = mm.lruvec_memcg(*i as u16);
                m != 0 || lv.lrugen.max_seq > 3 || lv.lru_sizes(mm.knobs.lru_gen_enabled).iter().sum::<u64>() > 0
            })
            .map(|(i, _)| i)
            .collect();
        let lruvecs = shown.iter().map(|&i| self.lruvec_view(&mm.lruvecs[i])).collect();
        let tracked = self.tracked_compact(&shown);
        let full = tracked.cells.len() / 4 <= FULL_FOLIO_RECORDS;
        Frame {
            scenario: self.scenario.name.clone(),
            seed: self.scenario.seed,
            step: self.step,
            time_ns: mm.now_ns,
            // The step the duration ends in, as reclaim-sim run counts it.
            duration_steps: self.scenario.duration_ns.div_ceil(self.scenario.step_ns),
            counters: self.vmstat().into_iter().map(|(name, value)| Counter { name, value }).collect(),
            lruvecs,
            events,
            events_dropped: mm.events.dropped,
            folios: if full { self.tracked_folios() } else { Vec::new() },
            folio_events: mm.traces.iter().take(FOLIO_EVENTS_PER_FRAME).map(|t| self.trace_view(self.step, t)).collect(),
            tracked,
            nodes: self.node_views(),
            memcgs: self.memcg_views(),
            pgsteal_cv: self.reclaimed_pgsteal_cv(),
            pgsteal_cv_trail: self.trail_window().map(|(s, _, cv)| (*s, *cv)).collect(),
            reclaims: self.reclaim_log.iter().rev().take(64).rev().map(|r| reclaim_view(r, &mm.memcgs[r.memcg as usize].path)).collect(),
            shadow: Some(self.shadow_frame()),
        }
    }

    /// Where the frame's window began: since begin_frame, or the last step.
    fn frame_start(&self) -> u64 {
        self.frame_start_ns.unwrap_or(self.step.saturating_sub(1) * self.scenario.step_ns)
    }

    /// The trail's steps in the frame's window before the current step.
    fn trail_window(&self) -> impl Iterator<Item = &(u64, Vec<u64>, f64)> {
        let since_step = self.frame_start() / self.scenario.step_ns;
        self.free_trail.iter().filter(move |(s, _, _)| *s > since_step && *s < self.step)
    }

    fn node_views(&self) -> Vec<NodeView> {
        let mm = &self.mm;
        // Transitions since the frame began (begin_frame), or during the last step.
        let step_start = self.frame_start();
        // Up to now: the end of a throttle past it comes with a later frame.
        let in_window = |t: u64| self.step > 0 && (step_start..=mm.now_ns).contains(&t);
        let trail: Vec<&(u64, Vec<u64>, f64)> = self.trail_window().collect();
        let mut zone_base = 0;
        mm.nodes
            .iter()
            .enumerate()
            .map(|(n, p)| {
                let base = zone_base;
                zone_base += p.zones.len();
                let k = &p.kswapd;
                let unset = mm.kswapd_zoneidx_unset();
                NodeView {
                    node: n as u32,
                    zones: p
                        .zones
                        .iter()
                        .enumerate()
                        .filter(|(_, z)| z.managed > 0)
                        .map(|(zi, z)| ZoneView {
                            name: z.zone_type.name().into(),
                            managed: z.managed,
                            free: z.free_pages(),
                            min: z.watermark[0],
                            low: z.watermark[1],
                            high: z.watermark[2],
                            lowmem_reserve: z.lowmem_reserve,
                            free_trail: trail.iter().filter_map(|(s, f, _)| f.get(base + zi).map(|&v| (*s, v))).collect(),
                        })
                        .collect(),
                    kswapd: KswapdView {
                        // Throttled while a reclaim_throttle sleep on the timeline has begun and not ended.
                        mode: match k.timeline.iter().rev().find(|(t, _)| *t <= mm.now_ns) {
                            Some((_, KswapdMode::Throttled)) => KswapdMode::Throttled,
                            _ => k.mode,
                        },
                        transitions: k.timeline.iter().filter(|(t, _)| in_window(*t)).copied().collect(),
                        window_start_ns: step_start,
                        // The last change before the window; the timeline starts
                        // at time 0 (asleep) until it drops its oldest half.
                        window_mode: k.timeline.iter().rev().find(|(t, _)| *t < step_start || (*t == 0 && step_start == 0)).map(|&(_, m)| m),
                        failures: k.failures,
                        pending_zoneidx: (k.highest_zoneidx != unset || !mm.knobs.kswapd_classzone_fix).then_some(k.highest_zoneidx.min(3) as u32),
                        sleeps: k.sleeps,
                        premature_sleeps: k.premature_sleeps,
                        premature_at: k.sleep_log.iter().filter(|r| r.premature && in_window(r.time_ns)).map(|r| r.time_ns).collect(),
                        throttles: k.throttles,
                        throttled_ns: k.throttled_ns,
                    },
                    memcg_lru: (mm.knobs.lru_gen_enabled && mm.knobs.memcg_lru).then(|| {
                        let l = &p.memcg_lru;
                        MemcgLruView {
                            seq: l.seq,
                            old_gen: get_memcg_gen(l.seq) as u32,
                            young_gen: get_memcg_gen(l.seq + 1) as u32,
                            nr_memcgs: l.nr_memcgs.to_vec(),
                            bins: l
                                .fifo
                                .iter()
                                .map(|bins| bins.iter().map(|b| b.iter().map(|&lv| mm.memcgs[mm.lruvec_memcg(lv) as usize].path.clone()).collect()).collect())
                                .collect(),
                        }
                    }),
                }
            })
            .collect()
    }

    fn memcg_views(&self) -> Vec<MemcgView> {
        let lim = |v: u64| (v != PAGE_COUNTER_MAX).then_some(v);
        self.mm
            .memcgs
            .iter()
            .map(|cg| MemcgView {
                path: cg.path.clone(),
                usage: cg.usage,
                max: lim(cg.memory_max),
                high: lim(cg.memory_high),
                low: cg.memory_low,
                min: cg.memory_min,
                swap_usage: cg.swap_usage,
                pgscan: cg.stat.get(Item::PgscanKswapd) + cg.stat.get(Item::PgscanDirect),
                pgsteal: cg.stat.get(Item::PgstealKswapd) + cg.stat.get(Item::PgstealDirect),
                events_low: cg.events.low,
                events_high: cg.events.high,
                events_max: cg.events.max,
                events_oom: cg.events.oom,
                events_oom_kill: cg.events.oom_kill,
                leaf: cg.children.is_empty() && cg.id != 0,
            })
            .collect()
    }

    /// pgsteal_cv, or NaN where it is not defined: fewer than two leaf
    /// memcgs, or none reclaimed from yet (the views draw a gap, not 0 %).
    pub fn reclaimed_pgsteal_cv(&self) -> f64 {
        let v = self.leaf_pgsteal();
        if v.len() >= 2 && v.iter().any(|&x| x > 0.0) {
            leaf_cv(&v)
        } else {
            f64::NAN
        }
    }

    /// stddev(pgsteal) / mean(pgsteal) over the leaf memcgs (the fairness
    /// metric of patch 001).
    pub fn pgsteal_cv(&self) -> f64 {
        leaf_cv(&self.leaf_pgsteal())
    }

    /// pgsteal of each leaf memcg (not the root), in tree order.
    fn leaf_pgsteal(&self) -> Vec<f64> {
        self.mm
            .memcgs
            .iter()
            .filter(|cg| cg.children.is_empty() && cg.id != 0)
            .map(|cg| (cg.stat.get(Item::PgstealKswapd) + cg.stat.get(Item::PgstealDirect)) as f64)
            .collect()
    }

    fn lruvec_view(&self, lv: &Lruvec) -> LruvecView {
        let g = &lv.lrugen;
        let lo = g.min_seq[0].min(g.min_seq[1]);
        let gens = (lo..=g.max_seq)
            .map(|seq| {
                let gen = lru_gen_from_seq(seq);
                GenView {
                    seq,
                    gen: gen as u32,
                    age_ns: self.mm.now_ns.saturating_sub(g.timestamps[gen]),
                    anon: if seq >= g.min_seq[0] { g.gen_size(gen, 0) } else { 0 },
                    file: if seq >= g.min_seq[1] { g.gen_size(gen, 1) } else { 0 },
                }
            })
            .collect();
        let cg = &self.mm.memcgs[lv.memcg as usize];
        let mut tiers = Vec::new();
        for t in 0..crate::mm::ANON_AND_FILE {
            let kind = FolioType::of(t);
            let hist = crate::mm::lruvec::lru_hist_from_seq(g.min_seq[t]);
            for tier in 0..crate::mm::lruvec::MAX_NR_TIERS {
                tiers.push(TierView {
                    kind,
                    tier: tier as u32,
                    avg_refaulted: g.avg_refaulted[t][tier],
                    avg_total: g.avg_total[t][tier],
                    refaulted: g.refaulted[hist][t][tier],
                    evicted: g.evicted[hist][t][tier],
                    protected: if tier > 0 { g.protected[hist][t][tier - 1] } else { 0 },
                    above_tier_idx: g.tier_idx[t].is_some_and(|idx| tier > usize::from(idx)),
                });
            }
        }
        let lru_gen = self.mm.knobs.lru_gen_enabled;
        LruvecView {
            memcg: cg.path.clone(),
            node: lv.node as u32,
            max_seq: g.max_seq,
            min_seq: g.min_seq,
            gens,
            memory_current: cg.usage,
            memory_max: (cg.memory_max != PAGE_COUNTER_MAX).then_some(cg.memory_max),
            lru_gen,
            lists: lv.lru_sizes(lru_gen),
            tiers,
        }
    }
}

fn reclaim_view(r: &MemoryReclaim, path: &str) -> ReclaimView {
    ReclaimView {
        memcg: path.to_string(),
        requested: r.requested,
        reclaimed: r.reclaimed,
        overreclaim: r.reclaimed as i64 - r.requested as i64,
        ok: r.ok,
        start_ns: r.start_ns,
        duration_ns: r.duration_ns,
        rounds: r.rounds.iter().map(|b| ReclaimRoundView { batch: b.batch, reclaimed: b.reclaimed }).collect(),
    }
}

/// Whether memory.stat has `item` (as a node item or an event): the
/// engine also keeps memcg copies of /proc/vmstat-only events (pswpout,
/// pgscan_anon, allocstall_*, ...) that the kernel does not.
pub fn in_memory_stat(item: Item) -> bool {
    MEMORY_STAT_WORKINGSET.contains(&item) || MEMORY_STAT_EVENTS.contains(&item)
}

/// memory.stat's node items the engine counts, in memory_stats[] order.
const MEMORY_STAT_WORKINGSET: [Item; 7] = [
    Item::WorkingsetRefaultAnon,
    Item::WorkingsetRefaultFile,
    Item::WorkingsetActivateAnon,
    Item::WorkingsetActivateFile,
    Item::WorkingsetRestoreAnon,
    Item::WorkingsetRestoreFile,
    Item::WorkingsetNodereclaim,
];

/// memory.stat's events the engine counts, in memcg_vm_event_stat[] order
/// (pgpgin and pgpgout are cgroup v1 charge events there, not I/O).
const MEMORY_STAT_EVENTS: [Item; 9] = [
    Item::PgscanKswapd,
    Item::PgscanDirect,
    Item::PgstealKswapd,
    Item::PgstealDirect,
    Item::Pgfault,
    Item::Pgmajfault,
    Item::Pgrefill,
    Item::Pgactivate,
    Item::Pgdeactivate,
];

/// The CV of the leaves' pgsteal; 0 with fewer than two leaves.
fn leaf_cv(v: &[f64]) -> f64 {
    if v.len() < 2 {
        0.0
    } else {
        crate::experiment::coefficient_of_variation(v)
    }
}
