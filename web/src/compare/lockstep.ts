// Compare mode's state: two variants of an experiment, same seed and
// parameters, each in an engine of its own, stepped together. The state
// takes both sides' frames in one action, so what is shown is always a pair
// of frames of the same step.
//
// DOM-free.
import type { ExperimentInfo, Frame, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { makeRequest, paramRecord } from '../scenario/params';
import { encodeScenarioUrl } from '../scenario/url';
import { CounterTrail, type Busy, type CountersAt } from '../simulationState';
import { takeFrame, type FrameHistories, type HistoryLog } from '../views/history';

/** The variants on the left and on the right. */
export type VariantPair = [string, string];

export interface Side {
  request: ScenarioRequest;
  frame: Frame;
  /**
   * What the counters' Δ compares with: the frame shown before when the
   * side came forward, else the step before if this run has shown it
   * (null right after a start).
   */
  previous: CountersAt | null;
  /** The counters of every step this side has shown. */
  trail: CounterTrail;
  histories: FrameHistories;
  /** What the histories were folded from (rebuilt when the pair goes back). */
  log: HistoryLog;
}

export interface LockstepState {
  /** idle: not started; starting: both engines are being built (and stepped to the start step); running; failed: `error` says why. */
  status: 'idle' | 'starting' | 'running' | 'failed';
  /** The pair of runs being started or shown (runKey). */
  key: string | null;
  sides: [Side, Side] | null;
  playing: boolean;
  error: string | null;
  /** Step commands sent to both engines and not answered yet. */
  inFlight: number;
  /** The furthest step both sides have reached (the end of the timeline). */
  furthest: number;
  /** A long seek both engines are busy with (the progress of the slower one). */
  busy: Busy | null;
}

export type LockstepAction =
  | { type: 'starting'; key: string }
  /**
   * The engines are up at `frames`; `first` are their frames of step 0, when
   * they went further at once (a link's step): each side's history starts
   * there, so that the frame's kswapd transitions since step 0 are drawn.
   */
  | { type: 'started'; key: string; requests: [ScenarioRequest, ScenarioRequest]; frames: [Frame, Frame]; first?: [Frame, Frame] }
  | { type: 'sent' }
  /** Both sides' frames of the same step, after stepping forwards, back, or a seek. */
  | { type: 'stepped'; frames: [Frame, Frame] }
  | { type: 'busy'; busy: Busy | null }
  | { type: 'failed'; error: string }
  | { type: 'playing'; playing: boolean }
  | { type: 'stopped' };

export const IDLE: LockstepState = { status: 'idle', key: null, sides: null, playing: false, error: null, inFlight: 0, furthest: 0, busy: null };

/** The two variants compare mode opens with: before and after when the experiment has them, else its first two. */
export function defaultVariants(experiment: Pick<ExperimentInfo, 'variants'>): VariantPair {
  const names = experiment.variants.map((v) => v.name);
  const left = names.includes('before') ? 'before' : (names[0] ?? 'before');
  const right = names.includes('after') && left !== 'after' ? 'after' : (names.find((n) => n !== left) ?? left);
  return [left, right];
}

/** The two runs: the request's experiment, seed and parameters, one per variant. */
export function sideRequests(request: ScenarioRequest, variants: VariantPair): [ScenarioRequest, ScenarioRequest] {
  const params = paramRecord(request);
  return [makeRequest(request.name, request.seed, params, variants[0]), makeRequest(request.name, request.seed, params, variants[1])];
}

/** Identifies a pair of runs (a different key: the engines start again). */
export function runKey(requests: readonly [ScenarioRequest, ScenarioRequest]): string {
  return requests.map((r) => encodeScenarioUrl(r)).join(' | ');
}

export function lockstepReducer(state: LockstepState, action: LockstepAction): LockstepState {
  switch (action.type) {
    case 'starting':
      return { ...state, status: 'starting', key: action.key, playing: false, error: null, inFlight: 0, furthest: 0, busy: null };
    case 'started': {
      if (action.key !== state.key) return state;
      const sides = action.frames.map((frame, i) => {
        const first = action.first?.[i];
        const log = takeFrame(first && first.step < frame.step ? takeFrame(null, first) : null, frame);
        const trail = new CounterTrail(...(first ? [first] : []), frame);
        return { request: action.requests[i]!, frame, previous: null, trail, histories: log.histories, log };
      }) as [Side, Side];
      return { ...state, status: 'running', sides, error: null, furthest: action.frames[0].step };
    }
    case 'sent':
      return { ...state, inFlight: state.inFlight + 1 };
    case 'stepped': {
      if (!state.sides || state.status !== 'running') return state;
      const sides = state.sides.map((side, i) => {
        const frame = action.frames[i]!;
        const log = takeFrame(side.log, frame);
        return { ...side, previous: side.trail.moveTo(side.frame, frame), frame, histories: log.histories, log };
      }) as [Side, Side];
      const furthest = Math.max(state.furthest, Math.min(action.frames[0].step, action.frames[1].step));
      return { ...state, sides, furthest, inFlight: Math.max(0, state.inFlight - 1) };
    }
    case 'busy':
      return { ...state, busy: action.busy };
    case 'failed':
      return { ...state, status: 'failed', playing: false, error: action.error, inFlight: 0, busy: null };
    case 'playing':
      return state.status === 'running' ? { ...state, playing: action.playing } : state;
    case 'stopped':
      return IDLE;
  }
}

/** The step both sides are at (null until both are up). */
export function pairStep(state: LockstepState): number | null {
  if (!state.sides) return null;
  const [a, b] = state.sides;
  return a.frame.step === b.frame.step ? a.frame.step : null;
}

/** The counters whose values differ between the two frames, in the kernel's order. */
export function differingCounters(a: Frame, b: Frame): string[] {
  const other = new Map(b.counters.map((c) => [c.name, c.value]));
  return a.counters.filter((c) => other.get(c.name) !== c.value).map((c) => c.name);
}
