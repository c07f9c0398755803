// Messages between the page and the engine worker. The payload types are
// the ones tsify generates from the Rust view models (engine/pkg); only the
// envelopes are declared here.
import ENGINE_CONSTANTS from './pkg/engine-constants.json';
import type { Comparison, FolioHistory, Frame, ScenarioList, ScenarioRequest } from './pkg/reclaim_core';

/** Page -> worker. Every command carries an id; the worker answers each one exactly once, in order. */
export type WorkerCommand =
  /** Build a new engine for this request (replacing any previous one); answered with its step-0 frame. */
  | { id: number; type: 'init'; request: ScenarioRequest }
  /** Advance n steps; answered with the frame after the last one. */
  | { id: number; type: 'step'; n: number }
  /** Rebuild the engine from the last init's request; answered with its step-0 frame. */
  | { id: number; type: 'reset' }
  /**
   * Go to exactly `step` (the engine restores its nearest checkpoint at or
   * before it and replays); answered with its frame, whose kswapd
   * transitions cover the steps since `since` (default: the whole move
   * forwards, or the last step when going back). A long move forwards sends
   * progress replies first.
   */
  | { id: number; type: 'seek'; step: number; since?: number }
  /** Go back one step; answered with that step's frame (transitions since `since`, default its last step). */
  | { id: number; type: 'stepBack'; since?: number }
  /**
   * Step until a step has an event of `kind` (RUN_KINDS), at most
   * `maxSteps` steps; answered with a run (the frame, transitions since
   * `since`, default the whole run). Sends progress replies on the way.
   */
  | { id: number; type: 'runUntil'; kind: string; maxSteps: number; since?: number }
  /** The recorded decisions about one tracked page ("file:reader#120"); answered with a history. */
  | { id: number; type: 'history'; page: string }
  /**
   * Run every variant of an experiment to the end on the request's seed
   * (its variant is ignored), or with `headlinesOnly` only `after` and the
   * headlines' baselines; answered with a comparison. Takes up to a few
   * seconds and leaves the stepped engine, if any, as it was.
   */
  | { id: number; type: 'compare'; request: ScenarioRequest; headlinesOnly?: boolean };

/**
 * Page -> worker, not a command: it is taken at once, not in turn, and not
 * answered. `stop` ends the long seek or run with id `target` where it has
 * got to; that command is answered as usual (a seek with the frame of the
 * step reached, a run with `found` false).
 */
export type WorkerControl = { type: 'stop'; target: number };

/** A command before the client gives it an id. */
export type CommandBody = WorkerCommand extends infer C ? (C extends unknown ? Omit<C, 'id'> : never) : never;

/**
 * Worker -> page. `ready` is sent once, unasked (id 0), when the wasm module
 * has loaded. `progress` replies may come before a long command's answer
 * (`done` of `total` steps); they do not answer it.
 */
export type WorkerReply =
  | { id: number; type: 'ready'; scenarios: ScenarioList }
  | { id: number; type: 'frame'; frame: Frame }
  | { id: number; type: 'run'; frame: Frame; found: boolean; steps: number }
  | { id: number; type: 'progress'; done: number; total: number }
  | { id: number; type: 'history'; history: FolioHistory }
  | { id: number; type: 'comparison'; comparison: Comparison }
  | { id: number; type: 'error'; message: string };

/** The id of unasked messages (ready, or a failure to load the engine). */
export const UNSOLICITED = 0;

/** The largest `n` one step command may ask for. */
export const MAX_STEPS_PER_COMMAND = 1_000_000;

/** The furthest step a seek may go to (the engine's limit, timeline::MAX_STEP). */
export const MAX_SEEK_STEP: number = ENGINE_CONSTANTS.maxSeekStep;

/**
 * The kinds of event a run can stop at: the engine's names (in its order:
 * ENGINE_CONSTANTS.runKinds, which a unit test holds this list to), with what the UI
 * calls them; `mglruOnly`: only MGLRU has them (the classic LRU has no
 * inc_max_seq or evict_folios), so a run with MGLRU off cannot stop there.
 */
export const RUN_KINDS = [
  { kind: 'aging', label: 'aging (inc_max_seq)', mglruOnly: true },
  { kind: 'kswapd-wake', label: 'kswapd wake-up', mglruOnly: false },
  { kind: 'kswapd-sleep', label: 'kswapd sleep', mglruOnly: false },
  { kind: 'refault', label: 'refault', mglruOnly: false },
  { kind: 'eviction', label: 'eviction (evict_folios)', mglruOnly: true },
  { kind: 'reclaim', label: 'reclaim round', mglruOnly: false },
  { kind: 'oom', label: 'OOM kill', mglruOnly: false },
  { kind: 'throttle', label: 'reclaim throttle (reclaim_throttle)', mglruOnly: false },
] as const;

export type RunKind = (typeof RUN_KINDS)[number]['kind'];

/**
 * What "Run to next" first offers on an experiment's page: the event its
 * patch is about (a memory.reclaim round, kswapd's sleep, a refault), so
 * that one press skips a lead-in where nothing happens yet. Elsewhere it
 * offers SCENARIO_RUN_KIND's, or the first kind the run can stop at.
 */
export const EXPERIMENT_RUN_KIND: Readonly<Record<string, RunKind>> = {
  'memcg-lru-fairness': 'reclaim',
  'multi-memcg-kswapd': 'kswapd-wake',
  'kswapd-classzone': 'kswapd-sleep',
  'proactive-reclaim-batching': 'reclaim',
  'refault-distance-mglru': 'refault',
};

/** The same for the built-in scenarios made to show one event: slow-disk's first reclaim_throttle. */
export const SCENARIO_RUN_KIND: Readonly<Record<string, RunKind>> = {
  'slow-disk': 'throttle',
};

/** Progress of a long command: `done` of `total` steps. */
export interface Progress {
  done: number;
  total: number;
}
