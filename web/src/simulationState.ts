// The session's state and its reducer (useSimulation.ts drives them): the
// running request, the frame shown and the one before it, the histories the
// views draw over time, play, the furthest step reached, a long command's
// progress, and the notices shown to the user. DOM-free.
import type { Counter, Frame, ScenarioList, ScenarioRequest } from './engine/pkg/reclaim_core';
import type { FrameHistories } from './views/history';

const MAX_ALERTS = 6;
/** The most steps whose counters the trail keeps (some 50 counters each). */
const MAX_TRAIL = 100_000;

/** A frame's step and counters: what the counters' Δ compares with. */
export type CountersAt = Pick<Frame, 'step' | 'counters'>;

/**
 * The counters of the steps this run has shown, by step: a step's counters
 * are the same however the run got there (the engine is deterministic), so
 * after a step back, a scrub or a jump the Δ compares with the step before
 * when it was shown. Append-only for one run (a new run starts a new
 * trail), so adding the same step twice, as a replayed reducer does, is
 * harmless.
 */
export class CounterTrail {
  private readonly byStep = new Map<number, readonly Counter[]>();

  /** A trail holding the frames a run starts with. */
  constructor(...frames: CountersAt[]) {
    for (const frame of frames) this.remember(frame);
  }

  remember(frame: CountersAt): void {
    if (this.byStep.size >= MAX_TRAIL && !this.byStep.has(frame.step)) this.byStep.clear();
    this.byStep.set(frame.step, frame.counters);
  }

  at(step: number): CountersAt | null {
    const counters = this.byStep.get(step);
    return counters ? { step, counters: counters as Counter[] } : null;
  }

  /**
   * Remembers `frame`, the frame shown after `shown`, and returns what its
   * counters' Δ compares with: `shown` when `frame` came after it, else the
   * step before `frame` if it was shown.
   */
  moveTo(shown: CountersAt | null, frame: CountersAt): CountersAt | null {
    this.remember(frame);
    return shown !== null && frame.step > shown.step ? shown : this.at(frame.step - 1);
  }
}

export interface Notice {
  id: number;
  message: string;
  /**
   * A notice about a link: its heading ("Part of this link was not used as
   * written"), with `problems` listed under it as the other link notices
   * list theirs; `message` is the heading then.
   */
  problems?: string[];
  /**
   * For a notice about where the run stopped ("No OOM kill in 10,000
   * steps"): the step it speaks of. It goes once the run is elsewhere, or
   * starts again; notices without it stay until dismissed.
   */
  atStep?: number;
}

/** A long seek or run in progress: `done` of `total` steps. */
export interface Busy {
  label: string;
  done: number;
  total: number;
}

export interface SimulationState {
  phase: 'loading' | 'running' | 'failed';
  scenarios: ScenarioList | null;
  /** The request the engine is running (also what the URL says). */
  request: ScenarioRequest | null;
  frame: Frame | null;
  /**
   * What the counters' Δ compares with: the frame shown before `frame` when
   * `frame` came after it, else (after going back) the step before
   * `frame` if this run has shown it; null right after a start or reset.
   */
  previous: CountersAt | null;
  /** The counters of every step this run has shown. */
  trail: CounterTrail;
  /** What the views keep over time (series over the last frames), for `frame`'s run. */
  histories: FrameHistories | null;
  /** The furthest step this run has reached (the end of the timeline). */
  furthest: number;
  playing: boolean;
  /** A long seek or run the engine is busy with. */
  busy: Busy | null;
  /** Problems reported to the user (bad URL values, engine errors); the app keeps working. */
  alerts: Notice[];
  /** Where the last Run to next found its event, and of which kind (the event list marks it while the run is there). */
  found: { kind: string; step: number } | null;
  /** Why the app cannot run at all (engine failed to load). */
  fatal: string | null;
  /** A custom scenario (a link's) the engine refused to run: the editor opens on it, its problems marked. */
  rejected: ScenarioRequest | null;
}

export type Action =
  | { type: 'loaded'; scenarios: ScenarioList }
  | { type: 'started'; request: ScenarioRequest; frame: Frame; histories: FrameHistories }
  /** A frame of the running run, after a step, a seek, a step back or a run. */
  | { type: 'moved'; frame: Frame; histories: FrameHistories }
  | { type: 'busy'; busy: Busy | null }
  | { type: 'alert'; message: string; atStep?: number }
  /** One notice with a heading over a link's problems. */
  | { type: 'link-problems'; heading: string; problems: string[] }
  | { type: 'found'; kind: string; step: number }
  | { type: 'dismiss'; id: number }
  | { type: 'playing'; playing: boolean }
  | { type: 'fatal'; message: string }
  | { type: 'rejected'; request: ScenarioRequest | null };

export const initialState: SimulationState = {
  phase: 'loading',
  scenarios: null,
  request: null,
  frame: null,
  previous: null,
  trail: new CounterTrail(),
  histories: null,
  furthest: 0,
  playing: false,
  busy: null,
  alerts: [],
  found: null,
  fatal: null,
  rejected: null,
};

let noticeId = 0;

/** The notices that still hold once the run shows `step` (null: a new start). */
function stillTrue(alerts: Notice[], step: number | null): Notice[] {
  const kept = alerts.filter((a) => a.atStep === undefined || a.atStep === step);
  return kept.length === alerts.length ? alerts : kept;
}

export function reducer(state: SimulationState, action: Action): SimulationState {
  switch (action.type) {
    case 'loaded':
      return { ...state, scenarios: action.scenarios };
    case 'started':
      return {
        ...state,
        phase: 'running',
        request: action.request,
        frame: action.frame,
        previous: null,
        trail: new CounterTrail(action.frame),
        histories: action.histories,
        furthest: action.frame.step,
        playing: false,
        alerts: stillTrue(state.alerts, null),
        found: null,
      };
    case 'moved':
      return {
        ...state,
        previous: state.trail.moveTo(state.frame, action.frame),
        frame: action.frame,
        histories: action.histories,
        furthest: Math.max(state.furthest, action.frame.step),
        alerts: stillTrue(state.alerts, action.frame.step),
      };
    case 'busy':
      // A long move starting: a notice about where the last one stopped goes (it would sit under the progress).
      return { ...state, busy: action.busy, alerts: action.busy ? stillTrue(state.alerts, null) : state.alerts };
    case 'alert': {
      const { message, atStep } = action;
      const added: Notice = atStep === undefined ? { id: ++noticeId, message } : { id: ++noticeId, message, atStep };
      return { ...state, alerts: [...state.alerts, added].slice(-MAX_ALERTS) };
    }
    case 'link-problems':
      return { ...state, alerts: [...state.alerts, { id: ++noticeId, message: action.heading, problems: action.problems }].slice(-MAX_ALERTS) };
    case 'rejected':
      return { ...state, rejected: action.request };
    case 'found':
      return { ...state, found: { kind: action.kind, step: action.step } };
    case 'dismiss':
      return { ...state, alerts: state.alerts.filter((a) => a.id !== action.id) };
    case 'playing':
      return state.phase === 'running' ? { ...state, playing: action.playing } : state;
    case 'fatal':
      return { ...state, phase: 'failed', playing: false, busy: null, fatal: action.message };
  }
}
