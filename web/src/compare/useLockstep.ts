// Two engines in lock step: each side of compare mode runs in a worker of
// its own (so neither waits for the other, nor for the page's own engine),
// every command goes to both, and the two frames it yields are shown
// together. Steps forward, steps back and seeks go one after another, each
// from where the previous one left the pair. Started when compare mode
// opens, stopped when it closes.
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { EngineClient } from '../engine/client';
import { errorMessage } from '../engine/host';
import { MAX_STEPS_PER_COMMAND } from '../engine/protocol';
import type { Frame, ScenarioRequest } from '../engine/pkg/reclaim_core';
import type { Progress } from '../engine/protocol';
import { runEndAhead, tickSteps } from '../controls/runEnd';
import { goingToStep } from '../util/format';
import { windowStart } from '../views/history';
import { IDLE, lockstepReducer, runKey, type LockstepState } from './lockstep';

/** Minimum wall time between two play ticks (as the page's own player). */
const TICK_MS = 120;

export interface Lockstep {
  state: LockstepState;
  /** (Re)starts both engines on these runs, stepped to `step`. */
  start(requests: [ScenarioRequest, ScenarioRequest], step: number): void;
  step(n: number): void;
  /** Both sides back one step (nothing at step 0). */
  stepBack(): void;
  /** Both sides to exactly this step, forwards or back; while one seek runs, only the latest next target is kept. */
  seek(step: number): void;
  play(): void;
  pause(): void;
  /** Both sides back to step 0. */
  reset(): void;
  /** Stops both engines. */
  stop(): void;
  /** Stops a long seek where it has got to; the side ahead comes back to the other's step. */
  halt(): void;
}

type Pair = [EngineClient, EngineClient];

/** Sends `steps` steps to a client in commands of at most MAX_STEPS_PER_COMMAND; the last frame. */
async function stepTo(client: EngineClient, steps: number, frame: Frame): Promise<Frame> {
  let last = frame;
  for (let left = steps; left > 0; left -= MAX_STEPS_PER_COMMAND) last = await client.step(Math.min(left, MAX_STEPS_PER_COMMAND));
  return last;
}

