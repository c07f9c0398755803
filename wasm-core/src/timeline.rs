//! Step back and exact seeking: a [`Simulation`] with a store of checkpoints.
//!
//! The engine is deterministic and a checkpoint is a clone of the whole
//! state, so any step can be reached exactly: `seek(step)` restores the
//! nearest checkpoint at or before `step` and replays to it. The same step
//! reached by stepping forward or by seeking has the same counters, the same
//! tracked folios and the same histories (tests/timeline.rs checks frames).
//!
//! Checkpoints are taken while the run moves past the furthest step reached
//! so far: one after every [`Limits::work_per_checkpoint`] units of work
//! (accesses plus pages scanned plus a little per step; what replaying
//! costs) or [`Limits::max_steps_per_checkpoint`] steps, whichever comes
//! first. When they exceed the memory budget or the count cap, every other
//! one is dropped and the spacing doubles, so they stay spread evenly over
//! the run and a seek replays at most about two spacings.
//!
//! A long replay also leaves a few clones along its way ("local"
//! checkpoints, replaced by the next long replay), so stepping back again,
//! or scrubbing near the same place, replays only a short stretch.
use std::fmt;

use crate::event::EventMatch;
use crate::sim::Simulation;
use crate::view::Frame;

/// The furthest step a seek or a run may go to.
pub const MAX_STEP: u64 = 10_000_000;

/// Local checkpoints a long replay leaves behind, at most.
const LOCAL_COUNT: u64 = 8;
/// Replays shorter than this leave no local checkpoints.
const LOCAL_MIN_REPLAY: u64 = 24;

/// When checkpoints are taken and how much they may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Estimated bytes all checkpoints may hold together (at least two are
    /// always kept: step 0 and one more).
    pub max_bytes: usize,
    /// At most this many checkpoints.
    pub max_checkpoints: usize,
    /// A checkpoint after this much work (see [`Simulation::work`])...
    pub work_per_checkpoint: u64,
    /// ...or after this many steps, whichever comes first.
    pub max_steps_per_checkpoint: u64,
}

impl Default for Limits {
    /// 192 MiB and 384 checkpoints; 200k units of work (about 40 ms of
    /// replay in wasm) or 500 steps between them. A light run (1 MB a
    /// checkpoint) keeps a checkpoint every 500 steps for 100,000 steps.
    fn default() -> Self {
        Limits { max_bytes: 192 << 20, max_checkpoints: 384, work_per_checkpoint: 200_000, max_steps_per_checkpoint: 500 }
    }
}

/// Why a timeline request was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum TimelineError {
    /// A step number that is not a whole number from 0 to [`MAX_STEP`].
    BadStep { what: &'static str, value: f64 },
    /// Step back at the first step, or a seek before it.
    AtStart,
    /// Run to the next event: an unknown kind of event.
    UnknownEvent(String),
}

impl fmt::Display for TimelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimelineError::BadStep { what, value } => write!(f, "{what} must be a whole number from 0 to {MAX_STEP}, got {value}"),
            TimelineError::AtStart => write!(f, "cannot go back before the first step"),
            TimelineError::UnknownEvent(name) => {
                let known: Vec<&str> = EventMatch::ALL.iter().map(|m| m.name()).collect();
                write!(f, "unknown event kind \"{name}\" (known: {})", known.join(", "))
            }
        }
    }
}

impl std::error::Error for TimelineError {}

/// A step number from JavaScript: a whole number from 0 to [`MAX_STEP`].
pub fn step_from_f64(what: &'static str, value: f64) -> Result<u64, TimelineError> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= MAX_STEP as f64 {
        Ok(value as u64)
    } else {
        Err(TimelineError::BadStep { what, value })
    }
}

/// What a run to the next event found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// Whether the last step taken had an event of the kind.
    pub found: bool,
    /// Steps taken.
    pub steps: u64,
}

/// A clone of the simulation at `step`, with its work measure and estimated size.
struct Checkpoint {
    step: u64,
    work: u64,
    bytes: usize,
    sim: Simulation,
}

