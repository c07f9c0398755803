// Two engines in lock step: each side of compare mode runs in a worker of
// its own (so neither waits for the other, nor for the page's own engine),
// every command goes to both, and the two frames it yields are shown
// together. Started when compare mode opens, stopped when it closes.
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { EngineClient } from '../engine/client';
import { errorMessage } from '../engine/host';
import { MAX_STEPS_PER_COMMAND } from '../engine/protocol';
import type { Frame, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { IDLE, lockstepReducer, runKey, type LockstepState } from './lockstep';

/** Minimum wall time between two play ticks (as the page's own player). */
const TICK_MS = 120;

export interface Lockstep {
  state: LockstepState;
  /** (Re)starts both engines on these runs, stepped to `step`. */
  start(requests: [ScenarioRequest, ScenarioRequest], step: number): void;
  step(n: number): void;
  play(): void;
  pause(): void;
  /** Both sides back to step 0. */
  reset(): void;
  /** Stops both engines. */
  stop(): void;
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

  const stop = useCallback(() => {
    epochRef.current++;
    clientsRef.current?.forEach((c) => c.dispose());
    clientsRef.current = null;
    requestsRef.current = null;
    dispatch({ type: 'stopped' });
  }, []);
  useEffect(() => stop, [stop]);

  const start = useCallback((requests: [ScenarioRequest, ScenarioRequest], step: number) => {
    const epoch = ++epochRef.current;
    const key = runKey(requests);
    requestsRef.current = requests;
    dispatch({ type: 'starting', key });
    const clients = (clientsRef.current ??= [EngineClient.start(), EngineClient.start()]);
    Promise.all(clients.map((c, i) => c.init(requests[i]!).then((f) => stepTo(c, step, f)))).then(
      (frames) => {
        if (epochRef.current !== epoch) return;
        readyRef.current = epoch;
        dispatch({ type: 'started', key, requests, frames: frames as [Frame, Frame] });
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

  const stepBoth = useCallback((n: number): Promise<void> => {
    const clients = clientsRef.current;
    const epoch = epochRef.current;
    if (!clients || readyRef.current !== epoch) return Promise.resolve();
    dispatch({ type: 'sent' });
    return Promise.all(clients.map((c) => c.step(n))).then(
      (frames) => {
        if (epochRef.current === epoch) dispatch({ type: 'stepped', frames: frames as [Frame, Frame] });
      },
      (error: unknown) => {
        if (epochRef.current === epoch) dispatch({ type: 'failed', error: `Step failed: ${errorMessage(error)}` });
        throw error;
      },
    );
  }, []);

  // Play: one pair of commands in flight at a time, at most one tick per TICK_MS.
  useEffect(() => {
    if (!state.playing) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const began = performance.now();
      stepBoth(speedRef.current).then(
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
  }, [state.playing, stepBoth]);

  const step = useCallback((n: number) => void stepBoth(n).catch(() => {}), [stepBoth]);
  const play = useCallback(() => dispatch({ type: 'playing', playing: true }), []);
  const pause = useCallback(() => dispatch({ type: 'playing', playing: false }), []);
  const reset = useCallback(() => {
    if (requestsRef.current) start(requestsRef.current, 0);
  }, [start]);

  return useMemo(() => ({ state, start, step, play, pause, reset, stop }), [state, start, step, play, pause, reset, stop]);
}
