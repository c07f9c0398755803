//! The thin wasm-bindgen adapter: the only file that knows about JavaScript.
//!
//! Long-lived state stays on the Rust side behind the opaque [`Engine`]
//! handle; every call returns a small view model converted with tsify's
//! `Ts<T>` (typed in the generated .d.ts). Every failure, including input
//! from JavaScript that does not deserialize, comes back as a JavaScript
//! `Error` carrying the message, never as a panic.
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use crate::scenario;
use crate::sim::Simulation;
use crate::experiment::Comparison;
use crate::timeline::{step_from_f64, Timeline};
use crate::view::{FolioHistory, Frame, RunUntilView, ScenarioList, ScenarioRequest};

fn js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

#[wasm_bindgen]
pub struct Engine {
    timeline: Timeline,
}

#[wasm_bindgen]
impl Engine {
    /// Builds the named built-in scenario with the given seed and parameters.
    /// Throws an Error naming the bad field or value.
    #[wasm_bindgen(constructor)]
    pub fn new(request: Ts<ScenarioRequest>) -> Result<Engine, JsError> {
        let request = request.to_rust().map_err(|e| JsError::new(&format!("scenario request: {e}")))?;
        let scenario = scenario::build(&request).map_err(js_error)?;
        let sim = Simulation::new(scenario).map_err(js_error)?;
        Ok(Engine { timeline: Timeline::new(sim) })
    }

    /// Advances `n` steps and returns the frame after the last one (kswapd
    /// transitions cover all `n` steps; events cover the last step).
    pub fn step(&mut self, n: u32) -> Result<Ts<Frame>, JsError> {
        let since = self.timeline.step_count();
        self.timeline.step(u64::from(n)).map_err(js_error)?;
        Ok(self.timeline.frame_since(since).into_ts()?)
    }

    /// Goes to exactly `step` (from the nearest checkpoint at or before it,
    /// replaying) and returns its frame, with kswapd transitions since step
    /// `since` (clamped to `step`).
    pub fn seek(&mut self, step: f64, since: f64) -> Result<Ts<Frame>, JsError> {
        let since = step_from_f64("since", since).map_err(js_error)?;
        self.move_to(step)?;
        Ok(self.timeline.frame_since(since).into_ts()?)
    }

    /// Goes to exactly `step` without building a frame (a long seek in parts).
    #[wasm_bindgen(js_name = moveTo)]
    pub fn move_to(&mut self, step: f64) -> Result<(), JsError> {
        let step = step_from_f64("step", step).map_err(js_error)?;
        self.timeline.seek(step).map_err(js_error)
    }

    /// Goes back one step and returns that step's frame (as stepping one
    /// step at a time shows it). Throws at step 0.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(&mut self) -> Result<Ts<Frame>, JsError> {
        self.timeline.step_back().map_err(js_error)?;
        let since = self.timeline.step_count().saturating_sub(1);
        Ok(self.timeline.frame_since(since).into_ts()?)
    }

    /// Steps until a step has an event of kind `kind` ("aging",
    /// "kswapd-wake", "kswapd-sleep", "refault", "eviction", "reclaim",
    /// "oom", "throttle"), at most `max_steps` steps; says whether it found one. Read
    /// the frame with `frameSince`.
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(&mut self, kind: &str, max_steps: u32) -> Result<Ts<RunUntilView>, JsError> {
        let outcome = self.timeline.run_until_named(kind, u64::from(max_steps)).map_err(js_error)?;
        Ok(RunUntilView { found: outcome.found, steps: outcome.steps }.into_ts()?)
    }

    /// The current frame, with kswapd transitions since step `since`.
    #[wasm_bindgen(js_name = frameSince)]
    pub fn frame_since(&mut self, since: f64) -> Result<Ts<Frame>, JsError> {
        let since = step_from_f64("since", since).map_err(js_error)?;
        Ok(self.timeline.frame_since(since).into_ts()?)
    }

    /// The current frame, without stepping.
    pub fn frame(&self) -> Result<Ts<Frame>, JsError> {
        Ok(self.timeline.sim().frame().into_ts()?)
    }

    /// Accesses made by all tasks so far (for benchmarks).
    pub fn accesses(&self) -> f64 {
        self.timeline.sim().accesses() as f64
    }

    /// The recorded decisions about a tracked page ("file:reader#120"), oldest first.
    pub fn history(&self, page: &str) -> Result<Ts<FolioHistory>, JsError> {
        Ok(FolioHistory { page: page.to_string(), events: self.timeline.sim().history(page) }.into_ts()?)
    }

    /// Steps taken so far.
    #[wasm_bindgen(js_name = stepCount)]
    pub fn step_count(&self) -> f64 {
        self.timeline.step_count() as f64
    }

    /// The furthest step reached (the end of the timeline so far).
    #[wasm_bindgen(js_name = furthestStep)]
    pub fn furthest_step(&self) -> f64 {
        self.timeline.furthest() as f64
    }
}

