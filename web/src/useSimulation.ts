// The page's simulation session: starts the engine worker, reads the
// scenario from the URL, keeps the URL in step with the running scenario,
// and turns the controls into worker commands. Frames from an engine that
// has since been replaced (an "epoch" ago) are dropped.
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { EngineClient } from './engine/client';
import { errorMessage } from './engine/host';
import type { FolioHistory, Frame, ScenarioList, ScenarioRequest } from './engine/pkg/reclaim_core';
import { completeRequest, defaultRequest } from './scenario/presets';
import { decodeScenarioUrl, encodeScenarioUrl } from './scenario/url';
import { advanceHistories, type FrameHistories } from './views/history';

/** Minimum wall time between two play ticks. */
export const TICK_MS = 120;
const MAX_ALERTS = 6;

export interface Notice {
  id: number;
  message: string;
}

export interface SimulationState {
  phase: 'loading' | 'running' | 'failed';
  scenarios: ScenarioList | null;
  /** The request the engine is running (also what the URL says). */
  request: ScenarioRequest | null;
  frame: Frame | null;
  /** The frame shown before `frame` (null right after a start or reset). */
  previous: Frame | null;
  /** What the views keep over time (series over the last frames), for `frame`'s run. */
  histories: FrameHistories | null;
  playing: boolean;
  /** Problems reported to the user (bad URL values, engine errors); the app keeps working. */
  alerts: Notice[];
  /** Why the app cannot run at all (engine failed to load). */
  fatal: string | null;
}

type Action =
  | { type: 'loaded'; scenarios: ScenarioList }
  | { type: 'started'; request: ScenarioRequest; frame: Frame }
  | { type: 'stepped'; frame: Frame }
  | { type: 'alert'; messages: string[] }
  | { type: 'dismiss'; id: number }
  | { type: 'playing'; playing: boolean }
  | { type: 'fatal'; message: string };

const initialState: SimulationState = {
  phase: 'loading',
  scenarios: null,
  request: null,
  frame: null,
  previous: null,
  histories: null,
  playing: false,
  alerts: [],
  fatal: null,
};

let noticeId = 0;

function reducer(state: SimulationState, action: Action): SimulationState {
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
        histories: advanceHistories(null, action.frame),
        playing: false,
      };
    case 'stepped':
      return {
        ...state,
        previous: state.frame,
        frame: action.frame,
        histories: advanceHistories(state.histories, action.frame),
      };
    case 'alert': {
      const added = action.messages.map((message) => ({ id: ++noticeId, message }));
      return { ...state, alerts: [...state.alerts, ...added].slice(-MAX_ALERTS) };
    }
    case 'dismiss':
      return { ...state, alerts: state.alerts.filter((a) => a.id !== action.id) };
    case 'playing':
      return state.phase === 'running' ? { ...state, playing: action.playing } : state;
    case 'fatal':
      return { ...state, phase: 'failed', playing: false, fatal: action.message };
  }
}

function writeUrl(request: ScenarioRequest): void {
  const url = `${window.location.pathname}${encodeScenarioUrl(request)}${window.location.hash}`;
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    window.history.replaceState(window.history.state, '', url);
  }
}

export interface Simulation {
  state: SimulationState;
  /**
   * Restarts the engine with this request (from the form or the variant
   * switch), completed with the defaults it leaves out; falls back to the
   * default scenario on error.
   */
  apply(request: ScenarioRequest): void;
  step(n: number): void;
  play(): void;
  pause(): void;
  reset(): void;
  dismiss(id: number): void;
  /** The recorded decisions about a tracked page, as of the last command sent (stable identity). */
  history(page: string): Promise<FolioHistory>;
}

