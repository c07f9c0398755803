// The page's simulation session: starts the engine worker, reads the
// scenario from the URL, keeps the URL in step with the running scenario,
// and turns the controls into worker commands. Commands that move the run
// (start, reset, step, step back, seek, run to the next event) go one after
// another, so each knows where the previous one left the run; a command of a
// run that has since been replaced (an "epoch" ago) is dropped, and so is
// its frame. The histories follow every frame, rebuilt when it goes back.
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { EngineClient } from './engine/client';
import { runEndAhead, tickSteps } from './controls/runEnd';
import { MAX_ADDRESS_CHARS, compactAddress, replaceAddressQuery, startingQuery } from './share/address';
import { errorMessage } from './engine/host';
import type { FolioHistory, Frame, ScenarioList, ScenarioRequest } from './engine/pkg/reclaim_core';
import type { Progress } from './engine/protocol';
import { checkRequest, completeRequest, defaultRequest, unknownParameter } from './scenario/presets';
import { decodeSharedLink } from './scenario/share';
import { LINK_PART_UNUSED } from './share/LinkProblems';
import { isCustomRequest } from './scenario/custom';
import { decodeScenarioUrl, encodeScenarioUrl, sameRun } from './scenario/url';
import { initialState, reducer, type SimulationState } from './simulationState';
import { goingToStep } from './util/format';
import { takeFrame, windowStart, type HistoryLog } from './views/history';

export type { Busy, Notice, SimulationState } from './simulationState';

/** Minimum wall time between two play ticks. */
export const TICK_MS = 120;

/** Play ticks of this many steps or more can be stopped part way (Pause). */
const STOPPABLE_TICK_STEPS = 100;

/**
 * The run in the address bar. One too long for the readable form goes in the
 * compact form Copy link makes (useAddressBar keeps it up to date once the
 * page is still); until that is written, or when even that cannot hold it,
 * the address holds no run rather than the last one.
 */
function writeUrl(request: ScenarioRequest): void {
  const query = encodeScenarioUrl(request);
  if (query.length <= MAX_ADDRESS_CHARS) {
    replaceAddressQuery(withTourKeys(query, request.name));
    return;
  }
  // A compact link to this same run (the one the page opened from) stays, with its step.
  const current = window.location.search;
  void decodeSharedLink(current).then((link) => {
    if (window.location.search !== current || (link.kind === 'ok' && sameRun(link.view.request, request))) return;
    replaceAddressQuery('');
    void compactAddress({ request, step: 0, tab: 'lru' }).then((packed) => window.location.search === '' && replaceAddressQuery(packed));
  });
}

/**
 * A tour link's keys (tour, tourStep) stay while a run of its experiment
 * starts: the tour writes its own once it is open (useTour), and until then,
 * or if its steps cannot be loaded, a reload needs them to open it again.
 */
function withTourKeys(query: string, scenario: string): string {
  const current = new URLSearchParams(window.location.search);
  if (current.get('tour') !== scenario) return query;
  const next = new URLSearchParams(query);
  next.set('tour', scenario);
  const step = current.get('tourStep');
  if (step !== null) next.set('tourStep', step);
  return `?${next.toString()}`;
}

export interface Simulation {
  state: SimulationState;
  /**
   * Restarts the engine with this request (from the form or the variant
   * switch), completed with the defaults it leaves out; falls back to the
   * default scenario on error. Settles once the engine runs it (or has
   * refused it); the frame is in the state by the next render. With `at`
   * (the variant switch: the other variant's run at the same step), the
   * run opens at that step without showing its step 0 first: it starts at
   * the step before, so the counters' Δ is the change over the last step,
   * as it was before the switch.
   */
  apply(request: ScenarioRequest, at?: number): Promise<void>;
  step(n: number): void;
  /** Back one step (nothing at step 0). */
  stepBack(): void;
  /**
   * To exactly this step, forwards or back; while one seek runs, only the
   * latest next target is kept. Settles when the seek that covers it has.
   */
  seek(step: number): Promise<void>;
  /**
   * Steps until an event of `kind` (see RUN_KINDS), at most `maxSteps`;
   * says so when there was none (`runEnd`: the limit is the scenario's run
   * end, that step, which the message names). Settles when the run has landed.
   */
  runUntil(kind: string, label: string, maxSteps: number, runEnd?: number): Promise<void>;
  /** Stops a long seek or run where it has got to (it lands there, and says nothing of what it did not find). */
  stop(): void;
  play(): void;
  pause(): void;
  reset(): void;
  dismiss(id: number): void;
  /** The refused custom scenario (state.rejected) is in the editor now: forget it. */
  takeRejected(): void;
  /** The recorded decisions about a tracked page, as of the last command sent (stable identity). */
  history(page: string): Promise<FolioHistory>;
}

