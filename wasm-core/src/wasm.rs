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
use crate::view::{FolioHistory, Frame, ScenarioList, ScenarioRequest};

#[wasm_bindgen]
pub struct Engine {
    sim: Simulation,
}

#[wasm_bindgen]
impl Engine {
    /// Builds the named built-in scenario with the given seed and parameters.
    /// Throws an Error naming the bad field or value.
    #[wasm_bindgen(constructor)]
    pub fn new(request: Ts<ScenarioRequest>) -> Result<Engine, JsError> {
        let request = request.to_rust().map_err(|e| JsError::new(&format!("scenario request: {e}")))?;
        let scenario = scenario::build(&request).map_err(|e| JsError::new(&e.to_string()))?;
        let mut sim = Simulation::new(scenario).map_err(|e| JsError::new(&e.to_string()))?;
        sim.set_event_log(true);
        Ok(Engine { sim })
    }

    /// Advances `n` steps and returns the frame after the last one (kswapd
    /// transitions cover all `n` steps; events cover the last step).
    pub fn step(&mut self, n: u32) -> Result<Ts<Frame>, JsError> {
        self.sim.begin_frame();
        for _ in 0..n {
            self.sim.step();
        }
        Ok(self.sim.frame().into_ts()?)
    }

    /// The current frame, without stepping.
    pub fn frame(&self) -> Result<Ts<Frame>, JsError> {
        Ok(self.sim.frame().into_ts()?)
    }

    /// Accesses made by all tasks so far (for benchmarks).
    pub fn accesses(&self) -> f64 {
        self.sim.tasks.iter().map(|t| t.accesses).sum::<u64>() as f64
    }

    /// The recorded decisions about a tracked page ("file:reader#120"), oldest first.
    pub fn history(&self, page: &str) -> Result<Ts<FolioHistory>, JsError> {
        Ok(FolioHistory { page: page.to_string(), events: self.sim.history(page) }.into_ts()?)
    }

    /// Steps taken so far.
    #[wasm_bindgen(js_name = stepCount)]
    pub fn step_count(&self) -> f64 {
        self.sim.step_count() as f64
    }
}

/// Runs every variant of an experiment on the same seed (what
/// `reclaim-sim compare` prints). Takes about a second per variant.
#[wasm_bindgen(js_name = compareExperiment)]
pub fn compare_experiment(request: Ts<ScenarioRequest>) -> Result<Ts<Comparison>, JsError> {
    let request = request.to_rust().map_err(|e| JsError::new(&format!("compare request: {e}")))?;
    let exp = crate::experiment::find(&request.name).ok_or_else(|| JsError::new(&format!("unknown experiment \"{}\"", request.name)))?;
    let cmp = exp.compare(&request.params, request.seed).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(cmp.into_ts()?)
}

/// The built-in scenarios with their parameters and ranges.
#[wasm_bindgen(js_name = listScenarios)]
pub fn list_scenarios() -> Result<Ts<ScenarioList>, JsError> {
    Ok(scenario::list().into_ts()?)
}
