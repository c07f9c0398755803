// Messages between the page and the engine worker. The payload types are
// the ones tsify generates from the Rust view models (engine/pkg); only the
// envelopes are declared here.
import type { Comparison, FolioHistory, Frame, ScenarioList, ScenarioRequest } from './pkg/reclaim_core';

/** Page -> worker. Every command carries an id; the worker answers each one exactly once, in order. */
export type WorkerCommand =
  /** Build a new engine for this request (replacing any previous one); answered with its step-0 frame. */
  | { id: number; type: 'init'; request: ScenarioRequest }
  /** Advance n steps; answered with the frame after the last one. */
  | { id: number; type: 'step'; n: number }
  /** Rebuild the engine from the last init's request; answered with its step-0 frame. */
  | { id: number; type: 'reset' }
  /** The recorded decisions about one tracked page ("file:reader#120"); answered with a history. */
  | { id: number; type: 'history'; page: string }
  /**
   * Run every variant of an experiment to the end on the request's seed
   * (its variant is ignored); answered with a comparison. Takes up to a few
   * seconds and leaves the stepped engine, if any, as it was.
   */
  | { id: number; type: 'compare'; request: ScenarioRequest };

/** A command before the client gives it an id. */
export type CommandBody = WorkerCommand extends infer C ? (C extends unknown ? Omit<C, 'id'> : never) : never;

/** Worker -> page. `ready` is sent once, unasked (id 0), when the wasm module has loaded. */
export type WorkerReply =
  | { id: number; type: 'ready'; scenarios: ScenarioList }
  | { id: number; type: 'frame'; frame: Frame }
  | { id: number; type: 'history'; history: FolioHistory }
  | { id: number; type: 'comparison'; comparison: Comparison }
  | { id: number; type: 'error'; message: string };

/** The id of unasked messages (ready, or a failure to load the engine). */
export const UNSOLICITED = 0;

/** The largest `n` one step command may ask for. */
export const MAX_STEPS_PER_COMMAND = 1_000_000;