/// A simulation that can go back: the current state plus checkpoints.
pub struct Timeline {
    sim: Simulation,
    /// Sorted by step; the first is step 0.
    checkpoints: Vec<Checkpoint>,
    /// Left by the last long replay, sorted by step.
    local: Vec<Checkpoint>,
    limits: Limits,
    /// The spacing now (doubled by every thinning).
    work_interval: u64,
    step_interval: u64,
    /// Estimated bytes of all checkpoints.
    bytes: usize,
    /// The furthest step reached.
    furthest: u64,
}

impl Timeline {
    /// A timeline starting from `sim` (its step becomes the first
    /// checkpoint: the timeline cannot go back before it), with the
    /// default limits. Turns the event log on: the
    /// views and the runs to the next event need it.
    pub fn new(sim: Simulation) -> Self {
        Timeline::with_limits(sim, Limits::default())
    }

    /// A timeline with the given limits (tests use small ones).
    pub fn with_limits(mut sim: Simulation, limits: Limits) -> Self {
        sim.set_event_log(true);
        let furthest = sim.step_count();
        let mut t = Timeline {
            sim,
            checkpoints: Vec::new(),
            local: Vec::new(),
            limits,
            work_interval: limits.work_per_checkpoint.max(1),
            step_interval: limits.max_steps_per_checkpoint.max(1),
            bytes: 0,
            furthest,
        };
        t.push_checkpoint();
        t
    }

    /// The current state.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The current step.
    pub fn step_count(&self) -> u64 {
        self.sim.step_count()
    }

    /// The furthest step this timeline has reached.
    pub fn furthest(&self) -> u64 {
        self.furthest
    }

    /// The steps checkpoints are kept at, ascending.
    pub fn checkpoint_steps(&self) -> Vec<u64> {
        self.checkpoints.iter().map(|c| c.step).collect()
    }

    /// The steps the last long replay left local checkpoints at, ascending.
    pub fn local_steps(&self) -> Vec<u64> {
        self.local.iter().map(|c| c.step).collect()
    }

    /// Estimated bytes all checkpoints hold (not counting the local ones,
    /// at most a quarter of the budget more).
    pub fn checkpoint_bytes(&self) -> usize {
        self.bytes
    }

    /// Advances `n` steps (n = 0 does nothing).
    pub fn step(&mut self, n: u64) -> Result<(), TimelineError> {
        let target = self.step_count().saturating_add(n);
        step_from_f64("the step to go to", target as f64)?;
        for _ in 0..n {
            self.step_one();
        }
        Ok(())
    }

    /// Goes to exactly `target`: from the current state when it is on the
    /// way, else from the nearest checkpoint at or before it, replaying.
    pub fn seek(&mut self, target: u64) -> Result<(), TimelineError> {
        step_from_f64("the step to seek to", target as f64)?;
        let current = self.step_count();
        // The first checkpoint (the first step, 0 in the engine) is always kept.
        let i = self.checkpoints.partition_point(|c| c.step <= target).checked_sub(1).ok_or(TimelineError::AtStart)?;
        let j = self.local.partition_point(|c| c.step <= target);
        let base = match j.checked_sub(1).map(|j| &self.local[j]) {
            Some(l) if l.step > self.checkpoints[i].step => l,
            _ => &self.checkpoints[i],
        };
        if !(current <= target && base.step <= current) {
            self.sim = base.sim.clone();
        }
        let from = self.step_count();
        let distance = target - from;
        if distance < LOCAL_MIN_REPLAY {
            while self.step_count() < target {
                self.step_one();
            }
            return Ok(());
        }
        // A long replay: leave clones along the way for the next seeks nearby.
        let spacing = distance.div_ceil(LOCAL_COUNT + 1);
        // Past the furthest step the checkpoints being laid down serve instead.
        let explored = self.furthest;
        let room = (self.limits.max_bytes / 4 / self.sim.approx_bytes().max(1)) as u64;
        let mut local = Vec::new();
        while self.step_count() < target {
            self.step_one();
            let step = self.step_count();
            if step < target.min(explored) && (step - from).is_multiple_of(spacing) && (local.len() as u64) < LOCAL_COUNT.min(room) {
                local.push(self.snapshot());
            }
        }
        if !local.is_empty() {
            self.local = local;
        }
        Ok(())
    }