/// Runs every variant of an experiment on the same seed (what
/// `reclaim-sim compare` prints), or with `headlinesOnly` only `after` and
/// the headlines' baselines (what a range check needs, as `reclaim-sim
/// sweep` runs). Takes about a second per variant.
#[wasm_bindgen(js_name = compareExperiment)]
pub fn compare_experiment(request: Ts<ScenarioRequest>, #[wasm_bindgen(js_name = headlinesOnly)] headlines_only: Option<bool>) -> Result<Ts<Comparison>, JsError> {
    let request = request.to_rust().map_err(|e| JsError::new(&format!("compare request: {e}")))?;
    let exp = crate::experiment::find(&request.name).ok_or_else(|| JsError::new(&format!("unknown experiment \"{}\"", request.name)))?;
    let cmp = if headlines_only == Some(true) { exp.compare_headlines(&request.params, request.seed) } else { exp.compare(&request.params, request.seed) };
    let cmp = cmp.map_err(|e| JsError::new(&e.to_string()))?;
    Ok(cmp.into_ts()?)
}

/// The engine's default switches (`Knobs::default()`, the v6.12 baseline).
/// The build writes them to pkg/default-knobs.json for the scenario editor,
/// so that its defaults are the engine's, not a copy.
#[wasm_bindgen(js_name = defaultKnobs)]
pub fn default_knobs() -> Result<Ts<crate::mm::Knobs>, JsError> {
    Ok(crate::mm::Knobs::default().into_ts()?)
}

/// The engine's constants the UI needs before an engine runs. The build
/// writes them to pkg/engine-constants.json, as it does the default switches.
#[wasm_bindgen(js_name = engineConstants)]
pub fn engine_constants() -> Result<Ts<crate::view::EngineConstants>, JsError> {
    Ok(crate::view::EngineConstants::get().into_ts()?)
}

/// The built-in scenarios with their parameters and ranges.
#[wasm_bindgen(js_name = listScenarios)]
pub fn list_scenarios() -> Result<Ts<ScenarioList>, JsError> {
    Ok(scenario::list().into_ts()?)
}

/// Checks a scenario file (JSON) as the engine would before running it,
/// without running it: `readable` says whether it is a scenario document at
/// all, `problems` lists every problem, each naming its field
/// ("workloads[1].pattern.s", "nodes[0].zones[0].pages"); none = it runs.
/// Bad input is an answer, never a throw. (To run such a document, pass it
/// as the `name` of a ScenarioRequest: see scenario::build.)
#[wasm_bindgen(js_name = validateScenario)]
pub fn validate_scenario(json: &str) -> Result<Ts<scenario::ScenarioCheck>, JsError> {
    Ok(scenario::check_json(json).into_ts()?)
}

/// A trace replay fed chunk by chunk (docs/trace-replay.md): the page
/// reads the file as a stream and pushes each chunk; the chosen policies
/// replay it side by side. A malformed trace throws an Error naming the
/// line or byte offset; after that the replay is over (every later call
/// throws the same error).
#[wasm_bindgen]
pub struct TraceReplay {
    session: crate::replay::Session,
    failed: Option<String>,
}

#[wasm_bindgen]
impl TraceReplay {
    #[wasm_bindgen(constructor)]
    pub fn new(options: Ts<crate::replay::ReplayOptions>) -> Result<TraceReplay, JsError> {
        let options = options.to_rust().map_err(|e| JsError::new(&format!("replay options: {e}")))?;
        let session = crate::replay::Session::new(&options).map_err(js_error)?;
        Ok(TraceReplay { session, failed: None })
    }

    /// Decodes and replays one chunk of the trace.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        if let Some(m) = &self.failed {
            return Err(JsError::new(m));
        }
        self.session.push(chunk).map_err(|e| {
            self.failed = Some(e.to_string());
            js_error(e)
        })
    }

    /// The progress so far: requests, each policy's figures and its
    /// miss-ratio samples.
    pub fn progress(&self) -> Result<Ts<crate::replay::ReplayProgress>, JsError> {
        Ok(self.session.progress().into_ts()?)
    }

    /// The end of the trace: the final report.
    pub fn finish(&mut self) -> Result<Ts<crate::replay::ReplayReport>, JsError> {
        if let Some(m) = &self.failed {
            return Err(JsError::new(m));
        }
        match self.session.finish() {
            Ok(report) => Ok(report.into_ts()?),
            Err(e) => {
                self.failed = Some(e.to_string());
                Err(js_error(e))
            }
        }
    }
}

/// The trace page's sample: `reclaim-sim gen-trace OUT --requests N
/// --pages P --zipf S --seed SEED` (oracleGeneral, ids unscrambled), the
/// same bytes natively and here. At most 5,000,000 requests.
#[wasm_bindgen(js_name = sampleTrace)]
pub fn sample_trace(requests: u32, pages: u32, zipf: f64, seed: u32) -> Result<Vec<u8>, JsError> {
    if requests == 0 || requests > 5_000_000 || pages == 0 || !(zipf.is_finite() && (0.0..=5.0).contains(&zipf)) {
        return Err(JsError::new(&format!("sampleTrace: {requests} requests over {pages} pages at zipf {zipf} is out of range")));
    }
    let ids = crate::replay::gen::zipf_ids(u64::from(requests), pages, zipf, u64::from(seed));
    let mut out = Vec::with_capacity(ids.len() * 24);
    crate::replay::gen::write_oracle_general(&mut out, &ids, false).map_err(|e| JsError::new(&format!("sampleTrace: {e}")))?;
    Ok(out)
}