export function useLockstep(speed: number): Lockstep {
  const [state, dispatch] = useReducer(lockstepReducer, IDLE);
  const clientsRef = useRef<Pair | null>(null);
  const epochRef = useRef(0);
  /** The epoch whose engines are up (stepping waits for them). */
  const readyRef = useRef(-1);
  const requestsRef = useRef<[ScenarioRequest, ScenarioRequest] | null>(null);
  const speedRef = useRef(speed);
  useEffect(() => {
    speedRef.current = speed;
  }, [speed]);
  /** Moves of the pair, one after another. */
  const chainRef = useRef<Promise<unknown>>(Promise.resolve());
  /** The step of the last pair of frames taken in (ahead of the rendered state while moves are queued). */
  const atRef = useRef(0);
  /** The latest seek target not yet sent (scrubbing sends only the newest). */
  const seekRef = useRef<number | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;

  const stop = useCallback(() => {
    epochRef.current++;
    seekRef.current = null;
    clientsRef.current?.forEach((c) => c.dispose());
    clientsRef.current = null;
    requestsRef.current = null;
    dispatch({ type: 'stopped' });
  }, []);
  useEffect(() => stop, [stop]);

  const start = useCallback((requests: [ScenarioRequest, ScenarioRequest], step: number) => {
    const epoch = ++epochRef.current;
    seekRef.current = null;
    const key = runKey(requests);
    requestsRef.current = requests;
    dispatch({ type: 'starting', key });
    const clients = (clientsRef.current ??= [EngineClient.start(), EngineClient.start()]);
    Promise.all(clients.map((c, i) => c.init(requests[i]!).then(async (f) => [f, await stepTo(c, step, f)] as const))).then(
      (pairs) => {
        if (epochRef.current !== epoch) return;
        readyRef.current = epoch;
        const frames = pairs.map(([, f]) => f) as [Frame, Frame];
        atRef.current = frames[0].step;
        dispatch({ type: 'started', key, requests, frames, first: pairs.map(([f]) => f) as [Frame, Frame] });
      },
      (error: unknown) => {
        if (epochRef.current !== epoch) return;
        // A worker that failed is no use for the next start either.
        clientsRef.current?.forEach((c) => c.dispose());
        clientsRef.current = null;
        dispatch({ type: 'failed', error: errorMessage(error) });
      },
    );
  }, []);

  /** Where the window of a frame of `step` should start (windowStart: the side's frame shown at or before it). */
  const sinceFor = (side: number, step: number) => windowStart(stateRef.current.sides?.[side]?.log ?? null, step);

  /**
   * Queues a move of both sides behind the moves queued before it: `send`
   * gives each client its command, given the step the pair is at (null: no
   * move); skipped if the engines have been restarted by then.
   */
  const moveBoth = useCallback(
    (what: string, send: (client: EngineClient, side: number, at: number) => Promise<Frame> | null): Promise<void> => {
      const clients = clientsRef.current;
      const epoch = epochRef.current;
      if (!clients || readyRef.current !== epoch) return Promise.resolve();
      const run = async () => {
        if (epochRef.current !== epoch) return;
        const sent = clients.map((c, i) => send(c, i, atRef.current));
        if (sent.some((p) => p === null)) return;
        dispatch({ type: 'sent' });
        try {
          const frames = (await Promise.all(sent)) as [Frame, Frame];
          if (epochRef.current !== epoch) return;
          // A halted seek leaves each side where it got to: the one ahead goes back to the other.
          const low = Math.min(frames[0].step, frames[1].step);
          for (const side of [0, 1] as const) {
            if (frames[side].step !== low) frames[side] = await clients[side].seek(low, sinceFor(side, low));
          }
          if (epochRef.current !== epoch) return;
          atRef.current = frames[0].step;
          dispatch({ type: 'stepped', frames });
        } catch (error) {
          if (epochRef.current === epoch) dispatch({ type: 'failed', error: `${what} failed: ${errorMessage(error)}` });
          throw error;
        }
      };
      const next = chainRef.current.then(run);
      chainRef.current = next.catch(() => {});
      return next;
    },
    [],
  );

  const stepBoth = useCallback((n: number): Promise<void> => moveBoth('Step', (c) => c.step(n)), [moveBoth]);


  const stepBack = useCallback(() => {
    dispatch({ type: 'playing', playing: false });
    void moveBoth('Step back', (c, side, at) => (at === 0 ? null : c.stepBack(sinceFor(side, at - 1)))).catch(() => {});
  }, [moveBoth]);

  const seek = useCallback(
    (step: number) => {
      dispatch({ type: 'playing', playing: false });
      const queued = seekRef.current !== null;
      seekRef.current = step;
      if (queued) return;
      const done: [number, number] = [0, 0];
      let total = 0;
      /** The target, read when the move runs (the newest by then). */
      let to: number | null | undefined;
      const progress = (side: number) => (p: Progress) => {
        done[side] = p.done;
        total = p.total;
        dispatch({ type: 'busy', busy: { label: goingToStep(to ?? step), done: Math.min(...done), total } });
      };
      void moveBoth('Seek', (c, side, at) => {
        if (to === undefined) {
          to = seekRef.current;
          seekRef.current = null;
        }
        if (to === null || to === at) return null;
        return c.seek(to, sinceFor(side, to), progress(side));
      })
        .catch(() => {})
        .finally(() => total > 0 && dispatch({ type: 'busy', busy: null }));
    },
    [moveBoth],
  );

  // Play: one pair of commands in flight at a time, at most one tick per TICK_MS; it pauses once at
  // the run's end (the step an experiment's figures are taken at), as the page's own player does,
  // and goes on past it when played again there.
  useEffect(() => {
    if (!state.playing) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = runEndAhead(atRef.current, stateRef.current.sides?.[0]?.frame.durationSteps);
    const tick = () => {
      const began = performance.now();
      stepBoth(tickSteps(speedRef.current, atRef.current, end)).then(
        () => {
          if (stopped) return;
          if (end !== null && atRef.current >= end) {
            dispatch({ type: 'playing', playing: false });
            return;
          }
          timer = setTimeout(tick, Math.max(0, TICK_MS - (performance.now() - began)));
        },
        () => {},
      );
    };
    tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [state.playing, stepBoth]);

  const step = useCallback((n: number) => void stepBoth(n).catch(() => {}), [stepBoth]);
  const play = useCallback(() => dispatch({ type: 'playing', playing: true }), []);
  const pause = useCallback(() => dispatch({ type: 'playing', playing: false }), []);
  const reset = useCallback(() => {
    if (requestsRef.current) start(requestsRef.current, 0);
  }, [start]);

  const halt = useCallback(() => {
    seekRef.current = null;
    clientsRef.current?.forEach((c) => c.stopLong());
  }, []);

  return useMemo(
    () => ({ state, start, step, stepBack, seek, play, pause, reset, stop, halt }),
    [state, start, step, stepBack, seek, play, pause, reset, stop, halt],
  );
}