export function useSimulation(speed: number): Simulation {
  const [state, dispatch] = useReducer(reducer, initialState);
  const clientRef = useRef<EngineClient | null>(null);
  const scenariosRef = useRef<ScenarioList | null>(null);
  const epochRef = useRef(0);
  const speedRef = useRef(speed);
  useEffect(() => {
    speedRef.current = speed;
  }, [speed]);

  /** Starts a new engine; on an engine error shows it and runs the default scenario instead. */
  const start = useCallback(async (request: ScenarioRequest) => {
    const client = clientRef.current;
    const scenarios = scenariosRef.current;
    if (!client || !scenarios) return;
    const epoch = ++epochRef.current;
    dispatch({ type: 'playing', playing: false });
    const current = () => clientRef.current === client && epochRef.current === epoch;
    try {
      const frame = await client.init(request);
      if (!current()) return;
      dispatch({ type: 'started', request, frame });
      writeUrl(request);
    } catch (error) {
      if (!current()) return;
      const fallback = defaultRequest(scenarios);
      if (encodeScenarioUrl(fallback) === encodeScenarioUrl(request)) {
        dispatch({ type: 'fatal', message: `The default scenario does not start: ${errorMessage(error)}` });
        return;
      }
      dispatch({
        type: 'alert',
        messages: [`The engine rejected this scenario: ${errorMessage(error)}. Running the default scenario instead.`],
      });
      await start(fallback);
    }
  }, []);

  // Boot: worker, scenario list, the URL's scenario.
  useEffect(() => {
    const client = EngineClient.start();
    clientRef.current = client;
    client.ready.then(
      (scenarios) => {
        if (clientRef.current !== client) return;
        scenariosRef.current = scenarios;
        dispatch({ type: 'loaded', scenarios });
        const decoded = decodeScenarioUrl(window.location.search, scenarios.defaultScenario);
        if (!decoded.ok) dispatch({ type: 'alert', messages: decoded.errors.map((e) => `Bad value in the URL — ${e}.`) });
        void start(completeRequest(scenarios, decoded.request));
      },
      (error: unknown) => {
        if (clientRef.current === client) dispatch({ type: 'fatal', message: errorMessage(error) });
      },
    );
    return () => {
      clientRef.current = null;
      epochRef.current++;
      client.dispose();
    };
  }, [start]);

  const stepBy = useCallback((n: number): Promise<void> => {
    const client = clientRef.current;
    if (!client) return Promise.resolve();
    const epoch = epochRef.current;
    return client.step(n).then(
      (frame) => {
        if (epochRef.current === epoch) dispatch({ type: 'stepped', frame });
      },
      (error: unknown) => {
        if (epochRef.current !== epoch) return;
        dispatch({ type: 'playing', playing: false });
        dispatch({ type: 'alert', messages: [`Step failed: ${errorMessage(error)}`] });
        throw error;
      },
    );
  }, []);

  // Play: one command in flight at a time, at most one tick per TICK_MS.
  useEffect(() => {
    if (!state.playing) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const began = performance.now();
      stepBy(speedRef.current).then(
        () => {
          if (!stopped) timer = setTimeout(tick, Math.max(0, TICK_MS - (performance.now() - began)));
        },
        () => {},
      );
    };
    tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [state.playing, stepBy]);

  const reset = useCallback(() => {
    const client = clientRef.current;
    if (!client) return;
    const epoch = ++epochRef.current;
    dispatch({ type: 'playing', playing: false });
    client.reset().then(
      (frame) => {
        if (epochRef.current === epoch && state.request) dispatch({ type: 'started', request: state.request, frame });
      },
      (error: unknown) => {
        if (epochRef.current === epoch) dispatch({ type: 'alert', messages: [`Reset failed: ${errorMessage(error)}`] });
      },
    );
  }, [state.request]);

  const apply = useCallback(
    (request: ScenarioRequest) => {
      const scenarios = scenariosRef.current;
      void start(scenarios ? completeRequest(scenarios, request) : request);
    },
    [start],
  );
  const step = useCallback((n: number) => void stepBy(n).catch(() => {}), [stepBy]);
  const play = useCallback(() => dispatch({ type: 'playing', playing: true }), []);
  const pause = useCallback(() => dispatch({ type: 'playing', playing: false }), []);
  const dismiss = useCallback((id: number) => dispatch({ type: 'dismiss', id }), []);
  const history = useCallback((page: string): Promise<FolioHistory> => {
    const client = clientRef.current;
    return client ? client.history(page) : Promise.reject(new Error('the engine is not running'));
  }, []);
  return useMemo(
    () => ({ state, apply, step, play, pause, reset, dismiss, history }),
    [state, apply, step, play, pause, reset, dismiss, history],
  );
}
