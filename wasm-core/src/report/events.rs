//! `reclaim-sim run --events`: the engine's events of each step as text
//! lines, as a trace of the kernel's mm_vmscan tracepoints reads: the time,
//! the kind, the kernel function, and what it did and why.
use crate::event::EventMatch;
use crate::sim::Simulation;

/// Which events `--events` prints: every one, or those of some kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventFilter {
    All,
    Kinds(Vec<EventMatch>),
}

impl EventFilter {
    /// "all", or kinds separated by commas ("throttle,kswapd-sleep"): a
    /// message naming an unknown kind and the known ones otherwise.
    pub fn parse(text: &str) -> Result<EventFilter, String> {
        if text.trim() == "all" {
            return Ok(EventFilter::All);
        }
        let mut kinds = Vec::new();
        for name in text.split(',').map(str::trim) {
            let kind = EventMatch::parse(name).ok_or_else(|| {
                let known: Vec<&str> = EventMatch::ALL.iter().map(|k| k.name()).collect();
                format!("unknown event kind {:?} (known: all, {})", name, known.join(", "))
            })?;
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        Ok(EventFilter::Kinds(kinds))
    }
}

/// The events the last step recorded that pass `filter`, one line each
/// ("     0.312045 s  step 32  reclaim  reclaim_throttle: ..."), in time
/// order (the engine logs them as each task's action runs; an action's
/// event may come after the next task's), and a line for the events the
/// step's log had no room for (it keeps [`crate::event::EVENTS_PER_STEP`],
/// and more of the rare kinds).
pub fn step_events(sim: &Simulation, filter: &EventFilter) -> Vec<String> {
    let log = &sim.mm.events;
    let mut kept: Vec<&crate::event::Event> = log
        .events
        .iter()
        .filter(|e| match filter {
            EventFilter::All => true,
            EventFilter::Kinds(kinds) => kinds.iter().any(|k| k.matches(&e.kind)),
        })
        .collect();
    kept.sort_by_key(|e| e.time_ns);
    let mut out: Vec<String> = kept
        .into_iter()
        .map(|e| {
            let (group, function, what) = e.describe(&|lv| sim.lruvec_label(lv));
            // The kind --events names it by (throttle, kswapd-wake), else its group (a kswapd nap, the memcg LRU).
            let kind = crate::event::EventMatch::ALL.iter().find(|k| k.matches(&e.kind)).map_or(group, |k| k.name());
            format!("{:>13.6} s  step {}  {kind}  {function}: {what}", e.time_ns as f64 / 1e9, sim.step_count())
        })
        .collect();
    // Under a filter of rare kinds only, the events of other kinds that did not fit are none of its business.
    let dropped = match filter {
        EventFilter::Kinds(kinds) if kinds.iter().all(|k| k.is_rare()) => log.dropped_rare,
        _ => log.dropped,
    };
    if dropped > 0 {
        out.push(format!("{:>13}    step {}  ({} more events in this step were not kept)", "", sim.step_count(), dropped));
    }
    out
}
