//! The thin wasm-bindgen adapter: the only file that knows about JavaScript.
//!
//! Long-lived state stays on the Rust side behind the opaque [`Engine`]
//! handle; every call returns a small view model. Errors come back as
//! JavaScript `Error`s carrying the validation message, never as panics.
use wasm_bindgen::prelude::*;

use crate::scenario;
use crate::sim::Simulation;
use crate::view::{Frame, ScenarioList, ScenarioRequest};

#[wasm_bindgen]
pub struct Engine {
    sim: Simulation,
}

#[wasm_bindgen]
impl Engine {
    /// Builds the named built-in scenario with the given seed and parameters.
    /// Throws an Error naming the bad field or value.
    #[wasm_bindgen(constructor)]
    pub fn new(request: ScenarioRequest) -> Result<Engine, JsError> {
        let scenario = scenario::build(&request).map_err(|e| JsError::new(&e.to_string()))?;
        let sim = Simulation::new(scenario).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(Engine { sim })
    }

    /// Advances `n` steps and returns the frame after the last one.
    pub fn step(&mut self, n: u32) -> Frame {
        for _ in 0..n {
            self.sim.step();
        }
        self.sim.frame()
    }

    /// The current frame, without stepping.
    pub fn frame(&self) -> Frame {
        self.sim.frame()
    }

    /// Steps taken so far.
    #[wasm_bindgen(js_name = stepCount)]
    pub fn step_count(&self) -> f64 {
        self.sim.step_count() as f64
    }
}

/// The built-in scenarios with their parameters and ranges.
#[wasm_bindgen(js_name = listScenarios)]
pub fn list_scenarios() -> ScenarioList {
    scenario::list()
}