/** A queued command: it gets the client and whether its run is still the current one. */
type Op = (client: EngineClient, current: () => boolean, progress: (label: string) => (p: Progress) => void) => Promise<void>;

export function useSimulation(speed: number): Simulation {
  const [state, dispatch] = useReducer(reducer, initialState);
  const clientRef = useRef<EngineClient | null>(null);
  const scenariosRef = useRef<ScenarioList | null>(null);
  const epochRef = useRef(0);
  const speedRef = useRef(speed);
  const requestRef = useRef<ScenarioRequest | null>(null);
  /** The histories and the frames they came from; its last frame is the one shown. */
  const logRef = useRef<HistoryLog | null>(null);
  const chainRef = useRef<Promise<void>>(Promise.resolve());
  /** The latest seek target not yet sent (scrubbing sends only the newest). */
  const seekRef = useRef<number | null>(null);
  /** The queued seek that will go to `seekRef`'s target. */
  const seekOpRef = useRef<Promise<void>>(Promise.resolve());
  /** Set by stop(): the long command in flight was stopped, not finished. */
  const stoppedRef = useRef(false);
  /** The scenario's duration in steps (Frame.durationSteps) of the run shown, where Play pauses. */
  const runEndRef = useRef<number | undefined>(undefined);
  useEffect(() => {
    speedRef.current = speed;
  }, [speed]);

  /** Queues `op` behind every command queued before it; skipped if its run has been replaced by then. */
  const enqueue = useCallback((what: string, op: Op): Promise<void> => {
    const epoch = epochRef.current;
    const current = () => epochRef.current === epoch;
    const run = async () => {
      const client = clientRef.current;
      if (!client || !current()) return;
      let reported = false;
      const progress = (label: string) => (p: Progress) => {
        if (!current()) return;
        reported = true;
        dispatch({ type: 'busy', busy: { label, ...p } });
      };
      try {
        await op(client, () => current() && clientRef.current === client, progress);
      } catch (error) {
        if (!current()) return;
        dispatch({ type: 'playing', playing: false });
        dispatch({ type: 'alert', message: `${what} failed: ${errorMessage(error)}` });
      } finally {
        if (reported) dispatch({ type: 'busy', busy: null });
      }
    };
    const next = chainRef.current.then(run);
    chainRef.current = next;
    return next;
  }, []);

  /** Shows a frame of the running run; the histories follow it. */
  const land = useCallback((frame: Frame) => {
    runEndRef.current = frame.durationSteps;
    logRef.current = takeFrame(logRef.current, frame);
    dispatch({ type: 'moved', frame, histories: logRef.current.histories });
  }, []);

  const startWith = useCallback((request: ScenarioRequest, frame: Frame) => {
    runEndRef.current = frame.durationSteps;
    logRef.current = takeFrame(null, frame);
    requestRef.current = request;
    dispatch({ type: 'started', request, frame, histories: logRef.current.histories });
  }, []);

  /** Stops the long seek or run in flight, if any, where it has got to. */
  const stop = useCallback(() => {
    stoppedRef.current = true;
    seekRef.current = null;
    clientRef.current?.stopLong();
  }, []);

  /** Starts a new engine; on an engine error shows it and runs the default scenario instead. */
  const start = useCallback(
    (request: ScenarioRequest, at = 0) => {
      // A long seek or run of the run being replaced would hold the new one up.
      clientRef.current?.stopLong();
      epochRef.current++;
      seekRef.current = null;
      dispatch({ type: 'playing', playing: false });
      return enqueue('Start', async (client, current, progress) => {
        const scenarios = scenariosRef.current;
        if (!scenarios) return;
        let asked = request;
        let frame: Frame;
        for (;;) {
          try {
            frame = await client.init(asked);
            // The engine runs this request now: a Reset clicked from here on resets it as such.
            requestRef.current = asked;
            break;
          } catch (error) {
            if (!current()) return;
            const fallback = defaultRequest(scenarios);
            if (encodeScenarioUrl(fallback) === encodeScenarioUrl(asked)) {
              dispatch({ type: 'fatal', message: `The default scenario does not start: ${errorMessage(error)}` });
              return;
            }
            // A custom scenario (a link's) goes to the editor, where its problems are marked and can be fixed.
            const custom = isCustomRequest(asked);
            dispatch({
              type: 'alert',
              // The engine names the field; "scenario: unknown scenario …" would say it twice.
              message:
                `The engine rejected this scenario: ${errorMessage(error).replace(/^scenario: /, '')}. Running the default scenario, ${fallback.name}, instead` +
                (custom ? '; the scenario is in the editor, its problems marked, to fix and run.' : '.'),
            });
            if (custom) dispatch({ type: 'rejected', request: asked });
            asked = fallback;
          }
        }
        if (!current()) return;
        // Only the run asked for opens at `at` (the default it falls back to starts at 0): at the step
        // before, shown progress and stoppable as any long move, then the step itself.
        const opening = asked === request && at > 0;
        let failure: unknown = null;
        if (opening) {
          try {
            stoppedRef.current = false;
            frame = await client.seek(at - 1, windowStart(null, at - 1), progress(goingToStep(at)));
          } catch (error) {
            failure = error;
          }
          if (!current()) return;
        }
        startWith(asked, frame);
        writeUrl(asked);
        if (failure !== null) {
          dispatch({ type: 'alert', message: `${goingToStep(at)} failed: ${errorMessage(failure)}. The run stays at step ${frame.step.toLocaleString('en-US')}.` });
          return;
        }
        // Stopped on the way (Stop, Escape): it stays where it got to.
        if (!opening || frame.step < at - 1 || stoppedRef.current) return;
        const last = await client.seek(at, at - 1);
        if (current()) land(last);
      });
    },
    [enqueue, startWith, land],
  );

  // Boot: worker, scenario list, the URL's scenario.
  useEffect(() => {
    const client = EngineClient.start();
    clientRef.current = client;
    client.ready.then(
      (scenarios) => {
        if (clientRef.current !== client) return;
        scenariosRef.current = scenarios;
        dispatch({ type: 'loaded', scenarios });
        const decoded = decodeScenarioUrl(startingQuery(), scenarios.defaultScenario, (name, key, value) => unknownParameter(scenarios, name, key, value));
        // Each bad value falls back on its own (the scenario and the rest of the link stay).
        const checked = checkRequest(scenarios, decoded.request);
        const problems = [...(decoded.ok ? [] : decoded.errors), ...checked.problems];
        // One notice, in the form of the other link notices.
        const heading = !decoded.ok && decoded.whole ? 'This link cannot be opened' : LINK_PART_UNUSED;
        if (problems.length > 0) dispatch({ type: 'link-problems', heading, problems });
        void start(completeRequest(scenarios, checked.request));
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

  /** The step of the frame shown (the last one taken in). */
  const shownStep = () => logRef.current?.histories.step ?? 0;

  const stepBy = useCallback(
    (n: number): Promise<void> =>
      enqueue('Step', async (client, current) => {
        const frame = await client.step(n);
        if (current()) land(frame);
      }),
    [enqueue, land],
  );

  /**
   * A play tick of `n` steps: a tick of many steps (which can take a second)
   * goes as a stoppable move, so that Pause stops it where it has got to
   * instead of showing it land after the pause.
   */
  const playTick = useCallback(
    (n: number): Promise<void> => {
      if (n < STOPPABLE_TICK_STEPS) return stepBy(n);
      return enqueue('Step', async (client, current) => {
        const from = shownStep();
        const frame = await client.seek(from + n, from, () => {});
        if (current()) land(frame);
      });
    },
    [enqueue, land, stepBy],
  );

  // Play: one command in flight at a time, at most one tick per TICK_MS; it
  // pauses once at the run's end (the step an experiment's figures are taken
  // at), and goes on past it when played again there.
  useEffect(() => {
    if (!state.playing) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = runEndAhead(shownStep(), runEndRef.current);
    const tick = () => {
      const began = performance.now();
      void playTick(tickSteps(speedRef.current, shownStep(), end)).then(() => {
        if (stopped) return;
        if (end !== null && shownStep() >= end) {
          dispatch({ type: 'playing', playing: false });
          return;
        }
        timer = setTimeout(tick, Math.max(0, TICK_MS - (performance.now() - began)));
      });
    };
    tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [state.playing, playTick]);

  const stepBack = useCallback(() => {
    dispatch({ type: 'playing', playing: false });
    void enqueue('Step back', async (client, current) => {
      const at = shownStep();
      if (at === 0) return;
      const frame = await client.stepBack(windowStart(logRef.current, at - 1));
      if (current()) land(frame);
    });
  }, [enqueue, land]);

  const seek = useCallback(
    (step: number) => {
      dispatch({ type: 'playing', playing: false });
      const queued = seekRef.current !== null;
      seekRef.current = step;
      if (queued) return seekOpRef.current;
      seekOpRef.current = enqueue('Seek', async (client, current, progress) => {
        const to = seekRef.current;
        seekRef.current = null;
        if (to === null || to === shownStep()) return;
        stoppedRef.current = false;
        const since = windowStart(logRef.current, to);
        const frame = await client.seek(to, since, progress(goingToStep(to)));
        if (current()) land(frame);
      });
      return seekOpRef.current;
    },
    [enqueue, land],
  );

  const runUntil = useCallback(
    (kind: string, label: string, maxSteps: number, runEnd?: number) => {
      dispatch({ type: 'playing', playing: false });
      return enqueue('Run', async (client, current, progress) => {
        stoppedRef.current = false;
        const result = await client.runUntil(kind, maxSteps, shownStep(), progress(`Running to the next ${label}`));
        if (!current()) return;
        land(result.frame);
        if (result.found) dispatch({ type: 'found', kind, step: result.frame.step });
        if (!result.found && !stoppedRef.current) {
          const at = result.frame.step.toLocaleString('en-US');
          const message =
            runEnd !== undefined && result.frame.step === runEnd
              ? `No ${label} before the run's end: stopped there, at step ${at}. Run to next again goes on past it.`
              : `No ${label} in ${maxSteps.toLocaleString('en-US')} steps: stopped at step ${at}.`;
          dispatch({ type: 'alert', message, atStep: result.frame.step });
        }
      });
    },
    [enqueue, land],
  );

  const reset = useCallback(() => {
    if (!requestRef.current) return;
    clientRef.current?.stopLong();
    epochRef.current++;
    seekRef.current = null;
    dispatch({ type: 'playing', playing: false });
    void enqueue('Reset', async (client, current) => {
      // The request of the run the engine holds when the reset gets its turn (a start queued before it may have changed it).
      const request = requestRef.current!;
      const frame = await client.reset();
      if (current()) startWith(request, frame);
    });
  }, [enqueue, startWith]);

  const apply = useCallback(
    (request: ScenarioRequest, at?: number) => {
      const scenarios = scenariosRef.current;
      return start(scenarios ? completeRequest(scenarios, request) : request, at);
    },
    [start],
  );
  const step = useCallback((n: number) => void stepBy(n), [stepBy]);
  const play = useCallback(() => dispatch({ type: 'playing', playing: true }), []);
  const pause = useCallback(() => {
    dispatch({ type: 'playing', playing: false });
    // A many-step tick in flight stops where it has got to.
    if (speedRef.current >= STOPPABLE_TICK_STEPS) clientRef.current?.stopLong();
  }, []);
  const dismiss = useCallback((id: number) => dispatch({ type: 'dismiss', id }), []);
  const takeRejected = useCallback(() => dispatch({ type: 'rejected', request: null }), []);
  const history = useCallback((page: string): Promise<FolioHistory> => {
    const client = clientRef.current;
    return client ? client.history(page) : Promise.reject(new Error('the engine is not running'));
  }, []);
  return useMemo(
    () => ({ state, apply, step, stepBack, seek, runUntil, stop, play, pause, reset, dismiss, takeRejected, history }),
    [state, apply, step, stepBack, seek, runUntil, stop, play, pause, reset, dismiss, takeRejected, history],
  );
}