    /// Goes back one step (seek to the current step - 1).
    pub fn step_back(&mut self) -> Result<(), TimelineError> {
        let previous = self.step_count().checked_sub(1).ok_or(TimelineError::AtStart)?;
        self.seek(previous)
    }

    /// Steps until a step has an event of kind `what` (even one the event
    /// log had no room for), at most `max_steps` steps.
    pub fn run_until(&mut self, what: EventMatch, max_steps: u64) -> Result<RunOutcome, TimelineError> {
        step_from_f64("the last step of the run", self.step_count().saturating_add(max_steps) as f64)?;
        self.sim.mm.events.watch = Some(what);
        let mut outcome = RunOutcome { found: false, steps: 0 };
        while outcome.steps < max_steps {
            self.step_one();
            outcome.steps += 1;
            if self.sim.mm.events.watched > 0 {
                outcome.found = true;
                break;
            }
        }
        self.sim.mm.events.watch = None;
        Ok(outcome)
    }

    /// [`Timeline::run_until`] with the kind by name ("aging", "kswapd-sleep", "refault", ...).
    pub fn run_until_named(&mut self, what: &str, max_steps: u64) -> Result<RunOutcome, TimelineError> {
        let kind = EventMatch::parse(what).ok_or_else(|| TimelineError::UnknownEvent(what.to_string()))?;
        self.run_until(kind, max_steps)
    }

    /// The current frame, with kswapd's transitions since step `since`
    /// (clamped to the current step; events and folio decisions are the
    /// last step's). `since` = current - 1 gives the frame stepping one step
    /// at a time gives; `since` = where a forward move began, the frame of
    /// one `step(n)`.
    pub fn frame_since(&mut self, since: u64) -> Frame {
        let since = since.min(self.step_count());
        let t = since.saturating_mul(self.sim.scenario.step_ns);
        self.sim.begin_frame_at(t);
        self.sim.frame()
    }

    /// One step; a checkpoint when it passes the last one by the spacing.
    fn step_one(&mut self) {
        self.sim.step();
        let step = self.step_count();
        self.furthest = self.furthest.max(step);
        let last = self.checkpoints.last().expect("the first checkpoint is always kept");
        if step > last.step && (step - last.step >= self.step_interval || self.sim.work().saturating_sub(last.work) >= self.work_interval) {
            self.push_checkpoint();
        }
    }

    /// A clone of the current state (without a watch).
    fn snapshot(&self) -> Checkpoint {
        let mut sim = self.sim.clone();
        sim.mm.events.watch = None;
        Checkpoint { step: sim.step_count(), work: sim.work(), bytes: sim.approx_bytes(), sim }
    }

    /// Keeps a checkpoint of the current state; thins them out when over the limits.
    fn push_checkpoint(&mut self) {
        let c = self.snapshot();
        self.bytes += c.bytes;
        self.checkpoints.push(c);
        while self.checkpoints.len() > 2 && (self.bytes > self.limits.max_bytes || self.checkpoints.len() > self.limits.max_checkpoints) {
            self.thin();
        }
    }

    /// Drops every other checkpoint (keeping the first) and doubles the spacing.
    fn thin(&mut self) {
        let mut i = 0;
        self.checkpoints.retain(|_| {
            i += 1;
            i % 2 == 1
        });
        self.bytes = self.checkpoints.iter().map(|c| c.bytes).sum();
        self.work_interval = self.work_interval.saturating_mul(2);
        self.step_interval = self.step_interval.saturating_mul(2);
    }
}
